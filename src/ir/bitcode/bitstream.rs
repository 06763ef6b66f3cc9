//! LLVM's bitstream container: bits, blocks, abbreviations, BLOCKINFO.
//!
//! Written here rather than taken from the `llvm-bitcode` crate (0.4.1),
//! whose code was read before choosing: its errors carry no byte offset
//! (its cursor is private), it sizes vectors from counts read from the file
//! (`Vec::with_capacity(len)` for records, arrays and abbreviation
//! operands: a count of 2^32 aborts on allocation), and it recurses once
//! per abbreviation definition (`try_next` calls itself), so a file of
//! definitions overflows the stack. Here every count is checked against the
//! bits left before anything is allocated or looped over, nesting is
//! capped, and every error names the byte it happened at.
//!
//! Format (LLVM's "LLVM Bitcode File Format" document): a stream of
//! abbreviation ids of the current block's width. 0 ends a block, 1 enters
//! one (`id` vbr8, new width vbr4, align to 32 bits, length in words), 2
//! defines an abbreviation, 3 is an unabbreviated record (code vbr6, count
//! vbr6, operands vbr6); 4 and above name an abbreviation: BLOCKINFO's for
//! the block's id first, then the block's own.

use super::Error;
use rustc_hash::FxHashMap;
use std::rc::Rc;

/// Deepest nesting of blocks accepted. LLVM writes at most four levels
/// (module, function, constants or metadata, ...).
pub const MAX_DEPTH: usize = 16;

/// Most abbreviations [`SharedAbbrevs`] holds before it is emptied.
const MAX_SHARED_ABBREVS: usize = 1024;

/// The abbreviations read so far, one shared copy of each, handed from
/// reader to reader ([`Reader::share_abbrevs`]): every module of a
/// metallib defines the same few dozen again, and allocating each (and
/// freeing it when its block ended) was ~0.3% of a scan of mlx.metallib.
/// Emptied when full (a file defining thousands).
#[derive(Default)]
pub struct SharedAbbrevs {
    known: rustc_hash::FxHashSet<Rc<[Op]>>,
    /// The last BLOCKINFO block read into an empty table, and the table
    /// it made: every module of a metallib has the same one (mlx.metallib:
    /// 6,876 abbreviation definitions read again, ~1% of its scan).
    blockinfo: Option<KnownBlockinfo>,
}

/// A BLOCKINFO block ([`Reader::own_bytes`]) and the table it made.
struct KnownBlockinfo {
    width: u8,
    bytes: Vec<u8>,
    lists: Vec<Vec<Abbrev>>,
    of: FxHashMap<u32, usize>,
}

/// Widths LLVM allows for fixed and VBR fields.
const MAX_FIELD_WIDTH: u64 = 64;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Op {
    Literal(u64),
    Fixed(u8),
    Vbr(u8),
    /// An array of the operand that follows it (always the last two).
    Array,
    Char6,
    /// Always last.
    Blob,
}

/// One abbreviation: its operands, the first of which is the record code.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Abbrev {
    /// Shared, so that reading a record takes its operands without a copy.
    ops: Rc<[Op]>,
}

/// What comes next inside a block.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Entry {
    /// A nested block begins: [`Reader::enter`] or [`Reader::skip`] it.
    SubBlock(u32),
    /// The current block ended (the reader is back in its parent).
    EndBlock,
    /// A record, by its abbreviation id: [`Reader::record`] reads it.
    Record(u32),
}

struct Scope {
    id: u32,
    width: u8,
    /// The BLOCKINFO abbreviations of the block's id (an index into
    /// [`Reader::blockinfo`]) and how many there were when the block was
    /// entered: they take the first ids, as in LLVM, which copies them in.
    info: Option<usize>,
    globals: usize,
    /// The block's own abbreviations (ids after BLOCKINFO's).
    abbrevs: Vec<Abbrev>,
    /// Bit where the block ends.
    end: u64,
}

