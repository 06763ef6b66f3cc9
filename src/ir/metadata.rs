//! Metadata nodes: tuples, strings, the debug-info nodes source mapping needs
//! (DILocation, DISubprogram, DIFile, DICompileUnit), and everything else
//! kept generic as a kind plus named fields.
use std::borrow::Cow;

use super::model::Value;

/// One operand of a tuple, or one field value of a specialized node.
#[derive(Clone, Debug, PartialEq)]
pub enum MetaOperand<'a> {
    /// `!12`
    Ref(u32),
    /// `!"text"` (escapes untouched).
    Str(&'a str),
    /// `null`
    Null,
    /// A typed value, type dropped: `i32 0`, `void (...)* @kernel`.
    Value(Value<'a>),
    /// An inline node: `!{...}`, `!DIExpression()`.
    Node(Box<MetaNode<'a>>),
    /// An untyped integer field such as `line: 12`.
    Int(i64),
    /// A string field such as `name: "foo"`.
    FieldStr(&'a str),
    /// An enumerator or flag set as written: `DW_LANG_Metal`,
    /// `DIFlagPrototyped | DIFlagAllCallsDescribed`, `true`.
    Word(&'a str),
}

impl<'a> MetaOperand<'a> {
    pub fn as_ref_id(&self) -> Option<u32> {
        match self {
            MetaOperand::Ref(id) => Some(*id),
            _ => None,
        }
    }

    /// The text of a metadata string or string field.
    pub fn as_str(&self) -> Option<&'a str> {
        match self {
            MetaOperand::Str(s) | MetaOperand::FieldStr(s) => Some(s),
            _ => None,
        }
    }

    /// The value of an integer operand (`i32 3`) or field (`line: 3`).
    pub fn as_int(&self) -> Option<i64> {
        match self {
            MetaOperand::Int(v) => Some(*v),
            MetaOperand::Value(v) => match *v {
                super::model::Value::Int(v) => Some(v),
                super::model::Value::Bool(b) => Some(b as i64),
                _ => None,
            },
            _ => None,
        }
    }

    /// The global a typed operand names (`void (...)* @kernel` gives `kernel`).
    pub fn as_global(&self) -> Option<&'a str> {
        match self {
            MetaOperand::Value(v) => global_of(v),
            _ => None,
        }
    }
}

/// The global at the root of a value, looking through constant casts.
fn global_of<'a>(v: &super::model::Value<'a>) -> Option<&'a str> {
    use super::model::Value;
    let mut v = v;
    for _ in 0..16 {
        match v {
            Value::Global(g) => return Some(g),
            Value::Expr(e) if e.opcode.is_cast() => v = &e.operands.first()?.value,
            _ => return None,
        }
    }
    None
}

