//! Apple's AIR conventions on top of the module model: entry points and
//! their arguments (`!air.kernel`, `!air.vertex`, ...), function constants,
//! and the compiler's version metadata.

use super::limits::{MAX_AIR_ITEMS, MAX_DIAGNOSTICS};
use super::metadata::{MetaOperand, MetadataTable};
use super::model::{Diagnostic, Module};
use rustc_hash::FxHashMap;
use serde::Serialize;

/// Named-metadata lists that declare entry points, with the stage each names.
pub const ENTRY_POINT_LISTS: &[(&str, &str)] = &[
    ("air.kernel", "kernel"),
    ("air.vertex", "vertex"),
    ("air.fragment", "fragment"),
    ("air.mesh", "mesh"),
    ("air.object", "object"),
    ("air.visible", "visible"),
    ("air.intersection", "intersection"),
];

#[derive(Debug, Clone, Default, Serialize)]
pub struct AirInfo<'a> {
    pub entry_points: Vec<EntryPoint<'a>>,
    pub function_constants: Vec<FunctionConstant<'a>>,
    /// `!air.version`, e.g. "2.7.0".
    pub air_version: Option<String>,
    /// `!air.language_version`, e.g. "Metal 3.2.0".
    pub language_version: Option<String>,
    /// `!air.compile_options`, e.g. "air.compile.fast_math_enable".
    pub compile_options: Vec<&'a str>,
    /// `!llvm.ident`, e.g. "Apple metal version 32023.620 (metalfe-32023.620)".
    pub llvm_ident: Vec<&'a str>,
    #[serde(skip)]
    pub diagnostics: Vec<Diagnostic>,
}

impl AirInfo<'_> {
    pub fn fast_math(&self) -> bool {
        self.compile_options
            .contains(&"air.compile.fast_math_enable")
    }

    pub fn kernels(&self) -> impl Iterator<Item = &EntryPoint<'_>> {
        self.entry_points.iter().filter(|e| e.stage == "kernel")
    }
}

/// An entry point: borrowed from the module's text while it is read
/// (`EntryPoint`), owned once the module is gone (`OwnedEntryPoint`, what a
/// scan's report keeps).
#[derive(Debug, Clone, Serialize)]
pub struct EntryPointOf<S, A> {
    pub name: S,
    /// "kernel", "vertex", "fragment", ...
    pub stage: &'static str,
    pub arguments: Vec<A>,
    /// Extra properties such as `air.max_work_group_size`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub properties: Vec<(S, i64)>,
}

pub type EntryPoint<'a> = EntryPointOf<&'a str, Argument<'a>>;
/// Arguments are shared: a library's template instantiations repeat them.
pub type OwnedEntryPoint = EntryPointOf<Box<str>, Shared<OwnedArgument>>;

/// A value one `Arc` shares among many owners: an argument description
/// that a library's template instances repeat. It serializes as a newtype
/// struct named [`Shared::NAME`], which serde_json writes as its content
/// and a serializer may take as leave to lay out each distinct value once.
#[derive(Debug, PartialEq)]
pub struct Shared<T>(pub std::sync::Arc<T>);

impl<T> Shared<T> {
    pub const NAME: &'static str = "air_scan::Shared";
}

impl<T> Clone for Shared<T> {
    fn clone(&self) -> Self {
        Shared(self.0.clone())
    }
}

impl<T> std::ops::Deref for Shared<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.0
    }
}

impl<T: Serialize> Serialize for Shared<T> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        // A value no one else holds is written once whatever is done: as
        // itself, so a serializer keeps no text of it to lay out again
        // (most arguments of a small module's kernels are such).
        if std::sync::Arc::strong_count(&self.0) == 1 {
            return self.0.serialize(s);
        }
        s.serialize_newtype_struct(Self::NAME, &*self.0)
    }
}

/// What kind of thing an entry-point argument is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ArgumentKind {
    Buffer,
    Texture,
    Sampler,
    /// A value the hardware provides: thread ids, grid sizes, ...
    Builtin,
    /// `[[stage_in]]` and per-vertex or per-fragment inputs.
    StageIn,
    /// Render targets and other outputs.
    Output,
    VisibleFunctionTable,
    Other,
}

#[derive(Debug, Clone, Serialize)]
pub struct ArgumentOf<S> {
    /// Position in the function's parameter list.
    pub index: u32,
    pub kind: ArgumentKind,
    /// The AIR tag as written, e.g. `air.buffer`, `air.thread_position_in_grid`.
    pub air_kind: S,
    /// For builtins: the tag without `air.`, e.g. `thread_position_in_grid`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub builtin: Option<S>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub location_index: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub address_space: Option<u32>,
    /// `read`, `write` or `read_write`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub access: Option<S>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<S>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub type_name: Option<S>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub type_size: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub buffer_size: Option<u32>,
    /// The function constant whose value decides whether the argument exists.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub function_constant: Option<S>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub struct_fields: Vec<StructFieldOf<S>>,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub unused: bool,
    /// Which distinct description text the argument was read from (not in
    /// the JSON): arguments with the same one are equal, so an owned copy
    /// is made once and shared (`Owner`). `None` for a description read on
    /// its own (inline, or broken).
    #[serde(skip)]
    pub description: Option<Description>,
}

