//! FUNCTION_BLOCK: instructions with relative value ids, forward
//! references, debug locations, metadata attachments and the function's
//! value symbol table. A body is decoded into [`Inst`]s (pieces of text
//! and references), then numbered as LLVM numbers unnamed values, then
//! printed (`print::body`), all before the next body is read, so one body's
//! values are held at a time.

use super::Error;
use super::bitstream::{Entry, Reader};
use super::module::{Module, Value, bad, block, chars};
use super::types::{Ty, TypeId};
use rustc_hash::FxHashMap;

/// Most instructions one body may have (the text reader's limit).
const MAX_INSTRUCTIONS: usize = crate::ir::limits::MAX_INSTRUCTIONS;

/// A piece of an instruction's text. Plain data: the few texts made for
/// one instruction live in [`Body::texts`], so that emptying a body's
/// ~1,500 pieces is not a loop dropping each.
#[derive(Debug, Clone, Copy)]
pub enum Piece {
    S(&'static str),
    /// A text made for this instruction: an index of [`Body::texts`].
    Own(u32),
    /// A type.
    T(TypeId),
    /// A value: its name, or a constant written out.
    V(u32),
    /// `T v`.
    TV(TypeId, u32),
    /// `label %bb`.
    L(u32),
    /// `%bb` (in a phi).
    B(u32),
    /// A metadata operand of a call: `metadata !N`, `metadata i32 %v`.
    Md(u64),
    /// Parameter attributes of a call site's argument or return: (list,
    /// index as in attribute groups).
    Attrs(u64, u32),
    /// `, align N` (N in bytes).
    Align(u64),
}

#[derive(Debug, Clone, Default)]
pub struct Inst {
    /// The value id of the result, if it has one.
    pub result: Option<u32>,
    /// Its pieces: a range of [`Body::pieces`] (one vector for the whole
    /// body, not one per instruction).
    pub pieces: std::ops::Range<usize>,
    /// `!dbg`: (line, column, scope + 1, inlinedAt + 1, implicit).
    pub dbg: Option<[u64; 5]>,
    /// Its attachments: a range of [`Body::inst_attachments`] (one vector
    /// for the body: a vector each was ~17,800 allocations for
    /// mlx.metallib).
    pub attachments: std::ops::Range<usize>,
}

/// A decoded body, ready to print.
#[derive(Debug, Default)]
pub struct Body {
    pub insts: Vec<Inst>,
    /// The pieces of every instruction, in order.
    pub pieces: Vec<Piece>,
    /// Index of the first instruction of each block.
    pub block_starts: Vec<usize>,
    /// Value id of the first argument.
    pub first_arg: u32,
    pub arg_count: u32,
    /// Names from the function's symbol table.
    pub names: FxHashMap<u32, Vec<u8>>,
    pub block_names: FxHashMap<u32, Vec<u8>>,
    /// Attachments of the function itself.
    pub attachments: Vec<(u64, u64)>,
    /// The texts of [`Piece::Own`] (fast-math flags but `fast`, calling
    /// conventions, `extractvalue` indices: rare).
    pub texts: Vec<String>,
    /// The instructions' attachments (see [`Inst::attachments`]).
    pub inst_attachments: Vec<(u64, u64)>,
}

impl Body {
    /// Empties the body for the next one, keeping its vectors' room.
    fn clear(&mut self) {
        self.insts.clear();
        self.pieces.clear();
        self.block_starts.clear();
        self.names.clear();
        self.block_names.clear();
        self.attachments.clear();
        self.inst_attachments.clear();
        self.texts.clear();
    }
}

struct Decoder<'m, 'a> {
    m: &'m mut Module<'a>,
    body: Body,
    next: u32,
    block_count: u32,
    /// Forward references: value id -> type, checked when defined.
    forward: FxHashMap<u32, TypeId>,
    last_dbg: Option<[u64; 5]>,
    /// Whether the current block has begun and not yet ended.
    open: bool,
    /// A call's parameter types (see `call`).
    params: Vec<TypeId>,
}

/// Decodes and prints function `f`'s body; its text goes to the end of
/// `m.body_texts`, whose span it returns.
pub fn decode(
    m: &mut Module<'_>,
    r: &mut Reader<'_>,
    f: usize,
) -> Result<std::ops::Range<usize>, Error> {
    let module_values = m.values.len();
    let module_md = m.md.mark();
    let fn_ty = m.functions[f].ty;
    let Some(Ty::Function { params, .. }) = m.types.get(fn_ty).cloned() else {
        return Err(r.error("a function body for a value that is not a function"));
    };
    // The last body's vectors, emptied: their room is reused.
    let mut body = std::mem::take(&mut m.spare_body);
    body.clear();
    body.first_arg = module_values as u32;
    body.arg_count = params.len() as u32;
    let mut d = Decoder {
        body,
        next: module_values as u32,
        m,
        block_count: 0,
        forward: FxHashMap::default(),
        last_dbg: None,
        open: false,
        params: Vec::new(),
    };
    for (i, p) in params.iter().enumerate() {
        d.m.values.push(Value::Arg(i as u32));
        d.m.value_types.push(*p);
        d.next += 1;
    }
    let result = d.read(r).and_then(|()| d.finish(r));
    let body = std::mem::take(&mut d.body);
    let m = d.m;
    let result = result.and_then(|()| {
        let mut text = std::mem::take(&mut m.body_texts);
        let start = text.len();
        super::print::function(m, f, &body, &mut text);
        let span = start..text.len();
        m.body_texts = text;
        match m.numbering.failed.take() {
            Some(why) => Err(r.error(why)),
            None => Ok(span),
        }
    });
    m.spare_body = body;
    m.values.truncate(module_values);
    m.value_types.truncate(module_values);
    m.md.truncate(module_md);
    result
}

impl Decoder<'_, '_> {
    fn read(&mut self, r: &mut Reader<'_>) -> Result<(), Error> {
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
                        block::CONSTANTS => super::constants::block(self.m, r)?,
                        block::METADATA => self.m.metadata_block(r)?,
                        block::METADATA_ATTACHMENT => self.attachments(r)?,
                        block::VALUE_SYMTAB => self.symbols(r)?,
                        // Nothing printed comes from the others (use
                        // lists).
                        _ => r.leave(),
                    }
                    self.next = self.m.values.len() as u32;
                }
                Entry::Record(a) => {
                    let rec = r.record(a, &mut ops)?;
                    self.instruction(r, rec.code, &ops)?;
                }
            }
        }
    }

    fn finish(&mut self, r: &Reader<'_>) -> Result<(), Error> {
        if let Some((&id, _)) = self.forward.iter().find(|&(&id, _)| id >= self.next) {
            return Err(r.error(format!("value {id} is used but never defined")));
        }
        if self.open || self.body.block_starts.len() as u32 != self.block_count {
            return Err(r.error(format!(
                "the body declares {} blocks and has {}",
                self.block_count,
                self.body.block_starts.len()
            )));
        }
        Ok(())
    }

    fn attachments(&mut self, r: &mut Reader<'_>) -> Result<(), Error> {
        let mut ops = r.ops();
        while let Some(rec) = r.next_record(&mut ops)? {
            if rec.code != 11 || ops.is_empty() {
                continue;
            }
            if ops.len() % 2 == 0 {
                self.body
                    .attachments
                    .extend(ops.chunks(2).map(|p| (p[0], p[1])));
                continue;
            }
            let inst = self
                .body
                .insts
                .get_mut(ops[0] as usize)
                .ok_or_else(|| r.error(format!("attachment to instruction {}", ops[0])))?;
            let all = &mut self.body.inst_attachments;
            // LLVM writes one record per instruction; a second one for the
            // same instruction (not seen) adds to the first, moved last.
            let start = if inst.attachments.is_empty() {
                all.len()
            } else if inst.attachments.end == all.len() {
                inst.attachments.start
            } else {
                let start = all.len();
                all.extend_from_within(inst.attachments.clone());
                start
            };
            all.extend(ops[1..].chunks(2).map(|p| (p[0], p[1])));
            inst.attachments = start..all.len();
        }
        r.give_back(ops);
        Ok(())
    }

    fn symbols(&mut self, r: &mut Reader<'_>) -> Result<(), Error> {
        let mut ops = r.ops();
        while let Some(rec) = r.next_record(&mut ops)? {
            let Some((&id, name)) = ops.split_first() else {
                continue;
            };
            let id = u32::try_from(id).map_err(|_| bad(r, "symbol table"))?;
            match rec.code {
                1 => {
                    self.body.names.insert(id, chars(name));
                }
                2 => {
                    self.body.block_names.insert(id, chars(name));
                }
                _ => {}
            }
        }
        r.give_back(ops);
        Ok(())
    }

    /// `InstNum - rel`, as LLVM computes it (32-bit wrap).
    fn relative(&self, rel: u64) -> u32 {
        self.next.wrapping_sub(rel as u32)
    }

    /// A value and its type: `[rel]` for a value already defined, `[rel,
    /// type]` for a forward reference.
    fn pair(&mut self, r: &Reader<'_>, ops: &[u64], i: &mut usize) -> Result<(u32, TypeId), Error> {
        let rel = *ops.get(*i).ok_or_else(|| bad(r, "instruction"))?;
        *i += 1;
        let id = self.relative(rel);
        if id < self.next {
            let ty = self
                .m
                .value_type(id)
                .ok_or_else(|| r.error(format!("value {id} out of range")))?;
            return Ok((id, ty));
        }
        let t = *ops.get(*i).ok_or_else(|| bad(r, "instruction"))?;
        *i += 1;
        let ty = self.m.type_id(r, t)?;
        self.forward_ref(r, id, ty)?;
        Ok((id, ty))
    }

    /// A value of a known type: `[rel]`.
    fn value(
        &mut self,
        r: &Reader<'_>,
        ops: &[u64],
        i: &mut usize,
        ty: TypeId,
    ) -> Result<u32, Error> {
        let rel = *ops.get(*i).ok_or_else(|| bad(r, "instruction"))?;
        *i += 1;
        let id = self.relative(rel);
        if id >= self.next {
            self.forward_ref(r, id, ty)?;
        }
        Ok(id)
    }

    fn forward_ref(&mut self, r: &Reader<'_>, id: u32, ty: TypeId) -> Result<(), Error> {
        // A body defines at most one value per record: a reference past
        // what the rest of the block could hold is damage.
        if (id - self.next) as usize > MAX_INSTRUCTIONS {
            return Err(r.error(format!("forward reference to value {id}, out of reach")));
        }
        self.forward.entry(id).or_insert(ty);
        Ok(())
    }

    fn block_ref(&self, r: &Reader<'_>, v: Option<&u64>) -> Result<u32, Error> {
        let b = *v.ok_or_else(|| bad(r, "branch"))?;
        u32::try_from(b)
            .ok()
            .filter(|&b| b < self.block_count)
            .ok_or_else(|| r.error(format!("branch to block {b} of {}", self.block_count)))
    }

    /// Starts an instruction whose pieces are built step by step with
    /// `first`, in the body's vector itself: [`Self::push_inst`] takes
    /// them from the `start` returned (a scratch vector copied in at the
    /// end cost ~200 instructions per instruction). A record that turns
    /// out bad leaves some behind, but then the whole module is refused.
    #[inline(always)]
    fn begin<const N: usize>(&mut self, first: [Piece; N]) -> usize {
        let start = self.body.pieces.len();
        self.body.pieces.extend_from_slice(&first);
        start
    }

    /// An instruction of a few pieces known at once. Inlined, so that the
    /// array is written where it goes: passed by value, it was copied
    /// three times (~250 instructions per instruction).
    #[inline(always)]
    fn push<const N: usize>(
        &mut self,
        r: &Reader<'_>,
        result_ty: Option<TypeId>,
        pieces: [Piece; N],
        terminator: bool,
    ) -> Result<(), Error> {
        let start = self.begin(pieces);
        self.push_inst(r, result_ty, start, terminator)
    }

    /// Adds the instruction whose pieces are `body.pieces[start..]`.
    fn push_inst(
        &mut self,
        r: &Reader<'_>,
        result_ty: Option<TypeId>,
        start: usize,
        terminator: bool,
    ) -> Result<(), Error> {
        if self.body.insts.len() >= MAX_INSTRUCTIONS {
            return Err(r.error(format!(
                "more than {MAX_INSTRUCTIONS} instructions in one body"
            )));
        }
        if !self.open {
            if self.body.block_starts.len() as u32 >= self.block_count {
                return Err(r.error("an instruction after the last block ended"));
            }
            self.body.block_starts.push(self.body.insts.len());
            self.open = true;
        }
        let result = match result_ty {
            Some(t) if !self.m.types.is_void(t) => {
                let id = self.next;
                if let Some(&want) = self.forward.get(&id) {
                    if want != t {
                        return Err(r.error(format!(
                            "value {id} was used as {} and is defined as {}",
                            self.m.types.text(want),
                            self.m.types.text(t)
                        )));
                    }
                }
                self.m
                    .values
                    .push(Value::Inst(self.body.insts.len() as u32));
                self.m.value_types.push(t);
                self.next += 1;
                Some(id)
            }
            _ => None,
        };
        self.body.insts.push(Inst {
            result,
            pieces: start..self.body.pieces.len(),
            dbg: None,
            attachments: 0..0,
        });
        if terminator {
            self.open = false;
        }
        Ok(())
    }
}