#[derive(Clone, Debug, PartialEq)]
pub enum MetaNode<'a> {
    Tuple(Vec<MetaOperand<'a>>),
    Location(DILocation),
    Subprogram(DISubprogram<'a>),
    File(DIFile<'a>),
    CompileUnit(DICompileUnit<'a>),
    /// Any other `!DIxxx(...)` or `!GenericDINode(...)`.
    Specialized {
        kind: &'a str,
        fields: Vec<(&'a str, MetaOperand<'a>)>,
    },
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DILocation {
    pub line: u32,
    pub column: u32,
    pub scope: Option<u32>,
    pub inlined_at: Option<u32>,
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct DISubprogram<'a> {
    pub name: Option<&'a str>,
    pub linkage_name: Option<&'a str>,
    pub scope: Option<u32>,
    pub file: Option<u32>,
    pub line: u32,
    pub scope_line: u32,
    pub unit: Option<u32>,
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct DIFile<'a> {
    pub filename: &'a str,
    pub directory: &'a str,
    /// The embedded source text (`-frecord-sources`), escapes untouched.
    pub source: Option<&'a str>,
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct DICompileUnit<'a> {
    /// `DW_LANG_Metal`, `DW_LANG_C_plus_plus_14`, ...
    pub language: &'a str,
    pub file: Option<u32>,
    pub producer: Option<&'a str>,
    pub is_optimized: bool,
    pub emission_kind: Option<&'a str>,
}

impl<'a> MetaNode<'a> {
    /// Builds a node from `!Kind(field: value, ...)`, typed for the kinds
    /// source mapping needs and generic for the rest.
    pub fn specialized(kind: &'a str, fields: Vec<(&'a str, MetaOperand<'a>)>) -> Self {
        let field = |name: &str| fields.iter().find(|(n, _)| *n == name).map(|(_, v)| v);
        let int = |name: &str| field(name).and_then(|v| v.as_int()).unwrap_or(0);
        let uint = |name: &str| int(name).clamp(0, u32::MAX as i64) as u32;
        let reference = |name: &str| field(name).and_then(|v| v.as_ref_id());
        let string = |name: &str| field(name).and_then(|v| v.as_str());
        match kind {
            "DILocation" => MetaNode::Location(DILocation {
                line: uint("line"),
                column: uint("column"),
                scope: reference("scope"),
                inlined_at: reference("inlinedAt"),
            }),
            "DISubprogram" => MetaNode::Subprogram(DISubprogram {
                name: string("name"),
                linkage_name: string("linkageName"),
                scope: reference("scope"),
                file: reference("file"),
                line: uint("line"),
                scope_line: uint("scopeLine"),
                unit: reference("unit"),
            }),
            "DIFile" => MetaNode::File(DIFile {
                filename: string("filename").unwrap_or(""),
                directory: string("directory").unwrap_or(""),
                source: string("source"),
            }),
            "DICompileUnit" => MetaNode::CompileUnit(DICompileUnit {
                language: match field("language") {
                    Some(MetaOperand::Word(w)) => w,
                    _ => "",
                },
                file: reference("file"),
                producer: string("producer"),
                is_optimized: matches!(field("isOptimized"), Some(MetaOperand::Word("true"))),
                emission_kind: match field("emissionKind") {
                    Some(MetaOperand::Word(w)) => Some(w),
                    _ => None,
                },
            }),
            _ => MetaNode::Specialized { kind, fields },
        }
    }

    pub fn tuple(&self) -> Option<&[MetaOperand<'a>]> {
        match self {
            MetaNode::Tuple(ops) => Some(ops),
            _ => None,
        }
    }
}

/// Where a node was defined.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MetaEntry {
    pub distinct: bool,
    pub line: u32,
}

/// One numbered node: where its text is, and the node once asked for.
/// 24 bytes: a large module has hundreds of thousands of nodes, most never
/// asked for. Offsets fit in `u32` because `MAX_FILE_SIZE` is under 4 GiB.
#[derive(Debug)]
struct Slot<'a> {
    id: u32,
    start: u32,
    /// The text's length, with `DISTINCT` set for `distinct` nodes.
    len_and_distinct: u32,
    line: u32,
    /// The parsed node, `None` inside when it failed to parse. Boxed
    /// outside the `Option` so the cell is one pointer (an
    /// `Option<Box<_>>` inside a cell would need a second word).
    node: std::cell::OnceCell<Box<Option<MetaNode<'a>>>>,
}

// The size the comment above promises (it was 32 bytes once, unnoticed).
const _: () = assert!(std::mem::size_of::<Slot<'static>>() == 24);

const DISTINCT: u32 = 1 << 31;

impl Slot<'_> {
    fn range(&self) -> std::ops::Range<usize> {
        let start = self.start as usize;
        start..start + (self.len_and_distinct & !DISTINCT) as usize
    }
}

/// Numbered metadata of a module, sorted by id.
///
/// Nodes are parsed when first asked for, and kept from then on. The
/// reader has already parsed each once to report errors; keeping only its
/// place makes a module's metadata cost ~40 bytes a node until used (debug
/// info and alias scopes are most of a large module's metadata, and most of
/// it is never looked at).
///
/// Slots are kept in id order, not at their id: the compiler numbers nodes
/// densely from 0, so node `i` is found at slot `i` in one step, and a
/// table indexed by id would let one line `!67108864 = !{}` cost 2.6 GB.
/// Ids with gaps are found by binary search.
#[derive(Debug, Default)]
pub struct MetadataTable<'a> {
    text: &'a str,
    slots: Vec<Slot<'a>>,
    /// `slots` is in strictly increasing id order (else `finish` sorts it).
    sorted: bool,
    /// Types met while parsing nodes on demand (`void (...)* @f` operands).
    /// Made on first use: most modules never need it, and a table costs
    /// a few thousand instructions to set up.
    scratch_types: std::cell::RefCell<Option<super::types::TypeTable<'a>>>,
    /// Some node not parsed by the reader spells a typed pointer (`T*`);
    /// see `TypeTable::has_typed_pointer` for the parsed ones.
    pub mentions_typed_pointers: bool,
    /// Nodes that failed to parse when first asked for (the reader checks
    /// only their brackets), with their line; see `take_errors`.
    errors: std::cell::RefCell<Vec<super::model::Diagnostic>>,
}

impl<'a> MetadataTable<'a> {
    /// A table over `text`, the module text the node ranges index.
    pub fn new(text: &'a str) -> Self {
        MetadataTable {
            text,
            sorted: true,
            ..Default::default()
        }
    }

    /// Records node `id` at `range` of the text. A later definition of the
    /// same id replaces an earlier one once `finish` is called.
    pub fn insert(&mut self, id: u32, range: std::ops::Range<usize>, line: u32, distinct: bool) {
        if self.slots.last().is_some_and(|s| s.id >= id) {
            self.sorted = false;
        }
        // A node over 2 GiB is cut short, and fails to parse when used.
        let len = u32::try_from(range.len()).map_or(DISTINCT - 1, |l| l.min(DISTINCT - 1));
        self.slots.push(Slot {
            id,
            start: u32::try_from(range.start).unwrap_or(u32::MAX),
            len_and_distinct: len | if distinct { DISTINCT } else { 0 },
            line,
            node: Default::default(),
        });
    }

    /// Puts the slots in id order, the last definition of an id winning.
    /// The reader calls it once all nodes are in.
    pub fn finish(&mut self) {
        self.slots.shrink_to_fit();
        if self.sorted {
            return;
        }
        // Reversed, a stable sort puts the latest definition of each id
        // first, and `dedup` keeps the first of a run.
        self.slots.reverse();
        self.slots.sort_by_key(|s| s.id);
        self.slots.dedup_by_key(|s| s.id);
        self.sorted = true;
    }

    fn slot(&self, id: u32) -> Option<&Slot<'a>> {
        if let Some(s) = self.slots.get(id as usize)
            && s.id == id
        {
            return Some(s);
        }
        if self.sorted {
            let i = self.slots.binary_search_by_key(&id, |s| s.id).ok()?;
            self.slots.get(i)
        } else {
            self.slots.iter().rev().find(|s| s.id == id)
        }
    }

    pub fn entry(&self, id: u32) -> Option<MetaEntry> {
        let s = self.slot(id)?;
        Some(MetaEntry {
            distinct: s.len_and_distinct & DISTINCT != 0,
            line: s.line,
        })
    }

    pub fn get(&self, id: u32) -> Option<&MetaNode<'a>> {
        let s = self.slot(id)?;
        s.node
            .get_or_init(|| Box::new(self.parse_slot(s)))
            .as_ref()
            .as_ref()
    }

    /// Slot `s`'s node read from the text, or `None` (its error recorded).
    fn parse_slot(&self, s: &Slot<'a>) -> Option<MetaNode<'a>> {
        let text = self.text.get(s.range())?;
        if let Some(node) = simple_tuple(text) {
            return Some(node);
        }
        self.parse_full(s, text)
    }

    /// Slot `s`'s node read from its `text` by the full parser, or `None`
    /// (its error recorded).
    fn parse_full(&self, s: &Slot<'a>, text: &'a str) -> Option<MetaNode<'a>> {
        let mut types = self.scratch_types.try_borrow_mut().ok()?;
        let types = types.get_or_insert_with(Default::default);
        match parse_node(text, s.line, types) {
            Ok(node) => Some(node),
            Err(e) => {
                if let Ok(mut errors) = self.errors.try_borrow_mut()
                    && errors.len() < super::limits::MAX_DIAGNOSTICS
                {
                    errors.push(super::model::Diagnostic::error(e.line, e.message));
                }
                None
            }
        }
    }

    /// Drops every node parsed so far (they are parsed again if asked
    /// for): the AIR layer reads thousands of nodes once, and keeping them
    /// through the scan cost ~0.4x the input at the peak.
    pub fn forget_parsed(&mut self) {
        for s in &mut self.slots {
            s.node.take();
        }
    }

    /// The ids of the nodes, in order.
    pub fn ids(&self) -> impl Iterator<Item = u32> + '_ {
        self.slots.iter().map(|s| s.id)
    }

    /// The text of node `id` as written, after `!N = ` (and `distinct`).
    pub fn node_text(&self, id: u32) -> Option<&'a str> {
        self.text.get(self.slot(id)?.range())
    }

    /// Node `id` read by the full parser, bypassing `simple_tuple` and the
    /// cache: what the fast path must agree with.
    pub fn parse_with_full_parser(&self, id: u32) -> Option<MetaNode<'a>> {
        let s = self.slot(id)?;
        let text = self.text.get(s.range())?;
        parse_node(text, s.line, &mut super::types::TypeTable::default()).ok()
    }

    /// Parses every node not parsed yet, so that `take_errors` covers them
    /// all: the full check a scan skips for the nodes it never uses.
    pub fn parse_all(&self) {
        for s in &self.slots {
            self.get(s.id);
        }
    }

    /// The errors of the nodes parsed so far that failed, each once, by line.
    pub fn take_errors(&self) -> Vec<super::model::Diagnostic> {
        let mut errors = self.errors.take();
        errors.sort_by(|a, b| a.line.cmp(&b.line).then_with(|| a.message.cmp(&b.message)));
        // A node read again (after `forget_parsed`, or by `tuple_once`) fails again.
        errors.dedup_by(|a, b| a.line == b.line && a.message == b.message);
        errors
    }

    /// How many errors parsing nodes has recorded so far (with repeats):
    /// whether reading some nodes found one.
    pub fn error_count(&self) -> usize {
        self.errors.try_borrow().map_or(0, |e| e.len())
    }

    /// The number of nodes (after `finish`; before, redefinitions count).
    pub fn len(&self) -> usize {
        self.slots.len()
    }

    pub fn is_empty(&self) -> bool {
        self.slots.is_empty()
    }

    /// The operands of tuple `id`.
    pub fn tuple(&self, id: u32) -> Option<&[MetaOperand<'a>]> {
        self.get(id)?.tuple()
    }

    /// Tuple `id` without keeping it: the node as parsed before if it was,
    /// else read afresh and dropped after use. The AIR layer reads thousands
    /// of nodes once each; keeping them put ~0.3x the input on the scan's
    /// peak of memory.
    pub fn tuple_once(&self, id: u32) -> Option<Cow<'_, [MetaOperand<'a>]>> {
        let s = self.slot(id)?;
        if let Some(node) = s.node.get() {
            return node.as_ref().as_ref()?.tuple().map(Cow::Borrowed);
        }
        match self.parse_slot(s)? {
            MetaNode::Tuple(ops) => Some(Cow::Owned(ops)),
            _ => None,
        }
    }

    /// As [`MetadataTable::tuple_of`], not keeping what it parses.
    pub fn tuple_of_once<'s>(
        &'s self,
        op: &'s MetaOperand<'a>,
    ) -> Option<Cow<'s, [MetaOperand<'a>]>> {
        match op {
            MetaOperand::Ref(id) => self.tuple_once(*id),
            MetaOperand::Node(n) => n.tuple().map(Cow::Borrowed),
            _ => None,
        }
    }

    /// As [`MetadataTable::tuple_of_once`], the operands put in `buf`
    /// (emptied first), not in a vector of their own: the AIR layer reads
    /// thousands of argument descriptions one after another, and sizing
    /// and allocating a vector for each was a good part of their cost.
    /// False, `buf` empty, where `tuple_of_once` gives `None`.
    pub fn tuple_of_into(&self, op: &MetaOperand<'a>, buf: &mut Vec<MetaOperand<'a>>) -> bool {
        buf.clear();
        let s = match op {
            MetaOperand::Ref(id) => match self.slot(*id) {
                Some(s) => s,
                None => return false,
            },
            MetaOperand::Node(n) => return extend_with_tuple(buf, n),
            _ => return false,
        };
        if let Some(node) = s.node.get() {
            return match node.as_ref() {
                Some(n) => extend_with_tuple(buf, n),
                None => false,
            };
        }
        let Some(text) = self.text.get(s.range()) else {
            return false;
        };
        if simple_tuple_into(text, buf) {
            return true;
        }
        buf.clear();
        match self.parse_full(s, text) {
            Some(MetaNode::Tuple(ops)) => {
                buf.extend(ops);
                true
            }
            _ => false,
        }
    }

    /// Resolves an operand to a tuple, whether it is a reference or inline.
    pub fn tuple_of<'s>(&'s self, op: &'s MetaOperand<'a>) -> Option<&'s [MetaOperand<'a>]> {
        match op {
            MetaOperand::Ref(id) => self.tuple(*id),
            MetaOperand::Node(n) => n.tuple(),
            _ => None,
        }
    }

    pub fn location(&self, id: u32) -> Option<DILocation> {
        match self.get(id)? {
            MetaNode::Location(l) => Some(*l),
            _ => None,
        }
    }

    /// A location followed by the locations it was inlined at, innermost
    /// first. Bounded, so a cycle in broken input cannot hang it.
    pub fn inlined_chain(&self, id: u32) -> Vec<DILocation> {
        let mut out = Vec::new();
        let mut next = Some(id);
        while let Some(id) = next {
            if out.len() >= 256 {
                break;
            }
            match self.location(id) {
                Some(loc) => {
                    next = loc.inlined_at;
                    out.push(loc);
                }
                None => break,
            }
        }
        out
    }

    /// The DISubprogram a scope chain ends in (scopes may be lexical blocks).
    pub fn subprogram_of_scope(&self, scope: u32) -> Option<(u32, &DISubprogram<'a>)> {
        let mut id = scope;
        for _ in 0..256 {
            match self.get(id)? {
                MetaNode::Subprogram(sp) => return Some((id, sp)),
                MetaNode::Specialized { fields, .. } => {
                    id = fields.iter().find(|(n, _)| *n == "scope")?.1.as_ref_id()?;
                }
                _ => return None,
            }
        }
        None
    }

    pub fn file(&self, id: u32) -> Option<&DIFile<'a>> {
        match self.get(id)? {
            MetaNode::File(f) => Some(f),
            _ => None,
        }
    }
}

