//! The IR layer: the module block and what it holds, decoded from the
//! bitstream into plain structures the printer turns into text. Record
//! layouts follow LLVM's `BitcodeReader.cpp` and `MetadataLoader.cpp`
//! (LLVM 14 to 22 read the same layouts for what Apple's metalfe 31001 to
//! 32023 writes: relative value ids, a string table, typed pointers).

use super::Error;
use super::bitstream::{Entry, Reader};
use super::metadata::{Md, MdTable};
use super::types::{Ty, TypeId, Types};
use rustc_hash::FxHashMap;
use std::rc::Rc;

pub mod block {
    pub const MODULE: u32 = 8;
    pub const PARAMATTR: u32 = 9;
    pub const PARAMATTR_GROUP: u32 = 10;
    pub const CONSTANTS: u32 = 11;
    pub const FUNCTION: u32 = 12;
    pub const IDENTIFICATION: u32 = 13;
    pub const VALUE_SYMTAB: u32 = 14;
    pub const METADATA: u32 = 15;
    pub const METADATA_ATTACHMENT: u32 = 16;
    pub const TYPE: u32 = 17;
    pub const METADATA_KIND: u32 = 22;
    pub const STRTAB: u32 = 23;
}

/// A value of the module's (or, while a body is read, the function's)
/// value list.
#[derive(Debug, Clone)]
pub enum Value {
    Global(usize),
    Function(usize),
    Const(Const),
    Arg(u32),
    /// An instruction's result, by its index in the body.
    Inst(u32),
    /// Referred to before it is defined (a forward reference in a body).
    Pending,
}

#[derive(Debug, Clone)]
pub enum Const {
    Int(i64),
    /// Words of an integer wider than 64 bits, least significant first.
    Wide(Vec<u64>),
    /// The bits of a floating-point value (half, float, double ...).
    Float(u64),
    Null,
    Undef,
    Poison,
    /// Struct, array or vector elements, as value ids.
    Aggregate(Vec<u32>),
    /// Elements of a data array or vector, as raw bits.
    Data(Vec<u64>),
    /// `[N x i8]` text (`c"..."`).
    Bytes(Vec<u8>),
    Cast {
        op: u8,
        value: u32,
    },
    Binop {
        op: u8,
        flags: u64,
        lhs: u32,
        rhs: u32,
    },
    /// `getelementptr [inbounds] (T, ops...)`: operands as value ids.
    Gep {
        inbounds: bool,
        source: TypeId,
        ops: Vec<u32>,
    },
    Cmp {
        pred: u8,
        lhs: u32,
        rhs: u32,
    },
    Select(u32, u32, u32),
    ExtractElement(u32, u32),
    InsertElement(u32, u32, u32),
    ShuffleVector(u32, u32, u32),
    Unop(u8, u32),
    BlockAddress,
}

#[derive(Debug, Clone, Default)]
pub struct GlobalVar {
    pub name: Vec<u8>,
    /// The value type (not the pointer).
    pub ty: TypeId,
    pub addrspace: u32,
    pub constant: bool,
    /// Initializer value id + 1 (0: a declaration).
    pub init: u32,
    pub linkage: u64,
    pub align: u64,
    pub section: u64,
    pub visibility: u64,
    pub thread_local: u64,
    pub unnamed_addr: u64,
    pub externally_initialized: bool,
    pub attachments: Vec<(u64, u64)>,
}

#[derive(Debug, Default)]
pub struct Function {
    pub name: Vec<u8>,
    /// The function type.
    pub ty: TypeId,
    pub cc: u64,
    pub declaration: bool,
    pub linkage: u64,
    /// Attribute list index + 1 (0: none).
    pub attrs: u64,
    pub align: u64,
    pub section: u64,
    pub visibility: u64,
    pub unnamed_addr: u64,
    pub addrspace: u32,
    /// The printed body: its span of [`Module::body_texts`].
    pub body: Option<std::ops::Range<usize>>,
    pub attachments: Vec<(u64, u64)>,
}

