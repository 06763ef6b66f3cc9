//! Where the computation behind a finding sits on each side.
//!
//! A finding is tied to one instruction. Its *anchor* is the first memory
//! access whose address that instruction feeds (forward through
//! arithmetic, casts, GEPs and private memory), or the instruction itself
//! when it feeds none. The anchor is what both sides share: the same
//! `load i8` from the buffer `data` exists at -O0 and at -O2, while the
//! arithmetic that computes its address is rewritten. On the other side we
//! look for anchors of the same shape (opcode, type, address space, root
//! buffer), then compare the two *slices*: the arithmetic the anchor's
//! address (or operands) is computed from, followed back through private
//! memory, stopping at phis, calls and loads from other memory.
//!
//! Steps of the two slices are paired by shape (opcode, width, constant
//! operands), preferring partners whose operands come from the same kinds
//! of instruction and that sit alike. A pair whose blocks differ in being
//! conditional or in loop depth *moved*; a step without a partner exists
//! on one side only.
//! Block labels and lines are reported as written on each side.
//!
//! Work is linear in the bodies looked at, and every walk is capped.

use super::metrics::{Analysis, is_free};
use crate::analysis::ControlFlow;
use crate::analysis::defuse::{Def, DefUse};
use crate::analysis::provenance::{FunctionProvenance, OriginKind};
use crate::ir::{Body, Instruction, Module, Opcode, Value};
use rustc_hash::{FxHashMap, FxHashSet};
use serde::Serialize;

/// Instructions a slice may list, and users a forward walk may visit.
const MAX_SLICE: usize = 64;
const MAX_FORWARD: usize = 256;

/// Where one instruction sits, as written on its side.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct Site {
    pub function: String,
    pub line: u32,
    /// `%19`, `%entry`, or `%4` for an unnamed entry block.
    pub block: String,
    /// Some branch decides whether the block runs.
    pub conditional: bool,
    pub loop_depth: u32,
    /// The instruction, printed in the opaque-pointer form.
    pub instruction: String,
}

/// A step of a slice, with the shape used to pair it across sides.
#[derive(Clone, Debug)]
pub struct Step {
    pub site: Site,
    /// Opcode, integer width and constants: what pairs steps across sides.
    pub shape: String,
    /// The opcodes its operands come from (through private memory), to
    /// tell apart steps of one shape, e.g. the two `sext i32 to i64`.
    pub context: String,
}

/// The anchor found for a finding, and the slice behind it.
#[derive(Clone, Debug)]
pub struct Anchored {
    /// What the anchor is, e.g. "load i8 from `data`"; equal strings are
    /// equivalent anchors.
    pub identity: String,
    /// The anchor is a memory access the finding's value is an address
    /// of; otherwise it is the finding's instruction itself.
    pub access: bool,
    pub site: Site,
    pub slice: Vec<Step>,
}

/// A step present on both sides whose placement changed.
#[derive(Clone, Debug, Serialize)]
pub struct Moved {
    /// e.g. "into a conditional block", "out of a loop".
    pub how: String,
    pub shape: String,
    pub a: Site,
    pub b: Site,
}

/// The comparison of an anchor's two slices.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Comparison {
    pub moved: Vec<Moved>,
    pub only_a: Vec<Site>,
    pub only_b: Vec<Site>,
}

/// A body looked at again, with what the analyses say of it.
struct Looked<'a> {
    body: Body<'a>,
    du: DefUse<'a>,
    cf: ControlFlow,
    prov: FunctionProvenance,
}

fn look<'a>(a: &mut Analysis<'a>, fi: usize) -> Option<Looked<'a>> {
    let (body, _) = a.module.body(fi);
    let function = a.module.functions.get(fi)?;
    let du = DefUse::build(function, &body);
    let cf = ControlFlow::of(&body);
    let params = a.params.get(fi).cloned().unwrap_or_default();
    let prov = FunctionProvenance::compute(&a.ctx, &a.module, function, &body, &du, params);
    Some(Looked { body, du, cf, prov })
}