/// Where an argument's description is numbered: among the module's own
/// texts, or among those a scan keeps from module to module
/// ([`KnownDescriptions`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Description {
    Module(u32),
    Known(u32),
}

impl<S> ArgumentOf<S> {
    /// Whether its description is one the scan keeps from module to module
    /// ([`KnownDescriptions`]): then a later module's report may share its
    /// owned copy.
    pub fn kept_across_modules(&self) -> bool {
        matches!(self.description, Some(Description::Known(_)))
    }

    /// The same argument with each of its texts `text` of what it was.
    pub fn map_texts<T>(&self, mut text: impl FnMut(&S) -> T) -> ArgumentOf<T> {
        ArgumentOf {
            index: self.index,
            kind: self.kind,
            air_kind: text(&self.air_kind),
            builtin: self.builtin.as_ref().map(&mut text),
            location_index: self.location_index,
            address_space: self.address_space,
            access: self.access.as_ref().map(&mut text),
            name: self.name.as_ref().map(&mut text),
            type_name: self.type_name.as_ref().map(&mut text),
            type_size: self.type_size,
            buffer_size: self.buffer_size,
            function_constant: self.function_constant.as_ref().map(&mut text),
            struct_fields: self
                .struct_fields
                .iter()
                .map(|f| StructFieldOf {
                    offset: f.offset,
                    size: f.size,
                    count: f.count,
                    type_name: text(&f.type_name),
                    name: text(&f.name),
                })
                .collect(),
            unused: self.unused,
            description: self.description,
        }
    }
}

pub type Argument<'a> = ArgumentOf<&'a str>;
/// Its texts are shared too (see `Owner`).
pub type OwnedArgument = ArgumentOf<std::sync::Arc<str>>;

/// One field of `air.struct_type_info`: the layout of a buffer's struct.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct StructFieldOf<S> {
    pub offset: u32,
    pub size: u32,
    /// Array length (0 for a scalar field).
    pub count: u32,
    pub type_name: S,
    pub name: S,
}

pub type StructField<'a> = StructFieldOf<&'a str>;

impl<'a> Argument<'a> {
    /// The field that covers byte `offset` of the argument's struct.
    pub fn field_at(&self, offset: u64) -> Option<&StructField<'a>> {
        self.struct_fields.iter().find(|f| {
            let len = f.size as u64 * (f.count.max(1) as u64);
            offset >= f.offset as u64 && offset < f.offset as u64 + len.max(1)
        })
    }
}

/// Fields in the order of their JSON keys (sorted, as reports always had them).
#[derive(Debug, Clone, Serialize)]
pub struct FunctionConstantOf<S> {
    /// The `air.fc_initializer` global, e.g. `_Z7align_Q.MTL_FC_INIT_200_b`.
    pub global: S,
    pub index: Option<u32>,
    pub name: Option<S>,
    /// MSL type name ("bool", "int", ...) or the suffix code of the global's name.
    pub type_name: Option<S>,
}

pub type FunctionConstant<'a> = FunctionConstantOf<&'a str>;
pub type OwnedFunctionConstant = FunctionConstantOf<Box<str>>;

impl FunctionConstant<'_> {
    pub fn owned(&self) -> OwnedFunctionConstant {
        FunctionConstantOf {
            global: self.global.into(),
            index: self.index,
            name: self.name.map(Into::into),
            type_name: self.type_name.map(Into::into),
        }
    }
}

/// Makes owned copies of entry points for a report that outlives the
/// module's text, each distinct argument description once (once per scan
/// for those the scan keeps, see [`KnownDescriptions`]), and each distinct
/// text of the arguments once: their kinds, accesses and type and field
/// names repeat through a module (typed-12MB: ~12,000 texts of 1,140
/// descriptions), and a copy of each cost an allocation and a free.
pub struct Owner<'k> {
    /// By `Description::Module`.
    described: Vec<Option<Shared<OwnedArgument>>>,
    known: &'k mut KnownDescriptions,
    texts: rustc_hash::FxHashSet<std::sync::Arc<str>>,
}

