//! Apple's `.metallib` container, read natively: no Apple tool runs on Linux,
//! and the layout is simple enough that a reader is safer than a dependency.
//!
//! Layout (little endian), learned from the files in ../shared/corpus and
//! checked against every one of them (format versions 2.7 to 2.9), with
//! names from YuAo/MetalLibraryArchive's reverse-engineered description:
//!
//! ```text
//! 0x00  [u8; 4]   "MTLB"
//! 0x04  u16       target platform (0x8001 macOS, 0x0001 iOS)
//! 0x06  u16, u16  file format version (major, minor), e.g. 2.7
//! 0x0A  u8        library type (0 executable, 1 Core Image, 2 dynamic, 3 symbol companion)
//! 0x0B  u8        target OS (0x81 macOS, 0x82 iOS, ...)
//! 0x0C  u16, u16  target OS version (major, minor)
//! 0x10  u64       file size
//! 0x18  u64, u64  function list: offset, size (the size leaves out the u32 count)
//! 0x28  u64, u64  public metadata: offset, size
//! 0x38  u64, u64  private metadata: offset, size
//! 0x48  u64, u64  bitcode: offset, size
//! 0x58            end of header; the function list follows
//! ```
//!
//! The function list is a u32 count, then one tag group per function: a u32
//! group size (counting itself), then tags, each a four-character name, a u16
//! content size and the content, up to an `ENDT` tag with no size. Tags:
//! `NAME` (NUL-terminated name), `TYPE` (u8 kind), `HASH` (SHA-256 of the
//! function's bitcode), `MDSZ` (u64 bitcode size), `OFFT` (three u64: offsets
//! into the public metadata, private metadata and bitcode sections), `VERS`
//! (four u16: AIR major, minor, language major, minor), `SOFF` (u64 offset of
//! its embedded source), `RFLT`, `LAYR`, `TESS`, ... Unknown tags are skipped.
//!
//! A header extension (tags `HDYN`, `HSRD`, `RLST`, `UUID`, ... up to
//! `ENDT`) sits between the function list and the public metadata; nothing
//! here needs it, so it is not read.
//!
//! Each function's bitcode is `MDSZ` bytes: an AIR module in Apple's bitcode
//! wrapper, padded with zeros to 16 bytes. [`MetallibFunction::module`] cuts
//! the padding away, giving the same bytes as a standalone `.air` file.
//!
//! Every offset and size is checked against the data before use: bad input
//! gives a [`MetallibError`] naming the byte offset, never a panic, and no
//! allocation grows with a size field read from the file.

use std::fmt;

/// The first four bytes of every metallib.
pub const MAGIC: &[u8; 4] = b"MTLB";

/// Size of the fixed header, up to the end of the bitcode section's size.
pub const HEADER_SIZE: u64 = 0x58;

/// What is wrong with a metallib, and at which byte of the file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MetallibError {
    pub offset: u64,
    pub message: String,
}

impl fmt::Display for MetallibError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} (at byte {})", self.message, self.offset)
    }
}

impl std::error::Error for MetallibError {}

fn err<T>(offset: u64, message: impl Into<String>) -> Result<T, MetallibError> {
    Err(MetallibError {
        offset,
        message: message.into(),
    })
}

/// An (offset, size) pair from the header, already checked to lie inside the
/// file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Section {
    pub offset: u64,
    pub size: u64,
}

