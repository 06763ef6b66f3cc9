//! The module model: what the reader produces. It borrows every name from the
//! input text and knows nothing of AIR semantics (see `air`) or of rules.

use super::metadata::MetadataTable;
use super::small_list::SmallList;
use super::types::{TypeId, TypeTable};
use std::ops::Range;

/// How bad a reader diagnostic is. Errors mean part of the input was skipped.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Warning,
    Error,
}

/// A problem found while reading, with the 1-based line it was found on.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Diagnostic {
    pub severity: Severity,
    pub line: u32,
    pub message: String,
}

impl Diagnostic {
    pub fn error(line: u32, message: impl Into<String>) -> Self {
        Diagnostic {
            severity: Severity::Error,
            line,
            message: message.into(),
        }
    }
    pub fn warning(line: u32, message: impl Into<String>) -> Self {
        Diagnostic {
            severity: Severity::Warning,
            line,
            message: message.into(),
        }
    }
}

/// A whole module. Function bodies are parsed on demand (`Module::body`), so
/// that a scan holds one body at a time and memory stays near the input size.
#[derive(Debug, Default)]
pub struct Module<'a> {
    /// The IR text (after any dump wrapper was cut away).
    pub text: &'a str,
    /// Line number of `text`'s first line in the file.
    pub first_line: u32,
    /// `; ModuleID = '...'`
    pub module_id: Option<&'a str>,
    pub source_filename: Option<&'a str>,
    pub target_triple: Option<&'a str>,
    pub datalayout: Option<&'a str>,
    pub types: TypeTable<'a>,
    pub struct_types: Vec<NamedStruct<'a>>,
    pub globals: Vec<Global<'a>>,
    pub functions: Vec<Function<'a>>,
    pub attribute_groups: Vec<AttributeGroup<'a>>,
    pub metadata: MetadataTable<'a>,
    pub named_metadata: Vec<NamedMetadata<'a>>,
    /// Reader diagnostics for the module level (bodies carry their own).
    pub diagnostics: Vec<Diagnostic>,
    /// Byte ranges of the lines longer than `limits::MAX_LINE_LENGTH`,
    /// which the reader skips (each reported once, at module level).
    pub long_lines: Vec<Range<usize>>,
    /// What is left of the file's `limits::MAX_DIAGNOSTICS` for bodies.
    pub diagnostic_budget: super::limits::DiagnosticBudget,
}

impl<'a> Module<'a> {
    pub fn function(&self, name: &str) -> Option<&Function<'a>> {
        self.functions.iter().find(|f| f.name == name)
    }

    pub fn global(&self, name: &str) -> Option<&Global<'a>> {
        self.globals.iter().find(|g| g.name == name)
    }

    pub fn named(&self, name: &str) -> Option<&NamedMetadata<'a>> {
        self.named_metadata.iter().find(|n| n.name == name)
    }

    /// True when no entity was read: no header line, type, global,
    /// function, attribute group or metadata. Such a text is an empty
    /// module if it read without an error (only comments, comdats,
    /// `module asm`), and not IR at all if it did not.
    pub fn has_no_entity(&self) -> bool {
        self.functions.is_empty()
            && self.globals.is_empty()
            && self.metadata.is_empty()
            && self.named_metadata.is_empty()
            && self.struct_types.is_empty()
            && self.attribute_groups.is_empty()
            && self.target_triple.is_none()
            && self.datalayout.is_none()
            && self.source_filename.is_none()
    }

    /// The body of function `index`, parsed now, with its diagnostics.
    /// A declaration has an empty body.
    pub fn body(&mut self, index: usize) -> (Body<'a>, Vec<Diagnostic>) {
        super::body::parse_body(self, index)
    }

    /// As [`Module::body`], reusing `body`'s vectors.
    pub fn body_into(&mut self, index: usize, body: &mut Body<'a>) -> Vec<Diagnostic> {
        super::body::parse_body_into(self, index, body)
    }
}