impl<'k> Owner<'k> {
    /// An owner sized for `entry_points`' arguments: a module's distinct
    /// texts number about its arguments (a few kinds shared, a name and a
    /// type name each), and growing the set from empty rehashed it
    /// module after module. The owned copies of `known`'s descriptions go
    /// to `known`, for the modules after.
    pub fn for_entry_points(
        entry_points: &[EntryPoint<'_>],
        known: &'k mut KnownDescriptions,
    ) -> Self {
        let arguments = entry_points.iter().map(|e| e.arguments.len()).sum();
        let mut texts = rustc_hash::FxHashSet::default();
        texts.reserve(arguments);
        Owner {
            described: Vec::new(),
            known,
            texts,
        }
    }

    pub fn entry_point(&mut self, ep: &EntryPoint<'_>) -> OwnedEntryPoint {
        EntryPointOf {
            name: ep.name.into(),
            stage: ep.stage,
            arguments: ep.arguments.iter().map(|a| self.argument(a)).collect(),
            properties: ep
                .properties
                .iter()
                .map(|&(name, value)| (name.into(), value))
                .collect(),
        }
    }

    fn argument(&mut self, a: &Argument<'_>) -> Shared<OwnedArgument> {
        let slot = match a.description {
            None => return Shared(std::sync::Arc::new(self.owned_argument(a))),
            Some(Description::Module(d)) => {
                let d = d as usize;
                if self.described.len() <= d {
                    self.described.resize(d + 1, None);
                }
                self.described.get(d)
            }
            Some(Description::Known(d)) => self.known.read.get(d as usize).map(|k| &k.owned),
        };
        if let Some(Some(shared)) = slot {
            return shared.clone();
        }
        let shared = Shared(std::sync::Arc::new(self.owned_argument(a)));
        let slot = match a.description {
            Some(Description::Module(d)) => self.described.get_mut(d as usize),
            Some(Description::Known(d)) => {
                self.known.read.get_mut(d as usize).map(|k| &mut k.owned)
            }
            None => None,
        };
        if let Some(slot) = slot {
            *slot = Some(shared.clone());
        }
        shared
    }

    /// The shared copy of `s`.
    fn text(&mut self, s: &str) -> std::sync::Arc<str> {
        if let Some(t) = self.texts.get(s) {
            return t.clone();
        }
        let t: std::sync::Arc<str> = s.into();
        self.texts.insert(t.clone());
        t
    }

    fn owned_argument(&mut self, a: &Argument<'_>) -> OwnedArgument {
        a.map_texts(|s| self.text(s))
    }
}

/// Argument descriptions read in earlier modules, by their text, so that
/// a module repeating one takes what it gave instead of reading it again,
/// with the owned copy made for the first report that had it. A library's
/// modules repeat their descriptions (mlx.metallib: 8,155 self-contained
/// descriptions in 382 modules, of 261 texts), and reading one cost ~3,300
/// instructions. Only a description that names no other node is kept: an
/// id means another node in another module. A scan keeps one per thread
/// and hands it from module to module.
#[derive(Default)]
pub struct KnownDescriptions {
    /// By their text's hash ([`DescriptionText`]); two texts of one hash
    /// are not both kept.
    by_hash: FxHashMap<u64, u32>,
    read: Vec<KnownArgument>,
    /// The descriptions' texts, one after another.
    texts: String,
}

/// A description kept: where its text stands in `texts`, its texts by where
/// they stand in it, and the owned copy of the argument once a report has
/// made one.
struct KnownArgument {
    text: std::ops::Range<usize>,
    arg: ArgumentOf<TextSpan>,
    owned: Option<Shared<OwnedArgument>>,
}

/// A text of a kept argument: a range of its description's text, or one
/// the reader gives of its own (`access`, an absent kind).
#[derive(Debug, Clone, Copy)]
enum TextSpan {
    In(u32, u32),
    Fixed(&'static str),
}

/// The texts an argument may hold that are not in its description.
const FIXED_TEXTS: [&str; 4] = ["", "read", "write", "read_write"];

/// Descriptions kept at most: past it the next module starts afresh. At
/// ~1 KB each (text, owned copy), it bounds what the scan holds.
const MAX_KNOWN_DESCRIPTIONS: usize = 1024;

impl KnownDescriptions {
    /// The argument `text`, kept before, gives, its texts borrowed from
    /// `text`.
    fn get<'a>(&self, text: DescriptionText<'a>) -> Option<Argument<'a>> {
        let known = self.read.get(*self.by_hash.get(&text.hash)? as usize)?;
        if self.texts.get(known.text.clone()) != Some(text.text) {
            return None;
        }
        let text = text.text;
        Some(known.arg.map_texts(|span| match *span {
            TextSpan::In(from, to) => text.get(from as usize..to as usize).unwrap_or_default(),
            TextSpan::Fixed(s) => s,
        }))
    }

    /// Keeps what reading description `text` gave, `a`, if `text` names no
    /// other node and each of `a`'s texts is in it or fixed; numbers `a`
    /// for its owned copy to be shared.
    fn keep(&mut self, key: DescriptionText<'_>, a: &mut Argument<'_>) -> bool {
        let text = key.text;
        // Past the tuple's own `!{`, a `!` opens a string or names a node.
        let b = text.as_bytes();
        let names_a_node = memchr::memchr_iter(b'!', b)
            .skip(1)
            .any(|i| b.get(i + 1) != Some(&b'"'));
        if names_a_node
            || self.read.len() >= MAX_KNOWN_DESCRIPTIONS
            || self.by_hash.contains_key(&key.hash)
        {
            return false;
        }
        let n = self.read.len() as u32;
        a.description = Some(Description::Known(n));
        let mut all_there = true;
        let arg = a.map_texts(|s| {
            let from = (s.as_ptr() as usize).wrapping_sub(text.as_ptr() as usize);
            if from <= text.len() && s.len() <= text.len() - from {
                // Both bounds fit in u32: metadata texts are far shorter.
                return TextSpan::In(from as u32, (from + s.len()) as u32);
            }
            match FIXED_TEXTS.iter().find(|f| **f == *s) {
                Some(f) => TextSpan::Fixed(f),
                None => {
                    all_there = false;
                    TextSpan::Fixed("")
                }
            }
        });
        if !all_there || text.len() > u32::MAX as usize {
            a.description = None;
            return false;
        }
        self.by_hash.insert(key.hash, n);
        let start = self.texts.len();
        self.texts.push_str(text);
        self.read.push(KnownArgument {
            text: start..self.texts.len(),
            arg,
            owned: None,
        });
        true
    }

    /// Starts afresh once full (between modules: a module's arguments
    /// name theirs until its report is made).
    fn make_room(&mut self) {
        if self.read.len() >= MAX_KNOWN_DESCRIPTIONS {
            self.by_hash.clear();
            self.read.clear();
            self.texts.clear();
        }
    }
}