impl Section {
    /// One past the last byte. Cannot overflow: checked when parsed.
    pub fn end(&self) -> u64 {
        self.offset.saturating_add(self.size)
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Header {
    /// 0x8001 macOS, 0x0001 iOS.
    pub target_platform: u16,
    /// Container format version (major, minor), e.g. (2, 7).
    pub file_version: (u16, u16),
    /// 0 executable, 1 Core Image, 2 dynamic, 3 symbol companion.
    pub library_type: u8,
    /// 0x81 macOS, 0x82 iOS, 0x83 tvOS, 0x84 watchOS, 0x86 Mac Catalyst, ...
    pub target_os: u8,
    /// Deployment target (major, minor), e.g. (15, 0).
    pub os_version: (u16, u16),
    /// The size the file says it has.
    pub file_size: u64,
    /// Starts at the u32 function count; `size` leaves that count out.
    pub function_list: Section,
    pub public_metadata: Section,
    pub private_metadata: Section,
    pub bitcode: Section,
}

/// A function's `TYPE` tag.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FunctionKind {
    Vertex,
    Fragment,
    Kernel,
    /// A function of a dynamic library.
    Unqualified,
    /// `[[visible]]` or `[[stitchable]]`.
    Visible,
    /// Compiled with `-fcikernel`.
    Extern,
    Intersection,
    /// A value this reader does not know.
    Other(u8),
}

impl FunctionKind {
    pub fn from_byte(b: u8) -> Self {
        match b {
            0 => Self::Vertex,
            1 => Self::Fragment,
            2 => Self::Kernel,
            3 => Self::Unqualified,
            4 => Self::Visible,
            5 => Self::Extern,
            6 => Self::Intersection,
            other => Self::Other(other),
        }
    }

    /// The word Metal uses for it ("kernel", "vertex", ...); "unknown" for
    /// [`FunctionKind::Other`].
    pub fn as_str(&self) -> &'static str {
        match self {
            Self::Vertex => "vertex",
            Self::Fragment => "fragment",
            Self::Kernel => "kernel",
            Self::Unqualified => "unqualified",
            Self::Visible => "visible",
            Self::Extern => "extern",
            Self::Intersection => "intersection",
            Self::Other(_) => "unknown",
        }
    }
}

/// One function of the list, with its bitcode.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MetallibFunction<'a> {
    /// Position in the function list (the `NNNNN` of extracted file names).
    pub index: usize,
    /// `NAME`, without its NUL; bytes that are not UTF-8 are replaced.
    pub name: String,
    /// `TYPE`; `None` when the tag is absent.
    pub kind: Option<FunctionKind>,
    /// `HASH`: SHA-256 of [`Self::bitcode`]. Not checked here.
    pub hash: Option<[u8; 32]>,
    /// `VERS`: AIR version (major, minor).
    pub air_version: Option<(u16, u16)>,
    /// `VERS`: Metal language version (major, minor).
    pub language_version: Option<(u16, u16)>,
    /// `OFFT`: offset of its entry in the public metadata section.
    pub public_metadata_offset: u64,
    /// `OFFT`: offset of its entry in the private metadata section.
    pub private_metadata_offset: u64,
    /// `SOFF`: offset of its embedded source, when the library has some.
    pub source_offset: Option<u64>,
    /// Byte where its tag group starts, for messages.
    pub entry_offset: u64,
    /// Byte in the file where its bitcode starts (bitcode section + `OFFT`).
    pub bitcode_offset: u64,
    /// `MDSZ`.
    pub bitcode_size: u64,
    /// The `MDSZ` bytes at `bitcode_offset`, padding included.
    pub bitcode: &'a [u8],
}

impl<'a> MetallibFunction<'a> {
    /// The AIR module without the container's padding: the bitcode wrapper's
    /// declared end when the wrapper is sound, else all of [`Self::bitcode`].
    /// These are the bytes tools that extract metallibs write to `.air` files.
    pub fn module(&self) -> &'a [u8] {
        match super::llvm_dis::read_wrapper(self.bitcode) {
            Ok(Some(w)) => usize::try_from(w.end())
                .ok()
                .and_then(|end| self.bitcode.get(..end))
                .unwrap_or(self.bitcode),
            _ => self.bitcode,
        }
    }
}

/// A parsed metallib, borrowing the file's bytes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Metallib<'a> {
    pub header: Header,
    pub functions: Vec<MetallibFunction<'a>>,
}

/// Whether `bytes` start like a metallib.
pub fn is_metallib(bytes: &[u8]) -> bool {
    bytes.starts_with(MAGIC)
}