/// Decodes LLVM's `\XX` hex escapes in a string as printed.
pub fn unescape(s: &str) -> String {
    if !s.contains('\\') {
        return s.to_string();
    }
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'\\'
            && i + 2 < b.len()
            && b[i + 1].is_ascii_hexdigit()
            && b[i + 2].is_ascii_hexdigit()
        {
            let hex = |c: u8| (c as char).to_digit(16).unwrap_or(0) as u8;
            out.push(hex(b[i + 1]) * 16 + hex(b[i + 2]));
            i += 3;
            continue;
        }
        if b[i] == b'\\' && i + 1 < b.len() && b[i + 1] == b'\\' {
            out.push(b'\\');
            i += 2;
            continue;
        }
        out.push(b[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unescapes_hex() {
        assert_eq!(unescape("a\\22b\\0A"), "a\"b\n");
        assert_eq!(unescape("plain"), "plain");
        assert_eq!(unescape("end\\"), "end\\");
        assert_eq!(unescape("x\\\\y"), "x\\y");
    }
}
#[cfg(test)]
mod lazy_tests {
    #[test]
    fn nodes_parse_on_demand() {
        let m = crate::ir::read_module("!0 = !{i32 1, !\"x\"}\n!1 = distinct !{!0}\n");
        assert!(m.diagnostics.is_empty(), "{:?}", m.diagnostics);
        assert_eq!(m.metadata.len(), 2);
        assert_eq!(m.metadata.tuple(0).map(|t| t.len()), Some(2));
        assert!(m.metadata.entry(1).unwrap().distinct);
        assert_eq!(m.metadata.tuple(1).unwrap()[0].as_ref_id(), Some(0));
    }
}

/// The full parser on one node's text, which starts on `line`.
fn parse_node<'a>(
    text: &'a str,
    line: u32,
    types: &mut super::types::TypeTable<'a>,
) -> super::parser::PResult<MetaNode<'a>> {
    super::parser::Parser::new(super::lexer::Lexer::new(text, line), types).parse_meta_node()
}