/// The site of each finding at `(function, line)`, in the order given,
/// with its anchor. Each function is parsed once.
pub fn anchors_of(a: &mut Analysis<'_>, at: &[(usize, u32)]) -> Vec<Option<(Site, Anchored)>> {
    let mut out = vec![None; at.len()];
    let mut by_function: FxHashMap<usize, Vec<usize>> = FxHashMap::default();
    for (k, (fi, _)) in at.iter().enumerate() {
        by_function.entry(*fi).or_default().push(k);
    }
    let mut functions: Vec<usize> = by_function.keys().copied().collect();
    functions.sort_unstable();
    for fi in functions {
        let Some(l) = look(a, fi) else { continue };
        let line_to_inst: FxHashMap<u32, usize> = l
            .body
            .instructions
            .iter()
            .enumerate()
            .map(|(i, inst)| (inst.line, i))
            .rev()
            .collect();
        for &k in by_function.get(&fi).map_or(&[][..], |v| v) {
            let Some(&i) = at.get(k).and_then(|(_, line)| line_to_inst.get(line)) else {
                continue;
            };
            let anchor = forward_to_access(&l, i).unwrap_or(i);
            if let Some(slot) = out.get_mut(k) {
                *slot = Some((site(a, fi, &l, i), anchored(a, fi, &l, anchor)));
            }
        }
    }
    out
}

/// Every anchor among `functions` whose identity is in `wanted`.
pub fn find_anchors(
    a: &mut Analysis<'_>,
    functions: &[usize],
    wanted: &FxHashSet<String>,
) -> FxHashMap<String, Vec<Anchored>> {
    let mut out: FxHashMap<String, Vec<Anchored>> = FxHashMap::default();
    if wanted.is_empty() {
        return out;
    }
    for &fi in functions {
        let Some(l) = look(a, fi) else { continue };
        for i in 0..l.body.instructions.len() {
            let id = identity(a, &l, i);
            if wanted.contains(&id) {
                let x = anchored(a, fi, &l, i);
                out.entry(id).or_default().push(x);
            }
        }
    }
    out
}

fn anchored(a: &Analysis<'_>, fi: usize, l: &Looked<'_>, i: usize) -> Anchored {
    let slice = slice(&a.module, &l.body, &l.du, i)
        .into_iter()
        .map(|s| Step {
            site: site(a, fi, l, s),
            shape: shape(&a.module, &l.body.instructions[s]),
            context: producers(&l.body, &l.du, s),
        })
        .collect();
    let access = l.body.instructions.get(i).is_some_and(|x| {
        matches!(
            x.opcode,
            Opcode::Load | Opcode::Store | Opcode::AtomicRmw | Opcode::CmpXchg
        )
    });
    Anchored {
        identity: identity(a, l, i),
        access,
        site: site(a, fi, l, i),
        slice,
    }
}

fn site(a: &Analysis<'_>, fi: usize, l: &Looked<'_>, i: usize) -> Site {
    let block = l.du.block_of(i);
    let module = &a.module;
    Site {
        function: module
            .functions
            .get(fi)
            .map_or(String::new(), |f| f.name.to_string()),
        line: l.body.instructions.get(i).map_or(0, |x| x.line),
        block: block_name(module, fi, &l.body, block),
        conditional: l.cf.control_deps().is_conditional(block),
        loop_depth: l.cf.loops().depth(block),
        instruction: l
            .body
            .instructions
            .get(i)
            .map_or(String::new(), |x| render(module, x)),
    }
}

/// The block's label as written; an unnamed entry block is numbered the
/// way LLVM numbers it, after the unnamed parameters.
fn block_name(module: &Module<'_>, fi: usize, body: &Body<'_>, block: usize) -> String {
    match body.blocks.get(block).and_then(|b| b.label) {
        Some(l) => format!("%{l}"),
        None => {
            let unnamed = module.functions.get(fi).map_or(0, |f| {
                f.params
                    .iter()
                    .filter(|p| p.name.is_none_or(|n| n.bytes().all(|b| b.is_ascii_digit())))
                    .count()
            });
            format!("%{unnamed}")
        }
    }
}