/// Opcode names of binary operators, integer and floating point.
fn binop_name(code: u64, fp: bool) -> Option<&'static str> {
    Some(match (code, fp) {
        (0, false) => "add",
        (0, true) => "fadd",
        (1, false) => "sub",
        (1, true) => "fsub",
        (2, false) => "mul",
        (2, true) => "fmul",
        (3, false) => "udiv",
        (4, false) => "sdiv",
        (4, true) => "fdiv",
        (5, false) => "urem",
        (6, false) => "srem",
        (6, true) => "frem",
        (7, false) => "shl",
        (8, false) => "lshr",
        (9, false) => "ashr",
        (10, false) => "and",
        (11, false) => "or",
        (12, false) => "xor",
        _ => return None,
    })
}

pub fn cast_name(code: u64) -> Option<&'static str> {
    const NAMES: [&str; 13] = [
        "trunc",
        "zext",
        "sext",
        "fptoui",
        "fptosi",
        "uitofp",
        "sitofp",
        "fptrunc",
        "fpext",
        "ptrtoint",
        "inttoptr",
        "bitcast",
        "addrspacecast",
    ];
    NAMES.get(code as usize).copied()
}

pub fn predicate_name(p: u64) -> Option<(&'static str, &'static str)> {
    const FCMP: [&str; 16] = [
        "false", "oeq", "ogt", "oge", "olt", "ole", "one", "ord", "uno", "ueq", "ugt", "uge",
        "ult", "ule", "une", "true",
    ];
    const ICMP: [&str; 10] = [
        "eq", "ne", "ugt", "uge", "ult", "ule", "sgt", "sge", "slt", "sle",
    ];
    match p {
        0..=15 => Some(("fcmp", FCMP[p as usize])),
        32..=41 => Some(("icmp", ICMP[(p - 32) as usize])),
        _ => None,
    }
}