/// One attribute group: the parameter it applies to and its attributes.
#[derive(Debug, Clone, Default)]
pub struct AttrGroup {
    /// 0: return value, 1..: parameters, `u32::MAX`: the function.
    pub index: u32,
    /// The attributes as LLVM prints them (`nounwind`, `align 4`, ...):
    /// most are names, borrowed, not a string each.
    pub attrs: Vec<std::borrow::Cow<'static, str>>,
}

#[derive(Debug, Default)]
pub struct Module<'a> {
    pub triple: String,
    pub datalayout: String,
    pub source_filename: String,
    pub types: Types,
    pub sections: Vec<String>,
    /// Shared with the memo of the last block of groups (see
    /// [`LastBlocks`]).
    pub groups: Rc<FxHashMap<u64, AttrGroup>>,
    /// Attribute lists: group ids.
    pub lists: Vec<Vec<u64>>,
    pub values: Vec<Value>,
    pub value_types: Vec<TypeId>,
    pub globals: Vec<GlobalVar>,
    pub functions: Vec<Function>,
    pub md: MdTable,
    kinds: Rc<Kinds>,
    pub strtab: &'a [u8],
    bodies_read: usize,
    /// Where bodies go, in order of the definitions.
    with_bodies: Vec<usize>,
    pub alloca_addrspace: u32,
    /// Metadata ids below this are the module's; a body's come after.
    pub md_module_len: usize,
    pub numbering: super::print::Numbering,
    /// Every printed body, in order of definition (one string, not one
    /// per function).
    pub body_texts: String,
    /// The last body decoded, kept for its vectors' room.
    pub spare_body: super::function::Body,
    /// The blocks the module before remembered, and this one's.
    last: LastBlocks,
}

/// Metadata kinds' names: spans of `names` (one string, not one per kind:
/// every module names its ~40 kinds).
#[derive(Debug, Default, Clone)]
struct Kinds {
    spans: FxHashMap<u64, std::ops::Range<usize>>,
    names: String,
}

/// The last METADATA_KIND and PARAMATTR_GROUP blocks decoded with a
/// [`Reuse`]: their abbreviation width and bytes, and what they decoded to.
/// A metallib's modules mostly repeat them (mlx.metallib: the same kinds in
/// all 382 modules), and reading them, a number per character, was ~5% of
/// its scan. Attribute groups come in a few shapes that alternate (the
/// module before's in 214 of mlx.metallib's modules, one of the last
/// [`REMEMBERED`] in 309): several are kept, the latest first.
#[derive(Default)]
struct LastBlocks {
    kinds: Vec<Remembered<Kinds>>,
    groups: Vec<Remembered<FxHashMap<u64, AttrGroup>>>,
}

/// How many blocks of each kind [`LastBlocks`] keeps.
const REMEMBERED: usize = 8;

impl std::fmt::Debug for LastBlocks {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LastBlocks")
            .field("kinds", &self.kinds.len())
            .field("groups", &self.groups.len())
            .finish()
    }
}

/// A block ([`Reader::own_bytes`]) and what it decoded to.
struct Remembered<T> {
    width: u8,
    bytes: Vec<u8>,
    value: Rc<T>,
}

/// Keeps `key` and what it decoded to in `list`, first, dropping the
/// oldest past [`REMEMBERED`].
fn remember<T>(list: &mut Vec<Remembered<T>>, (width, bytes): (u8, &[u8]), value: &Rc<T>) {
    list.truncate(REMEMBERED - 1);
    list.insert(
        0,
        Remembered {
            width,
            bytes: bytes.to_vec(),
            value: Rc::clone(value),
        },
    );
}

/// Whether the block just entered, `key` ([`Reader::own_bytes`]), is one
/// that `list` (of [`LastBlocks`]) remembers: then what it decoded to goes
/// to `table`, the block is left unread and moves to the list's front.
fn reuse_last<T>(
    r: &mut Reader<'_>,
    key: Option<(u8, &[u8])>,
    table: &mut Rc<T>,
    list: &mut [Remembered<T>],
) -> bool {
    let Some((width, bytes)) = key else {
        return false;
    };
    let Some(i) = list
        .iter()
        .position(|last| last.width == width && last.bytes == bytes)
    else {
        return false;
    };
    list[..=i].rotate_right(1);
    *table = Rc::clone(&list[0].value);
    r.leave();
    true
}