/// The memory access `inst` of `l` is, by its shape and the buffer it
/// reaches; or, for any other instruction, its opcode, type and the named
/// origins of its operands (e.g. a divisor's field name).
fn identity(a: &Analysis<'_>, l: &Looked<'_>, i: usize) -> String {
    let Some(inst) = l.body.instructions.get(i) else {
        return String::new();
    };
    let types = &a.module.types;
    let access = match inst.opcode {
        Opcode::Load => Some((inst.elem_ty.unwrap_or(inst.ty), inst.operands.first())),
        Opcode::Store => Some((
            inst.operands.first().map_or(inst.ty, |o| o.ty),
            inst.operands.get(1),
        )),
        Opcode::AtomicRmw | Opcode::CmpXchg => Some((
            inst.operands.get(1).map_or(inst.ty, |o| o.ty),
            inst.operands.first(),
        )),
        _ => None,
    };
    if let Some((ty, Some(ptr))) = access {
        let space = types.addrspace(ptr.ty).unwrap_or(0);
        let p = l.prov.value(&l.du, &ptr.value);
        let root = p
            .arg
            .and_then(|r| a.ctx.argument(r))
            .and_then(|arg| arg.name.map(|n| format!("`{n}`")))
            .or_else(|| {
                p.origin_of(OriginKind::Memory)
                    .map(|o| format!("`{}`", o.name))
            })
            .or_else(|| global_root(&l.body, &l.du, &ptr.value).map(|g| format!("@{g}")))
            .or_else(|| {
                let a = alloca_root(&l.body, &l.du, &ptr.value)?;
                let t = l.body.instructions.get(a)?.elem_ty?;
                Some(format!("a private `{}`", types.display(t)))
            })
            .unwrap_or_else(|| "an unnamed pointer".to_string());
        let what = match inst.opcode {
            Opcode::Load => "load",
            Opcode::Store => "store",
            _ => inst.opcode.name(),
        };
        return format!(
            "{what} {} from {root} (address space {space})",
            types.display(ty)
        );
    }
    let mut s = format!("{} {}", inst.opcode.name(), types.display(inst.ty));
    for op in &inst.operands {
        match &op.value {
            Value::Int(c) => s.push_str(&format!(" {c}")),
            v => {
                if let Some(o) = l.prov.value(&l.du, v).main_origin() {
                    s.push_str(&format!(" `{}`", o.name));
                }
            }
        }
    }
    s
}

/// The global a pointer is derived from, through GEPs and casts.
fn global_root<'a>(body: &Body<'a>, du: &DefUse<'a>, v: &Value<'a>) -> Option<&'a str> {
    let mut v = v.clone();
    for _ in 0..MAX_SLICE {
        match v {
            Value::Global(g) => return Some(g),
            Value::Expr(e) => v = e.operands.first()?.value.clone(),
            Value::Local(_) => {
                let Some(Def::Inst(i)) = du.def_of(&v) else {
                    return None;
                };
                let inst = body.instructions.get(i)?;
                match inst.opcode {
                    Opcode::GetElementPtr | Opcode::BitCast | Opcode::AddrSpaceCast => {
                        v = inst.operands.first()?.value.clone();
                    }
                    _ => return None,
                }
            }
            _ => return None,
        }
    }
    None
}

/// Opcodes a value passes through on its way to an address.
fn carries(op: Opcode) -> bool {
    use Opcode::*;
    op.is_binary()
        || op.is_cast()
        || matches!(
            op,
            GetElementPtr | Select | Phi | ExtractElement | InsertElement | ICmp
        )
}

/// The alloca a pointer value names directly or through GEPs and casts.
fn alloca_root(body: &Body<'_>, du: &DefUse<'_>, v: &Value<'_>) -> Option<usize> {
    let mut i = match du.def_of(v)? {
        Def::Inst(i) => i,
        Def::Param(_) => return None,
    };
    for _ in 0..MAX_SLICE {
        let inst = body.instructions.get(i)?;
        match inst.opcode {
            Opcode::Alloca => return Some(i),
            Opcode::GetElementPtr | Opcode::BitCast | Opcode::AddrSpaceCast => {
                match du.def_of(&inst.operands.first()?.value)? {
                    Def::Inst(j) => i = j,
                    Def::Param(_) => return None,
                }
            }
            _ => return None,
        }
    }
    None
}