#[derive(Debug, Clone)]
pub struct NamedStruct<'a> {
    pub name: &'a str,
    /// `None` for `opaque`.
    pub body: Option<TypeId>,
    pub line: u32,
}

#[derive(Debug, Clone)]
pub struct AttributeGroup<'a> {
    /// The number after `#`.
    pub id: &'a str,
    /// The text between the braces, as written.
    pub text: &'a str,
}

#[derive(Debug, Clone)]
pub struct NamedMetadata<'a> {
    pub name: &'a str,
    pub nodes: Vec<u32>,
    pub line: u32,
}

#[derive(Debug, Clone)]
pub struct Global<'a> {
    pub name: &'a str,
    pub linkage: Option<&'a str>,
    pub addrspace: u32,
    /// `constant` rather than `global`.
    pub is_constant: bool,
    pub externally_initialized: bool,
    pub ty: TypeId,
    pub initializer: Option<Value<'a>>,
    pub section: Option<&'a str>,
    pub line: u32,
}

#[derive(Debug, Clone)]
pub struct Param<'a> {
    pub ty: TypeId,
    /// `%name` without the sigil; `None` in declarations that omit it.
    pub name: Option<&'a str>,
    /// Parameter attributes as written, e.g. `noundef "air-buffer-no-alias"`.
    pub attributes: &'a str,
}

#[derive(Debug, Clone)]
pub struct Function<'a> {
    pub name: &'a str,
    pub is_definition: bool,
    pub linkage: Option<&'a str>,
    pub return_type: TypeId,
    pub params: Vec<Param<'a>>,
    pub vararg: bool,
    /// Everything after the parameter list up to `{`, as written
    /// (`local_unnamed_addr #2`, `section "air.static_init"`, ...).
    pub attributes: &'a str,
    pub section: Option<&'a str>,
    /// `!dbg` and other attachments on the definition.
    pub metadata: Vec<(&'a str, u32)>,
    pub line: u32,
    /// Byte range of the body text (between the braces) within `Module::text`.
    pub body_range: Option<Range<usize>>,
    /// Line on which the body text starts.
    pub body_line: u32,
    /// Newlines in the body text, counted when it was located, so reading
    /// the body does not count them again.
    pub body_newlines: u32,
}

/// A parsed function body: blocks in order and all instructions in one vector.
#[derive(Debug, Default, Clone)]
pub struct Body<'a> {
    pub blocks: Vec<Block<'a>>,
    pub instructions: Vec<Instruction<'a>>,
    /// `#dbg_value(...)` and other debug records (LLVM 19+), counted, not kept.
    pub debug_records: u32,
}

impl<'a> Body<'a> {
    /// What stands for a body that was not read: one empty block.
    pub fn skipped(line: u32) -> Self {
        Body {
            blocks: vec![Block {
                label: None,
                instructions: 0..0,
                line,
            }],
            ..Body::default()
        }
    }

    /// Empties the body, keeping its vectors' capacity. Few instructions
    /// own heap memory, and the drop glue of the others (a call for each
    /// operand) cost ~11 M instructions on a 12 MB module: the owners'
    /// parts are dropped here, and the rest is forgotten.
    pub fn clear(&mut self) {
        self.blocks.clear();
        for inst in &mut self.instructions {
            if inst.owns_heap() {
                inst.operands = SmallList::new();
                inst.indices = Vec::new();
                inst.metadata = SmallList::new();
            }
        }
        // SAFETY: setting the length to 0 is always sound (no element is
        // left exposed, and 0 <= capacity). It only skips the elements'
        // destructors, which would free heap memory, and the loop above
        // has just freed all that any element owned (see `owns_heap`).
        unsafe { self.instructions.set_len(0) };
        self.debug_records = 0;
    }

    pub fn block_instructions(&self, block: usize) -> &[Instruction<'a>] {
        match self.blocks.get(block) {
            Some(b) => self.instructions.get(b.instructions.clone()).unwrap_or(&[]),
            None => &[],
        }
    }
}