/// Bounds-checked little-endian reads from the whole file, so that every
/// offset in a message is a file offset.
struct Data<'a>(&'a [u8]);

impl<'a> Data<'a> {
    fn len(&self) -> u64 {
        self.0.len() as u64
    }

    fn bytes(&self, offset: u64, len: u64, what: &str) -> Result<&'a [u8], MetallibError> {
        let range = offset
            .checked_add(len)
            .filter(|end| *end <= self.len())
            .and_then(|end| Some(usize::try_from(offset).ok()?..usize::try_from(end).ok()?));
        match range.and_then(|r| self.0.get(r)) {
            Some(b) => Ok(b),
            None => err(
                offset,
                format!(
                    "{what} ({len} bytes) runs past the end of the data ({} bytes)",
                    self.len()
                ),
            ),
        }
    }

    fn array<const N: usize>(&self, offset: u64, what: &str) -> Result<[u8; N], MetallibError> {
        let b = self.bytes(offset, N as u64, what)?;
        let mut out = [0u8; N];
        out.copy_from_slice(b);
        Ok(out)
    }

    fn u16(&self, offset: u64, what: &str) -> Result<u16, MetallibError> {
        self.array(offset, what).map(u16::from_le_bytes)
    }

    fn u32(&self, offset: u64, what: &str) -> Result<u32, MetallibError> {
        self.array(offset, what).map(u32::from_le_bytes)
    }

    fn u64(&self, offset: u64, what: &str) -> Result<u64, MetallibError> {
        self.array(offset, what).map(u64::from_le_bytes)
    }

    /// Reads an (offset, size) pair at `at` and checks the range it names,
    /// plus `extra` bytes, lies inside the data.
    fn section(&self, at: u64, extra: u64, what: &str) -> Result<Section, MetallibError> {
        let offset = self.u64(at, what)?;
        let size = self.u64(at + 8, what)?;
        let end = offset.checked_add(size).and_then(|e| e.checked_add(extra));
        match end {
            Some(end) if end <= self.len() => Ok(Section { offset, size }),
            _ => err(
                at,
                format!(
                    "the {what} (offset {offset}, size {size}) does not fit in the {}-byte file",
                    self.len()
                ),
            ),
        }
    }
}

impl<'a> Metallib<'a> {
    /// Reads the header and the function list, and locates every function's
    /// bitcode.
    pub fn parse(data: &'a [u8]) -> Result<Self, MetallibError> {
        let d = Data(data);
        if !is_metallib(data) {
            let found: Vec<String> = data.iter().take(4).map(|b| format!("{b:02x}")).collect();
            return err(
                0,
                format!(
                    "not a metallib: expected the magic \"MTLB\", found [{}]",
                    found.join(" ")
                ),
            );
        }
        if d.len() < HEADER_SIZE {
            return err(
                d.len(),
                format!(
                    "truncated metallib header: {} bytes, the header needs {HEADER_SIZE}",
                    d.len()
                ),
            );
        }
        let file_size = d.u64(0x10, "file size")?;
        if file_size > d.len() {
            return err(
                0x10,
                format!(
                    "truncated metallib: the header says the file is {file_size} bytes, \
                     there are only {}",
                    d.len()
                ),
            );
        }
        let header = Header {
            target_platform: d.u16(0x04, "target platform")?,
            file_version: (d.u16(0x06, "version")?, d.u16(0x08, "version")?),
            library_type: d.array::<1>(0x0A, "library type")?[0],
            target_os: d.array::<1>(0x0B, "target OS")?[0],
            os_version: (d.u16(0x0C, "OS version")?, d.u16(0x0E, "OS version")?),
            file_size,
            // The list's size leaves out its u32 count.
            function_list: d.section(0x18, 4, "function list")?,
            public_metadata: d.section(0x28, 0, "public metadata section")?,
            private_metadata: d.section(0x38, 0, "private metadata section")?,
            bitcode: d.section(0x48, 0, "bitcode section")?,
        };
        let functions = read_function_list(&d, &header)?;
        Ok(Metallib { header, functions })
    }
}