/// `!{...}` whose operands are all `!N`, `!"text"`, `null`, `iN <decimal>`
/// (N of 8 to 64), `i1 true`/`i1 false` or `T @global` (see
/// `global_operand`), read straight from the bytes: the shape of nearly
/// all AIR metadata (an argument's description is 10 to 20 such operands),
/// whose lexing was most of the AIR layer's cost. `None` for anything else,
/// which the full parser reads; tests/corpus.rs checks that both agree on
/// every node of the corpus.
pub fn simple_tuple(text: &str) -> Option<MetaNode<'_>> {
    // One allocation: growing by doubling was a good part of the cost.
    let mut ops = Vec::with_capacity(memchr::memchr_iter(b',', text.as_bytes()).count() + 1);
    simple_tuple_into(text, &mut ops).then_some(MetaNode::Tuple(ops))
}

/// As `simple_tuple`, the operands pushed on `ops`; false (with some
/// pushed perhaps) where `simple_tuple` gives `None`.
fn simple_tuple_into<'t>(text: &'t str, ops: &mut Vec<MetaOperand<'t>>) -> bool {
    let Some(inner) = text.strip_prefix("!{").and_then(|t| t.strip_suffix('}')) else {
        return false;
    };
    let b = inner.as_bytes();
    let mut i = past_spaces(b, 0);
    while i < b.len() {
        let Some((op, next)) = simple_operand(inner, i) else {
            return false;
        };
        ops.push(op);
        i = past_spaces(b, next);
        match b.get(i) {
            None => break,
            Some(b',') => i = past_spaces(b, i + 1),
            Some(_) => return false,
        }
        if i == b.len() {
            return false; // a trailing comma
        }
    }
    true
}