#[derive(Debug, Clone)]
pub struct Block<'a> {
    /// The label without `:`; `None` for an unnamed entry block.
    pub label: Option<&'a str>,
    /// Indices into `Body::instructions`.
    pub instructions: Range<usize>,
    pub line: u32,
}

/// Instruction opcodes. Anything else is `Other` with its text kept.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Opcode {
    // Terminators
    Ret,
    Br,
    Switch,
    IndirectBr,
    Unreachable,
    // Unary and binary
    FNeg,
    Add,
    FAdd,
    Sub,
    FSub,
    Mul,
    FMul,
    UDiv,
    SDiv,
    FDiv,
    URem,
    SRem,
    FRem,
    Shl,
    LShr,
    AShr,
    And,
    Or,
    Xor,
    // Vector and aggregate
    ExtractElement,
    InsertElement,
    ShuffleVector,
    ExtractValue,
    InsertValue,
    // Memory
    Alloca,
    Load,
    Store,
    Fence,
    CmpXchg,
    AtomicRmw,
    GetElementPtr,
    // Casts
    Trunc,
    ZExt,
    SExt,
    FPTrunc,
    FPExt,
    FPToUI,
    FPToSI,
    UIToFP,
    SIToFP,
    PtrToInt,
    IntToPtr,
    BitCast,
    AddrSpaceCast,
    // Other
    ICmp,
    FCmp,
    Phi,
    Select,
    Freeze,
    Call,
    VAArg,
    LandingPad,
    Other,
}

impl Opcode {
    /// The opcode a word names. Dispatched on the first byte, so a word
    /// is compared with a few opcodes, not all of them.
    pub fn from_word(w: &str) -> Option<Opcode> {
        use Opcode::*;
        Some(match *w.as_bytes().first()? {
            b'a' => match w {
                "add" => Add,
                "and" => And,
                "ashr" => AShr,
                "alloca" => Alloca,
                "atomicrmw" => AtomicRmw,
                "addrspacecast" => AddrSpaceCast,
                _ => return None,
            },
            b'b' => match w {
                "br" => Br,
                "bitcast" => BitCast,
                _ => return None,
            },
            b'c' => match w {
                "call" => Call,
                "cmpxchg" => CmpXchg,
                _ => return None,
            },
            b'e' => match w {
                "extractelement" => ExtractElement,
                "extractvalue" => ExtractValue,
                _ => return None,
            },
            b'f' => match w {
                "fadd" => FAdd,
                "fmul" => FMul,
                "fsub" => FSub,
                "fdiv" => FDiv,
                "fcmp" => FCmp,
                "fneg" => FNeg,
                "frem" => FRem,
                "fence" => Fence,
                "fptrunc" => FPTrunc,
                "fpext" => FPExt,
                "fptoui" => FPToUI,
                "fptosi" => FPToSI,
                "freeze" => Freeze,
                _ => return None,
            },
            b'g' => match w {
                "getelementptr" => GetElementPtr,
                _ => return None,
            },
            b'i' => match w {
                "icmp" => ICmp,
                "insertelement" => InsertElement,
                "insertvalue" => InsertValue,
                "inttoptr" => IntToPtr,
                "indirectbr" => IndirectBr,
                _ => return None,
            },
            b'l' => match w {
                "load" => Load,
                "lshr" => LShr,
                "landingpad" => LandingPad,
                _ => return None,
            },
            b'm' => match w {
                "mul" => Mul,
                _ => return None,
            },
            b'o' => match w {
                "or" => Or,
                _ => return None,
            },
            b'p' => match w {
                "phi" => Phi,
                "ptrtoint" => PtrToInt,
                _ => return None,
            },
            b'r' => match w {
                "ret" => Ret,
                _ => return None,
            },
            b's' => match w {
                "store" => Store,
                "select" => Select,
                "sub" => Sub,
                "shl" => Shl,
                "sext" => SExt,
                "sitofp" => SIToFP,
                "sdiv" => SDiv,
                "srem" => SRem,
                "switch" => Switch,
                "shufflevector" => ShuffleVector,
                _ => return None,
            },
            b't' => match w {
                "trunc" => Trunc,
                _ => return None,
            },
            b'u' => match w {
                "udiv" => UDiv,
                "urem" => URem,
                "uitofp" => UIToFP,
                "unreachable" => Unreachable,
                _ => return None,
            },
            b'v' => match w {
                "va_arg" => VAArg,
                _ => return None,
            },
            b'x' => match w {
                "xor" => Xor,
                _ => return None,
            },
            b'z' => match w {
                "zext" => ZExt,
                _ => return None,
            },
            _ => return None,
        })
    }

