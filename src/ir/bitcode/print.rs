//! Prints a decoded module as LLVM IR text, in the form `llvm-dis` prints
//! typed-pointer modules (LLVM 14, `xcrun metal -S`): the text the reader
//! in `ir::reader` reads and that IR line numbers of a binary input refer
//! to. Unnamed values are numbered as LLVM numbers them (arguments, then
//! each block and each result in order); metadata nodes as LLVM's
//! `SlotTracker` numbers them (see [`Numbering`]), so `!N` reads as in
//! llvm-dis's text.

use super::function::{Body, Piece};
use super::metadata::{Field, Md};
use super::module::{Const, Module, Value};
use super::types::{Ty, TypeId};
use rustc_hash::FxHashMap;
use std::fmt::Write;

/// Deepest nesting of constants printed inline (LLVM's own are shallow;
/// a cycle in a hostile file would otherwise never end).
const MAX_CONST_DEPTH: u32 = 48;

/// Most bytes of constants one module's text may print (inline, at each
/// use of a body's constant; a module-level one's text is printed once
/// and copied). A constant is printed whole wherever it is used, so
/// aggregates that share their elements print in time and text
/// exponential in their depth: a 20 KB hostile file whose 40 levels each
/// hold the one below twice never ended. Real modules' whole texts are a
/// fraction of this (the corpus's largest, 12 MB).
const MAX_CONSTANT_TEXT: usize = 32 << 20;

/// How metadata and attribute groups are numbered in the text.
///
/// Metadata nodes are numbered as LLVM's `SlotTracker` numbers them for
/// `Module::print`: first the globals' attachments and the named
/// metadata's operands, then each function's as it is printed (its own
/// attachments, then each instruction's metadata operands, `!dbg` and
/// other attachments, in the order they are printed). A node gets the next
/// number when first met, then its operands that are nodes get theirs, in
/// LLVM's operand order (depth first, pre-order); `DIExpression` and
/// `DIArgList` are printed inline, strings and values are never numbered,
/// and nodes nothing reaches are not printed. A body's numbers depend only
/// on the module level and the bodies before it, so each body is still
/// printed as soon as it is decoded.
#[derive(Debug, Default)]
pub struct Numbering {
    /// `!N` of each metadata id of the module and the body being printed
    /// (`u32::MAX`: not numbered, or never numbered: printed inline).
    numbers: Vec<u32>,
    next: u32,
    ready: bool,
    /// What each `!N` is, by N.
    slots: Vec<Slot>,
    /// The nodes left to number (the walk is a loop, not a recursion: a
    /// hostile file may nest nodes deeply or make cycles).
    stack: Vec<u64>,
    /// Functions whose metadata was numbered (LLVM numbers each function's
    /// as it prints it, declarations too: those before a body are numbered
    /// when it is).
    functions_done: usize,
    /// Metadata strings' texts by their bytes, kept from module to module
    /// (see [`Strings`]).
    strings: Strings,
    /// `!N = ...` lines of a body's own nodes and of `!dbg` locations,
    /// written while their body's values could be named (see [`Slot`]).
    extra: String,
    /// The module's text but its bodies and their nodes (see [`module`]).
    rest: String,
    locations: FxHashMap<[u64; 5], u32>,
    /// `#K` of each function-attribute group, in order of first use.
    groups: FxHashMap<u64, u32>,
    group_order: Vec<u64>,
    /// The first problem met (a reference to nothing, a constant too
    /// deep): the module is refused with it.
    pub failed: Option<String>,
    /// Bytes of constants printed in the module so far, and where in its
    /// text the outermost constant being printed starts (see
    /// [`MAX_CONSTANT_TEXT`]).
    constant_bytes: usize,
    constant_start: usize,
    /// Each type's text by type id. Writing types anew each time was ~4%
    /// of a scan of mlx.metallib.
    types: Texts,
    /// Each module-level value's text (`@name`, a constant) by value id.
    values: Texts,
    /// The body being printed: each argument's and result's text (`%7`,
    /// `%name`) by value id less the first argument's, written when the
    /// slots are counted; a reference copies it.
    locals: Texts,
    /// The text of each module-level metadata string and value
    /// (`!"air.buffer"`, `i32 1`) by metadata id: AIR's argument
    /// descriptors name the same few again and again. Escaping and writing
    /// them at each reference was ~1% of a scan of mlx.metallib.
    md: Texts,
    /// Each attribute list's groups that exist, in order, with the index
    /// they apply to: looking every group up for every parameter was ~2%
    /// of a scan of mlx.metallib. Made on first use.
    list_groups: Option<Vec<Vec<(u32, u64)>>>,
}

impl Numbering {
    /// Empties it for the next module, keeping its tables' and texts'
    /// room: growing them anew for each module was ~1% of a scan of
    /// mlx.metallib.
    pub fn emptied(mut self) -> Self {
        self.numbers.clear();
        self.next = 0;
        self.ready = false;
        self.slots.clear();
        self.functions_done = 0;
        self.extra.clear();
        self.locations.clear();
        self.groups.clear();
        self.group_order.clear();
        self.failed = None;
        self.constant_bytes = 0;
        self.forget_types();
        self.locals.clear();
        self.list_groups = None;
        self
    }

    /// Drops the types' texts written so far, and the texts holding them.
    pub fn forget_types(&mut self) {
        self.types.clear();
        self.values.clear();
        self.md.clear();
    }

    /// Drops the attribute lists' groups found so far (a block of groups
    /// or lists was read).
    pub fn forget_attributes(&mut self) {
        self.list_groups = None;
    }
}

/// What a metadata number stands for.
#[derive(Debug, Clone, Copy)]
enum Slot {
    /// A node of the module, by metadata id (a body's, until the body's
    /// end: its line is then written).
    Node(u32),
    /// Its `!N = ...` line, a span of [`Numbering::extra`].
    Line(usize, usize),
}

/// Node kinds whose first operand in LLVM is `file` (`DIScope`'s
/// subclasses), wherever `AsmWriter` prints it.
const FILE_FIRST: [&str; 9] = [
    "DIBasicType",
    "DIDerivedType",
    "DICompositeType",
    "DISubroutineType",
    "DILexicalBlock",
    "DILexicalBlockFile",
    "DINamespace",
    "DIModule",
    "DICompileUnit",
];

/// `DISubprogram`'s node operands in LLVM's order (`DISubprogram::getImpl`).
const SUBPROGRAM_OPERANDS: [&str; 10] = [
    "file",
    "scope",
    "type",
    "unit",
    "declaration",
    "retainedNodes",
    "containingType",
    "templateParams",
    "thrownTypes",
    "annotations",
];

/// Pushes the ids of `item`'s operands that may be nodes, in LLVM's
/// operand order reversed (the first is popped first).
fn push_operands(md: &super::metadata::MdTable, item: &Md, stack: &mut Vec<u64>) {
    let start = stack.len();
    let mut push = |plus_one: u64| {
        if plus_one != 0 {
            stack.push(plus_one - 1);
        }
    };
    match item {
        Md::Node { ops, .. } => md.ops(ops).iter().for_each(|&o| push(o)),
        Md::Special { kind, fields, .. } => {
            let node = |f: &Field| match f {
                Field::Md(id) | Field::MdOrNull(id) | Field::Bound(id) => *id,
                _ => 0,
            };
            let field = |name: &str| fields.iter().find(|(n, _)| *n == name).map(|(_, f)| f);
            if *kind == "DISubprogram" {
                SUBPROGRAM_OPERANDS
                    .iter()
                    .filter_map(|name| field(name))
                    .for_each(|f| push(node(f)));
            } else {
                let file_first = FILE_FIRST.contains(kind);
                if file_first {
                    field("file").into_iter().for_each(|f| push(node(f)));
                }
                fields
                    .iter()
                    .filter(|(name, _)| !(file_first && *name == "file"))
                    .for_each(|(_, f)| push(node(f)));
            }
        }
        _ => {}
    }
    stack[start..].reverse();
}

/// Metadata strings' texts (`!"omnipotent char"`) by their bytes. A body's
/// own strings (tbaa's type names, loop hints) are new ids in each body and
/// each module, but the same few names: escaping them anew was ~0.8% of a
/// scan of mlx.metallib. Kept across modules (the printer's tables go from
/// module to module in [`super::Reuse`]), and dropped when large, so a
/// batch of unrelated modules cannot grow it without end.
#[derive(Debug, Default)]
struct Strings {
    spans: FxHashMap<Box<[u8]>, (usize, usize)>,
    text: String,
}