/// Reads one bitstream. Offsets in errors are bytes from the start of
/// `data` plus `base` (where `data` sits in the file).
pub struct Reader<'a> {
    data: &'a [u8],
    bit: u64,
    base: u64,
    scopes: Vec<Scope>,
    /// BLOCKINFO's abbreviations, per block id: `blockinfo_of` finds a
    /// block's list once, when it is entered, so a record finds its
    /// abbreviation by index alone.
    blockinfo: Vec<Vec<Abbrev>>,
    blockinfo_of: FxHashMap<u32, usize>,
    /// How many BLOCKINFO blocks were read (see [`Self::blockinfo_blocks`]).
    blockinfo_blocks: u32,
    /// The operands of the abbreviation being defined, kept for the next.
    abbrev_ops: Vec<Op>,
    /// Where the entry being read began, for errors.
    entry_bit: u64,
    /// The current block's end and abbreviation width, kept at hand (the
    /// last scope's) for every read.
    end: u64,
    width: u8,
    shared: SharedAbbrevs,
    /// Operand vectors given back by the blocks read so far, for the next
    /// ones ([`Self::ops`]): a fresh vector per block grew again in each
    /// (~5,300 growths in a scan of mlx.metallib).
    spare_ops: Vec<Vec<u64>>,
    /// The abbreviation lists of blocks left ([`Self::pop_scope`]).
    spare_abbrevs: Vec<Vec<Abbrev>>,
}

impl<'a> Reader<'a> {
    /// A reader at the first bit of `data` (after any magic the caller
    /// checked), at top level, where abbreviation ids are 2 bits wide.
    pub fn new(data: &'a [u8], base: u64) -> Self {
        Reader {
            data,
            bit: 0,
            base,
            scopes: vec![Scope {
                id: u32::MAX,
                width: 2,
                info: None,
                globals: 0,
                abbrevs: Vec::new(),
                end: data.len() as u64 * 8,
            }],
            blockinfo: Vec::new(),
            blockinfo_of: FxHashMap::default(),
            blockinfo_blocks: 0,
            abbrev_ops: Vec::new(),
            entry_bit: 0,
            end: data.len() as u64 * 8,
            width: 2,
            shared: SharedAbbrevs::default(),
            spare_ops: Vec::new(),
            spare_abbrevs: Vec::new(),
        }
    }

    /// An empty vector for a block's record operands, with the room a
    /// block before left in it; [`Self::give_back`] it when the block ends.
    pub fn ops(&mut self) -> Vec<u64> {
        self.spare_ops.pop().unwrap_or_default()
    }

    /// Keeps `ops` for the next block (a few: blocks nest at most
    /// [`MAX_DEPTH`] deep, and four in the bitcode LLVM writes).
    pub fn give_back(&mut self, mut ops: Vec<u64>) {
        if self.spare_ops.len() < MAX_DEPTH {
            ops.clear();
            self.spare_ops.push(ops);
        }
    }

    /// Gives the reader the abbreviations earlier readers kept.
    pub fn share_abbrevs(&mut self, shared: SharedAbbrevs) {
        self.shared = shared;
    }

    /// The abbreviations kept, for the next reader.
    pub fn take_shared_abbrevs(&mut self) -> SharedAbbrevs {
        std::mem::take(&mut self.shared)
    }

    /// Gives the reader the operand vectors an earlier reader kept.
    pub fn share_ops(&mut self, spare: Vec<Vec<u64>>) {
        self.spare_ops = spare;
    }

    /// The operand vectors kept ([`Self::give_back`]), for the next reader.
    pub fn take_ops(&mut self) -> Vec<Vec<u64>> {
        std::mem::take(&mut self.spare_ops)
    }

    /// An error at the entry being read.
    pub fn error(&self, message: impl Into<String>) -> Error {
        Error {
            offset: self.base + self.entry_bit / 8,
            message: message.into(),
        }
    }

    fn error_here(&self, message: impl Into<String>) -> Error {
        Error {
            offset: self.base + self.bit / 8,
            message: message.into(),
        }
    }

    /// Byte offset of the current position, as errors name it.
    pub fn offset(&self) -> u64 {
        self.base + self.bit / 8
    }

    fn end(&self) -> u64 {
        self.end
    }

    /// Leaves the current block, keeping its list of abbreviations for the
    /// next block entered (a new one for each grew again: ~5,400 growths
    /// in a scan of mlx.metallib); the block's stated end.
    fn pop_scope(&mut self) -> Option<u64> {
        let mut scope = self.scopes.pop()?;
        self.scope_changed();
        scope.abbrevs.clear();
        if self.spare_abbrevs.len() < MAX_DEPTH {
            self.spare_abbrevs.push(scope.abbrevs);
        }
        Some(scope.end)
    }

    /// Takes the current block's end and width after a scope came or went.
    fn scope_changed(&mut self) {
        (self.end, self.width) = self.scopes.last().map_or((0, 2), |s| (s.end, s.width));
    }

    fn bits_left(&self) -> u64 {
        self.end().saturating_sub(self.bit)
    }

    /// Whether the top level has nothing more (short of a 32-bit word).
    pub fn at_top_end(&self) -> bool {
        self.scopes.len() == 1 && self.bits_left() < 32
    }

