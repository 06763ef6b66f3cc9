//! Thread-divergent control flow: which blocks run on only some threads of a
//! threadgroup.
//!
//! A branch (`br i1 %c`, `switch`) is divergent when its condition may differ
//! between threads: a thread-varying builtin reaches it (as a value, or as an
//! index of the memory it was read from), or it is the result of an atomic
//! read-modify-write. A value read from device or threadgroup memory at an
//! address no thread id reaches is the same for every thread (Metal
//! FlashAttention branches on a per-block mask byte read that way), and
//! literals, function constants, uniform values (kernel arguments, `constant`
//! buffers, `threadgroup_position_in_grid`) and unknown values are not
//! divergent either.
//!
//! Divergence is asked about some target blocks (those holding a barrier,
//! say), and a divergent branch only counts when at least two of its
//! successors can still reach a target: threads that leave for the exit
//! without meeting one again do not matter. For barriers this is the MSL
//! specification's wording, that every thread of the threadgroup *executing
//! the kernel* must reach it; a thread that returned no longer is (SPIRV-Cross
//! relies on it for tessellation, and Metal FlashAttention's GEMM returns
//! whole SIMD-groups early before its barriers). `strict` narrows that to
//! threads that return at once (`returns_at_once`): threads that go on
//! running the kernel elsewhere count, as the specification's letter has it
//! (MLX's gemv, `if (simd_lid == 0) { ... threadgroup_barrier ... }`).
//!
//! A block is divergent when such a branch decides whether it runs (control
//! dependence), directly or through blocks that are divergent themselves: a
//! block under a uniform branch inside a divergent region still runs on only
//! some threads. Loops need little special: a loop header is control
//! dependent on the loop's exiting branch, so a loop whose trip count varies
//! by thread makes its body divergent. A loop from `f(tid)` to `f(tid) + n`
//! does not: its exit test and guard compare thread-varying values a
//! uniform distance apart, which `loops::compares_uniform_distance` tells.
//!
//! `Divergence::compute` is linear: a backward walk from the targets, one look
//! at each block's terminator, then a breadth-first walk of the
//! control-dependence graph that visits each block once. `skipping_meets_target`
//! is the closer, per-finding look a rule may take; it visits each edge at
//! most once and stops at a budget.

use super::ControlFlow;
use super::defuse::{Def, DefUse};
use super::loops::compares_uniform_distance;
use super::provenance::{FunctionProvenance, Provenance, Sources};
use crate::ir::{Body, Opcode, Operand, TypeTable, Value};
use rustc_hash::FxHashSet;
use std::collections::VecDeque;

/// The divergent blocks of one function, each with the divergent branch
/// that decides it.
#[derive(Clone, Debug, Default)]
pub struct Divergence {
    /// Per block: 1 + the block whose divergent branch decides it, or 0.
    cause: Vec<u32>,
}

impl Divergence {
    /// `targets[b]`: block `b` holds an instruction the question is about.
    /// `strict`: a successor whose threads keep running counts as well as
    /// one that reaches a target.
    pub fn compute(
        body: &Body<'_>,
        du: &DefUse<'_>,
        cf: &ControlFlow,
        prov: &FunctionProvenance,
        targets: &[bool],
        strict: bool,
    ) -> Divergence {
        let n = cf.cfg.len();
        let reaches = reaches_target(cf, targets);
        let mut cause = vec![0u32; n];
        let mut queue = VecDeque::new();
        // Seeds first, so a block a divergent branch decides directly is
        // attributed to that branch rather than to one further out. Control
        // dependence (post-dominators first) is built only once a seed is
        // found: most functions have no thread-varying branch toward a
        // target. (A block that decides nothing has an empty row below.)
        for a in 0..n {
            let onward = cf
                .cfg
                .succs(a)
                .iter()
                .filter(|&&s| {
                    reaches.get(s).copied().unwrap_or(false)
                        || (strict && !returns_at_once(body, cf, s))
                })
                .count();
            if onward < 2 {
                continue;
            }
            if !is_divergent_branch(body, du, cf, prov, a) {
                continue;
            }
            for &x in cf.control_deps().decided_by(a) {
                if let Some(c) = cause.get_mut(x)
                    && *c == 0
                {
                    *c = to_u32(a) + 1;
                    queue.push_back(x);
                }
            }
        }
        while let Some(x) = queue.pop_front() {
            let c = cause.get(x).copied().unwrap_or(0);
            for &y in cf.control_deps().decided_by(x) {
                if let Some(cy) = cause.get_mut(y)
                    && *cy == 0
                {
                    *cy = c;
                    queue.push_back(y);
                }
            }
        }
        Divergence { cause }
    }