/// What is left of `MAX_AIR_ITEMS` while a module's entry points are
/// interpreted. Metadata nodes are shared, so without it a list naming
/// one argument node a million times, or a struct description of a
/// million fields, would cost far more memory than its text.
struct Items {
    left: usize,
    /// The line where the budget ran out.
    out_at: Option<u32>,
}

impl Items {
    /// Takes one item; false (and the line noted) when none is left.
    fn take(&mut self, line: u32) -> bool {
        if self.left > 0 {
            self.left -= 1;
            return true;
        }
        self.out_at.get_or_insert(line);
        false
    }
}

/// Adds a diagnostic unless `MAX_DIAGNOSTICS` are already there.
fn warn(diags: &mut Vec<Diagnostic>, line: u32, message: impl Into<String>) {
    if diags.len() < MAX_DIAGNOSTICS {
        diags.push(Diagnostic::warning(line, message));
    }
}

/// Interprets the AIR metadata of `m`.
pub fn air_info<'a>(m: &Module<'a>) -> AirInfo<'a> {
    air_info_with(m, true, None)
}

/// `air_info`, taking the descriptions `known` kept from earlier modules
/// and keeping this module's for the next.
pub fn air_info_knowing<'a>(m: &Module<'a>, known: &mut KnownDescriptions) -> AirInfo<'a> {
    known.make_room();
    air_info_with(m, true, Some(known))
}

/// `air_info`, reading each argument description afresh when `memo` is
/// false (`known` unused): what the memos must agree with.
fn air_info_with<'a>(
    m: &Module<'a>,
    memo: bool,
    known: Option<&mut KnownDescriptions>,
) -> AirInfo<'a> {
    let mut info = AirInfo::default();
    let md = &m.metadata;
    let mut items = Items {
        left: MAX_AIR_ITEMS,
        out_at: None,
    };
    let mut bufs = Buffers {
        memo: memo.then(Default::default),
        structs: memo.then(Default::default),
        known: known.filter(|_| memo),
        ..Default::default()
    };
    'lists: for (list, stage) in ENTRY_POINT_LISTS {
        let Some(named) = m.named(list) else { continue };
        for id in &named.nodes {
            let line = md.entry(*id).map_or(named.line, |e| e.line);
            if !items.take(line) {
                break 'lists;
            }
            match entry_point(
                md,
                *id,
                stage,
                &mut info.diagnostics,
                line,
                &mut items,
                &mut bufs,
            ) {
                Some(ep) => info.entry_points.push(ep),
                None => warn(
                    &mut info.diagnostics,
                    line,
                    format!("!{list} entry !{id} does not name a function"),
                ),
            }
        }
    }
    if let Some(line) = items.out_at {
        info.diagnostics.push(Diagnostic::warning(
            line,
            format!(
                "the AIR metadata describes more than {MAX_AIR_ITEMS} entry points, \
                 arguments and struct fields: the rest, from this line on, are ignored"
            ),
        ));
    }
    function_constants(m, &mut info);
    info.air_version = first_tuple(m, "air.version").map(|ops| version_string(&ops));
    info.language_version = first_tuple(m, "air.language_version").map(|ops| version_string(&ops));
    info.compile_options = strings_of(m, "air.compile_options");
    info.llvm_ident = strings_of(m, "llvm.ident");
    info
}

fn first_tuple<'m, 'a>(
    m: &'m Module<'a>,
    name: &str,
) -> Option<std::borrow::Cow<'m, [MetaOperand<'a>]>> {
    m.named(name)?
        .nodes
        .first()
        .and_then(|id| m.metadata.tuple_once(*id))
}

/// `!{i32 2, i32 7, i32 0}` gives "2.7.0"; `!{!"Metal", i32 3, i32 2, i32 0}` gives "Metal 3.2.0".
fn version_string(ops: &[MetaOperand<'_>]) -> String {
    let mut out = String::new();
    let mut numbers = Vec::new();
    for op in ops {
        if let Some(s) = op.as_str() {
            out.push_str(s);
            out.push(' ');
        } else if let Some(v) = op.as_int() {
            numbers.push(v.to_string());
        }
    }
    out.push_str(&numbers.join("."));
    out.trim().to_string()
}

/// The first string of each node in named metadata `name`.
fn strings_of<'a>(m: &Module<'a>, name: &str) -> Vec<&'a str> {
    let Some(named) = m.named(name) else {
        return Vec::new();
    };
    named
        .nodes
        .iter()
        .filter_map(|id| {
            m.metadata
                .tuple_once(*id)?
                .iter()
                .find_map(|op| op.as_str())
        })
        .collect()
}