    /// The current block's id (`u32::MAX` at top level).
    pub fn block_id(&self) -> u32 {
        self.scopes.last().map_or(u32::MAX, |s| s.id)
    }

    /// Inlined: most reads are one unaligned 8-byte load; the rest (the
    /// data's last bytes, wide fields, errors) go to [`Self::read_slowly`].
    #[inline(always)]
    fn read(&mut self, width: u8) -> Result<u64, Error> {
        if let (1..=56, Some(word)) = (width, word_at(self.data, self.bit))
            && u64::from(width) <= self.bits_left()
        {
            let value = word & ((1u64 << width) - 1);
            self.bit += u64::from(width);
            return Ok(value);
        }
        self.read_slowly(width)
    }

    #[cold]
    #[inline(never)]
    fn read_slowly(&mut self, width: u8) -> Result<u64, Error> {
        let width = u64::from(width);
        if width == 0 {
            return Ok(0);
        }
        if self.bits_left() < width {
            return Err(self.error_here("unexpected end of data"));
        }
        let mut value = 0u64;
        let mut got = 0u64;
        while got < width {
            let byte = self.data[(self.bit / 8) as usize];
            let shift = self.bit % 8;
            let take = (8 - shift).min(width - got);
            let bits = (u64::from(byte) >> shift) & ((1u64 << take) - 1);
            value |= bits << got;
            got += take;
            self.bit += take;
        }
        Ok(value)
    }

    // Inlined where the width is a constant (the masks fold); the call
    // itself was a third of its instructions.
    #[inline]
    fn read_vbr(&mut self, width: u8) -> Result<u64, Error> {
        // The commonest width, and its commonest numbers (see `vbr6_into`).
        if width == 6
            && let Some((value, width)) = short_vbr6(self.data, self.bit, self.end)
        {
            self.bit += width;
            return Ok(value);
        }
        // Most numbers: every piece inside one unaligned 8-byte load (56
        // bits after the shift), bounds checked once for the whole number.
        // Anything else (the block's end, a longer number) is read piece
        // by piece below, which names the byte where it went wrong.
        if let (Some(bits), 2..=32) = (word_at(self.data, self.bit), width) {
            let width = u32::from(width);
            let payload = width - 1;
            let (mask, high) = ((1u64 << width) - 1, 1u64 << payload);
            let (mut value, mut used, mut shift) = (0u64, 0u32, 0u32);
            while used + width <= 56 {
                let piece = (bits >> used) & mask;
                value |= (piece & (high - 1)) << shift;
                used += width;
                if piece & high == 0 {
                    if u64::from(used) > self.bits_left() {
                        break;
                    }
                    self.bit += u64::from(used);
                    return Ok(value);
                }
                shift += payload;
            }
        }
        self.read_vbr_slowly(width)
    }

    #[cold]
    #[inline(never)]
    fn read_vbr_slowly(&mut self, width: u8) -> Result<u64, Error> {
        let payload = u32::from(width) - 1;
        let high = 1u64 << payload;
        let mut value = 0u64;
        let mut shift = 0u32;
        loop {
            let piece = self.read(width)?;
            let bits = piece & (high - 1);
            if shift >= 64 || (shift > 0 && bits >> (64 - shift) != 0) {
                return Err(self.error_here("variable-width number longer than 64 bits"));
            }
            value |= bits << shift;
            if piece & high == 0 {
                return Ok(value);
            }
            shift += payload;
        }
    }

    /// A 6-bit VBR number (the lengths of metadata strings).
    pub fn vbr6(&mut self) -> Result<u64, Error> {
        self.read_vbr(6)
    }

    fn align32(&mut self) -> Result<(), Error> {
        let aligned = self.bit.div_ceil(32) * 32;
        if aligned > self.end() {
            return Err(self.error_here("unexpected end of data"));
        }
        self.bit = aligned;
        Ok(())
    }

    /// The next entry of the current block. Abbreviation definitions and
    /// BLOCKINFO blocks are taken care of on the way.
    ///
    /// Inlined: most entries (224,000 of 236,000 in mlx.metallib) are a
    /// record inside a block, its id taken here from one load; the call
    /// and the whole function's prologue were most of its cost. The rest
    /// (ends, blocks, definitions, the top level, the data's last bytes)
    /// go to [`Self::next_entry_slowly`].
    #[inline]
    pub fn next_entry(&mut self) -> Result<Entry, Error> {
        let width = self.width;
        if self.scopes.len() > 1
            && let Some(word) = word_at(self.data, self.bit)
            && u64::from(width) <= self.bits_left()
        {
            // A block's width is 1..=32 (`block_header` checks).
            let id = (word & ((1u64 << width) - 1)) as u32;
            if id > 2 {
                self.entry_bit = self.bit;
                self.bit += u64::from(width);
                return Ok(Entry::Record(id));
            }
        }
        self.next_entry_slowly()
    }