    /// The block whose divergent branch decides whether `block` runs.
    pub fn cause(&self, block: usize) -> Option<usize> {
        match self.cause.get(block) {
            Some(&c) if c > 0 => Some(c as usize - 1),
            _ => None,
        }
    }

    pub fn is_divergent(&self, block: usize) -> bool {
        self.cause(block).is_some()
    }
}

/// Whether a value may differ between the threads of a threadgroup: a
/// thread-varying builtin reaches it, or an atomic's per-thread result.
pub fn is_thread_varying(p: &Provenance) -> bool {
    p.sources.contains(Sources(
        Sources::VARYING_BUILTIN.0 | Sources::ATOMIC_RESULT.0,
    ))
}

/// Whether the branch ending `block` may send threads different ways: its
/// condition is thread-varying, and is not a compare of two values a
/// uniform distance apart (`loops::compares_uniform_distance`: a loop from
/// `f(tid)` to `f(tid) + n` runs as many times on every thread, though its
/// exit test and guard compare thread-varying values).
pub fn is_divergent_branch(
    body: &Body<'_>,
    du: &DefUse<'_>,
    cf: &ControlFlow,
    prov: &FunctionProvenance,
    block: usize,
) -> bool {
    // The condition's provenance by position (operand 0 of the terminator),
    // not by its name: this runs for every branch toward a target.
    let condition_varies = || {
        let t = cf.cfg.terminator_index(block)?;
        Some(is_thread_varying(&prov.operand(body, du, t, 0)))
    };
    branch_condition(cf, body, block).is_some()
        && condition_varies() == Some(true)
        && !compares_uniform_distance(body, du, cf, block, |i, k| {
            !is_thread_varying(&prov.operand(body, du, i, k))
        })
}

/// Whether threads entering `block` return without running anything: the
/// blocks up to the `ret` hold only phis, pointer casts, markers (`llvm.lifetime.*`,
/// `llvm.dbg.*`) and unconditional branches (an early `return` as -O2
/// leaves it, often through the function's shared exit block).
pub fn returns_at_once(body: &Body<'_>, cf: &ControlFlow, mut block: usize) -> bool {
    let inert = |i: &crate::ir::Instruction<'_>| {
        matches!(
            i.opcode,
            Opcode::Phi | Opcode::BitCast | Opcode::AddrSpaceCast
        ) || i
            .callee_name()
            .is_some_and(|c| c.starts_with("llvm.lifetime.") || c.starts_with("llvm.dbg."))
    };
    for _ in 0..8 {
        let insts = body.block_instructions(block);
        let Some((last, rest)) = insts.split_last() else {
            return false;
        };
        if !rest.iter().all(inert) {
            return false;
        }
        match (last.opcode, cf.cfg.succs(block)) {
            (Opcode::Ret, _) => return true,
            (Opcode::Br, &[next]) if last.operands.len() == 1 => block = next,
            _ => return false,
        }
    }
    false
}

/// Whether a path leads from `from` to `to`; a walk that spends `budget`
/// (one per block) and says yes when it runs out, the cautious answer for
/// its one caller (a yes reports nothing).
pub fn reaches_block(cf: &ControlFlow, from: usize, to: usize, budget: &mut usize) -> bool {
    let mut seen = FxHashSet::default();
    let mut stack = vec![from];
    while let Some(x) = stack.pop() {
        if x == to {
            return true;
        }
        if !seen.insert(x) {
            continue;
        }
        match budget.checked_sub(1) {
            Some(b) => *budget = b,
            None => return true,
        }
        stack.extend_from_slice(cf.cfg.succs(x));
    }
    false
}

/// Blocks from which a target block is reachable (targets included).
fn reaches_target(cf: &ControlFlow, targets: &[bool]) -> Vec<bool> {
    let n = cf.cfg.len();
    let mut reaches = vec![false; n];
    let mut stack: Vec<usize> = (0..n)
        .filter(|&b| targets.get(b).copied().unwrap_or(false))
        .collect();
    for &b in &stack {
        reaches[b] = true;
    }
    while let Some(b) = stack.pop() {
        for &p in cf.cfg.preds(b) {
            if !reaches[p] {
                reaches[p] = true;
                stack.push(p);
            }
        }
    }
    reaches
}

/// The condition of `block`'s terminator: the `i1` of a conditional `br`,
/// the value a `switch` switches on.
pub fn branch_condition<'b, 'a>(
    cf: &ControlFlow,
    body: &'b Body<'a>,
    block: usize,
) -> Option<&'b Operand<'a>> {
    let t = cf.cfg.terminator(body, block)?;
    match t.opcode {
        Opcode::Br if t.operands.len() == 3 => t.operands.first(),
        Opcode::Switch => t.operands.first(),
        _ => None,
    }
}