/// Operand buffers reused from one argument description to the next
/// (see `MetadataTable::tuple_of_into`), and the arguments read so far.
#[derive(Default)]
struct Buffers<'a, 'k> {
    /// An entry point's argument list.
    args: Vec<MetaOperand<'a>>,
    /// One argument's description.
    desc: Vec<MetaOperand<'a>>,
    /// A node a description names (struct layout, function constant).
    inner: Vec<MetaOperand<'a>>,
    /// What each description read so far gave, by its text (`None`: not
    /// kept). Template instantiations repeat the same descriptions kernel
    /// after kernel, under new ids in a merged or linked module (a sixth
    /// of the distinct texts on the corpus), and reading one was ~3,500
    /// instructions. The same text names the same nodes, so it gives the
    /// same argument. Without it a whole scan executes 10.8% / 11.0% more
    /// instructions (callgrind, typed-12MB.ll / the corpus module, 2026-11-27).
    /// Those kept for the scan are here too, for the module's repeats; the
    /// others are numbered by it (`Description::Module`).
    memo: Option<FxHashMap<DescriptionText<'a>, ReadArgument<'a>>>,
    /// The fields each struct layout read so far gave, by its text, with
    /// `struct_fields`' odd-shape count (kept with `memo`). Descriptions
    /// that differ (another argument name) name the same few layouts:
    /// typed-12MB.ll reads 397 under 203 ids, of 16 texts.
    structs: Option<Layouts<'a>>,
    /// The descriptions earlier modules read (kept with `memo`).
    known: Option<&'k mut KnownDescriptions>,
}

/// An argument description's text with its hash, worked out once for the
/// module's memo and the scan's [`KnownDescriptions`] both.
#[derive(Clone, Copy)]
struct DescriptionText<'a> {
    hash: u64,
    text: &'a str,
}

impl<'a> DescriptionText<'a> {
    fn new(text: &'a str) -> Self {
        use std::hash::BuildHasher;
        DescriptionText {
            hash: rustc_hash::FxBuildHasher.hash_one(text),
            text,
        }
    }
}

impl std::hash::Hash for DescriptionText<'_> {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        state.write_u64(self.hash);
    }
}

impl PartialEq for DescriptionText<'_> {
    fn eq(&self, other: &Self) -> bool {
        self.hash == other.hash && self.text == other.text
    }
}

impl Eq for DescriptionText<'_> {}

/// Struct layouts read, by their text: their fields and odd-shape count.
type Layouts<'a> = FxHashMap<&'a str, (Vec<StructField<'a>>, u32)>;

/// What reading one argument description gave and did, to do it again.
struct ReadArgument<'a> {
    arg: Option<Argument<'a>>,
    /// Items it took from the budget (its struct fields).
    items: usize,
    /// Times it warned that a struct layout has an unexpected shape.
    odd_shapes: u32,
}

fn entry_point<'a>(
    md: &MetadataTable<'a>,
    id: u32,
    stage: &'static str,
    diags: &mut Vec<Diagnostic>,
    line: u32,
    items: &mut Items,
    bufs: &mut Buffers<'a, '_>,
) -> Option<EntryPoint<'a>> {
    let ops = md.tuple_once(id)?;
    let name = ops.first()?.as_global()?;
    let mut ep = EntryPoint {
        name,
        stage,
        arguments: Vec::new(),
        properties: Vec::new(),
    };
    // Kernels: !{fn, !{}, !{args...}, props...}; vertex and fragment:
    // !{fn, !{outputs...}, !{inputs...}, props...}.
    let Buffers {
        args,
        desc,
        inner,
        memo,
        structs,
        known,
    } = bufs;
    if let Some(op) = ops.get(2)
        && md.tuple_of_into(op, args)
    {
        // Sized once: an entry point's arguments are kept to the end of the
        // scan, and a doubled vector left up to half of them unused.
        ep.arguments.reserve_exact(args.len());
        // Grown once for the entry point's descriptions, not again and again
        // from empty: a module of one small kernel rehashed it ~4 times.
        if let Some(memo) = memo.as_mut() {
            memo.reserve(args.len());
        }
        for arg in args.iter() {
            if !items.take(line) {
                break;
            }
            let text = match (arg, memo.as_ref()) {
                (MetaOperand::Ref(id), Some(_)) => md.node_text(*id).map(DescriptionText::new),
                _ => None,
            };
            // The module's own first: a text kept for the scan and repeated
            // in its module (typed-12MB: 5,934 of 7,074) is cloned from the
            // memo, cheaper than made again from its spans.
            let repeated = text.and_then(|t| memo.as_ref()?.get(&t));
            let read = match repeated {
                // Done again only where all it did can be: the budget may
                // run out in its struct fields this time.
                Some(known) if known.items <= items.left => {
                    items.left -= known.items;
                    for _ in 0..known.odd_shapes {
                        warn(diags, line, ODD_SHAPE);
                    }
                    known.arg.clone()
                }
                _ => {
                    // Read in an earlier module: given again from its text.
                    if let Some(a) = text.and_then(|t| known.as_deref()?.get(t)) {
                        ep.arguments.push(a);
                        continue;
                    }
                    let (left, errors) = (items.left, md.error_count());
                    let mut odd_shapes = 0;
                    let mut read = match md.tuple_of_into(arg, desc) {
                        true => argument(md, desc, &mut odd_shapes, items, line, inner, structs),
                        false => None,
                    };
                    for _ in 0..odd_shapes {
                        warn(diags, line, ODD_SHAPE);
                    }
                    // Not kept when the budget ran out in it, or a node it
                    // read was broken (its error is recorded at each read).
                    let repeatable = items.out_at.is_none() && md.error_count() == errors;
                    // For the scan: what read no other node, warned nothing
                    // and took nothing from the budget is the same wherever
                    // its text is.
                    let kept = match (text, known.as_deref_mut(), &mut read) {
                        (Some(text), Some(known), Some(a))
                            if repeatable && odd_shapes == 0 && items.left == left =>
                        {
                            known.keep(text, a)
                        }
                        _ => false,
                    };
                    if let (Some(text), Some(memo)) = (text, memo.as_mut())
                        && repeatable
                    {
                        if let Some(a) = &mut read
                            && !kept
                        {
                            a.description = u32::try_from(memo.len()).ok().map(Description::Module);
                        }
                        let read = ReadArgument {
                            arg: read.clone(),
                            items: left - items.left,
                            odd_shapes,
                        };
                        memo.insert(text, read);
                    }
                    read
                }
            };
            match read {
                Some(a) => ep.arguments.push(a),
                None => warn(
                    diags,
                    line,
                    format!(
                        "an argument of {} has no readable AIR description",
                        super::lexer::cut(name)
                    ),
                ),
            }
        }
    }
    for prop in ops.iter().skip(3) {
        if let Some(p) = md.tuple_of_once(prop)
            && let (Some(k), Some(v)) = (
                p.first().and_then(|o| o.as_str()),
                p.get(1).and_then(|o| o.as_int()),
            )
        {
            ep.properties.push((k, v));
        }
    }
    Some(ep)
}