/// Puts the operands of `node`, if a tuple, in `buf`.
fn extend_with_tuple<'a>(buf: &mut Vec<MetaOperand<'a>>, node: &MetaNode<'a>) -> bool {
    match node.tuple() {
        Some(ops) => {
            buf.extend_from_slice(ops);
            true
        }
        None => false,
    }
}

fn past_spaces(b: &[u8], mut i: usize) -> usize {
    while b.get(i) == Some(&b' ') {
        i += 1;
    }
    i
}

fn past_digits(b: &[u8], mut i: usize) -> usize {
    while b.get(i).is_some_and(u8::is_ascii_digit) {
        i += 1;
    }
    i
}

/// The `simple_tuple` operand at byte `i` of `s`, and the offset past it.
fn simple_operand(s: &str, i: usize) -> Option<(MetaOperand<'_>, usize)> {
    let b = s.as_bytes();
    match (b.get(i)?, b.get(i + 1)) {
        (b'!', Some(b'"')) => {
            let open = i + 2;
            let close = open + memchr::memchr2(b'"', b'\n', &b[open..])?;
            if b[close] != b'"' {
                return None;
            }
            Some((MetaOperand::Str(s.get(open..close)?), close + 1))
        }
        (b'!', Some(c)) if c.is_ascii_digit() => {
            // Valued as the digits are passed, as `parse_u32` values up to
            // nine (a call to it cost ~85 instructions an id); longer ones
            // are left to it.
            let (mut id, mut end) = (0u32, i + 1);
            while let Some(&d) = b.get(end)
                && d.is_ascii_digit()
            {
                if end - (i + 1) == 9 {
                    let end = past_digits(b, end);
                    return Some((MetaOperand::Ref(parse_u32(&s[i + 1..end])?), end));
                }
                id = id * 10 + u32::from(d - b'0');
                end += 1;
            }
            Some((MetaOperand::Ref(id), end))
        }
        (b'n', _) => b[i..]
            .starts_with(b"null")
            .then_some((MetaOperand::Null, i + 4)),
        (b'i', _) => {
            let width = past_digits(b, i + 1);
            if b.get(width) != Some(&b' ') {
                return None;
            }
            let number = width + 1;
            match &b[i + 1..width] {
                b"8" | b"16" | b"32" | b"64" => {}
                b"1" => return bool_operand(s, i, number),
                _ => return global_operand(s, i),
            }
            let negative = b.get(number) == Some(&b'-');
            let digits = number + usize::from(negative);
            let end = past_digits(b, digits);
            if end == digits {
                // `i8 addrspace(2)* @c`
                return global_operand(s, i);
            }
            // Eighteen digits cannot overflow an i64; longer is rare.
            let value = if end - digits <= 18 {
                let n = b[digits..end]
                    .iter()
                    .fold(0, |n, &d| n * 10 + i64::from(d - b'0'));
                if negative { -n } else { n }
            } else {
                s[number..end].parse().ok()?
            };
            Some((MetaOperand::Value(Value::Int(value)), end))
        }
        _ => global_operand(s, i),
    }
}