    #[inline(never)]
    fn next_entry_slowly(&mut self) -> Result<Entry, Error> {
        loop {
            self.entry_bit = self.bit;
            let width = self.width;
            if self.scopes.len() == 1 && self.bits_left() < u64::from(width).max(32) {
                return Ok(Entry::EndBlock);
            }
            let id = self.read(width)? as u32;
            match id {
                0 => {
                    if self.scopes.len() == 1 {
                        return Err(self.error("END_BLOCK at top level"));
                    }
                    self.align32()?;
                    if let Some(end) = self.pop_scope() {
                        // A block that ends before its stated length: go
                        // on after its stated end, as LLVM does.
                        self.bit = self.bit.max(end).min(self.end());
                    }
                    return Ok(Entry::EndBlock);
                }
                1 => {
                    let block = self.read_vbr(8)?;
                    let block = u32::try_from(block)
                        .map_err(|_| self.error(format!("block id {block} out of range")))?;
                    if block == 0 {
                        self.read_blockinfo()?;
                        continue;
                    }
                    return Ok(Entry::SubBlock(block));
                }
                2 => {
                    let abbrev = self.read_abbrev()?;
                    if let Some(scope) = self.scopes.last_mut() {
                        scope.abbrevs.push(abbrev);
                    }
                }
                _ => return Ok(Entry::Record(id)),
            }
        }
    }

    /// Reads a sub-block's header after [`Entry::SubBlock`] and makes it
    /// the current block.
    pub fn enter(&mut self, id: u32) -> Result<(), Error> {
        let (width, end) = self.block_header()?;
        if self.scopes.len() > MAX_DEPTH {
            return Err(self.error(format!(
                "blocks nested more than {MAX_DEPTH} deep: not bitcode LLVM writes"
            )));
        }
        let info = self.blockinfo_of.get(&id).copied();
        let globals = info.and_then(|i| self.blockinfo.get(i)).map_or(0, Vec::len);
        self.scopes.push(Scope {
            id,
            width,
            info,
            globals,
            abbrevs: self.spare_abbrevs.pop().unwrap_or_default(),
            end,
        });
        self.scope_changed();
        Ok(())
    }

    /// Leaves the current block at its stated end, unread (after
    /// [`Self::enter`], for a block nothing is needed from).
    pub fn leave(&mut self) {
        if self.scopes.len() > 1
            && let Some(end) = self.pop_scope()
        {
            self.bit = end;
        }
    }

    /// The current block's abbreviation width and its bytes from here to
    /// its end, when nothing else decides how they read: right after
    /// [`Self::enter`] of a block with no BLOCKINFO abbreviations. Two such
    /// blocks with the same width and bytes read the same (but for a
    /// BLOCKINFO block inside, see [`Self::blockinfo_blocks`]).
    pub fn own_bytes(&self) -> Option<(u8, &'a [u8])> {
        let scope = self.scopes.last()?;
        if self.scopes.len() < 2 || scope.globals != 0 || self.bit % 8 != 0 {
            return None;
        }
        let bytes = self
            .data
            .get((self.bit / 8) as usize..(scope.end / 8) as usize)?;
        Some((scope.width, bytes))
    }

    /// How many BLOCKINFO blocks were read so far: one read inside a block
    /// changes how later blocks read.
    pub fn blockinfo_blocks(&self) -> u32 {
        self.blockinfo_blocks
    }

    /// Skips a sub-block after [`Entry::SubBlock`], by its stated length.
    pub fn skip(&mut self) -> Result<(), Error> {
        let (_, end) = self.block_header()?;
        self.bit = end;
        Ok(())
    }

    fn block_header(&mut self) -> Result<(u8, u64), Error> {
        let width = self.read_vbr(4)?;
        if !(1..=32).contains(&width) {
            return Err(self.error(format!("abbreviation width {width} out of range")));
        }
        self.align32()?;
        let words = self.read(32)?;
        let end = self.bit + words * 32;
        if end > self.end() {
            return Err(self.error(format!(
                "block of {words} words runs past the end of its parent ({} bytes left)",
                self.bits_left() / 8
            )));
        }
        Ok((width as u8, end))
    }