    pub fn name(self) -> &'static str {
        use Opcode::*;
        match self {
            Ret => "ret",
            Br => "br",
            Switch => "switch",
            IndirectBr => "indirectbr",
            Unreachable => "unreachable",
            FNeg => "fneg",
            Add => "add",
            FAdd => "fadd",
            Sub => "sub",
            FSub => "fsub",
            Mul => "mul",
            FMul => "fmul",
            UDiv => "udiv",
            SDiv => "sdiv",
            FDiv => "fdiv",
            URem => "urem",
            SRem => "srem",
            FRem => "frem",
            Shl => "shl",
            LShr => "lshr",
            AShr => "ashr",
            And => "and",
            Or => "or",
            Xor => "xor",
            ExtractElement => "extractelement",
            InsertElement => "insertelement",
            ShuffleVector => "shufflevector",
            ExtractValue => "extractvalue",
            InsertValue => "insertvalue",
            Alloca => "alloca",
            Load => "load",
            Store => "store",
            Fence => "fence",
            CmpXchg => "cmpxchg",
            AtomicRmw => "atomicrmw",
            GetElementPtr => "getelementptr",
            Trunc => "trunc",
            ZExt => "zext",
            SExt => "sext",
            FPTrunc => "fptrunc",
            FPExt => "fpext",
            FPToUI => "fptoui",
            FPToSI => "fptosi",
            UIToFP => "uitofp",
            SIToFP => "sitofp",
            PtrToInt => "ptrtoint",
            IntToPtr => "inttoptr",
            BitCast => "bitcast",
            AddrSpaceCast => "addrspacecast",
            ICmp => "icmp",
            FCmp => "fcmp",
            Phi => "phi",
            Select => "select",
            Freeze => "freeze",
            Call => "call",
            VAArg => "va_arg",
            LandingPad => "landingpad",
            Other => "other",
        }
    }

    pub fn is_binary(self) -> bool {
        use Opcode::*;
        matches!(
            self,
            Add | FAdd
                | Sub
                | FSub
                | Mul
                | FMul
                | UDiv
                | SDiv
                | FDiv
                | URem
                | SRem
                | FRem
                | Shl
                | LShr
                | AShr
                | And
                | Or
                | Xor
        )
    }

    pub fn is_cast(self) -> bool {
        use Opcode::*;
        matches!(
            self,
            Trunc
                | ZExt
                | SExt
                | FPTrunc
                | FPExt
                | FPToUI
                | FPToSI
                | UIToFP
                | SIToFP
                | PtrToInt
                | IntToPtr
                | BitCast
                | AddrSpaceCast
        )
    }

    pub fn is_terminator(self) -> bool {
        use Opcode::*;
        matches!(self, Ret | Br | Switch | IndirectBr | Unreachable)
    }
}

/// Instruction and constant-expression flags, as a bit set.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Flags(pub u32);