/// `i1 true` or `i1 false` at byte `i` of `s`, the value at `value`.
#[inline(never)]
fn bool_operand(s: &str, i: usize, value: usize) -> Option<(MetaOperand<'_>, usize)> {
    let b = s.as_bytes();
    let (v, end) = if b[value..].starts_with(b"true") {
        (true, value + 4)
    } else if b[value..].starts_with(b"false") {
        (false, value + 5)
    } else {
        return global_operand(s, i);
    };
    ends_operand(b, end).then_some((MetaOperand::Value(Value::Bool(v)), end))
}

/// Whether an operand ending at `at` ends there: the tuple's end, a comma
/// or a blank follows (anything else makes it part of a longer token).
fn ends_operand(b: &[u8], at: usize) -> bool {
    matches!(b.get(at), None | Some(b',' | b' '))
}

/// `T @name` at byte `i` of `s`: how entry points (`void (...)* @k`,
/// `ptr @k`) and function constants (`i8 addrspace(2)* @c`) name their
/// global. The type is only checked to be one `skip_type` knows (a subset
/// of what the full parser reads without error) and dropped, as the full
/// parser drops it; anything else is `None`, for the full parser. Entry
/// points were ~11,000 instructions each through the tokens.
#[inline(never)]
fn global_operand(s: &str, i: usize) -> Option<(MetaOperand<'_>, usize)> {
    let b = s.as_bytes();
    let ty_end = skip_type(b, i, 0)?;
    if b.get(ty_end) != Some(&b' ') {
        return None;
    }
    let at = past_spaces(b, ty_end);
    if b.get(at) != Some(&b'@') {
        return None;
    }
    let end = at + 1 + b[at + 1..].iter().take_while(|c| is_name_byte(**c)).count();
    // `@"quoted"`, `@a-b`: the lexer reads those otherwise.
    if end == at + 1 || !ends_operand(b, end) {
        return None;
    }
    Some((MetaOperand::Value(Value::Global(s.get(at + 1..end)?)), end))
}