/// What one module's decoding leaves for the next ([`Module::decode`],
/// [`Module::recycle`]): a metallib's modules, or a folder's `.air` files,
/// are read one after another and mostly repeat each other. Its owner
/// (`compile`, per library or batch of files) hands it from module to
/// module; it holds no module's data, only tables and room.
#[derive(Default)]
pub struct Reuse {
    spare: Spare,
    last: LastBlocks,
    abbrevs: super::bitstream::SharedAbbrevs,
    /// The reader's spare operand vectors ([`Reader::ops`]).
    ops: Vec<Vec<u64>>,
}

/// The largest vectors and tables of the last module decoded, emptied, for
/// the next one to grow into: growing them anew for each module was ~5% of
/// a scan of mlx.metallib.
#[derive(Default)]
struct Spare {
    body: super::function::Body,
    values: Vec<Value>,
    value_types: Vec<TypeId>,
    md: MdTable,
    types: Types,
    /// The printer's tables and texts (see [`super::print::Numbering`]).
    numbering: super::print::Numbering,
    /// The printed bodies' text: grown anew, it was copied at each growth.
    body_texts: String,
}

pub(crate) fn bad(r: &Reader<'_>, what: &str) -> Error {
    r.error(format!("malformed {what} record"))
}

/// Text from a record's operands (one byte each).
pub(crate) fn chars(ops: &[u64]) -> Vec<u8> {
    ops.iter().map(|&c| c as u8).collect()
}