/// Fast-math flags as LLVM prints them, each followed by a space.
pub fn fast_math(flags: u64) -> String {
    if is_fast(flags) {
        return "fast ".into();
    }
    let mut s = String::new();
    for (bit, name) in [
        (7, "reassoc"),
        (1, "nnan"),
        (2, "ninf"),
        (3, "nsz"),
        (4, "arcp"),
        (5, "contract"),
        (6, "afn"),
    ] {
        if flags & (1 << bit) != 0 {
            s.push_str(name);
            s.push(' ');
        }
    }
    s
}

/// Whether fast-math `flags` print as `fast`. Bitcode bits: 0
/// unsafe-algebra (old "fast"), 1 nnan, 2 ninf, 3 nsz, 4 arcp, 5 contract,
/// 6 afn, 7 reassoc.
fn is_fast(flags: u64) -> bool {
    flags & 1 != 0 || flags & 0xFE == 0xFE
}

impl Decoder<'_, '_> {
    /// [`fast_math`] as a piece: `fast` (most of Apple's floating-point
    /// operations) and no flags borrowed, not a String each.
    fn fast_math_piece(&mut self, flags: u64) -> Piece {
        match flags {
            0 => S(""),
            f if is_fast(f) => S("fast "),
            f => self.own(fast_math(f)),
        }
    }