/// Bytes of names `global_operand` and `skip_type` take: the lexer's
/// identifier bytes but `-` and `$`, which they leave to the full parser.
fn is_name_byte(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_' || c == b'.'
}

/// Past the type at byte `i`, for types built of `void`, `half`, `bfloat`,
/// `float`, `double`, `i1`/`i8`/`i16`/`i32`/`i64`, `ptr [addrspace(N)]`,
/// `%name`, `%"quoted name"`,
/// `<N x T>`, `[N x T]`, pointers (`*`, ` addrspace(N)*`) and function
/// types (`R (A, B)`) with one space between tokens where LLVM prints one.
/// `None` for anything else (struct literals, attributes, `...`, vscale,
/// other widths), or past `depth` 8, far inside the parser's own limit.
fn skip_type(b: &[u8], i: usize, depth: u32) -> Option<usize> {
    if depth > 8 {
        return None;
    }
    let mut at = match *b.get(i)? {
        // `%"struct.mlx::steel::AttnParams"`, as the lexer reads it: to the
        // next quote, on the same line.
        b'%' if b.get(i + 1) == Some(&b'"') => {
            let open = i + 2;
            let close = open + memchr::memchr2(b'"', b'\n', b.get(open..)?)?;
            (b.get(close) == Some(&b'"') && close > open).then_some(close + 1)?
        }
        b'%' => {
            let end = i
                + 1
                + b.get(i + 1..)?
                    .iter()
                    .take_while(|c| is_name_byte(**c))
                    .count();
            (end > i + 1).then_some(end)?
        }
        open @ (b'<' | b'[') => {
            let digits = i + 1;
            let x = past_digits(b, digits);
            if x == digits || x - digits > 9 || b.get(x..x + 3)? != b" x " {
                return None;
            }
            let elem_end = skip_type(b, x + 3, depth + 1)?;
            let close = if open == b'<' { b'>' } else { b']' };
            if b.get(elem_end) != Some(&close) {
                return None;
            }
            elem_end + 1
        }
        _ => {
            let end = i + b[i..].iter().take_while(|c| is_name_byte(**c)).count();
            match b.get(i..end)? {
                b"void" | b"half" | b"bfloat" | b"float" | b"double" | b"i1" | b"i8" | b"i16"
                | b"i32" | b"i64" => end,
                b"ptr" => match addrspace(b, end) {
                    Some(past) => past,
                    None => end,
                },
                _ => return None,
            }
        }
    };
    loop {
        match b.get(at) {
            Some(b'*') => at += 1,
            Some(b' ') => match b.get(at + 1) {
                Some(b'a') => {
                    let past = addrspace(b, at)?;
                    if b.get(past) != Some(&b'*') {
                        return None;
                    }
                    at = past + 1;
                }
                Some(b'(') => {
                    let mut p = at + 2;
                    if b.get(p) == Some(&b')') {
                        at = p + 1;
                        continue;
                    }
                    loop {
                        p = skip_type(b, p, depth + 1)?;
                        match b.get(p) {
                            Some(b',') if b.get(p + 1) == Some(&b' ') => p += 2,
                            Some(b')') => break,
                            _ => return None,
                        }
                    }
                    at = p + 1;
                }
                _ => return Some(at),
            },
            _ => return Some(at),
        }
    }
}

/// Past ` addrspace(N)` at byte `at` (its space), N of up to nine digits.
fn addrspace(b: &[u8], at: usize) -> Option<usize> {
    if b.get(at..at + 11)? != b" addrspace(" {
        return None;
    }
    let digits = at + 11;
    let close = past_digits(b, digits);
    if close == digits || close - digits > 9 || b.get(close) != Some(&b')') {
        return None;
    }
    Some(close + 1)
}

/// `s.parse::<u32>()`, with the short all-digit case (every metadata id)
/// done inline: the library's general parse cost ~150 instructions an id.
#[inline]
pub(crate) fn parse_u32(s: &str) -> Option<u32> {
    let b = s.as_bytes();
    // Nine digits cannot overflow a u32.
    if !b.is_empty() && b.len() <= 9 && b.iter().all(u8::is_ascii_digit) {
        return Some(b.iter().fold(0, |n, &d| n * 10 + u32::from(d - b'0')));
    }
    s.parse().ok()
}