impl Strings {
    /// Kept texts at most (bytes): mlx.metallib's strings take ~20 KB.
    const MAX_TEXT: usize = 1 << 20;

    fn get(&self, bytes: &[u8]) -> Option<&str> {
        let &(start, end) = self.spans.get(bytes)?;
        self.text.get(start..end)
    }

    fn keep(&mut self, bytes: &[u8], text: &str) {
        if self.text.len() + text.len() > Self::MAX_TEXT {
            self.spans.clear();
            self.text.clear();
        }
        let start = self.text.len();
        self.text.push_str(text);
        self.spans.insert(bytes.into(), (start, self.text.len()));
    }
}

/// Texts written once and copied wherever they are used, by index.
#[derive(Debug, Default)]
struct Texts {
    /// Each one's span of `text`; [`UNWRITTEN`] for one not written yet.
    spans: Vec<(usize, usize)>,
    text: String,
}

/// A span `str::get` refuses (it starts after it ends): no text yet. One
/// lookup then both finds a text and tells whether there is one.
const UNWRITTEN: (usize, usize) = (usize::MAX, 0);

impl Texts {
    #[inline]
    fn get(&self, i: usize) -> Option<&str> {
        let &(start, end) = self.spans.get(i)?;
        self.text.get(start..end)
    }

    /// Writes the text of `i` with `write`, keeps it and returns it.
    fn write(&mut self, i: usize, write: impl FnOnce(&mut String)) -> &str {
        if self.spans.len() <= i {
            self.spans.resize(i + 1, UNWRITTEN);
        }
        let start = self.text.len();
        write(&mut self.text);
        let end = self.text.len();
        self.spans[i] = (start, end);
        &self.text[start..end]
    }

    fn clear(&mut self) {
        self.spans.clear();
        self.text.clear();
    }
}

/// Writes `name` as LLVM does after `@` or `%`: bare when it is made of
/// `[-a-zA-Z$._0-9]` and does not start with a digit, else quoted.
pub fn write_name(out: &mut String, name: &[u8]) {
    let bare_byte = |c: u8| c.is_ascii_alphanumeric() | matches!(c, b'-' | b'$' | b'.' | b'_');
    // Checked without a branch per byte, as in `escape_into` (intrinsics'
    // names are long: `air.simdgroup_matrix_8x8_multiply_accumulate...`).
    let bare = !name.is_empty()
        && !name[0].is_ascii_digit()
        && name.iter().fold(true, |all, &c| all & bare_byte(c));
    if bare {
        // Checked ASCII above.
        out.push_str(std::str::from_utf8(name).unwrap_or_default());
    } else {
        out.push('"');
        escape_into(out, name);
        out.push('"');
    }
}

/// Appends an integer's decimal digits, without `core::fmt` (its
/// machinery was ~8% of a scan of mlx.metallib).
pub fn push_int(out: &mut String, n: impl itoa::Integer) {
    out.push_str(itoa::Buffer::new().format(n));
}

/// Escapes as LLVM's `printEscapedString`: printable ASCII but `"` and `\`
/// as is, everything else `\XX`.
pub fn escape_into(out: &mut String, bytes: &[u8]) {
    const HEX: &[u8; 16] = b"0123456789ABCDEF";
    let plain = |c: u8| (0x20..0x7f).contains(&c) && c != b'"' && c != b'\\';
    let escaped = |out: &mut String, c: u8| {
        out.push('\\');
        out.push(char::from(HEX[usize::from(c >> 4)]));
        out.push(char::from(HEX[usize::from(c & 15)]));
    };
    // Most strings are all plain: checked without a branch per byte (the
    // compiler makes it a vector loop), then copied at once.
    if bytes.iter().fold(true, |all, &c| all & plain(c)) {
        out.push_str(std::str::from_utf8(bytes).unwrap_or_default());
        return;
    }
    // Runs of plain bytes in one copy.
    let mut rest = bytes;
    while !rest.is_empty() {
        let run = rest.iter().position(|&c| !plain(c)).unwrap_or(rest.len());
        let (text, tail) = rest.split_at(run);
        // Printable ASCII, checked above.
        out.push_str(std::str::from_utf8(text).unwrap_or_default());
        let Some((&c, tail)) = tail.split_first() else {
            break;
        };
        escaped(out, c);
        rest = tail;
    }
}

pub fn calling_convention(cc: u64) -> String {
    match cc {
        0 => String::new(),
        8 => "fastcc ".into(),
        9 => "coldcc ".into(),
        n => format!("cc{n} "),
    }
}

fn linkage(l: u64) -> &'static str {
    match l {
        2 => "appending ",
        3 => "internal ",
        7 => "extern_weak ",
        8 => "common ",
        9 | 13 | 14 => "private ",
        12 => "available_externally ",
        1 | 16 => "weak ",
        4 | 18 => "linkonce ",
        10 | 17 => "weak_odr ",
        11 | 15 | 19 => "linkonce_odr ",
        _ => "",
    }
}

fn visibility(v: u64) -> &'static str {
    match v {
        1 => "hidden ",
        2 => "protected ",
        _ => "",
    }
}

fn unnamed_addr(u: u64) -> &'static str {
    match u {
        1 => "unnamed_addr ",
        2 => "local_unnamed_addr ",
        _ => "",
    }
}

/// Names of locals: value id -> slot number, block -> slot number.
struct Locals<'b> {
    first: u32,
    block_slots: Vec<u32>,
    block_names: &'b FxHashMap<u32, Vec<u8>>,
}

struct Printer<'m, 'a, 'b> {
    m: &'m Module<'a>,
    n: &'m mut Numbering,
    locals: Option<Locals<'b>>,
    /// How many times a local was named: a text that named one is the
    /// body's, not the module's, and is not kept.
    named_locals: u32,
}