impl Flags {
    pub const NSW: Flags = Flags(1);
    pub const NUW: Flags = Flags(1 << 1);
    pub const EXACT: Flags = Flags(1 << 2);
    pub const INBOUNDS: Flags = Flags(1 << 3);
    pub const DISJOINT: Flags = Flags(1 << 4);
    pub const NNEG: Flags = Flags(1 << 5);
    pub const SAMESIGN: Flags = Flags(1 << 6);
    pub const NUSW: Flags = Flags(1 << 7);
    pub const VOLATILE: Flags = Flags(1 << 8);
    pub const TAIL: Flags = Flags(1 << 9);
    pub const MUSTTAIL: Flags = Flags(1 << 10);
    pub const NOTAIL: Flags = Flags(1 << 11);
    pub const ATOMIC: Flags = Flags(1 << 12);
    pub const WEAK: Flags = Flags(1 << 13);
    // Fast-math flags.
    pub const NNAN: Flags = Flags(1 << 16);
    pub const NINF: Flags = Flags(1 << 17);
    pub const NSZ: Flags = Flags(1 << 18);
    pub const ARCP: Flags = Flags(1 << 19);
    pub const CONTRACT: Flags = Flags(1 << 20);
    pub const AFN: Flags = Flags(1 << 21);
    pub const REASSOC: Flags = Flags(1 << 22);
    pub const FAST: Flags = Flags(0x7f << 16);

    const NAMES: [(&'static str, Flags); 21] = [
        ("nsw", Flags::NSW),
        ("nuw", Flags::NUW),
        ("exact", Flags::EXACT),
        ("inbounds", Flags::INBOUNDS),
        ("disjoint", Flags::DISJOINT),
        ("nneg", Flags::NNEG),
        ("samesign", Flags::SAMESIGN),
        ("nusw", Flags::NUSW),
        ("volatile", Flags::VOLATILE),
        ("tail", Flags::TAIL),
        ("musttail", Flags::MUSTTAIL),
        ("notail", Flags::NOTAIL),
        ("atomic", Flags::ATOMIC),
        ("weak", Flags::WEAK),
        ("fast", Flags::FAST),
        ("nnan", Flags::NNAN),
        ("ninf", Flags::NINF),
        ("nsz", Flags::NSZ),
        ("arcp", Flags::ARCP),
        ("contract", Flags::CONTRACT),
        ("afn", Flags::AFN),
    ];

    /// The flag a word names, for the words that may follow an opcode.
    pub fn from_word(w: &str) -> Option<Flags> {
        // Dispatched on the first byte: this runs on the word after every
        // opcode, usually a type, which should be turned away at once.
        Some(match *w.as_bytes().first()? {
            b'n' => match w {
                "nsw" => Flags::NSW,
                "nuw" => Flags::NUW,
                "nneg" => Flags::NNEG,
                "nusw" => Flags::NUSW,
                "notail" => Flags::NOTAIL,
                "nnan" => Flags::NNAN,
                "ninf" => Flags::NINF,
                "nsz" => Flags::NSZ,
                _ => return None,
            },
            b'a' => match w {
                "atomic" => Flags::ATOMIC,
                "arcp" => Flags::ARCP,
                "afn" => Flags::AFN,
                _ => return None,
            },
            b'e' if w == "exact" => Flags::EXACT,
            b'i' if w == "inbounds" => Flags::INBOUNDS,
            b'd' if w == "disjoint" => Flags::DISJOINT,
            b's' if w == "samesign" => Flags::SAMESIGN,
            b'v' if w == "volatile" => Flags::VOLATILE,
            b't' if w == "tail" => Flags::TAIL,
            b'm' if w == "musttail" => Flags::MUSTTAIL,
            b'w' if w == "weak" => Flags::WEAK,
            b'f' if w == "fast" => Flags::FAST,
            b'c' if w == "contract" => Flags::CONTRACT,
            b'r' if w == "reassoc" => Flags::REASSOC,
            _ => return None,
        })
    }

    pub fn contains(self, other: Flags) -> bool {
        self.0 & other.0 == other.0
    }

    pub fn insert(&mut self, other: Flags) {
        self.0 |= other.0;
    }

    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Flag names in a fixed order (`fast` when all fast-math flags are set).
    pub fn names(self) -> Vec<&'static str> {
        let mut out = Vec::new();
        let mut rest = self;
        if rest.contains(Flags::FAST) {
            out.push("fast");
            rest.0 &= !Flags::FAST.0;
        }
        for (n, f) in Self::NAMES
            .iter()
            .chain([("reassoc", Flags::REASSOC)].iter())
        {
            if *n != "fast" && rest.contains(*f) {
                out.push(n);
            }
        }
        out
    }
}