    fn read_abbrev(&mut self) -> Result<Abbrev, Error> {
        let count = self.read_vbr(5)?;
        // Each operand takes at least 2 bits.
        if count == 0 || count.saturating_mul(2) > self.bits_left() {
            return Err(self.error(format!("abbreviation of {count} operands")));
        }
        // Bounded by the bits left, checked above.
        let mut ops = std::mem::take(&mut self.abbrev_ops);
        ops.clear();
        ops.reserve(count as usize);
        let mut i = 0;
        while i < count {
            let literal = self.read(1)? == 1;
            let op = if literal {
                Op::Literal(self.read_vbr(8)?)
            } else {
                match self.read(3)? {
                    enc @ (1 | 2) => {
                        let width = self.read_vbr(5)?;
                        if width > MAX_FIELD_WIDTH || (enc == 2 && width < 2) {
                            return Err(self.error(format!("field width {width} out of range")));
                        }
                        match (enc, width) {
                            (_, 0) => Op::Literal(0),
                            (1, w) => Op::Fixed(w as u8),
                            (_, w) => Op::Vbr(w as u8),
                        }
                    }
                    3 => Op::Array,
                    4 => Op::Char6,
                    5 => Op::Blob,
                    e => return Err(self.error(format!("unknown operand encoding {e}"))),
                }
            };
            ops.push(op);
            i += 1;
        }
        // An array is followed by exactly one scalar, its element; a blob
        // comes last; the record code is a scalar.
        for (i, op) in ops.iter().enumerate() {
            let bad = match op {
                Op::Array => i + 2 != ops.len() || i == 0 || !scalar(ops[i + 1]),
                Op::Blob => i + 1 != ops.len() || i == 0,
                _ => false,
            };
            if bad {
                return Err(self.error("malformed abbreviation (array or blob out of place)"));
            }
        }
        let known = &mut self.shared.known;
        let shared = match known.get(&ops[..]) {
            Some(op) => Rc::clone(op),
            None => {
                if known.len() >= MAX_SHARED_ABBREVS {
                    known.clear();
                }
                let new: Rc<[Op]> = Rc::from(&ops[..]);
                known.insert(Rc::clone(&new));
                new
            }
        };
        self.abbrev_ops = ops;
        Ok(Abbrev { ops: shared })
    }

    fn read_blockinfo(&mut self) -> Result<(), Error> {
        self.enter(0)?;
        self.blockinfo_blocks += 1;
        // Read into an empty table, the same bytes make the same table.
        let key = self.own_bytes().filter(|_| self.blockinfo.is_empty());
        if let (Some((width, bytes)), Some(known)) = (key, &self.shared.blockinfo)
            && known.width == width
            && known.bytes == bytes
        {
            self.blockinfo = known.lists.clone();
            self.blockinfo_of = known.of.clone();
            self.leave();
            return Ok(());
        }
        let mut current: Option<u32> = None;
        let mut record = Vec::new();
        loop {
            self.entry_bit = self.bit;
            match self.read(self.width)? {
                0 => {
                    self.align32()?;
                    if let Some(end) = self.pop_scope() {
                        self.bit = self.bit.max(end).min(self.end());
                    }
                    if let Some((width, bytes)) = key {
                        self.shared.blockinfo = Some(KnownBlockinfo {
                            width,
                            bytes: bytes.to_vec(),
                            lists: self.blockinfo.clone(),
                            of: self.blockinfo_of.clone(),
                        });
                    }
                    return Ok(());
                }
                1 => return Err(self.error("a block inside BLOCKINFO")),
                2 => {
                    let abbrev = self.read_abbrev()?;
                    let Some(block) = current else {
                        return Err(self.error("BLOCKINFO abbreviation before SETBID"));
                    };
                    let blockinfo = &mut self.blockinfo;
                    let i = *self.blockinfo_of.entry(block).or_insert_with(|| {
                        blockinfo.push(Vec::new());
                        blockinfo.len() - 1
                    });
                    if let Some(list) = blockinfo.get_mut(i) {
                        list.push(abbrev);
                    }
                }
                3 => {
                    let code = self.unabbreviated(&mut record)?;
                    if code == 1 {
                        let block = record.first().copied().unwrap_or(u64::MAX);
                        current = Some(
                            u32::try_from(block).map_err(|_| self.error("SETBID out of range"))?,
                        );
                    }
                }
                _ => return Err(self.error("abbreviated record inside BLOCKINFO")),
            }
        }
    }

    fn unabbreviated(&mut self, ops: &mut Vec<u64>) -> Result<u32, Error> {
        let code = self.vbr6_inline()?;
        let count = self.vbr6_inline()?;
        if count.saturating_mul(6) > self.bits_left() {
            return Err(self.error(format!(
                "record of {count} operands, with {} bytes left in its block",
                self.bits_left() / 8
            )));
        }
        // Bounded by the bits left, checked above.
        ops.clear();
        self.vbr6_into(count as usize, ops)?;
        u32::try_from(code).map_err(|_| self.error(format!("record code {code} out of range")))
    }