impl<'a> Module<'a> {
    /// Decodes a bitcode module: `data` starts after the `BC\xC0\xDE`
    /// magic; `base` is where it sits in the file, for errors.
    pub fn decode(data: &'a [u8], base: u64, reuse: &mut Reuse) -> Result<Module<'a>, Error> {
        let spare = std::mem::take(&mut reuse.spare);
        let mut r = Reader::new(data, base);
        r.share_abbrevs(std::mem::take(&mut reuse.abbrevs));
        r.share_ops(std::mem::take(&mut reuse.ops));
        let mut m = Module {
            last: std::mem::take(&mut reuse.last),
            // The string table follows the module block, and bodies are
            // printed as they are read: find it first (blocks are skipped
            // by their lengths, so this costs a few reads).
            strtab: find_strtab(data, base)?,
            values: spare.values,
            value_types: spare.value_types,
            spare_body: spare.body,
            numbering: spare.numbering,
            body_texts: spare.body_texts,
            ..Module::default()
        };
        m.md = spare.md;
        m.types = spare.types;
        let read = m.read(&mut r);
        reuse.abbrevs = r.take_shared_abbrevs();
        reuse.ops = r.take_ops();
        read.map(|()| m)
    }

    fn read(&mut self, r: &mut Reader<'a>) -> Result<(), Error> {
        let m = self;
        let mut seen_module = false;
        loop {
            match r.next_entry()? {
                Entry::EndBlock => break,
                Entry::Record(_) => return Err(r.error("a record outside any block")),
                Entry::SubBlock(block::MODULE) => {
                    if seen_module {
                        return Err(r.error("a second module block"));
                    }
                    seen_module = true;
                    r.enter(block::MODULE)?;
                    m.module_block(r)?;
                }
                Entry::SubBlock(_) => r.skip()?,
            }
        }
        if !seen_module {
            return Err(r.error("no module block in the bitcode"));
        }
        if let Some(&f) = m.with_bodies.get(m.bodies_read) {
            let name = String::from_utf8_lossy(&m.functions[f].name).into_owned();
            return Err(r.error(format!("the body of {name} is missing")));
        }
        Ok(())
    }

    /// Hands the module's largest vectors, emptied, and the blocks it
    /// remembered to the next module decoded with `reuse`.
    pub fn recycle(mut self, reuse: &mut Reuse) {
        self.values.clear();
        self.value_types.clear();
        self.md.clear();
        self.types.clear();
        self.body_texts.clear();
        let spare = Spare {
            body: std::mem::take(&mut self.spare_body),
            values: std::mem::take(&mut self.values),
            value_types: std::mem::take(&mut self.value_types),
            md: std::mem::take(&mut self.md),
            types: std::mem::take(&mut self.types),
            numbering: std::mem::take(&mut self.numbering).emptied(),
            body_texts: std::mem::take(&mut self.body_texts),
        };
        reuse.spare = spare;
        reuse.last = std::mem::take(&mut self.last);
    }

    fn name(&self, r: &Reader<'_>, offset: u64, size: u64) -> Result<Vec<u8>, Error> {
        let end = offset.saturating_add(size);
        Ok(self
            .strtab
            .get(offset as usize..end as usize)
            .ok_or_else(|| {
                r.error(format!(
                    "a name at {offset}..{end} of a string table of {} bytes",
                    self.strtab.len()
                ))
            })?
            .to_vec())
    }

    fn module_block(&mut self, r: &mut Reader<'a>) -> Result<(), Error> {
        let mut ops = r.ops();
        loop {
            match r.next_entry()? {
                Entry::EndBlock => {
                    r.give_back(ops);
                    return Ok(());
                }
                Entry::SubBlock(id) => {
                    r.enter(id)?;
                    match id {
                        block::TYPE => {
                            self.type_block(r)?;
                            // A second type table (only a hostile file has
                            // one) may change texts already written.
                            self.numbering.forget_types();
                        }
                        block::PARAMATTR_GROUP => {
                            self.attr_groups(r)?;
                            self.numbering.forget_attributes();
                        }
                        block::PARAMATTR => {
                            self.attr_lists(r)?;
                            self.numbering.forget_attributes();
                        }
                        block::CONSTANTS => super::constants::block(self, r)?,
                        block::METADATA => {
                            self.metadata_block(r)?;
                            self.md_module_len = self.md.len();
                            self.attach_to_globals();
                        }
                        block::METADATA_KIND => self.kinds(r)?,
                        block::FUNCTION => {
                            let Some(&f) = self.with_bodies.get(self.bodies_read) else {
                                return Err(r.error("a function body no definition asked for"));
                            };
                            self.bodies_read += 1;
                            let body = super::function::decode(self, r, f)?;
                            self.functions[f].body = Some(body);
                        }
                        // Nothing printed comes from the others (the
                        // function offsets of the value symbol table,
                        // operand bundle tags, sync scope names).
                        _ => r.leave(),
                    }
                }
                Entry::Record(a) => {
                    let rec = r.record(a, &mut ops)?;
                    self.module_record(r, rec.code, &ops)?;
                }
            }
        }
    }

    fn module_record(&mut self, r: &Reader<'_>, code: u32, ops: &[u64]) -> Result<(), Error> {
        match code {
            1 => {
                // VERSION: 2 means relative ids and a string table, the
                // only layout Apple's compilers write.
                let v = ops.first().copied().unwrap_or(0);
                if v != 2 {
                    return Err(r.error(format!(
                        "bitcode version {v}: only version 2 (LLVM 5 and later) is read natively"
                    )));
                }
            }
            2 => self.triple = String::from_utf8_lossy(&chars(ops)).into_owned(),
            3 => {
                self.datalayout = String::from_utf8_lossy(&chars(ops)).into_owned();
                self.alloca_addrspace = self
                    .datalayout
                    .split('-')
                    .find_map(|p| p.strip_prefix('A')?.parse().ok())
                    .unwrap_or(0);
            }
            5 => self
                .sections
                .push(String::from_utf8_lossy(&chars(ops)).into_owned()),
            16 => self.source_filename = String::from_utf8_lossy(&chars(ops)).into_owned(),
            7 => self.global_var(r, ops)?,
            8 => self.function(r, ops)?,
            14 | 9 => return Err(r.error("global aliases are not read natively")),
            18 => return Err(r.error("ifuncs are not read natively")),
            _ => {}
        }
        Ok(())
    }

    fn global_var(&mut self, r: &Reader<'_>, ops: &[u64]) -> Result<(), Error> {
        // [strtab offset, size, type, isconst|explicit<<1|addrspace<<2,
        //  init+1, linkage, align, section, visibility, tls, unnamed_addr,
        //  externally_initialized, ...]
        if ops.len() < 8 {
            return Err(bad(r, "global variable"));
        }
        let flags = ops[3];
        let mut ty = self.type_id(r, ops[2])?;
        let addrspace;
        if flags & 2 != 0 {
            addrspace = u32::try_from(flags >> 2).map_err(|_| bad(r, "global variable"))?;
        } else {
            // Old layout: the type is the pointer's.
            addrspace = self.types.addrspace(ty);
            ty = self
                .types
                .pointee(ty)
                .ok_or_else(|| bad(r, "global variable"))?;
        }
        let get = |i: usize| ops.get(i).copied().unwrap_or(0);
        let g = GlobalVar {
            name: self.name(r, ops[0], ops[1])?,
            ty,
            addrspace,
            constant: flags & 1 != 0,
            init: u32::try_from(ops[4]).map_err(|_| bad(r, "global variable"))?,
            linkage: ops[5],
            align: ops[6],
            section: ops[7],
            visibility: get(8),
            thread_local: get(9),
            unnamed_addr: get(10),
            externally_initialized: get(11) != 0,
            attachments: Vec::new(),
        };
        let ptr = self.types.pointer_to(ty, addrspace);
        self.values.push(Value::Global(self.globals.len()));
        self.value_types.push(ptr);
        self.globals.push(g);
        Ok(())
    }

    fn function(&mut self, r: &Reader<'_>, ops: &[u64]) -> Result<(), Error> {
        // [strtab offset, size, type, cc, isproto, linkage, paramattr,
        //  align, section, visibility, gc, unnamed_addr, prologue,
        //  dllstorage, comdat, prefix, personality, preemption, addrspace]
        if ops.len() < 10 {
            return Err(bad(r, "function"));
        }
        let mut ty = self.type_id(r, ops[2])?;
        if !matches!(self.types.get(ty), Some(Ty::Function { .. })) {
            ty = self
                .types
                .pointee(ty)
                .filter(|&p| matches!(self.types.get(p), Some(Ty::Function { .. })))
                .ok_or_else(|| bad(r, "function"))?;
        }
        let get = |i: usize| ops.get(i).copied().unwrap_or(0);
        let f = Function {
            name: self.name(r, ops[0], ops[1])?,
            ty,
            cc: ops[3],
            declaration: ops[4] != 0,
            linkage: ops[5],
            attrs: ops[6],
            align: ops[7],
            section: ops[8],
            visibility: ops[9],
            unnamed_addr: get(11),
            addrspace: u32::try_from(get(18)).unwrap_or(0),
            body: None,
            attachments: Vec::new(),
        };
        if !f.declaration {
            self.with_bodies.push(self.functions.len());
        }
        let ptr = self.types.pointer_to(ty, f.addrspace);
        self.values.push(Value::Function(self.functions.len()));
        self.value_types.push(ptr);
        self.functions.push(f);
        Ok(())
    }

    pub fn type_id(&self, r: &Reader<'_>, id: u64) -> Result<TypeId, Error> {
        u32::try_from(id)
            .ok()
            .filter(|&i| (i as usize) < self.types.len())
            .ok_or_else(|| r.error(format!("type {id} out of range")))
    }

    fn type_block(&mut self, r: &mut Reader<'_>) -> Result<(), Error> {
        let mut ops = r.ops();
        let mut declared = 0usize;
        let mut defined = 0usize;
        let mut pending_name: Option<String> = None;
        while let Some(rec) = r.next_record(&mut ops)? {
            let types = &mut self.types;
            // Refer to a type: an identified struct may come later.
            let mut refer = |id: u64| -> Result<TypeId, String> {
                let id = u32::try_from(id).map_err(|_| format!("type {id} out of range"))?;
                if id as usize >= types.len() {
                    types.forward(id, declared)?;
                }
                Ok(id)
            };
            let ty = match rec.code {
                1 => {
                    // NUMENTRY: a size hint; a table is never longer.
                    declared = ops.first().copied().unwrap_or(0).min(1 << 20) as usize;
                    continue;
                }
                2 => Ty::Void,
                3 => Ty::Float,
                4 => Ty::Double,
                5 => Ty::Label,
                10 => Ty::Half,
                23 => Ty::BFloat,
                13 => Ty::X86Fp80,
                14 => Ty::Fp128,
                15 => Ty::PpcFp128,
                16 => Ty::Metadata,
                17 => Ty::X86Mmx,
                22 => Ty::Token,
                7 => {
                    let w = ops.first().copied().unwrap_or(0);
                    if !(1..=(1 << 23)).contains(&w) {
                        return Err(r.error(format!("integer type of {w} bits")));
                    }
                    Ty::Int(w as u32)
                }
                8 => {
                    let p =
                        refer(ops.first().copied().unwrap_or(u64::MAX)).map_err(|e| r.error(e))?;
                    Ty::Ptr {
                        pointee: Some(p),
                        addrspace: ops.get(1).copied().unwrap_or(0) as u32,
                    }
                }
                25 => Ty::Ptr {
                    pointee: None,
                    addrspace: ops.first().copied().unwrap_or(0) as u32,
                },
                11 | 12 => {
                    let (Some(&n), Some(&e)) = (ops.first(), ops.get(1)) else {
                        return Err(bad(r, "array type"));
                    };
                    let e = refer(e).map_err(|e| r.error(e))?;
                    if rec.code == 11 {
                        Ty::Array(n, e)
                    } else {
                        Ty::Vector {
                            len: u32::try_from(n).map_err(|_| bad(r, "vector type"))?,
                            elem: e,
                            scalable: ops.get(2).is_some_and(|&s| s != 0),
                        }
                    }
                }
                19 => {
                    pending_name = Some(String::from_utf8_lossy(&chars(&ops)).into_owned());
                    continue;
                }
                18 | 20 => {
                    let elems = ops
                        .iter()
                        .skip(1)
                        .map(|&e| refer(e))
                        .collect::<Result<Vec<_>, _>>()
                        .map_err(|e| r.error(e))?;
                    Ty::Struct {
                        name: (rec.code == 20).then(|| pending_name.take().unwrap_or_default()),
                        packed: ops.first().is_some_and(|&p| p != 0),
                        elems,
                        opaque: false,
                    }
                }
                6 => Ty::Struct {
                    name: Some(pending_name.take().unwrap_or_default()),
                    packed: false,
                    elems: Vec::new(),
                    opaque: true,
                },
                21 => {
                    if ops.len() < 2 {
                        return Err(bad(r, "function type"));
                    }
                    let ret = refer(ops[1]).map_err(|e| r.error(e))?;
                    let params = ops[2..]
                        .iter()
                        .map(|&p| refer(p))
                        .collect::<Result<Vec<_>, _>>()
                        .map_err(|e| r.error(e))?;
                    Ty::Function {
                        vararg: ops[0] != 0,
                        ret,
                        params,
                    }
                }
                c => return Err(r.error(format!("unknown type code {c}"))),
            };
            if declared != 0 && defined >= declared {
                return Err(r.error(format!("more types than the {declared} declared")));
            }
            self.types.push_at(defined, ty).map_err(|e| r.error(e))?;
            defined += 1;
        }
        r.give_back(ops);
        Ok(())
    }

    fn attr_groups(&mut self, r: &mut Reader<'_>) -> Result<(), Error> {
        // A second block of groups (only a hostile file has one) adds to
        // the first: only a module's first is looked up and remembered.
        let key = r.own_bytes().filter(|_| self.groups.is_empty());
        if reuse_last(r, key, &mut self.groups, &mut self.last.groups) {
            return Ok(());
        }
        let blockinfo = r.blockinfo_blocks();
        // A type attribute's text depends on the module's types, not the
        // block's bytes alone.
        let mut typed = false;
        let mut groups = FxHashMap::default();
        let mut ops = r.ops();
        while let Some(rec) = r.next_record(&mut ops)? {
            if rec.code != 3 {
                continue;
            }
            if ops.len() < 2 {
                return Err(bad(r, "attribute group"));
            }
            let mut attrs = Vec::new();
            // String attributes come after the others, by key, as in
            // LLVM's sorted `AttributeSet`, whatever order the file has.
            let mut strings = Vec::new();
            let mut i = 2;
            while i < ops.len() {
                let kind = ops[i];
                i += 1;
                match kind {
                    0 | 5 => {
                        let id = ops.get(i).copied().ok_or_else(|| bad(r, "attribute"))?;
                        i += 1;
                        attrs.push(super::attributes::enum_name(id).into());
                    }
                    1 => {
                        let (Some(&id), Some(&v)) = (ops.get(i), ops.get(i + 1)) else {
                            return Err(bad(r, "attribute"));
                        };
                        i += 2;
                        attrs.push(super::attributes::int_attr(id, v).into());
                    }
                    3 | 4 => {
                        let key = take_cstr(&ops, &mut i);
                        let mut text = String::new();
                        text.push('"');
                        super::print::escape_into(&mut text, &key);
                        text.push('"');
                        if kind == 4 {
                            let value = take_cstr(&ops, &mut i);
                            text.push_str("=\"");
                            super::print::escape_into(&mut text, &value);
                            text.push('"');
                        }
                        strings.push((key, text));
                    }
                    6 => {
                        let (Some(&id), Some(&t)) = (ops.get(i), ops.get(i + 1)) else {
                            return Err(bad(r, "attribute"));
                        };
                        i += 2;
                        typed = true;
                        let t = self.type_id(r, t)?;
                        attrs.push(
                            format!(
                                "{}({})",
                                super::attributes::enum_name(id),
                                self.types.text(t)
                            )
                            .into(),
                        );
                    }
                    k => return Err(r.error(format!("unknown attribute encoding {k}"))),
                }
            }
            strings.sort_by(|(a, _), (b, _)| a.cmp(b));
            attrs.extend(strings.into_iter().map(|(_, text)| text.into()));
            groups.insert(
                ops[0],
                AttrGroup {
                    index: ops[1] as u32,
                    attrs,
                },
            );
        }
        if self.groups.is_empty() {
            self.groups = Rc::new(groups);
        } else {
            Rc::make_mut(&mut self.groups).extend(groups);
        }
        if let Some(key) = key
            && !typed
            && r.blockinfo_blocks() == blockinfo
        {
            remember(&mut self.last.groups, key, &self.groups);
        }
        r.give_back(ops);
        Ok(())
    }

    fn attr_lists(&mut self, r: &mut Reader<'_>) -> Result<(), Error> {
        let mut ops = r.ops();
        while let Some(rec) = r.next_record(&mut ops)? {
            if rec.code == 2 {
                self.lists.push(ops.clone());
            }
        }
        r.give_back(ops);
        Ok(())
    }

    fn kinds(&mut self, r: &mut Reader<'_>) -> Result<(), Error> {
        // As for attribute groups: a module's first block is looked up.
        let key = r.own_bytes().filter(|_| self.kinds.spans.is_empty());
        if reuse_last(r, key, &mut self.kinds, &mut self.last.kinds) {
            return Ok(());
        }
        let blockinfo = r.blockinfo_blocks();
        let kinds = Rc::make_mut(&mut self.kinds);
        let mut ops = r.ops();
        let mut bytes = Vec::new();
        while let Some(rec) = r.next_record(&mut ops)? {
            if rec.code == 6 && !ops.is_empty() {
                bytes.clear();
                bytes.extend(ops[1..].iter().map(|&c| c as u8));
                let start = kinds.names.len();
                kinds.names.push_str(&String::from_utf8_lossy(&bytes));
                kinds.spans.insert(ops[0], start..kinds.names.len());
            }
        }
        if let Some(key) = key
            && r.blockinfo_blocks() == blockinfo
        {
            remember(&mut self.last.kinds, key, &self.kinds);
        }
        r.give_back(ops);
        Ok(())
    }

    /// Reads a metadata block (module level or in a body) into the table,
    /// which reads the module's types and values as it goes.
    pub(crate) fn metadata_block(&mut self, r: &mut Reader<'_>) -> Result<(), Error> {
        let mut md = std::mem::take(&mut self.md);
        let result = md.block(r, self);
        self.md = md;
        result
    }

    fn attach_to_globals(&mut self) {
        for (value, pairs) in std::mem::take(&mut self.md.global_attachments) {
            let target = match self.values.get(value as usize) {
                Some(Value::Global(g)) => self.globals.get_mut(*g).map(|g| &mut g.attachments),
                Some(Value::Function(f)) => self.functions.get_mut(*f).map(|f| &mut f.attachments),
                _ => None,
            };
            if let Some(list) = target {
                list.extend(pairs);
            }
        }
    }

    /// A metadata kind's name.
    pub fn kind_name(&self, kind: u64) -> Option<&str> {
        self.kinds.names.get(self.kinds.spans.get(&kind)?.clone())
    }

    /// The type of value `id`.
    pub fn value_type(&self, id: u32) -> Option<TypeId> {
        self.value_types.get(id as usize).copied()
    }

    /// The metadata of module and function levels: the node list.
    pub fn md_len(&self) -> usize {
        self.md.len()
    }

    pub fn md_get(&self, id: u32) -> Option<&Md> {
        self.md.get(id)
    }
}

/// The STRTAB block's blob (empty when there is none).
fn find_strtab(data: &[u8], base: u64) -> Result<&[u8], Error> {
    let mut r = Reader::new(data, base);
    let mut ops = Vec::new();
    let mut table: &[u8] = &[];
    loop {
        match r.next_entry()? {
            Entry::EndBlock => return Ok(table),
            Entry::Record(_) => return Err(r.error("a record outside any block")),
            Entry::SubBlock(block::STRTAB) => {
                r.enter(block::STRTAB)?;
                while let Some(rec) = r.next_record(&mut ops)? {
                    if rec.code == 1 {
                        table = rec.blob.unwrap_or_default();
                    }
                }
            }
            Entry::SubBlock(_) => r.skip()?,
        }
    }
}

fn take_cstr(ops: &[u64], i: &mut usize) -> Vec<u8> {
    let mut s = Vec::new();
    while let Some(&c) = ops.get(*i) {
        *i += 1;
        if c == 0 {
            break;
        }
        s.push(c as u8);
    }
    s
}

#[cfg(test)]
mod tests {
    use super::super::bitstream::tests::Writer;
    use super::*;