impl Printer<'_, '_, '_> {
    fn fail(&mut self, why: String) {
        if self.n.failed.is_none() {
            self.n.failed = Some(why);
        }
    }

    #[inline]
    fn ty(&mut self, out: &mut String, t: TypeId) {
        match self.n.types.get(t as usize) {
            Some(text) => out.push_str(text),
            None => self.new_ty(out, t),
        }
    }

    /// A type's text the first time it is used.
    #[inline(never)]
    fn new_ty(&mut self, out: &mut String, t: TypeId) {
        if self.m.types.get(t).is_none() {
            return self.m.types.write(out, t);
        }
        let types = &self.m.types;
        out.push_str(self.n.types.write(t as usize, |s| types.write(s, t)));
    }

    #[inline]
    fn value(&mut self, out: &mut String, id: u32, depth: u32) {
        let local = self.locals.as_ref().and_then(|l| id.checked_sub(l.first));
        let written = match local {
            Some(i) => self.n.locals.get(i as usize),
            None => self.n.values.get(id as usize),
        };
        match written {
            Some(text) => {
                out.push_str(text);
                self.named_locals += u32::from(local.is_some());
            }
            None => self.new_value(out, id, depth),
        }
    }

    /// A value not written before: a local, a body's constant, or a
    /// module-level one the first time (then kept: AIR's bodies name the
    /// same globals and module constants again and again).
    #[inline(never)]
    fn new_value(&mut self, out: &mut String, id: u32, depth: u32) {
        let Some(v) = self.m.values.get(id as usize) else {
            self.fail(format!("a reference to value {id}, which does not exist"));
            out.push_str("undef");
            return;
        };
        let (start, named_locals) = (out.len(), self.named_locals);
        match v {
            Value::Global(g) => {
                out.push('@');
                write_name(out, &self.m.globals[*g].name);
            }
            Value::Function(f) => {
                out.push('@');
                write_name(out, &self.m.functions[*f].name);
            }
            Value::Const(c) => {
                let ty = self.m.value_types[id as usize];
                self.constant(out, c, ty, depth)
            }
            Value::Arg(_) | Value::Inst(_) | Value::Pending => return self.local(out, id),
        }
        let module_level = self.locals.as_ref().is_none_or(|l| id < l.first);
        if module_level && self.named_locals == named_locals && self.n.failed.is_none() {
            self.n
                .values
                .write(id as usize, |s| s.push_str(&out[start..]));
        }
    }

    fn local(&mut self, out: &mut String, id: u32) {
        let Some(l) = &self.locals else {
            self.fail(format!("a local value {id} outside a body"));
            return;
        };
        self.named_locals += 1;
        let text = id
            .checked_sub(l.first)
            .and_then(|i| self.n.locals.get(i as usize));
        match text {
            Some(text) => out.push_str(text),
            None => {
                let why = format!("a reference to value {id}, which has no definition");
                self.fail(why)
            }
        }
    }

    fn block(&mut self, out: &mut String, b: u32) {
        let Some(l) = &self.locals else { return };
        out.push('%');
        let name = match l.block_names.is_empty() {
            true => None,
            false => l.block_names.get(&b),
        };
        match name {
            Some(name) => write_name(out, name),
            None => push_int(out, l.block_slots.get(b as usize).copied().unwrap_or(0)),
        }
    }

    /// `T v`: an element or operand of a constant, `depth` deep in it.
    fn typed(&mut self, out: &mut String, id: u32, depth: u32) {
        // Past the budget (below), every element left is passed over.
        if self.n.failed.is_some() {
            return;
        }
        let Some(&t) = self.m.value_types.get(id as usize) else {
            self.fail(format!("a reference to value {id}, which does not exist"));
            return;
        };
        self.ty(out, t);
        out.push(' ');
        self.value(out, id, depth);
        // An element printed before is copied, not printed again: counted
        // here, with the constant it is in (see [`MAX_CONSTANT_TEXT`]).
        let printed = out.len().saturating_sub(self.n.constant_start);
        if self.n.constant_bytes.saturating_add(printed) > MAX_CONSTANT_TEXT {
            self.fail(format!(
                "more than {} MB of constants to print: aggregates that share their \
                 elements too many times over",
                MAX_CONSTANT_TEXT >> 20
            ));
        }
    }

    fn constant(&mut self, out: &mut String, c: &Const, ty: TypeId, depth: u32) {
        if depth > MAX_CONST_DEPTH {
            self.fail(format!("constants nested more than {MAX_CONST_DEPTH} deep"));
            return;
        }
        if depth == 0 {
            self.n.constant_start = out.len();
            self.constant_inner(out, c, ty, depth);
            let printed = out.len().saturating_sub(self.n.constant_start);
            self.n.constant_bytes = self.n.constant_bytes.saturating_add(printed);
            return;
        }
        self.constant_inner(out, c, ty, depth);
    }

    fn constant_inner(&mut self, out: &mut String, c: &Const, ty: TypeId, depth: u32) {
        let types = &self.m.types;
        match c {
            Const::Int(v) => match types.get(ty) {
                Some(Ty::Int(1)) => out.push_str(if *v & 1 != 0 { "true" } else { "false" }),
                Some(Ty::Int(w)) if *w < 64 => push_int(out, sign_extend(*v as u64, *w)),
                _ => push_int(out, *v),
            },
            Const::Wide(words) => {
                let mut value: i128 = 0;
                for (i, w) in words.iter().take(2).enumerate() {
                    value |= i128::from(*w) << (64 * i);
                }
                push_int(out, value);
            }
            Const::Float(bits) => write_float(out, types.get(ty), *bits),
            Const::Null => match types.get(ty) {
                Some(Ty::Ptr { .. }) => out.push_str("null"),
                Some(Ty::Int(1)) => out.push_str("false"),
                Some(Ty::Int(_)) => out.push('0'),
                Some(t @ (Ty::Half | Ty::BFloat | Ty::Float | Ty::Double)) => {
                    write_float(out, Some(t), 0)
                }
                Some(Ty::Token) => out.push_str("none"),
                _ => out.push_str("zeroinitializer"),
            },
            Const::Undef => out.push_str("undef"),
            Const::Poison => out.push_str("poison"),
            Const::Aggregate(elems) => {
                let (open, close) = match types.get(ty) {
                    Some(Ty::Struct { packed: true, .. }) => ("<{ ", " }>"),
                    Some(Ty::Struct { .. }) => ("{ ", " }"),
                    Some(Ty::Vector { .. }) => ("<", ">"),
                    _ => ("[", "]"),
                };
                if elems.is_empty() {
                    out.push_str(if open == "[" { "[]" } else { "{}" });
                    return;
                }
                out.push_str(open);
                for (i, &e) in elems.iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    self.typed(out, e, depth + 1);
                }
                out.push_str(close);
            }
            Const::Bytes(bytes) => {
                out.push_str("c\"");
                escape_into(out, bytes);
                out.push('"');
            }
            Const::Data(elems) => {
                let vector = matches!(types.get(ty), Some(Ty::Vector { .. }));
                let elem = match types.get(ty) {
                    Some(Ty::Array(_, e)) => *e,
                    _ => types.scalar(ty),
                };
                out.push(if vector { '<' } else { '[' });
                for (i, &bits) in elems.iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    self.ty(out, elem);
                    out.push(' ');
                    match self.m.types.get(elem) {
                        Some(Ty::Int(w)) => push_int(out, sign_extend(bits, *w)),
                        t => write_float(out, t, bits),
                    }
                }
                out.push(if vector { '>' } else { ']' });
            }
            Const::Cast { op, value } => {
                out.push_str(super::function::cast_name(u64::from(*op)).unwrap_or("bitcast"));
                out.push_str(" (");
                self.typed(out, *value, depth + 1);
                out.push_str(" to ");
                self.ty(out, ty);
                out.push(')');
            }
            Const::Gep {
                inbounds,
                source,
                ops,
            } => {
                out.push_str(if *inbounds {
                    "getelementptr inbounds ("
                } else {
                    "getelementptr ("
                });
                self.ty(out, *source);
                for &o in ops {
                    out.push_str(", ");
                    self.typed(out, o, depth + 1);
                }
                out.push(')');
            }
            Const::Binop { op, lhs, rhs, .. } => {
                let fp = types.is_fp(ty);
                let names = [
                    "add", "sub", "mul", "udiv", "sdiv", "urem", "srem", "shl", "lshr", "ashr",
                    "and", "or", "xor",
                ];
                let name = names.get(usize::from(*op)).copied().unwrap_or("add");
                if fp {
                    out.push('f');
                }
                out.push_str(name);
                out.push_str(" (");
                self.typed(out, *lhs, depth + 1);
                out.push_str(", ");
                self.typed(out, *rhs, depth + 1);
                out.push(')');
            }
            Const::Cmp { pred, lhs, rhs } => {
                let (op, name) =
                    super::function::predicate_name(u64::from(*pred)).unwrap_or(("icmp", "eq"));
                let _ = write!(out, "{op} {name} (");
                self.typed(out, *lhs, depth + 1);
                out.push_str(", ");
                self.typed(out, *rhs, depth + 1);
                out.push(')');
            }
            Const::Select(c, a, b) => self.const_call(out, "select", &[*c, *a, *b], depth),
            Const::ExtractElement(v, i) => self.const_call(out, "extractelement", &[*v, *i], depth),
            Const::InsertElement(v, e, i) => {
                self.const_call(out, "insertelement", &[*v, *e, *i], depth)
            }
            Const::ShuffleVector(a, b, m) => {
                self.const_call(out, "shufflevector", &[*a, *b, *m], depth)
            }
            Const::Unop(_, v) => self.const_call(out, "fneg", &[*v], depth),
            Const::BlockAddress => {
                self.fail("block addresses are not read natively".into());
            }
        }
    }

    fn const_call(&mut self, out: &mut String, name: &str, ops: &[u32], depth: u32) {
        out.push_str(name);
        out.push_str(" (");
        for (i, &o) in ops.iter().enumerate() {
            if i > 0 {
                out.push_str(", ");
            }
            self.typed(out, o, depth + 1);
        }
        out.push(')');
    }

    /// A metadata reference by id: `!N`, `!"text"`, `i32 7`, or an inline
    /// node (`!DIExpression()`).
    #[inline]
    fn md_ref(&mut self, out: &mut String, id: u64) {
        let written = usize::try_from(id).ok().and_then(|i| self.n.md.get(i));
        match written {
            Some(text) => out.push_str(text),
            None => self.new_md_ref(out, id),
        }
    }

    /// [`Self::md_ref`] of one not written before: a body's own, or a
    /// module-level one the first time.
    #[inline(never)]
    fn new_md_ref(&mut self, out: &mut String, id: u64) {
        let Some(item) = usize::try_from(id)
            .ok()
            .and_then(|i| self.m.md.items.get(i))
        else {
            self.fail(format!(
                "a reference to metadata {id}, which does not exist"
            ));
            out.push_str("null");
            return;
        };
        match item {
            Md::Str(_) | Md::Value(..) => self.md_inline(out, id as usize, item),
            Md::Raw(text) => out.push_str(text),
            Md::ArgList(args) => {
                out.push_str("!DIArgList(");
                for (i, &a) in args.iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    self.md_ref(out, a);
                }
                out.push(')');
            }
            Md::Node { .. } | Md::Special { .. } => {
                // Numbered when first printed, which is in the order LLVM
                // numbers a function's metadata.
                let mut n = self.n.numbers.get(id as usize).copied().unwrap_or(u32::MAX);
                if n == u32::MAX {
                    self.slot(id);
                    n = self.n.numbers.get(id as usize).copied().unwrap_or(u32::MAX);
                }
                if n == u32::MAX {
                    self.fail(format!("metadata {id} was never numbered"));
                    return;
                }
                out.push('!');
                push_int(out, n);
            }
        }
    }

    /// A string or value written in place (`!"air.buffer"`, `i32 1`).
    fn md_inline(&mut self, out: &mut String, id: usize, item: &Md) {
        // A module-level one reads the same at every reference: written
        // once.
        let keep = id < self.m.md_module_len;
        let start = out.len();
        let named_locals = self.named_locals;
        match item {
            Md::Str(s) => {
                let bytes = self.m.md.str(s);
                match self.n.strings.get(bytes) {
                    Some(text) => out.push_str(text),
                    None => {
                        let start = out.len();
                        out.push_str("!\"");
                        escape_into(out, bytes);
                        out.push('"');
                        self.n.strings.keep(bytes, &out[start..]);
                    }
                }
            }
            Md::Value(t, v) => {
                self.ty(out, *t);
                out.push(' ');
                self.value(out, *v, 0);
            }
            _ => {} // only strings and values come here
        }
        if keep && self.named_locals == named_locals && self.n.failed.is_none() {
            self.n.md.write(id, |s| s.push_str(&out[start..]));
        }
    }

    /// An operand written as id + 1, 0 for `null`.
    #[inline]
    fn md_operand(&mut self, out: &mut String, plus_one: u64) {
        match plus_one {
            0 => out.push_str("null"),
            id => self.md_ref(out, id - 1),
        }
    }

    /// Value `v` of type `t` as a signed number, if it is a constant
    /// integer (`ConstantInt::getSExtValue`).
    fn const_int(&self, t: TypeId, v: u32) -> Option<i64> {
        let n = match self.m.values.get(v as usize) {
            Some(Value::Const(Const::Int(n))) => *n,
            Some(Value::Const(Const::Null)) => 0,
            _ => return None,
        };
        match self.m.types.get(t) {
            Some(Ty::Int(w)) if *w < 64 => Some(sign_extend(n as u64, *w)),
            Some(Ty::Int(_)) => Some(n),
            _ => None,
        }
    }

    /// The right-hand side of `!N = ...`.
    fn md_definition(&mut self, out: &mut String, item: &Md) {
        match item {
            Md::Node { distinct, ops } => {
                if *distinct {
                    out.push_str("distinct ");
                }
                out.push_str("!{");
                let m = self.m;
                for (i, &o) in m.md.ops(ops).iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    self.md_operand(out, o);
                }
                out.push('}');
            }
            Md::Special {
                distinct,
                kind,
                fields,
            } => {
                if *distinct {
                    out.push_str("distinct ");
                }
                out.push('!');
                out.push_str(kind);
                out.push('(');
                let mut first = true;
                for (name, f) in fields {
                    let item = match f {
                        Field::Md(id)
                        | Field::Str(id)
                        | Field::Bound(id)
                        | Field::StrAlways(id) => self.m.md.items.get(id.wrapping_sub(1) as usize),
                        _ => None,
                    };
                    // As `MDFieldPrinter`: null nodes and null or empty
                    // strings left out.
                    let left_out = match (f, item) {
                        (Field::Md(0) | Field::Str(0) | Field::Bound(0), _) => true,
                        (Field::Str(_), Some(Md::Str(s))) => s.is_empty(),
                        _ => false,
                    };
                    if left_out {
                        continue;
                    }
                    if !first {
                        out.push_str(", ");
                    }
                    first = false;
                    out.push_str(name);
                    out.push_str(": ");
                    match (f, item) {
                        (Field::Str(_) | Field::StrAlways(_), Some(Md::Str(s))) => {
                            out.push('"');
                            escape_into(out, self.m.md.str(s));
                            out.push('"');
                        }
                        (Field::StrAlways(0), _) => out.push_str("\"\""),
                        (Field::Bound(id), Some(Md::Value(t, v))) => match self.const_int(*t, *v) {
                            Some(n) => push_int(out, n),
                            None => self.md_operand(out, *id),
                        },
                        (
                            Field::Md(id)
                            | Field::MdOrNull(id)
                            | Field::Str(id)
                            | Field::StrAlways(id)
                            | Field::Bound(id),
                            _,
                        ) => self.md_operand(out, *id),
                        (Field::Int(v), _) => push_int(out, *v),
                        (Field::Uint(v), _) => push_int(out, *v),
                        (Field::Word(w), _) => out.push_str(w),
                        (Field::Text(t), _) => out.push_str(t),
                    }
                }
                out.push(')');
            }
            other => {
                // Strings and values are never numbered; printed inline.
                let _ = other;
            }
        }
    }

    /// Numbers what LLVM numbers before any function, once, before the
    /// first use: the globals' attachments, then the named metadata's
    /// operands.
    fn number_module(&mut self) {
        if self.n.ready {
            return;
        }
        self.n.ready = true;
        // Function attributes are numbered in the functions' order first,
        // as llvm-dis does; call sites' come after, as met.
        for f in 0..self.m.functions.len() {
            let list = self.m.functions[f].attrs;
            self.attrs(&mut String::new(), list, u32::MAX);
        }
        let module_len = self.m.md_module_len.min(self.m.md.items.len());
        self.n.numbers.clear();
        self.n.numbers.resize(module_len, u32::MAX);
        self.n.slots.clear();
        self.n.functions_done = 0;
        let m = self.m;
        for g in &m.globals {
            for (_, md) in by_kind(&g.attachments).iter() {
                self.slot(*md);
            }
        }
        for (_, ops) in &m.md.named {
            for &o in ops {
                self.slot(o);
            }
        }
    }

    /// Numbers the declarations before function `f` that were not yet
    /// (their attachments), as LLVM does when it prints them.
    fn number_declarations_before(&mut self, f: usize) {
        let m = self.m;
        while self.n.functions_done < f {
            let func = m.functions.get(self.n.functions_done);
            self.n.functions_done += 1;
            if let Some(func) = func.filter(|func| func.body.is_none()) {
                for (_, md) in by_kind(&func.attachments).iter() {
                    self.slot(*md);
                }
            }
        }
        self.n.functions_done = self.n.functions_done.max(f + 1);
    }

    /// LLVM's `CreateMetadataSlot`: gives node `root` the next number if
    /// it has none, then its operands that are nodes theirs, depth first.
    /// Each node is expanded once, so the walk ends, in time linear in
    /// the operands, whatever the file holds.
    fn slot(&mut self, root: u64) {
        let mut stack = std::mem::take(&mut self.n.stack);
        stack.clear();
        stack.push(root);
        let md = &self.m.md;
        while let Some(id) = stack.pop() {
            let Some(i) = usize::try_from(id).ok() else {
                continue;
            };
            let (Some(item), Some(number)) = (md.items.get(i), self.n.numbers.get_mut(i)) else {
                continue;
            };
            if *number != u32::MAX || !matches!(item, Md::Node { .. } | Md::Special { .. }) {
                continue;
            }
            // LLVM keeps one node per location: a loop's location that
            // some `!dbg` already named is that one.
            let key = location_key(item);
            if let Some(&same) = key.as_ref().and_then(|k| self.n.locations.get(k)) {
                *number = same;
                continue;
            }
            *number = self.n.next;
            if let Some(key) = key {
                self.n.locations.insert(key, self.n.next);
            }
            self.n.next += 1;
            self.n.slots.push(Slot::Node(i as u32));
            push_operands(md, item, &mut stack);
        }
        self.n.stack = stack;
    }

    /// A `!dbg` location: numbered (its scope and `inlinedAt` after it,
    /// and its line written among the extra ones) the first time it is
    /// seen.
    fn location(&mut self, mut loc: [u64; 5]) -> u32 {
        loc[4] = u64::from(loc[4] != 0);
        if let Some(&n) = self.n.locations.get(&loc) {
            return n;
        }
        let n = self.n.next;
        self.n.next += 1;
        self.n.locations.insert(loc, n);
        let slot = self.n.slots.len();
        self.n.slots.push(Slot::Line(0, 0));
        let [line, col, scope, ia, implicit] = loc;
        for operand in [scope, ia] {
            if operand != 0 {
                self.slot(operand - 1);
            }
        }
        // As `writeDILocation`: the line always, the column unless zero.
        let mut text = format!("!{n} = !DILocation(line: {line}, ");
        if col != 0 {
            let _ = write!(text, "column: {col}, ");
        }
        text.push_str("scope: ");
        self.md_operand(&mut text, scope);
        if ia != 0 {
            text.push_str(", inlinedAt: ");
            self.md_operand(&mut text, ia);
        }
        if implicit != 0 {
            text.push_str(", isImplicitCode: true");
        }
        text.push_str(")\n");
        let start = self.n.extra.len();
        self.n.extra.push_str(&text);
        self.n.slots[slot] = Slot::Line(start, self.n.extra.len());
        n
    }

    fn attachments(&mut self, out: &mut String, list: &[(u64, u64)], sep: &str) {
        for &(kind, md) in by_kind(list).iter() {
            let name = self.m.kind_name(kind).unwrap_or("unknown");
            out.push_str(sep);
            out.push('!');
            out.push_str(name);
            out.push(' ');
            self.md_ref(out, md);
        }
    }

    /// Attributes of list `list` (1-based) at `index`: the return value
    /// (`noundef `), a parameter (` noundef`) or the function (` #K`).
    fn attrs(&mut self, out: &mut String, list: u64, index: u32) {
        let m = self.m;
        // Disjoint fields: the lists' groups are read while the function
        // groups' numbers are written.
        let n = &mut *self.n;
        let list_groups = n.list_groups.get_or_insert_with(|| {
            m.lists
                .iter()
                .map(|groups| {
                    groups
                        .iter()
                        .filter_map(|g| Some((m.groups.get(g)?.index, *g)))
                        .collect()
                })
                .collect()
        });
        let Some(groups) = list
            .checked_sub(1)
            .and_then(|l| list_groups.get(l as usize))
        else {
            return;
        };
        for &(at, g) in groups {
            if at != index {
                continue;
            }
            let Some(group) = m.groups.get(&g) else {
                continue;
            };
            if index == u32::MAX {
                let next = n.groups.len() as u32;
                let k = *n.groups.entry(g).or_insert_with(|| next);
                if k == next {
                    n.group_order.push(g);
                }
                out.push_str(" #");
                push_int(out, k);
            } else if index == 0 {
                for a in &group.attrs {
                    out.push_str(a);
                    out.push(' ');
                }
            } else {
                for a in &group.attrs {
                    out.push(' ');
                    out.push_str(a);
                }
            }
        }
    }

    fn pieces(&mut self, out: &mut String, pieces: &[Piece], texts: &[String]) {
        for p in pieces {
            match p {
                Piece::S(s) => out.push_str(s),
                Piece::Own(i) => out.push_str(texts.get(*i as usize).map_or("", |s| s)),
                Piece::T(t) => self.ty(out, *t),
                Piece::V(v) => self.value(out, *v, 0),
                Piece::TV(t, v) => {
                    self.ty(out, *t);
                    out.push(' ');
                    self.value(out, *v, 0);
                }
                Piece::L(b) => {
                    out.push_str("label ");
                    self.block(out, *b);
                }
                Piece::B(b) => self.block(out, *b),
                Piece::Md(id) => {
                    out.push_str("metadata ");
                    self.md_ref(out, *id);
                }
                Piece::Attrs(list, index) => self.attrs(out, *list, *index),
                Piece::Align(bytes) => {
                    out.push_str(", align ");
                    push_int(out, *bytes);
                }
            }
        }
    }

    /// `define`/`declare` line up to the parameters' closing parenthesis
    /// and what follows it.
    fn header(&mut self, out: &mut String, f: usize, body: Option<&Body>) {
        let func = &self.m.functions[f];
        let Some(Ty::Function {
            vararg,
            ret,
            params,
        }) = self.m.types.get(func.ty)
        else {
            return;
        };
        let declaration = body.is_none();
        // As llvm-dis: the function's attributes but strings in a comment
        // first, which keeps IR line numbers where llvm-dis has them.
        let listed = func
            .attrs
            .checked_sub(1)
            .and_then(|l| self.m.lists.get(l as usize))
            .into_iter()
            .flatten()
            .filter_map(|g| self.m.groups.get(g))
            .filter(|g| g.index == u32::MAX)
            .flat_map(|g| g.attrs.iter())
            .filter(|a| !a.starts_with('"'));
        let mut any = false;
        for a in listed {
            out.push_str(if any { " " } else { "; Function Attrs: " });
            out.push_str(a);
            any = true;
        }
        if any {
            out.push('\n');
        }
        out.push_str(if declaration { "declare " } else { "define " });
        out.push_str(linkage(func.linkage));
        out.push_str(visibility(func.visibility));
        out.push_str(&calling_convention(func.cc));
        self.attrs(out, func.attrs, 0);
        self.ty(out, *ret);
        out.push_str(" @");
        write_name(out, &func.name);
        out.push('(');
        for (i, p) in params.iter().enumerate() {
            if i > 0 {
                out.push_str(", ");
            }
            self.ty(out, *p);
            self.attrs(out, func.attrs, i as u32 + 1);
            if let Some(b) = body {
                out.push(' ');
                self.local(out, b.first_arg + i as u32);
            }
        }
        if *vararg {
            out.push_str(if params.is_empty() { "..." } else { ", ..." });
        }
        out.push(')');
        let ua = unnamed_addr(func.unnamed_addr);
        if !ua.is_empty() {
            out.push(' ');
            out.push_str(ua.trim_end());
        }
        if func.addrspace != 0 {
            let _ = write!(out, " addrspace({})", func.addrspace);
        }
        self.attrs(out, func.attrs, u32::MAX);
        if let Some(s) = func
            .section
            .checked_sub(1)
            .and_then(|s| self.m.sections.get(s as usize))
        {
            out.push_str(" section \"");
            escape_into(out, s.as_bytes());
            out.push('"');
        }
        if func.align != 0 && func.align <= 33 {
            let _ = write!(out, " align {}", 1u64 << (func.align - 1));
        }
        // LLVM prints a declaration's attachments too.
        let list = match body {
            Some(b) => b.attachments.clone(),
            None => func.attachments.clone(),
        };
        self.attachments(out, &list, " ");
    }
}