    /// Appends `count` 6-bit VBR numbers to `ops`; the caller checked
    /// `count` against the bits left. Unabbreviated records (most of what
    /// Apple's writer emits) are nothing else: about 1.2 M operands for
    /// mlx.metallib, all but 1% of them one or two pieces (below 1024:
    /// value ids, types, characters). Those are taken here from one load
    /// with the position in a register and one check of the block's end,
    /// into room made (zeroed) for all of them at once: a push per operand
    /// checked the room and stored the length each time. Longer numbers
    /// and the block's last bytes go through [`Self::read_vbr`], which
    /// names the byte where one goes wrong.
    #[inline]
    fn vbr6_into(&mut self, count: usize, ops: &mut Vec<u64>) -> Result<(), Error> {
        let start = ops.len();
        ops.resize(start + count, 0);
        let (data, end) = (self.data, self.end);
        let mut bit = self.bit;
        for slot in &mut ops[start..] {
            *slot = match short_vbr6(data, bit, end) {
                Some((value, width)) => {
                    bit += width;
                    value
                }
                None => {
                    self.bit = bit;
                    let value = self.vbr6_slowly()?;
                    bit = self.bit;
                    value
                }
            };
        }
        self.bit = bit;
        Ok(())
    }

    /// A 6-bit VBR number, its short form inline (see [`Self::vbr6_into`]).
    #[inline(always)]
    fn vbr6_inline(&mut self) -> Result<u64, Error> {
        match short_vbr6(self.data, self.bit, self.end) {
            Some((value, width)) => {
                self.bit += width;
                Ok(value)
            }
            None => self.vbr6_slowly(),
        }
    }

    /// [`Self::read_vbr`] of 6 bits, kept out of [`Self::vbr6_into`]'s loop.
    #[inline(never)]
    fn vbr6_slowly(&mut self) -> Result<u64, Error> {
        self.read_vbr(6)
    }

    /// Reads the record whose abbreviation id [`Entry::Record`] gave:
    /// its operands into `ops` (array elements included), and its code and
    /// blob (if any).
    /// Inlined to its callers' loops: the dispatch is one comparison.
    #[inline]
    pub fn record(&mut self, abbrev_id: u32, ops: &mut Vec<u64>) -> Result<Record<'a>, Error> {
        if abbrev_id == 3 {
            let code = self.unabbreviated(ops)?;
            return Ok(Record { code, blob: None });
        }
        self.abbreviated(abbrev_id, ops)
    }

    #[inline(never)]
    fn abbreviated(&mut self, abbrev_id: u32, ops: &mut Vec<u64>) -> Result<Record<'a>, Error> {
        let index = (abbrev_id - 4) as usize;
        let scope = self.scopes.last().ok_or_else(|| self.error("no block"))?;
        let abbrev = match index.checked_sub(scope.globals) {
            None => scope
                .info
                .and_then(|i| self.blockinfo.get(i))
                .and_then(|list| list.get(index)),
            Some(local) => scope.abbrevs.get(local),
        }
        .ok_or_else(|| self.error(format!("undefined abbreviation {abbrev_id}")))?;
        // A reference count; frees `self` for reading.
        let abbrev = Rc::clone(&abbrev.ops);
        ops.clear();
        let mut blob = None;
        // The code comes first, always a scalar (`read_abbrev` checks).
        let code = match abbrev.first() {
            Some(&op) => self.scalar(op)?,
            None => return Err(self.error("malformed abbreviation")),
        };
        let mut i = 1;
        while i < abbrev.len() {
            let op = abbrev[i];
            match op {
                Op::Array => {
                    let element = abbrev[i + 1];
                    let len = self.read_vbr(6)?;
                    let min_bits = match element {
                        Op::Fixed(w) | Op::Vbr(w) => u64::from(w),
                        Op::Char6 => 6,
                        _ => 1, // a literal costs nothing: refuse long ones
                    };
                    if len.saturating_mul(min_bits) > self.bits_left() {
                        return Err(self.error(format!(
                            "array of {len} elements, with {} bytes left in its block",
                            self.bits_left() / 8
                        )));
                    }
                    // Bounded by the bits left, checked above (a literal
                    // element by one bit each).
                    ops.reserve(len as usize);
                    // The element's kind matched once, not per element.
                    match element {
                        Op::Fixed(w) => {
                            for _ in 0..len {
                                ops.push(self.read(w)?);
                            }
                        }
                        Op::Vbr(6) => self.vbr6_into(len as usize, ops)?,
                        Op::Vbr(w) => {
                            for _ in 0..len {
                                ops.push(self.read_vbr(w)?);
                            }
                        }
                        _ => {
                            for _ in 0..len {
                                ops.push(self.scalar(element)?);
                            }
                        }
                    }
                    i += 2;
                    continue;
                }
                Op::Blob => {
                    let len = self.read_vbr(6)?;
                    self.align32()?;
                    if len.saturating_mul(8) > self.bits_left() {
                        return Err(self.error(format!(
                            "blob of {len} bytes, with {} bytes left in its block",
                            self.bits_left() / 8
                        )));
                    }
                    let start = (self.bit / 8) as usize;
                    blob = Some(&self.data[start..start + len as usize]);
                    self.bit += len * 8;
                    self.align32()?;
                }
                _ => ops.push(self.scalar(op)?),
            }
            i += 1;
        }
        let code = u32::try_from(code)
            .map_err(|_| self.error(format!("record code {code} out of range")))?;
        Ok(Record { code, blob })
    }

    /// The next record of the current block, its operands in `ops`,
    /// skipping any sub-block by its length; `None` once the block ends.
    /// For the blocks whose nested blocks nobody reads.
    #[inline]
    pub fn next_record(&mut self, ops: &mut Vec<u64>) -> Result<Option<Record<'a>>, Error> {
        loop {
            match self.next_entry()? {
                Entry::EndBlock => return Ok(None),
                Entry::SubBlock(_) => self.skip()?,
                Entry::Record(a) => return self.record(a, ops).map(Some),
            }
        }
    }

    // Inlined: called per field of every abbreviated record, where the
    // call was a third of its cost.
    #[inline(always)]
    fn scalar(&mut self, op: Op) -> Result<u64, Error> {
        match op {
            Op::Literal(v) => Ok(v),
            Op::Fixed(w) => self.read(w),
            // The commonest field, inline; other widths by a call.
            Op::Vbr(6) => self.vbr6_inline(),
            Op::Vbr(w) => self.read_vbr(w),
            Op::Char6 => {
                let c = self.read(6)? as u8;
                Ok(u64::from(match c {
                    0..=25 => b'a' + c,
                    26..=51 => b'A' + c - 26,
                    52..=61 => b'0' + c - 52,
                    62 => b'.',
                    _ => b'_',
                }))
            }
            Op::Array | Op::Blob => Err(self.error("malformed abbreviation")),
        }
    }
}