fn classify(tag: &str) -> ArgumentKind {
    match tag {
        "air.buffer" | "air.indirect_buffer" => ArgumentKind::Buffer,
        "air.texture" => ArgumentKind::Texture,
        "air.sampler" => ArgumentKind::Sampler,
        "air.visible_function_table" | "air.intersection_function_table" => {
            ArgumentKind::VisibleFunctionTable
        }
        "air.stage_in" | "air.vertex_input" | "air.fragment_input" => ArgumentKind::StageIn,
        "air.render_target" | "air.vertex_output" | "air.position" => ArgumentKind::Output,
        t if t.starts_with("air.") => ArgumentKind::Builtin,
        _ => ArgumentKind::Other,
    }
}

/// The warning of a struct layout `struct_fields` cannot read.
const ODD_SHAPE: &str = "air.struct_type_info has an unexpected shape";

/// The argument a description's operands `ops` give, counting in
/// `odd_shapes` the struct layouts of an unexpected shape.
fn argument<'a>(
    md: &MetadataTable<'a>,
    ops: &[MetaOperand<'a>],
    odd_shapes: &mut u32,
    items: &mut Items,
    line: u32,
    inner: &mut Vec<MetaOperand<'a>>,
    structs: &mut Option<Layouts<'a>>,
) -> Option<Argument<'a>> {
    let index = ops.first()?.as_int()?.clamp(0, u32::MAX as i64) as u32;
    let mut arg = Argument {
        index,
        kind: ArgumentKind::Other,
        air_kind: "",
        builtin: None,
        location_index: None,
        address_space: None,
        access: None,
        name: None,
        type_name: None,
        type_size: None,
        buffer_size: None,
        function_constant: None,
        struct_fields: Vec::new(),
        unused: false,
        description: None,
    };
    let int_at = |i: usize| {
        ops.get(i)
            .and_then(|o| o.as_int())
            .map(|v| v.clamp(0, u32::MAX as i64) as u32)
    };
    let str_at = |i: usize| ops.get(i).and_then(|o| o.as_str());
    let mut i = 1;
    while i < ops.len() {
        let Some(key) = ops[i].as_str() else {
            i += 1;
            continue;
        };
        i += 1;
        match key {
            "air.function_constant" => {
                if let Some(o) = ops.get(i)
                    && md.tuple_of_into(o, inner)
                {
                    arg.function_constant = inner.get(2).and_then(|o| o.as_str());
                }
                i += 1;
            }
            "air.location_index" => {
                arg.location_index = int_at(i);
                // The second number is the binding's array size.
                while i < ops.len() && ops[i].as_int().is_some() {
                    i += 1;
                }
            }
            "air.address_space" => {
                arg.address_space = int_at(i);
                i += 1;
            }
            "air.arg_type_size" => {
                arg.type_size = int_at(i);
                i += 1;
            }
            "air.buffer_size" => {
                arg.buffer_size = int_at(i);
                i += 1;
            }
            "air.arg_type_name" => {
                arg.type_name = str_at(i);
                i += 1;
            }
            "air.arg_name" => {
                arg.name = str_at(i);
                i += 1;
            }
            "air.struct_type_info" => {
                if let Some(o) = ops.get(i)
                    && let Some(fields) =
                        struct_layout(md, o, odd_shapes, line, items, inner, structs)
                {
                    arg.struct_fields = fields;
                }
                i += 1;
            }
            "air.read" => arg.access = Some("read"),
            "air.write" => arg.access = Some("write"),
            "air.read_write" => arg.access = Some("read_write"),
            "air.arg_unused" => arg.unused = true,
            tag if arg.air_kind.is_empty() => {
                arg.air_kind = tag;
                arg.kind = classify(tag);
                if arg.kind == ArgumentKind::Builtin {
                    arg.builtin = tag.strip_prefix("air.");
                }
            }
            _ => {
                // Another property: skip its numeric or node values.
                while i < ops.len() && ops[i].as_str().is_none() {
                    i += 1;
                }
            }
        }
    }
    Some(arg)
}