/// A location node's key as a `!dbg` location's (line, column, scope + 1,
/// inlinedAt + 1, implicit), if it is one that is not distinct.
fn location_key(item: &Md) -> Option<[u64; 5]> {
    let Md::Special {
        distinct: false,
        kind: "DILocation",
        fields,
    } = item
    else {
        return None;
    };
    let mut key = [0u64; 5];
    for (name, f) in fields {
        match (*name, f) {
            ("line", Field::Uint(v)) => key[0] = *v,
            ("column", Field::Uint(v)) => key[1] = *v,
            ("scope", Field::MdOrNull(id)) => key[2] = *id,
            ("inlinedAt", Field::Md(id)) => key[3] = *id,
            ("isImplicitCode", _) => key[4] = 1,
            _ => return None,
        }
    }
    Some(key)
}

/// Attachments sorted by kind, as LLVM prints and numbers them: a copy to
/// sort only when they are not.
fn by_kind(list: &[(u64, u64)]) -> std::borrow::Cow<'_, [(u64, u64)]> {
    if list.is_sorted_by_key(|&(k, _)| k) {
        list.into()
    } else {
        let mut copy = list.to_vec();
        copy.sort_by_key(|&(k, _)| k);
        copy.into()
    }
}

fn sign_extend(bits: u64, width: u32) -> i64 {
    if width == 0 || width >= 64 {
        return bits as i64;
    }
    let shift = 64 - width;
    ((bits << shift) as i64) >> shift
}

