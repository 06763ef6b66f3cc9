//! Metadata nodes: tuples, strings, the debug-info nodes source mapping needs
//! (DILocation, DISubprogram, DIFile, DICompileUnit), and everything else
//! kept generic as a kind plus named fields.

use super::model::Operand;

/// Metadata ids above this are refused: they would only come from broken or
/// hostile input, and the table is indexed by id.
pub const MAX_METADATA_ID: u32 = 1 << 26;

/// One operand of a tuple, or one field value of a specialized node.
#[derive(Clone, Debug, PartialEq)]
pub enum MetaOperand<'a> {
    /// `!12`
    Ref(u32),
    /// `!"text"` (escapes untouched).
    Str(&'a str),
    /// `null`
    Null,
    /// A typed value: `i32 0`, `void (...)* @kernel`.
    Value(Operand<'a>),
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
            MetaOperand::Value(op) => match op.value {
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
            MetaOperand::Value(op) => global_of(&op.value),
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

#[derive(Clone, Debug)]
pub struct MetaEntry<'a> {
    pub node: MetaNode<'a>,
    pub distinct: bool,
    pub line: u32,
}

/// Numbered metadata of a module, indexed by id.
#[derive(Debug, Default)]
pub struct MetadataTable<'a> {
    entries: Vec<Option<MetaEntry<'a>>>,
}

impl<'a> MetadataTable<'a> {
    /// Stores node `id`; returns false when the id is out of range.
    pub fn insert(&mut self, id: u32, entry: MetaEntry<'a>) -> bool {
        if id > MAX_METADATA_ID {
            return false;
        }
        let i = id as usize;
        if i >= self.entries.len() {
            self.entries.resize_with(i + 1, || None);
        }
        self.entries[i] = Some(entry);
        true
    }

    pub fn entry(&self, id: u32) -> Option<&MetaEntry<'a>> {
        self.entries.get(id as usize)?.as_ref()
    }

    pub fn get(&self, id: u32) -> Option<&MetaNode<'a>> {
        self.entry(id).map(|e| &e.node)
    }

    pub fn len(&self) -> usize {
        self.entries.iter().filter(|e| e.is_some()).count()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The operands of tuple `id`.
    pub fn tuple(&self, id: u32) -> Option<&[MetaOperand<'a>]> {
        self.get(id)?.tuple()
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

    pub fn iter(&self) -> impl Iterator<Item = (u32, &MetaEntry<'a>)> {
        self.entries
            .iter()
            .enumerate()
            .filter_map(|(i, e)| e.as_ref().map(|e| (i as u32, e)))
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