/// The 64 bits from `bit` on, shifted down so that `bit` is bit 0 (the top
/// `bit % 8` are zero, so 56 are always whole): one unaligned 8-byte load,
/// `None` in the data's last 7 bytes.
#[inline]
fn word_at(data: &[u8], bit: u64) -> Option<u64> {
    let byte = (bit / 8) as usize;
    let bytes: [u8; 8] = data.get(byte..byte + 8)?.try_into().ok()?;
    Some(u64::from_le_bytes(bytes) >> (bit % 8))
}

/// A 6-bit VBR number at `bit` of one or two pieces (below 1024) and its
/// width in bits, from one load; `None` for a longer number, or within
/// 12 bits of the block's `end` or 8 bytes of the data's.
#[inline]
fn short_vbr6(data: &[u8], bit: u64, end: u64) -> Option<(u64, u64)> {
    let bits = word_at(data, bit)?;
    if bit + 12 > end {
        None
    } else if bits & 0x20 == 0 {
        Some((bits & 0x1f, 6))
    } else if bits & 0x800 == 0 {
        Some(((bits & 0x1f) | ((bits >> 1) & 0x3e0), 12))
    } else {
        None
    }
}

fn scalar(op: Op) -> bool {
    !matches!(op, Op::Array | Op::Blob)
}