/// The divergent branches that decide whether `block` runs, directly or
/// through the blocks they decide: (branch block, the block on the way to
/// `block` it decides). Each branch once: the exits of loops around `block`
/// first, then nearest first. `None` when the budget (blocks visited) runs out.
pub fn divergent_deciders(
    body: &Body<'_>,
    du: &DefUse<'_>,
    cf: &ControlFlow,
    prov: &FunctionProvenance,
    block: usize,
    budget: &mut usize,
) -> Option<Vec<(usize, usize)>> {
    let mut out = Vec::new();
    // Branches met; a block may decide itself (a loop's latch and body).
    let mut seen: FxHashSet<usize> = FxHashSet::default();
    let mut queue = VecDeque::from([block]);
    while let Some(x) = queue.pop_front() {
        for &a in cf.control_deps().deps(x) {
            if !seen.insert(a) {
                continue;
            }
            *budget = budget.checked_sub(1)?;
            if a != block {
                queue.push_back(a);
            }
            if is_divergent_branch(body, du, cf, prov, a) {
                out.push((a, x));
            }
        }
    }
    // A loop's exit first: for a block in a loop whose trip count varies,
    // that says more than the guard in front of the loop.
    let exits_loop_around = |a: usize| {
        cf.loops()
            .loops
            .iter()
            .any(|l| l.contains(block) && l.exiting().binary_search(&a).is_ok())
    };
    out.sort_by_key(|&(a, _)| !exits_loop_around(a));
    Some(out)
}

/// What a walk found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Skipping {
    /// The threads `a` sends past `b` reach no target; they finish.
    Finish,
    /// They can reach the target block given.
    MeetTarget(usize),
    /// They come back to `a`, whose condition changes each iteration of a
    /// loop that holds `b`, so they may reach `b` in another iteration.
    ComeBack,
    /// The walk ran out of budget.
    Unknown,
    /// They reach no target, but go on running the kernel before they
    /// return (not `Finish` only under strict divergence).
    KeepRunning,
}

/// Where the threads go that the branch at `a` sends away from `toward`
/// (the block on the way to `b` that `a` decides): a walk from `a`'s other
/// successors that never enters `b`, looking for a target block.
///
/// Each edge X → Y is taken only if X's branch could go to Y given the edge
/// that led into X: a condition computed from X's phis and constants is
/// folded (LLVM's jump threading, one step), so a bail-out path that sets a
/// flag and returns is not taken for one that reaches the next barrier.
/// Visits each edge at most once; `budget` bounds the edges visited.
#[allow(clippy::too_many_arguments)]
pub fn skipping_meets_target(
    body: &Body<'_>,
    du: &DefUse<'_>,
    types: &TypeTable<'_>,
    cf: &ControlFlow,
    a: usize,
    toward: usize,
    b: usize,
    targets: &[bool],
    budget: &mut usize,
) -> Skipping {
    let is_target = |x: usize| targets.get(x).copied().unwrap_or(false);
    // Coming back to `a` matters only when `b` is in a loop around `a` and
    // `a`'s condition is computed inside that loop (it may go the other way
    // next time). A condition fixed for the loop sends a thread the same way
    // every iteration.
    let loop_of_a = cf
        .loops()
        .innermost(a)
        .and_then(|l| cf.loops().loops.get(l));
    let variant = loop_of_a.is_some_and(|l| {
        l.contains(b)
            && branch_condition(cf, body, a).is_some_and(|c| match du.def_of(&c.value) {
                Some(Def::Inst(i)) => l.contains(du.block_of(i)),
                _ => false,
            })
    });
    let away = cf.cfg.succs(a);
    let mut stack: Vec<(usize, usize)> = away
        .iter()
        .filter(|&&s| s != b && s != toward && !cf.postdom().dominates(toward, s))
        .map(|&s| (a, s))
        .collect();
    let mut seen: FxHashSet<(usize, usize)> = FxHashSet::default();
    while let Some((p, x)) = stack.pop() {
        if !seen.insert((p, x)) {
            continue;
        }
        if *budget == 0 {
            return Skipping::Unknown;
        }
        *budget -= 1;
        if is_target(x) {
            return Skipping::MeetTarget(x);
        }
        if x == a {
            if variant {
                return Skipping::ComeBack;
            }
            continue;
        }
        for y in feasible_successors(body, du, types, cf, p, x) {
            if y != b {
                stack.push((x, y));
            }
        }
    }
    Skipping::Finish
}