/// The fields of the struct layout `op` names (`struct_fields`), `None`
/// where it names no tuple; given again from `memo` where its text was
/// read before with all it did (its budget items, odd shapes) repeatable.
fn struct_layout<'a>(
    md: &MetadataTable<'a>,
    op: &MetaOperand<'a>,
    odd_shapes: &mut u32,
    line: u32,
    items: &mut Items,
    inner: &mut Vec<MetaOperand<'a>>,
    memo: &mut Option<Layouts<'a>>,
) -> Option<Vec<StructField<'a>>> {
    let text = match (op, memo.as_ref()) {
        (MetaOperand::Ref(id), Some(_)) => md.node_text(*id),
        _ => None,
    };
    if let Some((fields, odd)) = text.and_then(|t| memo.as_ref()?.get(t))
        && fields.len() <= items.left
    {
        items.left -= fields.len();
        *odd_shapes += odd;
        return Some(fields.clone());
    }
    let errors = md.error_count();
    if !md.tuple_of_into(op, inner) {
        return None;
    }
    let mut odd = 0;
    let fields = struct_fields(inner, &mut odd, line, items);
    *odd_shapes += odd;
    // Not kept when the budget ran out in it, or a node it read was broken.
    if let (Some(text), Some(memo)) = (text, memo.as_mut())
        && items.out_at.is_none()
        && md.error_count() == errors
    {
        memo.insert(text, (fields.clone(), odd));
    }
    Some(fields)
}

/// `air.struct_type_info` is a flat list of (offset, size, count, type name,
/// field name) groups; `odd_shapes` counts one when they are not.
fn struct_fields<'a>(
    ops: &[MetaOperand<'a>],
    odd_shapes: &mut u32,
    line: u32,
    items: &mut Items,
) -> Vec<StructField<'a>> {
    let mut out = Vec::with_capacity(ops.len() / 5);
    let mut i = 0;
    while i + 5 <= ops.len() {
        let g = &ops[i..i + 5];
        match (
            g[0].as_int(),
            g[1].as_int(),
            g[2].as_int(),
            g[3].as_str(),
            g[4].as_str(),
        ) {
            (Some(offset), Some(size), Some(count), Some(type_name), Some(name)) => {
                if !items.take(line) {
                    break;
                }
                let u = |v: i64| v.clamp(0, u32::MAX as i64) as u32;
                out.push(StructField {
                    offset: u(offset),
                    size: u(size),
                    count: u(count),
                    type_name,
                    name,
                });
                i += 5;
            }
            _ => {
                // Nested descriptions (e.g. `air.indirect_argument`) are skipped.
                i += 1;
                while i < ops.len() && ops[i].as_int().is_none() {
                    i += 1;
                }
            }
        }
    }
    if i < ops.len() && i + 5 > ops.len() && out.is_empty() {
        *odd_shapes += 1;
    }
    out
}

fn function_constants<'a>(m: &Module<'a>, info: &mut AirInfo<'a>) {
    // From the globals: `<mangled>.MTL_FC_INIT_<index>_<type code>` in section air.fc_initializer.
    for g in &m.globals {
        if g.section != Some("air.fc_initializer") {
            continue;
        }
        let (index, code) = match g.name.rsplit_once("MTL_FC_INIT_") {
            Some((_, rest)) => {
                let mut parts = rest.splitn(2, '_');
                (parts.next().and_then(|s| s.parse().ok()), parts.next())
            }
            None => (None, None),
        };
        info.function_constants.push(FunctionConstant {
            global: g.name,
            name: None,
            type_name: code,
            index,
        });
    }
    // From `!air.function_constants`: !{ptr @global, !"type", !"name", i32 index, ...}.
    if let Some(named) = m.named("air.function_constants") {
        for id in &named.nodes {
            let Some(ops) = m.metadata.tuple(*id) else {
                continue;
            };
            let Some(global) = ops.first().and_then(|o| o.as_global()) else {
                continue;
            };
            let type_name = ops.get(1).and_then(|o| o.as_str());
            let name = ops.get(2).and_then(|o| o.as_str());
            let index = ops
                .get(3)
                .and_then(|o| o.as_int())
                .map(|v| v.clamp(0, u32::MAX as i64) as u32);
            match info
                .function_constants
                .iter_mut()
                .find(|fc| fc.global == global)
            {
                Some(fc) => {
                    fc.name = name.or(fc.name);
                    fc.type_name = type_name.or(fc.type_name);
                    fc.index = index.or(fc.index);
                }
                None => info.function_constants.push(FunctionConstant {
                    global,
                    name,
                    type_name,
                    index,
                }),
            }
        }
    }
}

#[cfg(test)]
mod memo_tests {
    use super::*;

    /// What `air_info_with` gives, with the metadata errors it recorded,
    /// but the arguments' `description` (checked here: the same number,
    /// the same argument).
    fn read(text: &str, memo: bool) -> String {
        read_knowing(text, memo, None)
    }

    /// `read`, with the descriptions `known` kept from the texts read before.
    fn read_knowing(text: &str, memo: bool, known: Option<&mut KnownDescriptions>) -> String {
        let m = crate::ir::read_module(text);
        let mut info = match known {
            Some(known) => {
                known.make_room();
                air_info_with(&m, memo, Some(known))
            }
            None => air_info_with(&m, memo, None),
        };
        let mut described = std::collections::HashMap::new();
        for a in info.entry_points.iter_mut().flat_map(|e| &mut e.arguments) {
            let Some(d) = a.description.take() else {
                continue;
            };
            let shown = format!("{a:?}");
            assert_eq!(described.entry(d).or_insert_with(|| shown.clone()), &shown);
        }
        assert!(memo || described.is_empty());
        format!("{info:?}\n{:?}", m.metadata.take_errors())
    }