/// An operand: a value with its type.
#[derive(Clone, Debug, PartialEq)]
pub struct Operand<'a> {
    pub ty: TypeId,
    pub value: Value<'a>,
}

/// A value as written in the text. Aggregates and expressions are boxed so
/// the common cases (locals, integers) stay small.
#[derive(Clone, Debug, PartialEq)]
pub enum Value<'a> {
    /// `%name` without the sigil.
    Local(&'a str),
    /// `@name` without the sigil.
    Global(&'a str),
    Int(i64),
    /// An integer literal too wide for i64, as written.
    BigInt(&'a str),
    /// A float literal as written (decimal or hex).
    Float(&'a str),
    Bool(bool),
    Null,
    /// `none` (token constant).
    None,
    Undef,
    Poison,
    ZeroInitializer,
    /// `c"..."`, escapes untouched.
    CString(&'a str),
    Aggregate(Box<Aggregate<'a>>),
    /// `splat (T v)`.
    Splat(Box<Operand<'a>>),
    Expr(Box<ConstExpr<'a>>),
    /// `metadata !12` or `metadata i32 %x` in a call.
    Metadata(Box<super::metadata::MetaOperand<'a>>),
    /// `label %bb`, the target of a branch.
    Label(&'a str),
    /// `asm "..."`, `blockaddress(...)`, `dso_local_equivalent @f` and other
    /// rare forms kept as text.
    Text(&'a str),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AggregateKind {
    Vector,
    Array,
    Struct,
    PackedStruct,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Aggregate<'a> {
    pub kind: AggregateKind,
    pub elements: Vec<Operand<'a>>,
}

/// A constant expression such as `getelementptr inbounds (...)` or
/// `bitcast (i8* @g to i32*)`, kept as a tree.
#[derive(Clone, Debug, PartialEq)]
pub struct ConstExpr<'a> {
    pub opcode: Opcode,
    pub flags: Flags,
    /// The destination type of a cast, or the source element type of a GEP.
    pub ty: Option<TypeId>,
    pub predicate: Option<&'a str>,
    pub operands: Vec<Operand<'a>>,
}

/// One instruction of a body.
#[derive(Clone, Debug)]
pub struct Instruction<'a> {
    /// `%name` without the sigil, for instructions that produce a value.
    pub result: Option<&'a str>,
    pub opcode: Opcode,
    /// The opcode word as written (useful when `opcode` is `Other`).
    pub opcode_text: &'a str,
    pub flags: Flags,
    /// The result type (`void` when there is none).
    pub ty: TypeId,
    /// The type named by the instruction itself where it differs from the
    /// operands': allocated type for `alloca`, loaded type for `load`, source
    /// element type for `getelementptr`, destination type for casts.
    pub elem_ty: Option<TypeId>,
    /// The `icmp`/`fcmp` predicate or the `atomicrmw` operation.
    pub predicate: Option<&'a str>,
    /// Operands in textual order. For `call` the callee comes last; for `phi`
    /// operands alternate value, incoming label; for `switch` the condition,
    /// the default label, then case value and label pairs.
    ///
    /// Four inline: most instructions have at most four (a phi of two
    /// blocks has four), and a heap vector per instruction cost ~15% of
    /// reading in profiles.
    pub operands: super::small_list::SmallList<Operand<'a>, 4>,
    /// Constant indices of `extractvalue`/`insertvalue`.
    pub indices: Vec<u32>,
    /// The `!dbg` attachment.
    pub dbg: Option<u32>,
    /// Other attachments (`!tbaa`, `!llvm.loop`, `!range`, ...). Three
    /// inline: a load or store often has `!tbaa`, `!alias.scope` and
    /// `!noalias`.
    pub metadata: super::small_list::SmallList<(&'a str, u32), 3>,
    /// 1-based line in the file.
    pub line: u32,
}

impl<'a> Instruction<'a> {
    /// True when dropping the instruction would free heap memory: only its
    /// operands (a spilled list or a boxed value), indices and attachments
    /// can own any. Every field and variant is named, so that adding one
    /// that owns memory cannot be missed here (`Body::clear` relies on it).
    #[inline]
    fn owns_heap(&self) -> bool {
        let Instruction {
            result: _,
            opcode: _,
            opcode_text: _,
            flags: _,
            ty: _,
            elem_ty: _,
            predicate: _,
            operands,
            indices,
            dbg: _,
            metadata,
            line: _,
        } = self;
        let boxed = |o: &Operand<'_>| match o.value {
            Value::Aggregate(_) | Value::Splat(_) | Value::Expr(_) | Value::Metadata(_) => true,
            Value::Local(_)
            | Value::Global(_)
            | Value::Int(_)
            | Value::BigInt(_)
            | Value::Float(_)
            | Value::Bool(_)
            | Value::Null
            | Value::None
            | Value::Undef
            | Value::Poison
            | Value::ZeroInitializer
            | Value::CString(_)
            | Value::Label(_)
            | Value::Text(_) => false,
        };
        matches!(operands, SmallList::Heap(_))
            || matches!(metadata, SmallList::Heap(_))
            || indices.capacity() != 0
            || operands.iter().any(boxed)
    }

    /// The callee of a `call` (its last operand).
    pub fn callee(&self) -> Option<&Operand<'a>> {
        if self.opcode == Opcode::Call {
            self.operands.last()
        } else {
            None
        }
    }

    /// The name of a direct callee, e.g. `air.wg.barrier`.
    pub fn callee_name(&self) -> Option<&'a str> {
        match self.callee()?.value {
            Value::Global(g) => Some(g),
            _ => None,
        }
    }

    /// Call arguments (operands without the callee).
    pub fn call_args(&self) -> &[Operand<'a>] {
        if self.opcode == Opcode::Call && !self.operands.is_empty() {
            &self.operands[..self.operands.len() - 1]
        } else {
            &[]
        }
    }

    pub fn attachment(&self, kind: &str) -> Option<u32> {
        if kind == "dbg" {
            return self.dbg;
        }
        self.metadata
            .iter()
            .find(|(k, _)| *k == kind)
            .map(|(_, id)| *id)
    }
}

impl TypeTable<'_> {
    /// True when `id` is the `void` type.
    pub fn is_void(&self, id: TypeId) -> bool {
        id == TypeTable::VOID
    }
}

#[cfg(test)]
mod tests {
    use super::{Flags, Opcode};

    #[test]
    fn every_opcode_and_flag_is_read_back_from_its_name() {
        let words = "ret br switch indirectbr unreachable fneg add fadd sub fsub mul fmul \
            udiv sdiv fdiv urem srem frem shl lshr ashr and or xor extractelement \
            insertelement shufflevector extractvalue insertvalue alloca load store fence \
            cmpxchg atomicrmw getelementptr trunc zext sext fptrunc fpext fptoui fptosi \
            uitofp sitofp ptrtoint inttoptr bitcast addrspacecast icmp fcmp phi select \
            freeze call va_arg landingpad";
        let mut n = 0;
        for w in words.split_whitespace() {
            let op = Opcode::from_word(w).expect(w);
            assert_eq!(op.name(), w);
            n += 1;
        }
        assert_eq!(n, 57);
        for w in [
            "", "other", "i32", "float", "c", "xo", "ptr", "loads", "Add",
        ] {
            assert_eq!(Opcode::from_word(w), None, "{w}");
        }
        for (name, flag) in Flags::NAMES
            .iter()
            .chain([("reassoc", Flags::REASSOC)].iter())
        {
            assert_eq!(Flags::from_word(name), Some(*flag), "{name}");
        }
        for w in ["", "float", "i32", "n", "nswx", "fas", "align"] {
            assert_eq!(Flags::from_word(w), None, "{w}");
        }
    }
}