/// The first memory access, in program order, whose address depends on
/// `start`'s value. Values stored into private memory (an alloca) are
/// followed to the loads of that alloca, as -O0 code passes every value
/// through one.
fn forward_to_access(l: &Looked<'_>, start: usize) -> Option<usize> {
    let body = &l.body;
    let du = &l.du;
    let mut seen: FxHashSet<usize> = FxHashSet::default();
    let mut work = vec![start];
    let mut best: Option<usize> = None;
    let mut visits = 0;
    while let Some(v) = work.pop() {
        let Some(name) = body.instructions.get(v).and_then(|x| x.result) else {
            continue;
        };
        for u in du.users(Def::Inst(v)) {
            visits += 1;
            if visits > MAX_FORWARD {
                return best;
            }
            let Some(user) = body.instructions.get(u) else {
                continue;
            };
            let is = |k: usize| {
                user.operands
                    .get(k)
                    .is_some_and(|o| o.value == Value::Local(name))
            };
            let access = match user.opcode {
                Opcode::Load | Opcode::AtomicRmw | Opcode::CmpXchg => is(0),
                Opcode::Store => is(1),
                _ => false,
            };
            if access {
                best = Some(best.map_or(u, |b| b.min(u)));
                continue;
            }
            if user.opcode == Opcode::Store && is(0) {
                // Into private memory: on to the loads of that alloca.
                if let Some(a) = user
                    .operands
                    .get(1)
                    .and_then(|p| alloca_root(body, du, &p.value))
                {
                    for r in du.users(Def::Inst(a)) {
                        let loads = body
                            .instructions
                            .get(r)
                            .is_some_and(|x| x.opcode == Opcode::Load);
                        if loads && seen.insert(r) {
                            work.push(r);
                        }
                    }
                }
                continue;
            }
            if carries(user.opcode) && seen.insert(u) {
                work.push(u);
            }
        }
    }
    best
}

/// The instructions `anchor`'s address (for a memory access) or operands
/// are computed from, in program order; loads from private memory are
/// followed to what was stored and not listed, and code-free casts are
/// passed through and not listed.
fn slice(module: &Module<'_>, body: &Body<'_>, du: &DefUse<'_>, anchor: usize) -> Vec<usize> {
    let Some(inst) = body.instructions.get(anchor) else {
        return Vec::new();
    };
    let starts: Vec<&Value<'_>> = match inst.opcode {
        Opcode::Load | Opcode::AtomicRmw | Opcode::CmpXchg => inst
            .operands
            .first()
            .map(|o| &o.value)
            .into_iter()
            .collect(),
        Opcode::Store => inst.operands.get(1).map(|o| &o.value).into_iter().collect(),
        _ => inst.operands.iter().map(|o| &o.value).collect(),
    };
    let mut seen: FxHashSet<usize> = FxHashSet::default();
    let mut listed: Vec<usize> = Vec::new();
    let mut work: Vec<usize> = starts
        .into_iter()
        .filter_map(|v| match du.def_of(v) {
            Some(Def::Inst(i)) => Some(i),
            _ => None,
        })
        .collect();
    let mut stores_of: FxHashMap<usize, Vec<usize>> = FxHashMap::default();
    while let Some(i) = work.pop() {
        if !seen.insert(i) || seen.len() > MAX_SLICE {
            continue;
        }
        let Some(x) = body.instructions.get(i) else {
            continue;
        };
        let push_operands = |ops: &[crate::ir::Operand<'_>], work: &mut Vec<usize>| {
            for o in ops {
                if let Some(Def::Inst(d)) = du.def_of(&o.value) {
                    work.push(d);
                }
            }
        };
        match x.opcode {
            Opcode::Load => {
                let Some(a) = x
                    .operands
                    .first()
                    .and_then(|p| alloca_root(body, du, &p.value))
                else {
                    continue;
                };
                let stored = stores_of
                    .entry(a)
                    .or_insert_with(|| stores_into(body, du, a));
                work.extend(stored.iter().copied());
            }
            // Code-free pointer casts: followed, not listed.
            _ if is_free(module, x) => push_operands(&x.operands, &mut work),
            op if carries(op) && op != Opcode::Phi => {
                listed.push(i);
                push_operands(&x.operands, &mut work);
            }
            _ => {}
        }
    }
    listed.sort_unstable();
    listed
}