    /// The memo gives what reading every description gives: on every
    /// fixture, and on descriptions repeated under new ids that name a
    /// struct layout (of an odd shape, twice), a function constant, a
    /// broken node and a missing one, and self-contained ones (kept from
    /// module to module).
    #[test]
    fn memo_gives_what_reading_gives() {
        let repeated = "\
!air.kernel = !{!1, !2, !3}
!1 = !{ptr @a, !{}, !10}
!2 = !{ptr @b, !{}, !20}
!3 = !{ptr @c, !{}, !10, !{!\"air.max_work_group_size\", i32 64}}
!10 = !{!11, !12, !13, !14, !15, !11, !16, !17, !18, !17}
!20 = !{!21, !22, !23, !24, !25, !99, !26, !27, !28}
!11 = !{i32 0, !\"air.buffer\", !\"air.struct_type_info\", !30, !\"air.struct_type_info\", !30, !\"air.arg_name\", !\"s\"}
!21 = !{i32 0, !\"air.buffer\", !\"air.struct_type_info\", !30, !\"air.struct_type_info\", !30, !\"air.arg_name\", !\"s\"}
!12 = !{i32 1, !\"air.function_constant\", !31, !\"air.buffer\", !\"air.arg_name\", !\"f\"}
!22 = !{i32 1, !\"air.function_constant\", !31, !\"air.buffer\", !\"air.arg_name\", !\"f\"}
!13 = !{i32 2, !\"air.buffer\", !\"air.struct_type_info\", !32}
!23 = !{i32 2, !\"air.buffer\", !\"air.struct_type_info\", !32}
!14 = !{!\"no index\"}
!24 = !{!\"no index\"}
!15 = !{i32 4, !\"air.buffer\", !\"air.struct_type_info\", !33, !\"air.arg_name\", !\"x\"}
!25 = !{i32 4, !\"air.buffer\", !\"air.struct_type_info\", !33, !\"air.arg_name\", !\"x\"}
!16 = !{i32 5, !\"air.buffer\", !\"air.struct_type_info\", !34, !\"air.arg_name\", !\"y\"}
!26 = !{i32 5, !\"air.buffer\", !\"air.struct_type_info\", !35, !\"air.arg_name\", !\"z\"}
!17 = !{i32 6, !\"air.buffer\", !\"air.read_write\", !\"air.arg_name\", !\"w\"}
!27 = !{i32 6, !\"air.buffer\", !\"air.read_write\", !\"air.arg_name\", !\"w\"}
!18 = !{i32 7, !\"air.thread_position_in_grid\", !\"air.arg_type_name\", !\"uint\"}
!28 = !{i32 7, !\"air.thread_position_in_grid\", !\"air.arg_type_name\", !\"uint\"}
!30 = !{i32 0, i32 4, i32 0, !\"int\"}
!31 = !{ptr addrspace(2) @fc, !\"bool\", !\"use_f\"}
!32 = !{i32 0, i32 4, i32 0, !\"int\", !\"a\", i32 4, i32 4, i32 0, !\"int\", !\"b\"}
!33 = !{i32 0, i32 4, i32 0, !\"int\", !\"a\", bogus}
!34 = !{i32 0, i32 4, i32 0, !\"float\", !\"p\", i32 4, i32 4, i32 0, !\"float\", !\"q\"}
!35 = !{i32 0, i32 4, i32 0, !\"float\", !\"p\", i32 4, i32 4, i32 0, !\"float\", !\"q\"}
";
        let on = read(repeated, true);
        assert_eq!(on, read(repeated, false));
        // Kept from one module to the next, descriptions give the same.
        let mut known = KnownDescriptions::default();
        assert_eq!(on, read_knowing(repeated, true, Some(&mut known)));
        assert_eq!(known.read.len(), 2);
        assert_eq!(on, read_knowing(repeated, true, Some(&mut known)));
        // What the fixture is for: each case is there.
        assert_eq!(on.matches("unexpected shape").count(), 10, "{on}");
        assert_eq!(on.matches("use_f").count(), 3, "{on}");
        assert_eq!(on.matches("has no readable").count(), 4, "{on}");
        assert!(on.contains("bogus"), "{on}");
        // One layout's text under two ids, named by descriptions that differ.
        assert_eq!(on.matches("name: \"q\"").count(), 3, "{on}");
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let mut files = 0;
        let mut known = KnownDescriptions::default();
        let mut dirs = vec![root.join("testdata"), root.join("../shared/corpus")];
        while let Some(dir) = dirs.pop() {
            for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
                let path = entry.path();
                if path.is_dir() {
                    dirs.push(path);
                } else if path.extension().is_some_and(|e| e == "ll")
                    && let Ok(text) = std::fs::read_to_string(&path)
                {
                    let alone = read(&text, false);
                    assert_eq!(read(&text, true), alone, "{path:?}");
                    // Every file after the others, knowing theirs.
                    assert_eq!(
                        read_knowing(&text, true, Some(&mut known)),
                        alone,
                        "{path:?}"
                    );
                    files += 1;
                }
            }
        }
        assert!(files > 20, "{files} files");
    }
}