/// A floating-point constant as LLVM prints it: half and bfloat in hex
/// (`0xH3C00`), float and double as `%e` when that reads back exactly,
/// else the double's bits in hex.
fn write_float(out: &mut String, ty: Option<&Ty>, bits: u64) {
    let value = match ty {
        Some(Ty::Half) => {
            let _ = write!(out, "0xH{:04X}", bits & 0xFFFF);
            return;
        }
        Some(Ty::BFloat) => {
            let _ = write!(out, "0xR{:04X}", bits & 0xFFFF);
            return;
        }
        Some(Ty::Float) => f64::from(f32::from_bits(bits as u32)),
        Some(Ty::Double) => f64::from_bits(bits),
        _ => {
            let _ = write!(out, "0x{bits:016X}");
            return;
        }
    };
    // A normal double (or zero) whose shortest exact digits are seven or
    // fewer: they are what `%e` prints (no two seven-digit decimals are
    // that close), so no second formatting to check it reads back.
    // Formatting twice with an allocation each was ~0.7% of a scan of
    // mlx.metallib.
    if value.is_finite() && (value == 0.0 || value.abs() >= f64::MIN_POSITIVE) {
        let start = out.len();
        let _ = write!(out, "{value:e}");
        let shortest = out.get(start..).and_then(|t| t.split_once('e'));
        if let Some((mantissa, exp)) = shortest {
            let negative = mantissa.starts_with('-');
            let mut digits = [b'0'; 7];
            let mut count = 0;
            for d in mantissa.bytes().filter(u8::is_ascii_digit) {
                if let Some(slot) = digits.get_mut(count) {
                    *slot = d;
                }
                count += 1;
            }
            if let (true, Ok(exp)) = (count <= 7, exp.parse::<i32>()) {
                out.truncate(start);
                if negative {
                    out.push('-');
                }
                out.push(char::from(digits[0]));
                out.push('.');
                digits[1..].iter().for_each(|&d| out.push(char::from(d)));
                out.push_str(if exp < 0 { "e-" } else { "e+" });
                if exp.unsigned_abs() < 10 {
                    out.push('0');
                }
                push_int(out, exp.unsigned_abs());
                return;
            }
        }
        out.truncate(start);
    } else if value.is_finite() {
        // Subnormal: several seven-digit decimals may read back as it.
        if let Some(text) = six_digits_exactly(value) {
            out.push_str(&text);
            return;
        }
    }
    let _ = write!(out, "0x{:016X}", value.to_bits());
}