/// The values stored into alloca `a`, directly or through GEPs and casts
/// of it (one level).
fn stores_into(body: &Body<'_>, du: &DefUse<'_>, a: usize) -> Vec<usize> {
    let mut out = Vec::new();
    let mut ptrs = vec![a];
    for u in du.users(Def::Inst(a)) {
        if body.instructions.get(u).is_some_and(|x| {
            matches!(
                x.opcode,
                Opcode::GetElementPtr | Opcode::BitCast | Opcode::AddrSpaceCast
            )
        }) {
            ptrs.push(u);
        }
    }
    for p in ptrs {
        let Some(name) = body.instructions.get(p).and_then(|x| x.result) else {
            continue;
        };
        for u in du.users(Def::Inst(p)) {
            let Some(s) = body.instructions.get(u) else {
                continue;
            };
            let into = s.opcode == Opcode::Store
                && s.operands
                    .get(1)
                    .is_some_and(|o| o.value == Value::Local(name));
            if into && let Some(Def::Inst(d)) = s.operands.first().and_then(|o| du.def_of(&o.value))
            {
                out.push(d);
            }
        }
    }
    out
}

/// The opcodes the local operands of instruction `i` come from, sorted;
/// a load from private memory stands for what was stored there (-O0).
fn producers(body: &Body<'_>, du: &DefUse<'_>, i: usize) -> String {
    let Some(inst) = body.instructions.get(i) else {
        return String::new();
    };
    let mut out: Vec<&str> = Vec::new();
    for o in &inst.operands {
        let name = match du.def_of(&o.value) {
            Some(Def::Param(_)) => "argument",
            Some(Def::Inst(d)) => {
                let mut d = d;
                if let Some(x) = body.instructions.get(d)
                    && x.opcode == Opcode::Load
                    && let Some(a) = x
                        .operands
                        .first()
                        .and_then(|p| alloca_root(body, du, &p.value))
                    && let Some(&s) = stores_into(body, du, a).first()
                {
                    d = s;
                }
                body.instructions.get(d).map_or("?", |x| x.opcode.name())
            }
            None => continue,
        };
        out.push(name);
    }
    out.sort_unstable();
    out.join(", ")
}

/// What pairs two steps across sides: opcode, integer width and constant
/// operands (flags and value names differ between -O0 and -O2).
fn shape(module: &Module<'_>, inst: &Instruction<'_>) -> String {
    let types = &module.types;
    let mut s = inst.opcode.name().to_string();
    if let Some(p) = inst.predicate {
        s.push(' ');
        s.push_str(p);
    }
    s.push(' ');
    s.push_str(&types.display(inst.ty));
    let mut consts: Vec<String> = inst
        .operands
        .iter()
        .filter_map(|o| match &o.value {
            Value::Int(c) => Some(c.to_string()),
            Value::BigInt(c) | Value::Float(c) => Some(c.to_string()),
            _ => None,
        })
        .collect();
    consts.sort();
    for c in consts {
        s.push_str(", ");
        s.push_str(&c);
    }
    if inst.opcode.is_cast()
        && let Some(from) = inst.operands.first()
    {
        s.push_str(" from ");
        s.push_str(&types.display(from.ty));
    }
    s
}