const ENDT: &[u8; 4] = b"ENDT";

fn read_function_list<'a>(
    d: &Data<'a>,
    header: &Header,
) -> Result<Vec<MetallibFunction<'a>>, MetallibError> {
    let list = header.function_list;
    let count = d.u32(list.offset, "function count")?;
    // Checked by `Data::section`: offset + 4 + size fits in the file.
    let list_end = list.end().saturating_add(4);
    let first = list.offset.saturating_add(4);
    // A group is at least 8 bytes (its size and ENDT): a count the list
    // cannot hold is refused before anything is allocated for it.
    if u64::from(count) > list.size / 8 {
        return err(
            list.offset,
            format!(
                "the function list claims {count} functions, more than its {} bytes can hold",
                list.size
            ),
        );
    }
    // Grows as groups are read; a large count only costs what it proves.
    let mut functions = Vec::with_capacity((count as usize).min(1024));
    let mut pos = first;
    for index in 0..count as usize {
        let (f, next) = read_function(d, header, index, pos, list_end)?;
        functions.push(f);
        pos = next;
    }
    Ok(functions)
}

/// Tag contents of one group, before they are checked for presence.
#[derive(Default)]
struct Tags<'a> {
    name: Option<(u64, &'a [u8])>,
    kind: Option<(u64, &'a [u8])>,
    hash: Option<(u64, &'a [u8])>,
    mdsz: Option<(u64, &'a [u8])>,
    offt: Option<(u64, &'a [u8])>,
    vers: Option<(u64, &'a [u8])>,
    soff: Option<(u64, &'a [u8])>,
}

/// Reads the tag group at `pos`; returns the function and the next group's
/// offset.
fn read_function<'a>(
    d: &Data<'a>,
    header: &Header,
    index: usize,
    pos: u64,
    list_end: u64,
) -> Result<(MetallibFunction<'a>, u64), MetallibError> {
    let who = format!("function {index}");
    let group_size = u64::from(d.u32(pos, &format!("{who}'s tag group size"))?);
    if group_size < 8 {
        return err(
            pos,
            format!("{who}'s tag group size is {group_size}, too small to hold even ENDT"),
        );
    }
    let group_end = pos.saturating_add(group_size);
    if group_end > list_end {
        return err(
            pos,
            format!(
                "{who}'s tag group ({group_size} bytes) runs past the end of the function \
                 list at byte {list_end}"
            ),
        );
    }
    let mut tags = Tags::default();
    let mut q = pos + 4;
    loop {
        if q.saturating_add(4) > group_end {
            return err(q, format!("{who}'s tag group ends without an ENDT tag"));
        }
        let tag: [u8; 4] = d.array(q, "tag name")?;
        if &tag == ENDT {
            break;
        }
        let size_at = q + 4;
        if size_at.saturating_add(2) > group_end {
            return err(
                q,
                format!("{who}'s tag {} has no room for its size", show(&tag)),
            );
        }
        let size = u64::from(d.u16(size_at, "tag size")?);
        let content_at = size_at + 2;
        if content_at.saturating_add(size) > group_end {
            return err(
                q,
                format!(
                    "{who}'s tag {} ({size} bytes) runs past the end of its tag group at byte \
                     {group_end}",
                    show(&tag)
                ),
            );
        }
        let content = d.bytes(content_at, size, "tag content")?;
        let slot = match &tag {
            b"NAME" => Some(&mut tags.name),
            b"TYPE" => Some(&mut tags.kind),
            b"HASH" => Some(&mut tags.hash),
            b"MDSZ" => Some(&mut tags.mdsz),
            b"OFFT" => Some(&mut tags.offt),
            b"VERS" => Some(&mut tags.vers),
            b"SOFF" => Some(&mut tags.soff),
            _ => None,
        };
        if let Some(slot) = slot {
            *slot = Some((q, content));
        }
        q = content_at + size;
    }

    let (name_at, name) = tags.name.ok_or_else(|| MetallibError {
        offset: pos,
        message: format!("{who} has no NAME tag"),
    })?;
    let name_end = name.iter().position(|&b| b == 0).unwrap_or(name.len());
    let name = String::from_utf8_lossy(name.get(..name_end).unwrap_or(name)).into_owned();
    if name.is_empty() {
        return err(name_at, format!("{who} has an empty NAME"));
    }
    let who = format!("function {index} (`{name}`)");

    let (mdsz_at, mdsz) = tags.mdsz.ok_or_else(|| MetallibError {
        offset: pos,
        message: format!("{who} has no MDSZ tag (bitcode size)"),
    })?;
    let bitcode_size = fixed::<8>(mdsz, mdsz_at, &who, "MDSZ").map(u64::from_le_bytes)?;
    let (offt_at, offt) = tags.offt.ok_or_else(|| MetallibError {
        offset: pos,
        message: format!("{who} has no OFFT tag (offsets)"),
    })?;
    let offt = fixed::<24>(offt, offt_at, &who, "OFFT")?;
    let word = |i: usize| {
        let mut w = [0u8; 8];
        if let Some(s) = offt.get(i * 8..i * 8 + 8) {
            w.copy_from_slice(s);
        }
        u64::from_le_bytes(w)
    };
    let (public_metadata_offset, private_metadata_offset, bitcode_rel) =
        (word(0), word(1), word(2));

    let section = header.bitcode;
    let range = bitcode_rel
        .checked_add(bitcode_size)
        .filter(|end| *end <= section.size);
    if range.is_none() {
        return err(
            offt_at,
            format!(
                "{who}'s bitcode (offset {bitcode_rel}, size {bitcode_size}) runs past the end \
                 of the {}-byte bitcode section",
                section.size
            ),
        );
    }
    let bitcode_offset = section.offset + bitcode_rel;
    let bitcode = d.bytes(bitcode_offset, bitcode_size, &format!("{who}'s bitcode"))?;

    let kind = match tags.kind {
        Some((at, c)) => match c.first() {
            Some(&b) => Some(FunctionKind::from_byte(b)),
            None => return err(at, format!("{who}'s TYPE tag is empty")),
        },
        None => None,
    };
    let hash = match tags.hash {
        Some((at, c)) => Some(fixed::<32>(c, at, &who, "HASH")?),
        None => None,
    };
    let (air_version, language_version) = match tags.vers {
        Some((at, c)) => {
            let v = fixed::<8>(c, at, &who, "VERS")?;
            let h = |i: usize| u16::from_le_bytes([v[i], v[i + 1]]);
            (Some((h(0), h(2))), Some((h(4), h(6))))
        }
        None => (None, None),
    };
    let source_offset = match tags.soff {
        Some((at, c)) => Some(fixed::<8>(c, at, &who, "SOFF").map(u64::from_le_bytes)?),
        None => None,
    };

    let f = MetallibFunction {
        index,
        name,
        kind,
        hash,
        air_version,
        language_version,
        public_metadata_offset,
        private_metadata_offset,
        source_offset,
        entry_offset: pos,
        bitcode_offset,
        bitcode_size,
        bitcode,
    };
    Ok((f, group_end))
}

/// A tag's content as exactly `N` bytes.
fn fixed<const N: usize>(
    content: &[u8],
    at: u64,
    who: &str,
    tag: &str,
) -> Result<[u8; N], MetallibError> {
    <[u8; N]>::try_from(content).or_else(|_| {
        err(
            at,
            format!(
                "{who}'s {tag} tag holds {} bytes, expected {N}",
                content.len()
            ),
        )
    })
}

/// A tag name for messages: its letters, or hex when they are not printable.
fn show(tag: &[u8; 4]) -> String {
    if tag.iter().all(|b| b.is_ascii_graphic()) {
        String::from_utf8_lossy(tag).into_owned()
    } else {
        let hex: Vec<String> = tag.iter().map(|b| format!("{b:02x}")).collect();
        format!("[{}]", hex.join(" "))
    }
}