    #[test]
    fn string_attributes_come_after_the_others_by_key() {
        // A PARAMATTR_GROUP block (abbreviation width 4) of one
        // unabbreviated group record: id 1, the function's, with
        // `"b"="1"`, `nounwind`, `"a"`, `align 16` in that order.
        let mut ops = vec![1, u64::from(u32::MAX)];
        ops.extend([4, u64::from(b'b'), 0, u64::from(b'1'), 0]);
        ops.extend([0, 18]);
        ops.extend([3, u64::from(b'a'), 0]);
        ops.extend([1, 1, 16]);
        let mut w = Writer::default();
        let at = w.enter(2, u64::from(block::PARAMATTR_GROUP), 4);
        w.bits(3, 4);
        w.vbr(3, 6);
        w.vbr(ops.len() as u64, 6);
        for o in ops {
            w.vbr(o, 6);
        }
        w.end(4, at, 0);
        let mut r = Reader::new(&w.bytes, 0);
        let entry = r.next_entry().unwrap();
        assert!(matches!(entry, Entry::SubBlock(block::PARAMATTR_GROUP)));
        r.enter(block::PARAMATTR_GROUP).unwrap();
        let mut m = Module::default();
        m.attr_groups(&mut r).unwrap();
        assert_eq!(
            m.groups[&1].attrs,
            ["nounwind", "align 16", "\"a\"", "\"b\"=\"1\""]
        );
    }
}