    /// A piece of a text made for it.
    fn own(&mut self, text: String) -> Piece {
        self.body.texts.push(text);
        Piece::Own(self.body.texts.len() as u32 - 1)
    }
}

/// Integer-overflow and exact flags of a binary operator.
fn wrap_flags(code: u64, flags: u64) -> &'static str {
    match code {
        0 | 1 | 2 | 7 => match flags & 3 {
            1 => "nuw ",
            2 => "nsw ",
            3 => "nuw nsw ",
            _ => "",
        },
        3 | 4 | 8 | 9 if flags & 1 != 0 => "exact ",
        _ => "",
    }
}

/// `, align N` from its encoding (log2 + 1; 0: none).
fn align_piece(encoded: u64) -> Option<Piece> {
    match encoded {
        1..=33 => Some(Piece::Align(1u64 << (encoded - 1))),
        _ => None,
    }
}

use Piece::{L, S, T, TV, V};

impl Decoder<'_, '_> {
    fn instruction(&mut self, r: &Reader<'_>, code: u32, ops: &[u64]) -> Result<(), Error> {
        let mut i = 0usize;
        match code {
            1 => {
                // DECLAREBLOCKS
                let n = ops.first().copied().unwrap_or(0);
                if n == 0 || n > crate::ir::limits::MAX_BLOCKS as u64 {
                    return Err(r.error(format!("a body of {n} blocks")));
                }
                self.block_count = n as u32;
            }
            2 => {
                let (a, ty) = self.pair(r, ops, &mut i)?;
                let b = self.value(r, ops, &mut i, ty)?;
                let opc = *ops.get(i).ok_or_else(|| bad(r, "binary operator"))?;
                let flags = ops.get(i + 1).copied().unwrap_or(0);
                let fp = self.m.types.is_fp(ty);
                let name =
                    binop_name(opc, fp).ok_or_else(|| r.error(format!("binary opcode {opc}")))?;
                // Integer flags are fixed texts: borrowed, not allocated.
                let flag_piece = if fp {
                    self.fast_math_piece(flags)
                } else {
                    S(wrap_flags(opc, flags))
                };
                let pieces = [
                    S(name),
                    S(" "),
                    flag_piece,
                    T(ty),
                    S(" "),
                    V(a),
                    S(", "),
                    V(b),
                ];
                self.push(r, Some(ty), pieces, false)?;
            }
            3 => {
                let (a, ty) = self.pair(r, ops, &mut i)?;
                let (Some(&dest), Some(&opc)) = (ops.get(i), ops.get(i + 1)) else {
                    return Err(bad(r, "cast"));
                };
                let dest = self.m.type_id(r, dest)?;
                let name = cast_name(opc).ok_or_else(|| r.error(format!("cast opcode {opc}")))?;
                let pieces = [S(name), S(" "), TV(ty, a), S(" to "), T(dest)];
                self.push(r, Some(dest), pieces, false)?;
            }
            43 => {
                // GEP: [inbounds, source type, base pair, index pairs...]
                let (Some(&flags), Some(&src)) = (ops.first(), ops.get(1)) else {
                    return Err(bad(r, "getelementptr"));
                };
                i = 2;
                let src = self.m.type_id(r, src)?;
                let (base, base_ty) = self.pair(r, ops, &mut i)?;
                let start = self.begin([
                    S("getelementptr "),
                    S(if flags & 1 != 0 { "inbounds " } else { "" }),
                ]);
                self.body
                    .pieces
                    .extend([T(src), S(", "), TV(base_ty, base)]);
                let mut cur = src;
                let mut vector_len = match self.m.types.get(base_ty) {
                    Some(Ty::Vector { len, .. }) => Some(*len),
                    _ => None,
                };
                let mut first = true;
                while i < ops.len() {
                    let (idx, idx_ty) = self.pair(r, ops, &mut i)?;
                    self.body.pieces.extend([S(", "), TV(idx_ty, idx)]);
                    if let Some(Ty::Vector { len, .. }) = self.m.types.get(idx_ty) {
                        vector_len = Some(*len);
                    }
                    if first {
                        first = false;
                        continue;
                    }
                    cur = match self.m.types.get(cur) {
                        Some(Ty::Struct { .. }) => {
                            let k = self.const_int(idx).ok_or_else(|| {
                                r.error("a struct indexed by a value that is not a constant")
                            })?;
                            self.m.types.element(cur, k as u64)
                        }
                        _ => self.m.types.element(cur, 0),
                    }
                    .ok_or_else(|| r.error("getelementptr indexes past its type"))?;
                }
                let space = self.m.types.addrspace(base_ty);
                let mut result = self.m.types.pointer_to(cur, space);
                if let Some(n) = vector_len {
                    result = self.m.types.vector_of(n, result);
                }
                self.push_inst(r, Some(result), start, false)?;
            }
            29 | 5 => {
                // VSELECT: [true pair, false, cond pair]; SELECT: cond i1.
                let (t, ty) = self.pair(r, ops, &mut i)?;
                let f = self.value(r, ops, &mut i, ty)?;
                let (c, cty) = if code == 29 {
                    self.pair(r, ops, &mut i)?
                } else {
                    let i1 = self.m.types.find_int(1);
                    (self.value(r, ops, &mut i, i1)?, i1)
                };
                let fmf = ops.get(i).map_or(S(""), |&f| self.fast_math_piece(f));
                let pieces = [
                    S("select "),
                    fmf,
                    TV(cty, c),
                    S(", "),
                    TV(ty, t),
                    S(", "),
                    TV(ty, f),
                ];
                self.push(r, Some(ty), pieces, false)?;
            }
            6 => {
                let (v, vty) = self.pair(r, ops, &mut i)?;
                let (x, xty) = self.pair(r, ops, &mut i)?;
                let elem = self.m.types.scalar(vty);
                let pieces = [S("extractelement "), TV(vty, v), S(", "), TV(xty, x)];
                self.push(r, Some(elem), pieces, false)?;
            }
            7 => {
                let (v, vty) = self.pair(r, ops, &mut i)?;
                let elem = self.m.types.scalar(vty);
                let e = self.value(r, ops, &mut i, elem)?;
                let (x, xty) = self.pair(r, ops, &mut i)?;
                let pieces = [
                    S("insertelement "),
                    TV(vty, v),
                    S(", "),
                    TV(elem, e),
                    S(", "),
                    TV(xty, x),
                ];
                self.push(r, Some(vty), pieces, false)?;
            }
            8 => {
                let (a, vty) = self.pair(r, ops, &mut i)?;
                let b = self.value(r, ops, &mut i, vty)?;
                let (mask, mty) = self.pair(r, ops, &mut i)?;
                let len = match self.m.types.get(mty) {
                    Some(Ty::Vector { len, .. }) => *len,
                    _ => return Err(bad(r, "shufflevector")),
                };
                let elem = self.m.types.scalar(vty);
                let result = self.m.types.vector_of(len, elem);
                let pieces = [
                    S("shufflevector "),
                    TV(vty, a),
                    S(", "),
                    TV(vty, b),
                    S(", "),
                    TV(mty, mask),
                ];
                self.push(r, Some(result), pieces, false)?;
            }
            9 | 28 => {
                let (a, ty) = self.pair(r, ops, &mut i)?;
                let b = self.value(r, ops, &mut i, ty)?;
                let pred = *ops.get(i).ok_or_else(|| bad(r, "compare"))?;
                let (op, name) =
                    predicate_name(pred).ok_or_else(|| r.error(format!("predicate {pred}")))?;
                let fmf = ops.get(i + 1).map_or(S(""), |&f| self.fast_math_piece(f));
                let i1 = self.m.types.find_int(1);
                let result = match self.m.types.get(ty) {
                    Some(Ty::Vector { len, .. }) => {
                        let len = *len;
                        self.m.types.vector_of(len, i1)
                    }
                    _ => i1,
                };
                let pieces = [
                    S(op),
                    S(" "),
                    fmf,
                    S(name),
                    S(" "),
                    TV(ty, a),
                    S(", "),
                    V(b),
                ];
                self.push(r, Some(result), pieces, false)?;
            }
            10 => {
                if ops.is_empty() {
                    self.push(r, None, [S("ret void")], true)?;
                } else {
                    let (v, ty) = self.pair(r, ops, &mut i)?;
                    self.push(r, None, [S("ret "), TV(ty, v)], true)?;
                }
            }
            11 => {
                let t = self.block_ref(r, ops.first())?;
                if ops.len() == 1 {
                    self.push(r, None, [S("br "), L(t)], true)?;
                } else {
                    let f = self.block_ref(r, ops.get(1))?;
                    let i1 = self.m.types.find_int(1);
                    i = 2;
                    let c = self.value(r, ops, &mut i, i1)?;
                    let pieces = [S("br "), TV(i1, c), S(", "), L(t), S(", "), L(f)];
                    self.push(r, None, pieces, true)?;
                }
            }
            12 => {
                // [type, cond, default, (case value id, block)...]
                let ty = self
                    .m
                    .type_id(r, *ops.first().ok_or_else(|| bad(r, "switch"))?)?;
                i = 1;
                let c = self.value(r, ops, &mut i, ty)?;
                let default = self.block_ref(r, ops.get(2))?;
                let start = self.begin([S("switch "), TV(ty, c), S(", "), L(default), S(" [\n")]);
                let mut k = 3;
                while k + 1 < ops.len() {
                    let v = u32::try_from(ops[k]).map_err(|_| bad(r, "switch"))?;
                    if v >= self.next {
                        return Err(bad(r, "switch"));
                    }
                    let b = self.block_ref(r, ops.get(k + 1))?;
                    self.body
                        .pieces
                        .extend([S("    "), TV(ty, v), S(", "), L(b), S("\n")]);
                    k += 2;
                }
                self.body.pieces.push(S("  ]"));
                self.push_inst(r, None, start, true)?;
            }
            15 => self.push(r, None, [S("unreachable")], true)?,
            16 => {
                // [type, (signed rel value, block)..., fmf?]
                let ty = self
                    .m
                    .type_id(r, *ops.first().ok_or_else(|| bad(r, "phi"))?)?;
                let start = self.begin([S("phi "), T(ty), S(" ")]);
                let pairs = (ops.len() - 1) / 2;
                if pairs == 0 {
                    return Err(bad(r, "phi"));
                }
                let fmf = if ops.len() % 2 == 0 {
                    fast_math(ops[ops.len() - 1])
                } else {
                    String::new()
                };
                if !fmf.is_empty() {
                    let fmf = self.own(fmf);
                    self.body.pieces.insert(start + 1, fmf);
                }
                for k in 0..pairs {
                    let rel = super::constants::decode_signed(ops[1 + 2 * k]);
                    let id = i64::from(self.next).wrapping_sub(rel) as u32;
                    if id >= self.next {
                        self.forward_ref(r, id, ty)?;
                    }
                    let b = self.block_ref(r, ops.get(2 + 2 * k))?;
                    if k > 0 {
                        self.body.pieces.push(S(", "));
                    }
                    self.body
                        .pieces
                        .extend([S("[ "), V(id), S(", "), Piece::B(b), S(" ]")]);
                }
                self.push_inst(r, Some(ty), start, false)?;
            }
            19 => {
                // [type, size type, size (absolute), align and flags]
                if ops.len() < 4 {
                    return Err(bad(r, "alloca"));
                }
                let rec = ops[3];
                let mut ty = self.m.type_id(r, ops[0])?;
                if rec & (1 << 6) == 0 {
                    ty = self.m.types.pointee(ty).ok_or_else(|| bad(r, "alloca"))?;
                }
                let size_ty = self.m.type_id(r, ops[1])?;
                let size = u32::try_from(ops[2]).map_err(|_| bad(r, "alloca"))?;
                let align = (rec & 31) | (((rec >> 8) & 7) << 5);
                let start = self.begin([S("alloca "), T(ty)]);
                if !(self.const_int(size) == Some(1)
                    && matches!(self.m.types.get(size_ty), Some(Ty::Int(32))))
                {
                    self.body.pieces.extend([S(", "), TV(size_ty, size)]);
                }
                if let Some(a) = align_piece(align) {
                    self.body.pieces.push(a);
                }
                let result = self.m.types.pointer_to(ty, self.m.alloca_addrspace);
                self.push_inst(r, Some(result), start, false)?;
            }
            20 => {
                // [ptr pair, type?, align, volatile]
                let (p, pty) = self.pair(r, ops, &mut i)?;
                let ty = if i + 3 == ops.len() {
                    let t = self.m.type_id(r, ops[i])?;
                    i += 1;
                    t
                } else {
                    self.m.types.pointee(pty).ok_or_else(|| bad(r, "load"))?
                };
                let (Some(&align), Some(&vol)) = (ops.get(i), ops.get(i + 1)) else {
                    return Err(bad(r, "load"));
                };
                let start = self.begin([
                    S(if vol != 0 { "load volatile " } else { "load " }),
                    T(ty),
                    S(", "),
                    TV(pty, p),
                ]);
                if let Some(a) = align_piece(align) {
                    self.body.pieces.push(a);
                }
                self.push_inst(r, Some(ty), start, false)?;
            }
            44 => {
                // [ptr pair, value pair, align, volatile]
                let (p, pty) = self.pair(r, ops, &mut i)?;
                let (v, vty) = self.pair(r, ops, &mut i)?;
                let (Some(&align), Some(&vol)) = (ops.get(i), ops.get(i + 1)) else {
                    return Err(bad(r, "store"));
                };
                let start = self.begin([
                    S(if vol != 0 {
                        "store volatile "
                    } else {
                        "store "
                    }),
                    TV(vty, v),
                    S(", "),
                    TV(pty, p),
                ]);
                if let Some(a) = align_piece(align) {
                    self.body.pieces.push(a);
                }
                self.push_inst(r, None, start, false)?;
            }
            26 | 27 => {
                let (agg, aty) = self.pair(r, ops, &mut i)?;
                let start = self.begin([
                    S(if code == 26 {
                        "extractvalue "
                    } else {
                        "insertvalue "
                    }),
                    TV(aty, agg),
                ]);
                if code == 27 {
                    let (v, vty) = self.pair(r, ops, &mut i)?;
                    self.body.pieces.extend([S(", "), TV(vty, v)]);
                }
                let mut cur = aty;
                if i >= ops.len() {
                    return Err(bad(r, "extractvalue"));
                }
                for &k in &ops[i..] {
                    let index = self.own(format!(", {k}"));
                    self.body.pieces.push(index);
                    cur = self
                        .m
                        .types
                        .element(cur, k)
                        .ok_or_else(|| r.error("extractvalue indexes past its type"))?;
                }
                let result = if code == 26 { cur } else { aty };
                self.push_inst(r, Some(result), start, false)?;
            }
            56 => {
                let (a, ty) = self.pair(r, ops, &mut i)?;
                if ops.get(i) != Some(&0) {
                    return Err(bad(r, "unary operator"));
                }
                let fmf = ops.get(i + 1).map_or(S(""), |&f| self.fast_math_piece(f));
                let pieces = [S("fneg "), fmf, TV(ty, a)];
                self.push(r, Some(ty), pieces, false)?;
            }
            58 => {
                let (a, ty) = self.pair(r, ops, &mut i)?;
                self.push(r, Some(ty), [S("freeze "), TV(ty, a)], false)?;
            }
            34 => self.call(r, ops)?,
            35 => {
                // DEBUG_LOC: [line, column, scope + 1, inlinedAt + 1, implicit?]
                if ops.len() < 4 {
                    return Err(bad(r, "debug location"));
                }
                let loc = [
                    ops[0],
                    ops[1],
                    ops[2],
                    ops[3],
                    ops.get(4).copied().unwrap_or(0),
                ];
                let last = self
                    .body
                    .insts
                    .last_mut()
                    .ok_or_else(|| r.error("a debug location before any instruction"))?;
                last.dbg = Some(loc);
                self.last_dbg = Some(loc);
            }
            33 => {
                let loc = self
                    .last_dbg
                    .ok_or_else(|| r.error("DEBUG_LOC_AGAIN with no location before"))?;
                let last = self
                    .body
                    .insts
                    .last_mut()
                    .ok_or_else(|| r.error("a debug location before any instruction"))?;
                last.dbg = Some(loc);
            }
            55 => return Err(r.error("operand bundles are not read natively")),
            c => {
                return Err(r.error(format!("instruction record {c} is not read natively")));
            }
        }
        Ok(())
    }