/// The successors of `x` its terminator can go to when entered from `p`.
fn feasible_successors(
    body: &Body<'_>,
    du: &DefUse<'_>,
    types: &TypeTable<'_>,
    cf: &ControlFlow,
    p: usize,
    x: usize,
) -> Vec<usize> {
    let all = cf.cfg.succs(x).to_vec();
    let Some(t) = cf.cfg.terminator(body, x) else {
        return all;
    };
    let from = body.blocks.get(p).and_then(|b| b.label);
    let fold = |v: &Value<'_>| {
        Folder {
            body,
            du,
            types,
            x,
            from,
        }
        .value(v, 0)
    };
    let label = match t.opcode {
        Opcode::Br if t.operands.len() == 3 => {
            match t.operands.first().and_then(|c| fold(&c.value)) {
                Some(c) => t.operands.get(if c != 0 { 1 } else { 2 }),
                None => None,
            }
        }
        Opcode::Switch => match t.operands.first().and_then(|c| fold(&c.value)) {
            Some(c) => {
                let case = t
                    .operands
                    .get(2..)
                    .unwrap_or(&[])
                    .chunks(2)
                    .find(|pair| pair.first().and_then(|v| int_of(&v.value)) == Some(c))
                    .and_then(|pair| pair.get(1));
                case.or(t.operands.get(1))
            }
            None => None,
        },
        _ => None,
    };
    let Some(Value::Label(name)) = label.map(|l| &l.value) else {
        return all;
    };
    match all
        .iter()
        .find(|&&s| body.blocks.get(s).and_then(|b| b.label) == Some(*name))
    {
        Some(&s) => vec![s],
        None => all,
    }
}

/// The value of an integer or boolean literal.
pub fn int_of(v: &Value<'_>) -> Option<i64> {
    match v {
        Value::Int(c) => Some(*c),
        Value::Bool(b) => Some(*b as i64),
        _ => None,
    }
}

/// Folds a value of block `x` to a constant, given the block control came
/// from: phis of `x` take their incoming literal for that edge; compares,
/// boolean and/or/xor (short-circuiting on a known operand), casts and
/// selects of `x` are computed. Anything else is unknown.
struct Folder<'f, 'a> {
    body: &'f Body<'a>,
    du: &'f DefUse<'a>,
    types: &'f TypeTable<'a>,
    x: usize,
    from: Option<&'f str>,
}

impl Folder<'_, '_> {
    fn value(&self, v: &Value<'_>, depth: u32) -> Option<i64> {
        if let Some(c) = int_of(v) {
            return Some(c);
        }
        if depth > 8 {
            return None;
        }
        let Some(Def::Inst(i)) = self.du.def_of(v) else {
            return None;
        };
        if self.du.block_of(i) != self.x {
            return None;
        }
        let inst = self.body.instructions.get(i)?;
        let op = |k: usize| inst.operands.get(k);
        let fold = |k: usize| op(k).and_then(|o| self.value(&o.value, depth + 1));
        match inst.opcode {
            Opcode::Phi => {
                let from = self.from?;
                inst.operands
                    .chunks(2)
                    .find(|pair| pair.get(1).map(|l| &l.value) == Some(&Value::Label(from)))
                    .and_then(|pair| pair.first())
                    .and_then(|v| int_of(&v.value))
            }
            Opcode::Or | Opcode::And => {
                let is_or = inst.opcode == Opcode::Or;
                match (fold(0), fold(1)) {
                    (Some(l), Some(r)) => Some(if is_or { l | r } else { l & r }),
                    // `true or ?` and `false and ?` are known.
                    (Some(k), None) | (None, Some(k))
                        if self.types.int_bits(inst.ty) == Some(1) =>
                    {
                        match (is_or, k != 0) {
                            (true, true) => Some(1),
                            (false, false) => Some(0),
                            _ => None,
                        }
                    }
                    _ => None,
                }
            }
            Opcode::Xor => Some(fold(0)? ^ fold(1)?),
            Opcode::ZExt | Opcode::SExt | Opcode::Trunc | Opcode::Freeze => fold(0),
            Opcode::Select => match fold(0)? {
                0 => fold(2),
                _ => fold(1),
            },
            Opcode::ICmp => {
                let (l, r) = (fold(0)?, fold(1)?);
                let bits = op(0).and_then(|o| self.types.int_bits(o.ty)).unwrap_or(64);
                super::loops::icmp_holds(inst.predicate?, l, r, bits).map(i64::from)
            }
            _ => None,
        }
    }
}

fn to_u32(x: usize) -> u32 {
    u32::try_from(x).unwrap_or(u32::MAX - 1)
}