/// `value` as `%e` prints it (`1.000000e+00`), if that reads back exactly.
fn six_digits_exactly(value: f64) -> Option<String> {
    let text = format!("{value:.6e}");
    let (mantissa, exp) = text.split_once('e')?;
    let (sign, digits) = match exp.strip_prefix('-') {
        Some(d) => ('-', d),
        None => ('+', exp),
    };
    let printed = format!("{mantissa}e{sign}{digits:0>2}");
    (printed.parse::<f64>().ok() == Some(value)).then_some(printed)
}

/// Prints function `f` (its `define` line, body and closing brace) at the
/// end of `out`, numbering its values and the metadata it brings.
pub fn function(m: &mut Module<'_>, f: usize, body: &Body, out: &mut String) {
    let mut n = std::mem::take(&mut m.numbering);
    let module_md = m.md_module_len;
    {
        let mut p = Printer {
            m,
            n: &mut n,
            locals: None,
            named_locals: 0,
        };
        p.number_module();
        p.number_declarations_before(f);
        // The body's own nodes are numbered as they are met, like the
        // module's not numbered yet.
        p.n.numbers.resize(p.m.md.items.len(), u32::MAX);
        let first_slot = p.n.slots.len();
        // Slots: unnamed arguments, then each block and result in order;
        // each local's text is written as it is numbered (most bodies name
        // nothing: no lookups then).
        let named = |id: u32| match body.names.is_empty() {
            true => None,
            false => body.names.get(&id),
        };
        let values_end = p.m.values.len() as u32;
        let locals = &mut p.n.locals;
        locals.clear();
        locals.spans.resize(
            values_end.saturating_sub(body.first_arg) as usize,
            UNWRITTEN,
        );
        let mut write_local = |id: u32, next: &mut u32| {
            let text = &mut locals.text;
            let start = text.len();
            text.push('%');
            match named(id) {
                Some(name) => write_name(text, name),
                None => {
                    push_int(text, *next);
                    *next += 1;
                }
            }
            if let Some(span) = locals.spans.get_mut((id - body.first_arg) as usize) {
                *span = (start, text.len());
            }
        };
        let mut next = 0u32;
        for a in 0..body.arg_count {
            write_local(body.first_arg + a, &mut next);
        }
        let mut block_slots = vec![0u32; body.block_starts.len()];
        let mut starts = body.block_starts.iter().peekable();
        let mut b = 0usize;
        for (i, inst) in body.insts.iter().enumerate() {
            while starts.peek() == Some(&&i) {
                starts.next();
                if !body.block_names.contains_key(&(b as u32)) {
                    block_slots[b] = next;
                    next += 1;
                }
                b += 1;
            }
            if let Some(id) = inst
                .result
                .filter(|&id| id >= body.first_arg && id < values_end)
            {
                write_local(id, &mut next);
            }
        }
        p.locals = Some(Locals {
            first: body.first_arg,
            block_slots,
            block_names: &body.block_names,
        });
        p.header(out, f, Some(body));
        out.push_str(" {\n");
        let mut b = 0usize;
        for (i, inst) in body.insts.iter().enumerate() {
            if body.block_starts.get(b) == Some(&i) {
                // As LLVM: every block's label but an unnamed entry
                // block's, a blank line before each but the entry's.
                let named_entry = b == 0 && body.block_names.contains_key(&0);
                if b > 0 || named_entry {
                    if b > 0 {
                        out.push('\n');
                    }
                    let l = p
                        .locals
                        .as_ref()
                        .map(|l| (l.block_names.get(&(b as u32)), l.block_slots[b]));
                    match l {
                        Some((Some(name), _)) => write_name(out, name),
                        Some((None, s)) => {
                            push_int(out, s);
                        }
                        None => {}
                    }
                    out.push_str(":\n");
                }
                b += 1;
            }
            out.push_str("  ");
            if let Some(id) = inst.result {
                p.local(out, id);
                out.push_str(" = ");
            }
            p.pieces(
                out,
                body.pieces.get(inst.pieces.clone()).unwrap_or_default(),
                &body.texts,
            );
            if let Some(loc) = inst.dbg {
                let k = p.location(loc);
                out.push_str(", !dbg !");
                push_int(out, k);
            }
            // Most instructions have none: no call then.
            if !inst.attachments.is_empty() {
                let list = body.inst_attachments.get(inst.attachments.clone());
                p.attachments(out, list.unwrap_or_default(), ", ");
            }
            out.push('\n');
        }
        out.push_str("}\n");
        // Write the lines of the body's own nodes now, while its values
        // can be named (writing one may number more: the loop sees them).
        let mut defs = std::mem::take(&mut p.n.extra);
        let m = p.m;
        let mut k = first_slot;
        while let Some(&slot) = p.n.slots.get(k) {
            if let Slot::Node(id) = slot
                && let Some(item) =
                    m.md.items
                        .get(id as usize)
                        .filter(|_| id as usize >= module_md)
            {
                let start = defs.len();
                defs.push('!');
                push_int(&mut defs, k);
                defs.push_str(" = ");
                p.md_definition(&mut defs, item);
                defs.push('\n');
                p.n.slots[k] = Slot::Line(start, defs.len());
            }
            k += 1;
        }
        p.n.extra = defs;
        p.n.numbers.truncate(module_md);
    }
    m.numbering = n;
}