/// Pairs the steps of `a` and `b`: first those of the same shape whose
/// operands come from the same kinds of instruction, then those of the
/// same shape; at each level first those placed alike (same
/// conditionality and loop depth), then the rest in program order. Slices
/// are capped, so the quadratic search within a group stays small.
pub fn compare(a: &[Step], b: &[Step]) -> Comparison {
    let placed = |s: &Step| (s.site.conditional, s.site.loop_depth);
    let mut out = Comparison::default();
    let mut used_a = vec![false; a.len()];
    let mut used_b = vec![false; b.len()];
    let mut moved: Vec<(usize, usize)> = Vec::new();
    for with_context in [true, false] {
        let key = |s: &Step| {
            if with_context {
                format!("{} <- {}", s.shape, s.context)
            } else {
                s.shape.clone()
            }
        };
        let mut groups: FxHashMap<String, (Vec<usize>, Vec<usize>)> = FxHashMap::default();
        for (i, s) in a.iter().enumerate().filter(|(i, _)| !used_a[*i]) {
            groups.entry(key(s)).or_default().0.push(i);
        }
        for (i, s) in b.iter().enumerate().filter(|(i, _)| !used_b[*i]) {
            groups.entry(key(s)).or_default().1.push(i);
        }
        for same_place in [true, false] {
            for (xs, ys) in groups.values() {
                for &x in xs {
                    if used_a[x] {
                        continue;
                    }
                    let partner = ys
                        .iter()
                        .find(|&&y| !used_b[y] && (!same_place || placed(&a[x]) == placed(&b[y])));
                    if let Some(&y) = partner {
                        used_a[x] = true;
                        used_b[y] = true;
                        if placed(&a[x]) != placed(&b[y]) {
                            moved.push((x, y));
                        }
                    }
                }
            }
        }
    }
    moved.sort_unstable();
    for (x, y) in moved {
        let (sa, sb) = (&a[x].site, &b[y].site);
        let how = match (sa.conditional, sb.conditional) {
            (false, true) => "into a conditional block".to_string(),
            (true, false) => "out of a conditional block".to_string(),
            _ if sb.loop_depth > sa.loop_depth => "into a loop".to_string(),
            _ => "out of a loop".to_string(),
        };
        out.moved.push(Moved {
            how,
            shape: a[x].shape.clone(),
            a: sa.clone(),
            b: sb.clone(),
        });
    }
    out.only_a = a
        .iter()
        .zip(&used_a)
        .filter(|(_, u)| !**u)
        .map(|(s, _)| s.site.clone())
        .collect();
    out.only_b = b
        .iter()
        .zip(&used_b)
        .filter(|(_, u)| !**u)
        .map(|(s, _)| s.site.clone())
        .collect();
    out
}

/// The instruction in the opaque-pointer form, so both printers print it
/// alike.
pub fn render(module: &Module<'_>, inst: &Instruction<'_>) -> String {
    let types = &module.types;
    let value = |v: &Value<'_>| -> String {
        match v {
            Value::Local(n) => format!("%{n}"),
            Value::Global(g) => format!("@{g}"),
            Value::Int(c) => c.to_string(),
            Value::BigInt(s) | Value::Float(s) => s.to_string(),
            Value::Bool(b) => b.to_string(),
            Value::Null => "null".into(),
            Value::Undef => "undef".into(),
            Value::Poison => "poison".into(),
            Value::ZeroInitializer => "zeroinitializer".into(),
            Value::Label(l) => format!("label %{l}"),
            _ => "…".into(),
        }
    };
    let operand =
        |o: &crate::ir::Operand<'_>| format!("{} {}", types.display(o.ty), value(&o.value));
    let mut s = String::new();
    if let Some(r) = inst.result {
        s.push_str(&format!("%{r} = "));
    }
    s.push_str(inst.opcode_text);
    for f in inst.flags.names() {
        if f != "tail" && f != "notail" && f != "musttail" {
            s.push(' ');
            s.push_str(f);
        }
    }
    if let Some(p) = inst.predicate {
        s.push(' ');
        s.push_str(p);
    }
    let ops = &inst.operands;
    match inst.opcode {
        op if op.is_binary() || op == Opcode::ICmp || op == Opcode::FCmp => {
            if let (Some(x), Some(y)) = (ops.first(), ops.get(1)) {
                s.push_str(&format!(" {}, {}", operand(x), value(&y.value)));
            }
        }
        op if op.is_cast() => {
            if let Some(x) = ops.first() {
                s.push_str(&format!(" {} to {}", operand(x), types.display(inst.ty)));
            }
        }
        Opcode::Load | Opcode::GetElementPtr | Opcode::Alloca => {
            if let Some(t) = inst.elem_ty {
                s.push(' ');
                s.push_str(&types.display(t));
            }
            for o in ops {
                s.push_str(", ");
                s.push_str(&operand(o));
            }
        }
        Opcode::Call => {
            let callee = inst.callee().map_or(String::new(), |c| value(&c.value));
            let args: Vec<String> = inst.call_args().iter().map(operand).collect();
            s.push_str(&format!(" {callee}({})", args.join(", ")));
        }
        _ => {
            let args: Vec<String> = ops.iter().map(operand).collect();
            if !args.is_empty() {
                s.push(' ');
                s.push_str(&args.join(", "));
            }
        }
    }
    s
}