    /// The value of an integer constant, if `id` is one.
    fn const_int(&self, id: u32) -> Option<i64> {
        match self.m.values.get(id as usize)? {
            Value::Const(super::module::Const::Int(v)) => Some(*v),
            Value::Const(super::module::Const::Null) => Some(0),
            _ => None,
        }
    }

    fn call(&mut self, r: &Reader<'_>, ops: &[u64]) -> Result<(), Error> {
        // [attributes, cc, fmf?, fnty?, callee pair, args...]
        if ops.len() < 3 {
            return Err(bad(r, "call"));
        }
        let attrs = ops[0];
        let cc = ops[1];
        let mut i = 2;
        let mut fmf = S("");
        if cc >> 17 & 1 != 0 {
            fmf = self.fast_math_piece(*ops.get(i).ok_or_else(|| bad(r, "call"))?);
            i += 1;
        }
        let mut fn_ty = None;
        if cc >> 15 & 1 != 0 {
            fn_ty = Some(
                self.m
                    .type_id(r, *ops.get(i).ok_or_else(|| bad(r, "call"))?)?,
            );
            i += 1;
        }
        let (callee, callee_ty) = self.pair(r, ops, &mut i)?;
        let fn_ty = match fn_ty {
            Some(t) => t,
            None => self
                .m
                .types
                .pointee(callee_ty)
                .ok_or_else(|| bad(r, "call"))?,
        };
        // The parameters copied into a vector kept from call to call, not
        // the type cloned (an allocation per call).
        let mut params = std::mem::take(&mut self.params);
        params.clear();
        let (vararg, ret) = match self.m.types.get(fn_ty) {
            Some(Ty::Function {
                vararg,
                ret,
                params: p,
            }) => {
                params.extend_from_slice(p);
                (*vararg, *ret)
            }
            _ => return Err(r.error("a call through a value that is not a function")),
        };
        let tail = match (cc & 1 != 0, cc >> 14 & 1 != 0, cc >> 16 & 1 != 0) {
            (_, true, _) => "musttail call ",
            (true, _, _) => "tail call ",
            (_, _, true) => "notail call ",
            _ => "call ",
        };
        let conv = (cc >> 1) & 0x3ff;
        let start = self.begin([S(tail), fmf]);
        if conv != 0 {
            let conv = self.own(super::print::calling_convention(conv));
            self.body.pieces.push(conv);
        }
        if attrs != 0 {
            self.body.pieces.push(Piece::Attrs(attrs, 0));
        }
        self.body.pieces.push(T(if vararg { fn_ty } else { ret }));
        self.body.pieces.extend([S(" "), V(callee), S("(")]);
        let mut k = 0u32;
        for p in &params {
            if k > 0 {
                self.body.pieces.push(S(", "));
            }
            if self.m.types.is_label(*p) {
                let b = self.block_ref(r, ops.get(i))?;
                i += 1;
                self.body.pieces.push(L(b));
            } else if self.m.types.is_metadata(*p) {
                let rel = *ops.get(i).ok_or_else(|| bad(r, "call"))?;
                i += 1;
                self.body
                    .pieces
                    .push(Piece::Md(u64::from(self.relative(rel))));
            } else {
                let v = self.value(r, ops, &mut i, *p)?;
                self.body.pieces.push(T(*p));
                if attrs != 0 {
                    self.body.pieces.push(Piece::Attrs(attrs, k + 1));
                }
                self.body.pieces.extend([S(" "), V(v)]);
            }
            k += 1;
        }
        if vararg {
            while i < ops.len() {
                let (v, ty) = self.pair(r, ops, &mut i)?;
                if k > 0 {
                    self.body.pieces.push(S(", "));
                }
                self.body.pieces.push(TV(ty, v));
                k += 1;
            }
        }
        if i != ops.len() {
            return Err(r.error(format!(
                "a call with {} operands for {} parameters",
                ops.len() - 2,
                params.len()
            )));
        }
        self.body.pieces.push(S(")"));
        if attrs != 0 {
            self.body.pieces.push(Piece::Attrs(attrs, u32::MAX));
        }
        self.params = params;
        self.push_inst(r, Some(ret), start, false)
    }
}