#[cfg(test)]
mod simple_tuple_tests {
    use super::*;

    /// Wherever `simple_tuple` reads a node, the full parser reads the same
    /// node without error; it declines the rest.
    #[test]
    fn fast_path_agrees_with_the_full_parser() {
        let texts = [
            "!{void (float addrspace(1)*, %struct.B addrspace(1)*, i32)* @k.c0, !16, !17}",
            "!{ptr @k, !1, !2}",
            "!{!123456789, !1234567890, !4294967295, !0000000012}",
            "!{!4294967296}",
            "!{ptr addrspace(2) @k, i32 3}",
            "!{i8 addrspace(2)* @_Z7batched.MTL_FC_INIT_100_b.c12, !\"bool\", !\"b\", i32 100, i1 true}",
            "!{i1 false, i1 true}",
            "!{void ()* @f}",
            "!{void (<4 x float>, [2 x i32]*, i64 (i8*)*)* @f}",
            "!{<2 x i32> @v}",
            "!{void (i32, ...)* @f}",
            "!{void (i32 zeroext)* @f}",
            "!{<{ <3 x float>, <4 x float> }> (i32)* @main0.c399, !1}",
            "!{void (%s)* @\"quoted\"}",
            "!{void (%s)* @a-b}",
            "!{void (%s-t)* @f}",
            "!{void (%s$)* @f}",
            "!{void(i32)* @f}",
            "!{void  (i32)* @f}",
            "!{void (i32) * @f}",
            "!{void (i32,i64)* @f}",
            "!{float* @f}",
            "!{i3 @f}",
            "!{i1 truex}",
            "!{i1 1}",
            "!{i32 @f}",
            "!{x86_fp80* @f}",
            "!{void (i32 addrspace(4294967296)*)* @f}",
            "!{void (i32 addrspace(1))* @f}",
            "!{<4 x float @f}",
            "!{[4x float] @f}",
            "!{void (<vscale x 4 x float>)* @f}",
            "!{%0* @g}",
            "!{% @g}",
            "!{float @}",
            "!{float @g.h_1}",
            "!{float @g.h_1 , !2}",
            "!{void (bfloat addrspace(1)*, <4 x bfloat>)* @f}",
            "!{void (%\"struct.mlx::steel::AttnParams\" addrspace(2)*)* @f}",
            "!{void (%\"\" addrspace(2)*)* @f}",
            "!{void (%\"a\nb\")* @f}",
            "!{void (%\"a* @f}",
            "!{void (%\"a\"b)* @f}",
            "!{float @g:}",
            "!{ptr @g, ptr addrspace(1) @h}",
            "!{i8 addrspace(2)* bitcast (i32 addrspace(2)* @x to i8 addrspace(2)*)}",
        ];
        let mut read = 0;
        for text in texts {
            let full = parse_node(text, 1, &mut super::super::types::TypeTable::default());
            if let Some(fast) = simple_tuple(text) {
                read += 1;
                assert_eq!(Some(&fast), full.as_ref().ok(), "{text}");
            }
        }
        assert_eq!(read, 17, "read by the fast path");
        // Strings: the word-at-a-time search, on either side of each
        // eight-byte step and past the 64 bytes it looks at itself.
        for len in 0..80 {
            let a = "a".repeat(len);
            // Read by the fast path, and too wide for it (a `BigInt`).
            for (text, fast_reads) in [
                (
                    format!("!{{!\"{a}\", !\"{a}\\0A\", i64 -12, i64 123456789012345678}}"),
                    true,
                ),
                (format!("!{{!\"{a}\", i64 12345678901234567890123}}"), false),
            ] {
                let full = parse_node(&text, 1, &mut super::super::types::TypeTable::default());
                let fast = simple_tuple(&text);
                assert!(full.is_ok(), "{text}");
                assert_eq!(fast.is_some(), fast_reads, "{text}");
                assert!(
                    fast.is_none() || fast.as_ref() == full.as_ref().ok(),
                    "{text}"
                );
            }
        }
        // Nested types deeper than the fast path goes are left to the parser.
        let deep = format!("!{{{}float{} @f}}", "<2 x ".repeat(12), ">".repeat(12));
        assert!(simple_tuple(&deep).is_none());
        let shallow = format!("!{{{}float{} @f}}", "<2 x ".repeat(3), ">".repeat(3));
        assert!(simple_tuple(&shallow).is_some());
    }
}