/// A record's code and blob; its operands went to the caller's vector.
#[derive(Debug, Clone, Copy)]
pub struct Record<'a> {
    pub code: u32,
    pub blob: Option<&'a [u8]>,
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// Writes bits the way LLVM's BitstreamWriter does, for tests.
    #[derive(Default)]
    pub struct Writer {
        pub bytes: Vec<u8>,
        bit: u64,
    }

    impl Writer {
        pub fn bits(&mut self, value: u64, width: u32) {
            for i in 0..width {
                if self.bit % 8 == 0 {
                    self.bytes.push(0);
                }
                if (value >> i) & 1 == 1 {
                    let last = self.bytes.len() - 1;
                    self.bytes[last] |= 1 << (self.bit % 8);
                }
                self.bit += 1;
            }
        }
        pub fn vbr(&mut self, mut value: u64, width: u32) {
            let high = 1u64 << (width - 1);
            loop {
                if value < high {
                    self.bits(value, width);
                    return;
                }
                self.bits((value & (high - 1)) | high, width);
                value >>= width - 1;
            }
        }
        pub fn align32(&mut self) {
            while self.bit % 32 != 0 {
                self.bits(0, 1);
            }
        }
        /// ENTER_SUBBLOCK `id` (abbreviation ids `outer` bits wide), its
        /// own width, and a length word for [`Self::end`]: where it is.
        pub fn enter(&mut self, outer: u32, id: u64, width: u64) -> usize {
            self.bits(1, outer);
            self.vbr(id, 8);
            self.vbr(width, 4);
            self.align32();
            let at = self.bytes.len();
            self.bits(0, 32);
            at
        }
        /// END_BLOCK (`width` bits), aligned, and the length word at `at`
        /// patched, `claimed` words more than written.
        pub fn end(&mut self, width: u32, at: usize, claimed: u32) {
            self.bits(0, width);
            self.align32();
            let words = ((self.bytes.len() - at - 4) / 4) as u32 + claimed;
            self.bytes[at..at + 4].copy_from_slice(&words.to_le_bytes());
        }
    }

    /// A block's bytes stand for what it reads as (the memos of module.rs
    /// rely on it) only when no BLOCKINFO abbreviation applies to it.
    #[test]
    fn own_bytes_only_for_blocks_blockinfo_leaves_alone() {
        let mut w = Writer::default();
        // BLOCKINFO (width 2): SETBID 22, then one abbreviation for it.
        let at = w.enter(2, 0, 2);
        w.bits(3, 2);
        w.vbr(1, 6);
        w.vbr(1, 6);
        w.vbr(22, 6);
        w.bits(2, 2);
        w.vbr(1, 5);
        w.bits(1, 1);
        w.vbr(5, 8);
        w.end(2, at, 0);
        // Two empty blocks, 22 and 23.
        for id in [22, 23] {
            let at = w.enter(2, id, 3);
            w.end(3, at, 0);
        }

        let mut r = Reader::new(&w.bytes, 0);
        assert_eq!(r.next_entry().unwrap(), Entry::SubBlock(22));
        assert_eq!(r.blockinfo_blocks(), 1);
        r.enter(22).unwrap();
        assert_eq!(r.own_bytes(), None);
        r.leave();
        assert_eq!(r.next_entry().unwrap(), Entry::SubBlock(23));
        r.enter(23).unwrap();
        let (width, bytes) = r.own_bytes().unwrap();
        assert_eq!((width, bytes.len()), (3, 4));
        r.leave();
        assert_eq!(r.next_entry().unwrap(), Entry::EndBlock);
    }

    #[test]
    fn reads_fixed_vbr_and_records() {
        let mut w = Writer::default();
        // ENTER_SUBBLOCK id 8, width 3, then a length word.
        let len_at = w.enter(2, 8, 3);
        // An unabbreviated record: code 7, operands [1, 1000].
        w.bits(3, 3);
        w.vbr(7, 6);
        w.vbr(2, 6);
        w.vbr(1, 6);
        w.vbr(1000, 6);
        // DEFINE_ABBREV: [literal 9, array of fixed(8)], then use it.
        w.bits(2, 3);
        w.vbr(3, 5);
        w.bits(1, 1);
        w.vbr(9, 8);
        w.bits(0, 1);
        w.bits(3, 3);
        w.bits(0, 1);
        w.bits(1, 3);
        w.vbr(8, 5);
        w.bits(4, 3);
        w.vbr(2, 6);
        w.bits(u64::from(b'h'), 8);
        w.bits(u64::from(b'i'), 8);
        w.end(3, len_at, 0);

        let mut r = Reader::new(&w.bytes, 0);
        assert_eq!(r.next_entry().unwrap(), Entry::SubBlock(8));
        r.enter(8).unwrap();
        let mut ops = Vec::new();
        let Entry::Record(a) = r.next_entry().unwrap() else {
            panic!()
        };
        assert_eq!(r.record(a, &mut ops).unwrap().code, 7);
        assert_eq!(ops, [1, 1000]);
        let Entry::Record(a) = r.next_entry().unwrap() else {
            panic!()
        };
        assert_eq!(a, 4);
        assert_eq!(r.record(a, &mut ops).unwrap().code, 9);
        assert_eq!(ops, [u64::from(b'h'), u64::from(b'i')]);
        assert_eq!(r.next_entry().unwrap(), Entry::EndBlock);
        assert_eq!(r.next_entry().unwrap(), Entry::EndBlock);
    }
}