/// Prints the whole module. `module_id` goes on the `; ModuleID` line.
pub fn module(m: &mut Module<'_>, module_id: &str) -> Result<String, String> {
    let mut n = std::mem::take(&mut m.numbering);
    // All but the bodies and their nodes first, noting where each body
    // goes; then the text is put together in one string of its size
    // (grown by doubling, it was copied about once more: most modules'
    // text is more than 1.5 times their bodies').
    let mut out = std::mem::take(&mut n.rest);
    out.clear();
    let mut bodies = Vec::new();
    {
        let mut p = Printer {
            m,
            n: &mut n,
            locals: None,
            named_locals: 0,
        };
        p.number_module();
        let _ = writeln!(out, "; ModuleID = '{module_id}'");
        out.push_str("source_filename = \"");
        escape_into(&mut out, p.m.source_filename.as_bytes());
        out.push_str("\"\n");
        if !p.m.datalayout.is_empty() {
            out.push_str("target datalayout = \"");
            escape_into(&mut out, p.m.datalayout.as_bytes());
            out.push_str("\"\n");
        }
        if !p.m.triple.is_empty() {
            out.push_str("target triple = \"");
            escape_into(&mut out, p.m.triple.as_bytes());
            out.push_str("\"\n");
        }
        let structs: Vec<TypeId> = p.m.types.identified().collect();
        if !structs.is_empty() {
            out.push('\n');
        }
        for t in structs {
            p.ty(&mut out, t);
            out.push_str(" = type ");
            p.m.types.write_body(&mut out, t);
            out.push('\n');
        }
        if !p.m.globals.is_empty() {
            out.push('\n');
        }
        for g in &p.m.globals {
            out.push('@');
            write_name(&mut out, &g.name);
            out.push_str(" = ");
            if g.init == 0 && linkage(g.linkage).is_empty() {
                out.push_str("external ");
            }
            out.push_str(linkage(g.linkage));
            out.push_str(visibility(g.visibility));
            if g.thread_local != 0 {
                out.push_str("thread_local ");
            }
            out.push_str(unnamed_addr(g.unnamed_addr));
            if g.addrspace != 0 {
                let _ = write!(out, "addrspace({}) ", g.addrspace);
            }
            if g.externally_initialized {
                out.push_str("externally_initialized ");
            }
            out.push_str(if g.constant { "constant " } else { "global " });
            p.ty(&mut out, g.ty);
            if g.init != 0 {
                out.push(' ');
                p.value(&mut out, g.init - 1, 0);
            }
            if let Some(s) = g
                .section
                .checked_sub(1)
                .and_then(|s| p.m.sections.get(s as usize))
            {
                out.push_str(", section \"");
                escape_into(&mut out, s.as_bytes());
                out.push('"');
            }
            if g.align != 0 && g.align <= 33 {
                let _ = write!(out, ", align {}", 1u64 << (g.align - 1));
            }
            p.attachments(&mut out, &g.attachments, ", ");
            out.push('\n');
        }
        for f in 0..p.m.functions.len() {
            out.push('\n');
            match &p.m.functions[f].body {
                Some(span) => bodies.push((out.len(), span.clone())),
                None => {
                    p.header(&mut out, f, None);
                    out.push('\n');
                }
            }
        }
        if !p.n.group_order.is_empty() {
            out.push('\n');
        }
        for (k, g) in p.n.group_order.clone().iter().enumerate() {
            let attrs =
                p.m.groups
                    .get(g)
                    .map(|g| g.attrs.join(" "))
                    .unwrap_or_default();
            let _ = writeln!(out, "attributes #{k} = {{ {attrs} }}");
        }
        if !p.m.md.named.is_empty() {
            out.push('\n');
        }
        for (name, ops) in &p.m.md.named {
            out.push('!');
            write_name(&mut out, name.as_bytes());
            out.push_str(" = !{");
            for (i, &o) in ops.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                p.md_ref(&mut out, o);
            }
            out.push_str("}\n");
        }
        // Every `!N = ...` line, in N's order (writing one may number
        // more: the loop sees them).
        if !p.n.slots.is_empty() {
            out.push('\n');
        }
        let m = p.m;
        let mut k = 0;
        while let Some(&slot) = p.n.slots.get(k) {
            match slot {
                Slot::Line(start, end) => {
                    out.push_str(p.n.extra.get(start..end).unwrap_or_default())
                }
                Slot::Node(id) => match m.md.items.get(id as usize) {
                    Some(item) => {
                        out.push('!');
                        push_int(&mut out, k);
                        out.push_str(" = ");
                        p.md_definition(&mut out, item);
                        out.push('\n');
                    }
                    None => p.fail(format!("metadata {id} was numbered but is gone")),
                },
            }
            k += 1;
        }
    }
    let size = out.len() + bodies.iter().map(|(_, b)| b.len()).sum::<usize>();
    let mut text = String::with_capacity(size);
    let mut from = 0;
    for (at, body) in bodies {
        text.push_str(out.get(from..at).unwrap_or_default());
        text.push_str(m.body_texts.get(body).unwrap_or_default());
        from = at;
    }
    text.push_str(out.get(from..).unwrap_or_default());
    n.rest = out;
    let failed = n.failed.take();
    m.numbering = n;
    match failed {
        Some(why) => Err(why),
        None => Ok(text),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn aggregates_sharing_their_elements_end_in_an_error_not_a_hang() {
        // A global initialised with 40 nested [2 x ...] arrays, each level
        // holding the one below twice: 2^40 constants to print inline.
        let mut m = Module::default();
        let mut ty = m.types.push(Ty::Int(32)).unwrap();
        m.values.push(Value::Const(Const::Int(7)));
        m.value_types.push(ty);
        for level in 0..40u32 {
            ty = m.types.push(Ty::Array(2, ty)).unwrap();
            m.values
                .push(Value::Const(Const::Aggregate(vec![level, level])));
            m.value_types.push(ty);
        }
        m.globals.push(super::super::module::GlobalVar {
            name: b"table".to_vec(),
            ty,
            init: m.values.len() as u32,
            ..Default::default()
        });
        let started = std::time::Instant::now();
        let why = module(&mut m, "shared").unwrap_err();
        assert!(why.contains("constants to print"), "{why}");
        // Bounded: it stops at the limit, not after 2^40 (a few ms).
        assert!(started.elapsed() < std::time::Duration::from_secs(20));
    }

    fn float(ty: Ty, bits: u64) -> String {
        let mut s = String::new();
        write_float(&mut s, Some(&ty), bits);
        s
    }

    #[test]
    fn floats_print_as_llvm_prints_them() {
        assert_eq!(float(Ty::Float, 1.0f32.to_bits().into()), "1.000000e+00");
        assert_eq!(
            float(Ty::Float, (-0.5f32).to_bits().into()),
            "-5.000000e-01"
        );
        // 0.1f is not exact in six digits: the double's bits in hex.
        assert_eq!(
            float(Ty::Float, 0.1f32.to_bits().into()),
            "0x3FB99999A0000000"
        );
        assert_eq!(float(Ty::Double, 1e-300f64.to_bits()), "1.000000e-300");
        assert_eq!(float(Ty::Half, 0x3C00), "0xH3C00");
        assert_eq!(float(Ty::BFloat, 0x3F80), "0xR3F80");
        assert_eq!(
            float(Ty::Float, f32::INFINITY.to_bits().into()),
            "0x7FF0000000000000"
        );
    }

    #[test]
    fn floats_by_their_shortest_digits_print_as_checked_ones() {
        // The shortest digits (one formatting) against formatting to six
        // decimals and reading back (two and a parse), over bits spread
        // across every exponent and the values constants hold most.
        let mut bits = 0x9E37_79B9_7F4A_7C15u64;
        let mut values: Vec<f64> = vec![0.0, -0.0, 1.0, -1.0, 0.5, 1e-300, 1e300, 3.0e-45];
        for _ in 0..200_000 {
            bits = bits
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            values.push(f64::from_bits(bits));
            values.push(f64::from(f32::from_bits((bits >> 32) as u32)));
            values.push((bits % 2_000_001) as f64 / 1000.0 - 1000.0);
        }
        for value in values.into_iter().filter(|v| v.is_finite()) {
            let expected =
                six_digits_exactly(value).unwrap_or_else(|| format!("0x{:016X}", value.to_bits()));
            assert_eq!(float(Ty::Double, value.to_bits()), expected, "{value:e}");
        }
    }

    #[test]
    fn names_are_quoted_when_llvm_quotes_them() {
        let name = |n: &[u8]| {
            let mut s = String::new();
            write_name(&mut s, n);
            s
        };
        assert_eq!(name(b"air.kernel"), "air.kernel");
        assert_eq!(name(b"struct.mlx::Params"), "\"struct.mlx::Params\"");
        assert_eq!(name(b"0abc"), "\"0abc\"");
        assert_eq!(name(b"a\"b\n"), "\"a\\22b\\0A\"");
    }

    /// A module whose metadata are `strings` (ids 0.., so operand `k + 1`
    /// names string `k`), then one empty tuple and a constant `i64 12`
    /// (the next two ids).
    fn md_module(strings: &[&str]) -> Module<'static> {
        let mut m = Module::default();
        for text in strings {
            let start = m.md.bytes.len();
            m.md.bytes.extend_from_slice(text.as_bytes());
            m.md.items.push(Md::Str(start..m.md.bytes.len()));
        }
        m.md.items.push(Md::Node {
            distinct: false,
            ops: 0..0,
        });
        let i64_ty = m.types.push(Ty::Int(64)).unwrap();
        m.values.push(Value::Const(Const::Int(12)));
        m.value_types.push(i64_ty);
        m.md.items.push(Md::Value(i64_ty, 0));
        m.md_module_len = m.md.items.len();
        m
    }

    /// A printer of `m` with its module-level metadata numbered.
    fn numbered<'m>(m: &'m Module<'static>, n: &'m mut Numbering) -> Printer<'m, 'static, 'm> {
        let mut p = Printer {
            m,
            n,
            locals: None,
            named_locals: 0,
        };
        p.number_module();
        p
    }

    /// `!N = ...`'s right-hand side of debug-info record `code` with
    /// operands `ops`, in [`md_module`]`(strings)`.
    fn di(code: u32, ops: &[u64], strings: &[&str]) -> String {
        let m = md_module(strings);
        let r = super::super::bitstream::Reader::new(&[], 0);
        let item = super::super::debug_info::node(&r, code, ops).unwrap();
        // DIExpression: printed inline, as it is.
        if let Md::Raw(text) = item {
            return text;
        }
        let mut n = Numbering::default();
        let mut p = numbered(&m, &mut n);
        let mut out = String::new();
        p.md_definition(&mut out, &item);
        assert!(p.n.failed.is_none(), "{:?}", p.n.failed);
        out
    }

    #[test]
    fn a_compile_unit_names_its_language_and_prints_fields_as_llvm_14() {
        // [distinct, language, file, producer, optimized, flags, runtime
        //  version, split file, emission kind, enums, retained types,
        //  subprograms, globals, imports, dwo id, macros, split debug
        //  inlining, profiling, name table kind, ranges, sysroot, sdk]
        let strings = ["p", "/", "S", ""];
        let tuple = strings.len() as u64 + 1;
        let unit = |language: u64, inlining: u64| {
            let ops = [
                1, language, tuple, 1, 1, 4, 0, 0, 2, 0, 0, 0, 0, tuple, 5, tuple, inlining, 0, 2,
                0, 2, 3,
            ];
            di(20, &ops, &strings)
        };
        // A name, `macros` before `dwoId`, `splitDebugInlining` only
        // when false, the empty `flags` string left out.
        assert_eq!(
            unit(0x21, 0),
            "distinct !DICompileUnit(language: DW_LANG_C_plus_plus_14, file: !0, \
             producer: \"p\", isOptimized: true, runtimeVersion: 0, emissionKind: \
             LineTablesOnly, imports: !0, macros: !0, dwoId: 5, splitDebugInlining: false, \
             nameTableKind: None, sysroot: \"/\", sdk: \"S\")"
        );
        // A language LLVM 14 does not name stays a number; the default
        // `splitDebugInlining: true` is not printed.
        assert!(unit(0x26, 1).starts_with("distinct !DICompileUnit(language: 38, file: !0,"));
        assert!(!unit(0x26, 1).contains("splitDebugInlining"));
        // No language at all: left out, as `printDwarfEnum` leaves out 0.
        assert!(unit(0, 1).starts_with("distinct !DICompileUnit(file: !0,"));
    }

    #[test]
    fn a_file_prints_its_directory_even_when_empty() {
        // [distinct, filename, directory, checksum kind, checksum]
        assert_eq!(
            di(16, &[0, 1, 0], &["a.metal"]),
            "!DIFile(filename: \"a.metal\", directory: \"\")"
        );
        assert_eq!(
            di(16, &[0, 1, 2], &["a.metal", ""]),
            "!DIFile(filename: \"a.metal\", directory: \"\")"
        );
        assert_eq!(
            di(16, &[0, 1, 2, 1, 3], &["a.metal", "/src", "0f"]),
            "!DIFile(filename: \"a.metal\", directory: \"/src\", checksumkind: CSK_MD5, \
             checksum: \"0f\")"
        );
    }

    #[test]
    fn a_location_leaves_out_a_zero_column() {
        // A node: [distinct, line, column, scope, inlinedAt + 1].
        assert_eq!(
            di(7, &[0, 9, 0, 0, 0], &[]),
            "!DILocation(line: 9, scope: !0)"
        );
        assert_eq!(
            di(7, &[1, 0, 4, 0, 1], &[]),
            "distinct !DILocation(line: 0, column: 4, scope: !0, inlinedAt: !0)"
        );
        // A `!dbg` location: (line, column, scope + 1, inlinedAt + 1,
        // implicit).
        let m = md_module(&[]);
        let mut n = Numbering::default();
        let mut p = numbered(&m, &mut n);
        p.location([9, 0, 1, 0, 0]);
        p.location([9, 3, 1, 0, 1]);
        assert_eq!(
            n.extra,
            "!0 = !DILocation(line: 9, scope: !1)\n\
             !2 = !DILocation(line: 9, column: 3, scope: !1, isImplicitCode: true)\n"
        );
    }

    #[test]
    fn variables_and_derived_types_print_fields_in_llvm_order() {
        // [distinct | has align << 1, scope, name, file, line, type, arg,
        //  flags, align]: `arg` right after the name.
        assert_eq!(
            di(28, &[2, 2, 1, 2, 3, 2, 2, 64, 0], &["x"]),
            "!DILocalVariable(name: \"x\", arg: 2, scope: !0, file: !0, line: 3, type: !0, \
             flags: DIFlagArtificial)"
        );
        // [distinct, tag, name, file, line, scope, base, size, align,
        //  offset, flags, extra, address space + 1]: zeros left out,
        //  address space 0 printed.
        assert_eq!(
            di(17, &[0, 0x0f, 0, 0, 0, 0, 1, 64, 0, 0, 0, 0, 1], &[]),
            "!DIDerivedType(tag: DW_TAG_pointer_type, baseType: !0, size: 64, \
             dwarfAddressSpace: 0)"
        );
        assert_eq!(
            di(17, &[0, 0x0d, 1, 2, 5, 2, 2, 32, 0, 96, 3, 0], &["m"]),
            "!DIDerivedType(tag: DW_TAG_member, name: \"m\", scope: !0, file: !0, line: 5, \
             baseType: !0, size: 32, offset: 96, flags: DIFlagPublic)"
        );
    }

    #[test]
    fn other_debug_info_forms_as_llvm_14_prints_them() {
        // A subrange's constant count is its number.
        assert_eq!(di(13, &[4, 2, 0, 0, 0], &[]), "!DISubrange(count: 12)");
        // A base type: size 0 left out, a tag other than base_type shown.
        assert_eq!(
            di(15, &[0, 0x3b, 1, 0, 0, 0], &["decltype(nullptr)"]),
            "!DIBasicType(tag: DW_TAG_unspecified_type, name: \"decltype(nullptr)\")"
        );
        // A subprogram: zero line and scope line left out; virtuality's
        // two values are single bits; `virtualIndex` shown for a virtual
        // one; flags' two-bit groups by value.
        let sp = di(
            21,
            &[
                7,
                2,
                1,
                0,
                2,
                0,
                2,
                0,
                2,
                2 | 8,
                0,
                3 | (2 << 16),
                2,
                0,
                0,
                0,
                0,
                0,
            ],
            &["f"],
        );
        assert_eq!(
            sp,
            "distinct !DISubprogram(name: \"f\", scope: !0, file: !0, type: !0, \
             containingType: !0, virtualIndex: 0, flags: DIFlagPublic | \
             DIFlagMultipleInheritance, spFlags: DISPFlagPureVirtual | DISPFlagDefinition, \
             unit: !0)"
        );
        // DW_OP_LLVM_convert's encoding by name.
        assert_eq!(
            di(29, &[0, 0x1001, 32, 5, 0x9f], &[]),
            "!DIExpression(DW_OP_LLVM_convert, 32, DW_ATE_signed, DW_OP_stack_value)"
        );
    }

    #[test]
    fn a_named_entry_block_is_labelled() {
        // `define void @f()` whose one block holds `ret void`, printed
        // with the entry block unnamed, then named.
        let print = |entry_name: Option<&[u8]>| {
            let mut m = Module::default();
            let void = m.types.push(Ty::Void).unwrap();
            let ty = m
                .types
                .push(Ty::Function {
                    vararg: false,
                    ret: void,
                    params: Vec::new(),
                })
                .unwrap();
            m.functions.push(super::super::module::Function {
                name: b"f".to_vec(),
                ty,
                ..Default::default()
            });
            let mut body = Body {
                insts: vec![super::super::function::Inst {
                    result: None,
                    pieces: 0..1,
                    dbg: None,
                    attachments: 0..0,
                }],
                pieces: vec![Piece::S("ret void")],
                block_starts: vec![0],
                ..Default::default()
            };
            if let Some(name) = entry_name {
                body.block_names.insert(0, name.to_vec());
            }
            let mut out = String::new();
            function(&mut m, 0, &body, &mut out);
            out
        };
        assert_eq!(print(None), "define void @f() {\n  ret void\n}\n");
        assert_eq!(
            print(Some(b"entry")),
            "define void @f() {\nentry:\n  ret void\n}\n"
        );
    }

    #[test]
    fn flags_and_attributes() {
        use super::super::attributes::{enum_name, int_attr};
        use super::super::function::fast_math;
        assert_eq!(fast_math(1), "fast ");
        assert_eq!(fast_math(0b10_0010), "nnan contract ");
        assert_eq!(enum_name(68), "noundef");
        assert_eq!(enum_name(43), "convergent");
        assert_eq!(int_attr(1, 16), "align 16");
        assert_eq!(int_attr(41, 8), "dereferenceable(8)");
    }
}
