//! Natural loops: which blocks may run many times, and how deeply nested.
//!
//! A back edge is an edge A → H where H dominates A; its loop is H plus every
//! block that reaches A without passing through H, found by walking
//! predecessors back from A (explicit stack). Back edges to one header make
//! one loop with several latches.
//!
//! Irreducible cycles (entered at more than one block, so no block of the
//! cycle dominates the others) have no back edge and so make no loop: their
//! blocks get only the depth of the natural loops around them. The edges
//! that close such cycles are listed in `Loops::irreducible` so a rule can
//! say the depth is a lower bound there. Metal's compiler does not emit them
//! from structured source; they come from hand-written or broken IR.
//!
//! Cost: O((n + e) · d) for n blocks, e edges and loop nesting depth d, since
//! each loop lists its blocks explicitly; O(n + e) when there are no loops.

use super::ControlFlow;
use super::cfg::Cfg;
use super::defuse::{Def, DefUse};
use super::dominance::{DomTree, rpo_dominates, rpo_dominators};
use crate::ir::{Body, Opcode, Operand, TypeTable, Value};
use std::sync::Arc;

/// One natural loop.
#[derive(Clone, Debug)]
pub struct Loop {
    /// The block every iteration starts at; it dominates the whole loop.
    pub header: usize,
    /// The lists of every loop of the function, in one allocation shared by
    /// them all (`Loops::of`): one per loop cost more than finding the
    /// loops, which in unrolled kernels are many and small. This loop's
    /// `blocks`, `latches`, `exits` and `exiting` are `lists[at[k]..at[k + 1]]`.
    lists: Arc<[usize]>,
    at: [u32; 5],
    /// The innermost loop containing this one, an index into `Loops::loops`
    /// (always smaller than this loop's index).
    pub parent: Option<usize>,
    /// 1 for an outermost loop.
    pub depth: u32,
}

/// Loops are equal when their lists are, whatever else their shared
/// allocation holds.
impl PartialEq for Loop {
    fn eq(&self, other: &Loop) -> bool {
        self.header == other.header
            && self.parent == other.parent
            && self.depth == other.depth
            && (0..4).all(|k| self.list(k) == other.list(k))
    }
}

impl Eq for Loop {}

impl Loop {
    #[cfg(test)]
    fn new(header: usize, lists: [&[usize]; 4], parent: Option<usize>, depth: u32) -> Loop {
        let mut all = Vec::new();
        let at = append_lists(&mut all, lists);
        Loop {
            header,
            lists: all.into(),
            at,
            parent,
            depth,
        }
    }

    fn list(&self, k: usize) -> &[usize] {
        self.lists
            .get(self.at[k] as usize..self.at[k + 1] as usize)
            .unwrap_or(&[])
    }

    /// All blocks of the loop, the header and inner loops included; ascending.
    pub fn blocks(&self) -> &[usize] {
        self.list(0)
    }

    /// Blocks with a back edge to the header; ascending.
    pub fn latches(&self) -> &[usize] {
        self.list(1)
    }

    /// Blocks outside the loop that an edge from inside leads to (LLVM's
    /// "exit blocks"); ascending. Empty for a loop that never ends.
    pub fn exits(&self) -> &[usize] {
        self.list(2)
    }

    /// Blocks inside the loop with an edge to an exit (LLVM's "exiting
    /// blocks"); ascending.
    pub fn exiting(&self) -> &[usize] {
        self.list(3)
    }

    /// Whether `block` is in this loop. O(log size).
    pub fn contains(&self, block: usize) -> bool {
        self.blocks().binary_search(&block).is_ok()
    }
}

/// The loops of one function.
#[derive(Clone, Debug, Default)]
pub struct Loops {
    /// Ordered by their header's position in reverse postorder, so outer
    /// loops come before the loops they contain.
    pub loops: Vec<Loop>,
    /// Edges A → B that close a cycle (B comes no later than A in reverse
    /// postorder) but are not back edges because B does not dominate A: the
    /// marks of an irreducible cycle.
    pub irreducible: Vec<(usize, usize)>,
    depth: Vec<u32>,
    innermost: Vec<u32>,
}

const NO_LOOP: u32 = u32::MAX;

impl Loops {
    /// Finds the natural loops. `dom` must be `dominators(cfg)`.
    pub fn find(cfg: &Cfg, dom: &DomTree) -> Loops {
        let mut pos = vec![u32::MAX; cfg.len()];
        for (i, &b) in cfg.reverse_postorder().iter().enumerate() {
            pos[b] = to_u32(i);
        }
        Self::find_with(cfg, &pos, |h, a| dom.dominates(h, a))
    }

    /// `find`, with dominance read off the immediate dominators
    /// (`rpo_dominators`) rather than a dominator tree: loops ask it only of
    /// each retreating edge, and numbering the tree for those few questions
    /// cost more than finding the loops (nothing else asks for dominators).
    pub fn of(cfg: &Cfg) -> Loops {
        let (num, doms) = rpo_dominators(cfg);
        Self::find_with(cfg, &num, |h, a| rpo_dominates(&doms, num[h], num[a]))
    }

    /// `pos[b]`: `b`'s position in reverse postorder, `u32::MAX` for a block
    /// the entry does not reach. `dominates(h, a)` is asked of reachable
    /// blocks only.
    #[inline(always)]
    fn find_with(cfg: &Cfg, pos: &[u32], dominates: impl Fn(usize, usize) -> bool) -> Loops {
        let n = cfg.len();
        let rpo = cfg.reverse_postorder();
        let mut buffers = Buffers::for_blocks(n);
        let Buffers {
            found,
            all,
            mark,
            stack,
            latches,
            blocks,
            exits,
            exiting,
        } = &mut buffers;
        let mut irreducible = Vec::new();
        let mut innermost = vec![NO_LOOP; n];
        // Headers in reverse postorder: a loop's enclosing loops have headers
        // that dominate its header, so they are already built and
        // `innermost[header]` names its parent.
        for &h in rpo {
            latches.clear();
            for &a in cfg.preds(h) {
                if pos[a] == u32::MAX || pos[a] < pos[h] {
                    continue;
                }
                if dominates(h, a) {
                    latches.push(a);
                } else {
                    irreducible.push((a, h));
                }
            }
            if latches.is_empty() {
                continue;
            }
            let id = found.len();
            let stamp = to_u32(id + 1);
            mark[h] = stamp;
            blocks.clear();
            blocks.push(h);
            for &l in latches.iter() {
                if mark[l] != stamp {
                    mark[l] = stamp;
                    blocks.push(l);
                    stack.push(l);
                }
            }
            while let Some(b) = stack.pop() {
                for &p in cfg.preds(b) {
                    // Dead predecessors are not part of any loop.
                    if mark[p] != stamp && pos[p] != u32::MAX {
                        mark[p] = stamp;
                        blocks.push(p);
                        stack.push(p);
                    }
                }
            }
            blocks.sort_unstable();
            exits.clear();
            exiting.clear();
            for &b in blocks.iter() {
                let before = exits.len();
                exits.extend(cfg.succs(b).iter().copied().filter(|&s| mark[s] != stamp));
                if exits.len() > before {
                    exiting.push(b);
                }
            }
            exits.sort_unstable();
            exits.dedup();
            let parent = match innermost[h] {
                NO_LOOP => None,
                p => Some(p as usize),
            };
            let depth = parent.and_then(|p| found.get(p)).map_or(0, |p| p.3) + 1;
            for &b in blocks.iter() {
                innermost[b] = to_u32(id);
            }
            latches.sort_unstable();
            let at = append_lists(all, [blocks, latches, exits, exiting]);
            found.push((h, at, parent, depth));
        }
        let depth = innermost
            .iter()
            .map(|&l| found.get(l as usize).map_or(0, |l| l.3))
            .collect();
        let loops = match found.is_empty() {
            true => Vec::new(),
            false => {
                let lists: Arc<[usize]> = all.as_slice().into();
                found
                    .iter()
                    .map(|&(header, at, parent, depth)| Loop {
                        header,
                        lists: lists.clone(),
                        at,
                        parent,
                        depth,
                    })
                    .collect()
            }
        };
        Loops {
            loops,
            irreducible,
            depth,
            innermost,
        }
    }

    /// How many loops contain `block`; 0 outside any loop (and for blocks
    /// the entry does not reach).
    pub fn depth(&self, block: usize) -> u32 {
        self.depth.get(block).copied().unwrap_or(0)
    }

    /// The innermost loop containing `block`, an index into `loops`.
    pub fn innermost(&self, block: usize) -> Option<usize> {
        match self.innermost.get(block) {
            Some(&l) if l != NO_LOOP => Some(l as usize),
            _ => None,
        }
    }

    /// The loop `block` is the header of, if any.
    pub fn loop_of_header(&self, block: usize) -> Option<usize> {
        self.innermost(block)
            .filter(|&l| self.loops.get(l).is_some_and(|l| l.header == block))
    }
}

/// `Loops::find_with`'s buffers. `found`: each
/// loop's header, where its lists are in `all`, parent and depth (made into
/// `Loop`s once `all` is complete); `mark[b]` is the loop index + 1 when
/// `b` is in the loop being built; the four lists of that loop are gathered
/// in `blocks`, `latches`, `exits` and `exiting`, then copied to `all`.
#[derive(Default)]
struct Buffers {
    found: Vec<(usize, [u32; 5], Option<usize>, u32)>,
    all: Vec<usize>,
    mark: Vec<u32>,
    stack: Vec<usize>,
    latches: Vec<usize>,
    blocks: Vec<usize>,
    exits: Vec<usize>,
    exiting: Vec<usize>,
}

impl Buffers {
    /// Room for a function of `n` blocks made at once: grown as loops were
    /// found, the lists cost a tenth of `Loops::of`.
    fn for_blocks(n: usize) -> Self {
        Buffers {
            found: Vec::new(),
            all: Vec::with_capacity(2 * n),
            mark: vec![0; n],
            stack: Vec::with_capacity(n),
            latches: Vec::new(),
            blocks: Vec::with_capacity(n),
            exits: Vec::with_capacity(n),
            exiting: Vec::with_capacity(n),
        }
    }
}

/// Appends a loop's four lists to `all`; returns where they start and end.
fn append_lists(all: &mut Vec<usize>, lists: [&[usize]; 4]) -> [u32; 5] {
    let mut at = [to_u32(all.len()); 5];
    for (k, list) in lists.into_iter().enumerate() {
        all.extend_from_slice(list);
        at[k + 1] = to_u32(all.len());
    }
    at
}

/// Loop indices are stored as u32; more than four billion loops do not fit
/// in memory anyway.
fn to_u32(x: usize) -> u32 {
    u32::try_from(x).unwrap_or(NO_LOOP - 1)
}

/// Iterations simulated before a counted loop is taken to run too long to
/// unroll (the backend would not unroll it fully either).
const MAX_TRIPS: u64 = 1 << 12;

/// How many times the exit test of loop `l` runs when that number is a
/// constant, the same for every thread: the loop has one latch and one
/// exiting block, which runs on every iteration (it dominates the latch);
/// that block leaves on `icmp pred X, K` with `K` a literal and `X` a header
/// phi (or the phi plus a literal) that starts at a literal and steps by a
/// literal `add` on the latch. Counting is done by running the test, so
/// every predicate and wrap-around is handled alike; `None` past
/// `MAX_TRIPS`. Other shapes (bounds or steps known only at run time, or
/// several exits) give `None`: the answer is only ever an under-claim.
pub fn constant_trip_count(
    body: &Body<'_>,
    du: &DefUse<'_>,
    types: &TypeTable<'_>,
    cf: &ControlFlow,
    l: usize,
) -> Option<u64> {
    let lp = cf.loops().loops.get(l)?;
    let (&[latch], &[exiting]) = (lp.latches(), lp.exiting()) else {
        return None;
    };
    if !cf.dom().dominates(exiting, latch) {
        return None;
    }
    let term_at = body.blocks.get(exiting)?.instructions.end.checked_sub(1)?;
    let term = body.instructions.get(term_at)?;
    let (&[taken, not_taken], Opcode::Br) = (cf.cfg.succs(exiting), term.opcode) else {
        return None;
    };
    let exit_when = match (lp.contains(taken), lp.contains(not_taken)) {
        (false, true) => true,
        (true, false) => false,
        _ => return None,
    };
    let Some(Def::Inst(cmp_at)) = du.operand(term_at, 0) else {
        return None;
    };
    let cmp = body.instructions.get(cmp_at)?;
    if cmp.opcode != Opcode::ICmp {
        return None;
    }
    let bits = types.int_bits(cmp.operands.first()?.ty)?;
    // The literal side and the counter side, in the compare's order.
    let (x_at, bound, counter_first) = match (
        du.operand(cmp_at, 0),
        du.operand(cmp_at, 1),
        literal(cmp.operands.first()),
        literal(cmp.operands.get(1)),
    ) {
        (Some(Def::Inst(x)), _, _, Some(k)) => (x, k, true),
        (_, Some(Def::Inst(x)), Some(k), _) => (x, k, false),
        _ => return None,
    };
    let latch_label = body.blocks.get(latch)?.label?;
    // `X` is the phi itself, or `phi + offset`.
    let (phi_at, offset) = match body.instructions.get(x_at)?.opcode {
        Opcode::Phi => (x_at, 0),
        _ => add_of_literal(body, du, x_at)?,
    };
    let phi = body.instructions.get(phi_at)?;
    if phi.opcode != Opcode::Phi || du.block_of(phi_at) != lp.header {
        return None;
    }
    let (mut start, mut step) = (None, None);
    for (k, pair) in phi.operands.chunks(2).enumerate() {
        match pair.get(1).map(|o| &o.value) {
            Some(Value::Label(from)) if *from == latch_label => {
                let Some(Def::Inst(next)) = du.operand(phi_at, 2 * k) else {
                    return None;
                };
                match add_of_literal(body, du, next)? {
                    (p, s) if p == phi_at && step.is_none() => step = Some(s),
                    _ => return None,
                }
            }
            _ if start.is_none() => start = Some(literal(pair.first())?),
            _ => return None,
        }
    }
    let (mut i, step) = (start?, step?);
    for trips in 1..=MAX_TRIPS {
        let x = i.wrapping_add(offset);
        let (l, r) = if counter_first {
            (x, bound)
        } else {
            (bound, x)
        };
        if icmp_holds(cmp.predicate?, l, r, bits)? == exit_when {
            return Some(trips);
        }
        i = i.wrapping_add(step);
    }
    None
}

fn literal(o: Option<&Operand<'_>>) -> Option<i64> {
    match o.map(|o| &o.value) {
        Some(Value::Int(c)) => Some(*c),
        _ => None,
    }
}

/// `add V, C` (either order): V's definition and C.
fn add_of_literal(body: &Body<'_>, du: &DefUse<'_>, at: usize) -> Option<(usize, i64)> {
    let inst = body.instructions.get(at)?;
    if inst.opcode != Opcode::Add {
        return None;
    }
    match (du.operand(at, 0), du.operand(at, 1)) {
        (Some(Def::Inst(v)), _) if literal(inst.operands.get(1)).is_some() => {
            Some((v, literal(inst.operands.get(1))?))
        }
        (_, Some(Def::Inst(v))) => Some((v, literal(inst.operands.first())?)),
        _ => None,
    }
}

/// Offsets stripped from each side of a compare before giving up
/// (`compares_uniform_distance`): `f(tid) + a + b` through a few casts.
const MAX_OFFSETS: usize = 16;

/// Whether the branch ending `block` compares two values a thread-uniform
/// distance apart, so every thread that reaches it in the same iteration
/// goes the same way whatever its own values: `icmp pred X, Y` where X and
/// Y are one value V plus offsets the same for every thread
/// (`uniform(i, k)`: operand `k` of instruction `i` is). An offset is added
/// or subtracted (`add`, `sub`), or counted by a loop around `block`: a
/// header phi that starts at V and steps by a literal or by a uniform value
/// set outside the loop. (Outside its loop a counter may have stopped after
/// a different number of iterations on each thread, so it is not followed
/// there.)
///
/// This is the counted loop from `s = f(tid)` to `s + n` (effort's
/// bucketMulWild, `for (i = begin; i < begin + chunk; i++)`): its exit test
/// `i.next == s + n` and the guard LLVM's loop rotation puts in front,
/// `s < s + n`, compare thread-varying values, yet the loop runs `n` times on
/// every thread. `eq`/`ne` are exact; ordered predicates, and `zext`/`sext`
/// on the way, assume neither counter nor bound wraps around (at 2^32 it
/// would index past any buffer). A bound that depends on the thread alone
/// (`i < tid` from 0) has another base, and stays divergent.
pub fn compares_uniform_distance(
    body: &Body<'_>,
    du: &DefUse<'_>,
    cf: &ControlFlow,
    block: usize,
    uniform: impl Fn(usize, usize) -> bool,
) -> bool {
    let Some(term_at) = body
        .blocks
        .get(block)
        .and_then(|b| b.instructions.end.checked_sub(1))
    else {
        return false;
    };
    match body.instructions.get(term_at) {
        Some(t) if t.opcode == Opcode::Br && t.operands.len() == 3 => {}
        _ => return false,
    }
    let Some(Def::Inst(cmp_at)) = du.operand(term_at, 0) else {
        return false;
    };
    if body.instructions.get(cmp_at).map(|c| c.opcode) != Some(Opcode::ICmp) {
        return false;
    }
    let base = |k| {
        du.operand(cmp_at, k)
            .map(|d| uniform_base(body, du, cf, block, d, &uniform))
    };
    matches!((base(0), base(1)), (Some(a), Some(b)) if a == b)
}

/// `d` without the uniform offsets `compares_uniform_distance` strips.
fn uniform_base(
    body: &Body<'_>,
    du: &DefUse<'_>,
    cf: &ControlFlow,
    block: usize,
    mut d: Def,
    uniform: &impl Fn(usize, usize) -> bool,
) -> Def {
    for _ in 0..MAX_OFFSETS {
        let Def::Inst(i) = d else {
            break;
        };
        let Some(inst) = body.instructions.get(i) else {
            break;
        };
        let next = match inst.opcode {
            Opcode::Add if uniform(i, 1) => du.operand(i, 0),
            Opcode::Add if uniform(i, 0) => du.operand(i, 1),
            Opcode::Sub if uniform(i, 1) => du.operand(i, 0),
            Opcode::ZExt | Opcode::SExt => du.operand(i, 0),
            Opcode::Phi => counter_start(body, du, cf, block, i, uniform),
            _ => None,
        };
        match next {
            Some(n) => d = n,
            None => break,
        }
    }
    d
}

/// Where the counter `p` starts, when `p` is a phi in the header of a loop
/// holding `block` whose incoming values are one start (a local) or `p`
/// plus a step the same for every thread and iteration: a literal, or a
/// uniform value defined outside the loop (one defined inside could come
/// from a join of a thread-varying branch, which provenance does not see).
fn counter_start(
    body: &Body<'_>,
    du: &DefUse<'_>,
    cf: &ControlFlow,
    block: usize,
    p: usize,
    uniform: &impl Fn(usize, usize) -> bool,
) -> Option<Def> {
    let loops = cf.loops();
    let lp = loops
        .loop_of_header(du.block_of(p))
        .and_then(|l| loops.loops.get(l))?;
    if !lp.contains(block) {
        return None;
    }
    let is_step = |v: Def| {
        let Def::Inst(x) = v else {
            return false;
        };
        if body.instructions.get(x).map(|i| i.opcode) != Some(Opcode::Add) {
            return false;
        }
        let step = match (du.operand(x, 0), du.operand(x, 1)) {
            (Some(Def::Inst(a)), _) if a == p => 1,
            (_, Some(Def::Inst(b))) if b == p => 0,
            _ => return false,
        };
        uniform(x, step)
            && match du.operand(x, step) {
                Some(Def::Inst(s)) => !lp.contains(du.block_of(s)),
                _ => true,
            }
    };
    let incoming = body.instructions.get(p)?.operands.len() / 2;
    let mut start = None;
    for k in 0..incoming {
        let v = du.operand(p, 2 * k)?;
        if is_step(v) {
            continue;
        }
        match start {
            None => start = Some(v),
            Some(s) if s == v => {}
            Some(_) => return None,
        }
    }
    start
}

/// Whether `icmp pred l, r` holds on `bits`-wide integers (`l` and `r` as
/// read from IR literals or computed in i64; unsigned predicates see the
/// low `bits`, signed ones those bits sign-extended). `None` for a
/// predicate that is not `icmp`'s.
pub(crate) fn icmp_holds(pred: &str, l: i64, r: i64, bits: u32) -> Option<bool> {
    let unsigned = |v: i64| -> u64 {
        match bits {
            b if b >= 64 => v as u64,
            b => (v as u64) & ((1u64 << b) - 1),
        }
    };
    let signed = |v: i64| -> i64 {
        match bits {
            b if b >= 64 || b == 0 => v,
            b => (v << (64 - b)) >> (64 - b),
        }
    };
    let (ul, ur, sl, sr) = (unsigned(l), unsigned(r), signed(l), signed(r));
    Some(match pred {
        "eq" => ul == ur,
        "ne" => ul != ur,
        "ugt" => ul > ur,
        "uge" => ul >= ur,
        "ult" => ul < ur,
        "ule" => ul <= ur,
        "sgt" => sl > sr,
        "sge" => sl >= sr,
        "slt" => sl < sr,
        "sle" => sl <= sr,
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::test_util::{Rng, flow, random_ir};

    fn depths(l: &Loops, n: usize) -> Vec<u32> {
        (0..n).map(|b| l.depth(b)).collect()
    }

    #[test]
    fn simple_loop() {
        let f = flow(
            "define void @f(i32 %n) {
entry:
  br label %header
header:
  %i = phi i32 [ 0, %entry ], [ %i1, %body ]
  %c = icmp slt i32 %i, %n
  br i1 %c, label %body, label %exit
body:
  %i1 = add i32 %i, 1
  br label %header
exit:
  ret void
}
",
        );
        let l = f.loops();
        assert_eq!(
            l.loops,
            vec![Loop::new(1, [&[1, 2], &[2], &[3], &[1]], None, 1)]
        );
        assert_eq!(depths(l, 4), vec![0, 1, 1, 0]);
        assert_eq!(l.innermost(2), Some(0));
        assert_eq!(l.innermost(3), None);
        assert_eq!(l.loop_of_header(1), Some(0));
        assert_eq!(l.loop_of_header(2), None);
        assert!(l.irreducible.is_empty());
    }

    #[test]
    fn nested_loop_depth_two() {
        let f = flow(
            "define void @f(i1 %c, i1 %d) {
entry:
  br label %outer
outer:
  br label %inner
inner:
  br i1 %c, label %inner, label %outer.latch
outer.latch:
  br i1 %d, label %outer, label %exit
exit:
  ret void
}
",
        );
        // entry=0 outer=1 inner=2 outer.latch=3 exit=4
        let l = f.loops();
        assert_eq!(l.loops.len(), 2);
        let (o, i) = (&l.loops[0], &l.loops[1]);
        assert_eq!(
            (o.header, o.blocks(), o.latches()),
            (1, &[1, 2, 3][..], &[3][..])
        );
        assert_eq!(
            (o.exits(), o.exiting(), o.parent, o.depth),
            (&[4][..], &[3][..], None, 1)
        );
        assert_eq!((i.header, i.blocks(), i.latches()), (2, &[2][..], &[2][..]));
        assert_eq!(
            (i.exits(), i.exiting(), i.parent, i.depth),
            (&[3][..], &[2][..], Some(0), 2)
        );
        assert_eq!(depths(l, 5), vec![0, 1, 2, 1, 0]);
        assert_eq!(l.innermost(2), Some(1));
        assert_eq!(l.innermost(3), Some(0));
        assert!(o.contains(2) && !i.contains(3));
        // The inner header decides whether it runs again and whether the
        // outer latch runs; the outer latch decides the outer loop.
        let cd = f.control_deps();
        assert_eq!(cd.deps(1), &[3]);
        assert_eq!(cd.deps(2), &[2, 3]);
        assert_eq!(cd.deps(3), &[3]);
        assert_eq!(cd.deps(4), &[] as &[usize]);
    }

    #[test]
    fn two_latches_one_loop() {
        let f = flow(
            "define void @f(i1 %c, i1 %d) {
entry:
  br label %h
h:
  br i1 %c, label %a, label %b
a:
  br i1 %d, label %h, label %exit
b:
  br label %h
exit:
  ret void
}
",
        );
        // entry=0 h=1 a=2 b=3 exit=4
        let l = f.loops();
        assert_eq!(
            l.loops,
            vec![Loop::new(1, [&[1, 2, 3], &[2, 3], &[4], &[2]], None, 1)]
        );
        assert_eq!(depths(l, 5), vec![0, 1, 1, 1, 0]);
        assert_eq!(f.postdom().idom(1), Some(2));
        assert_eq!(f.control_deps().deps(3), &[1]);
        // Going to b surely comes back to h, so h depends on itself too.
        assert_eq!(f.control_deps().deps(1), &[1, 2]);
        assert_eq!(f.control_deps().deps(2), &[2]);
    }

    #[test]
    fn infinite_loop() {
        let f = flow(
            "define void @f() {
entry:
  br label %spin
spin:
  br label %spin
}
",
        );
        let l = f.loops();
        assert_eq!(l.loops.len(), 1);
        assert_eq!(l.loops[0].blocks(), &[1]);
        assert_eq!(l.loops[0].latches(), &[1]);
        assert!(l.loops[0].exits().is_empty());
        assert_eq!(depths(l, 2), vec![0, 1]);
        assert_eq!(f.postdom().joined_to_exit(), &[1]);
        assert_eq!(f.postdom().idom(0), Some(1));
        assert!(!f.control_deps().is_conditional(1));
    }

    #[test]
    fn irreducible_cycle_gives_no_loop() {
        let f = flow(
            "define void @f(i1 %c, i1 %d) {
entry:
  br i1 %c, label %x, label %y
x:
  br i1 %d, label %y, label %exit
y:
  br label %x
exit:
  ret void
}
",
        );
        // entry=0 x=1 y=2 exit=3: the cycle x ⇄ y is entered at both.
        assert!(f.loops().loops.is_empty());
        assert_eq!(depths(f.loops(), 4), vec![0; 4]);
        assert_eq!(f.loops().irreducible.len(), 1);
        assert_eq!(f.dom().idom(1), Some(0));
        assert_eq!(f.dom().idom(2), Some(0));
    }

    #[test]
    fn dead_cycle_is_no_loop() {
        let f = flow(
            "define void @f() {
entry:
  ret void
a:
  br label %b
b:
  br label %a
}
",
        );
        assert!(f.loops().loops.is_empty());
        assert!(f.loops().irreducible.is_empty());
        assert_eq!(depths(f.loops(), 3), vec![0; 3]);
    }

    #[test]
    fn dead_predecessor_not_in_loop() {
        let f = flow(
            "define void @f(i1 %c) {
entry:
  br label %h
h:
  br i1 %c, label %h, label %exit
dead:
  br label %h
exit:
  ret void
}
",
        );
        assert_eq!(f.loops().loops.len(), 1);
        assert_eq!(f.loops().loops[0].blocks(), &[1]);
        assert_eq!(f.loops().depth(2), 0);
    }

    #[test]
    fn missing_label_in_loop() {
        let f = flow(
            "define void @f(i1 %c) {
entry:
  br label %h
h:
  br i1 %c, label %h, label %gone
}
",
        );
        assert_eq!(f.cfg.missing.len(), 1);
        assert_eq!(f.loops().loops.len(), 1);
        assert_eq!(depths(f.loops(), 2), vec![0, 1]);
    }

    #[test]
    fn deep_loop_nest() {
        // 300 nested loops: h{k} → h{k+1} … and each
        // latch l{k} branches back to h{k} or out to l{k-1}.
        use std::fmt::Write;
        let d = 300;
        let mut s = String::from("define void @f(i1 %c) {\nentry:\n  br label %h0\n");
        for k in 0..d {
            let _ = writeln!(s, "h{k}:\n  br label %h{}", k + 1);
        }
        let _ = writeln!(s, "h{d}:\n  br label %l{}", d - 1);
        for k in (0..d).rev() {
            let out = if k == 0 {
                "exit".to_string()
            } else {
                format!("l{}", k - 1)
            };
            let _ = writeln!(s, "l{k}:\n  br i1 %c, label %h{k}, label %{out}");
        }
        s.push_str("exit:\n  ret void\n}\n");
        let f = flow(&s);
        assert_eq!(f.loops().loops.len(), d);
        assert_eq!(f.loops().depth(1 + d), d as u32);
        assert_eq!(f.loops().loops[d - 1].parent, Some(d - 2));
        assert_eq!(f.loops().loops[0].parent, None);
    }

    /// Loops against their definition on random graphs: for each header H
    /// (a target of an edge from a block H dominates), the loop is H plus
    /// every reachable block with a path to a latch that avoids H, found
    /// here by forward search from each block rather than backward from
    /// the latches.
    /// `Loops::of` (dominance from the immediate dominators) finds what
    /// `Loops::find` finds with the dominator tree, and `rpo_dominates`
    /// agrees with `DomTree::dominates` on every pair of reachable blocks.
    #[test]
    fn of_matches_find_with_the_tree() {
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
        for round in 0..400 {
            let n = 1 + rng.below(24);
            let text = random_ir(&mut rng, n);
            let f = flow(&text);
            let (cfg, dom) = (&f.cfg, f.dom());
            let (num, doms) = rpo_dominators(cfg);
            for a in 0..n {
                for b in 0..n {
                    if num[a] != u32::MAX && num[b] != u32::MAX {
                        assert_eq!(
                            rpo_dominates(&doms, num[a], num[b]),
                            dom.dominates(a, b),
                            "round {round} {a} {b}\n{text}"
                        );
                    }
                }
            }
            let (fast, tree) = (Loops::of(cfg), Loops::find(cfg, dom));
            assert_eq!(fast.loops, tree.loops, "round {round}\n{text}");
            assert_eq!(fast.irreducible, tree.irreducible);
            assert_eq!((fast.depth, fast.innermost), (tree.depth, tree.innermost));
        }
    }

    #[test]
    fn random_graphs_match_definition() {
        let mut rng = Rng(0x2545_f491_4f6c_dd1d);
        for round in 0..400 {
            let n = 1 + rng.below(24);
            let text = random_ir(&mut rng, n);
            let f = flow(&text);
            let (cfg, dom) = (&f.cfg, f.dom());
            let reachable = cfg.reachable();
            let mut want: Vec<Loop> = Vec::new();
            for h in 0..n {
                let latches: Vec<usize> = (0..n)
                    .filter(|&a| reachable[a] && cfg.succs(a).contains(&h) && dom.dominates(h, a))
                    .collect();
                if latches.is_empty() {
                    continue;
                }
                let reaches_latch_avoiding_h = |x: usize| {
                    let mut seen = vec![false; n];
                    let mut stack = vec![x];
                    seen[x] = true;
                    while let Some(b) = stack.pop() {
                        if latches.contains(&b) {
                            return true;
                        }
                        for &s in cfg.succs(b) {
                            if s != h && !seen[s] {
                                seen[s] = true;
                                stack.push(s);
                            }
                        }
                    }
                    false
                };
                let blocks: Vec<usize> = (0..n)
                    .filter(|&x| x == h || (reachable[x] && reaches_latch_avoiding_h(x)))
                    .collect();
                let mut exits: Vec<usize> = Vec::new();
                let mut exiting = Vec::new();
                for &b in &blocks {
                    let out: Vec<usize> = cfg
                        .succs(b)
                        .iter()
                        .copied()
                        .filter(|s| !blocks.contains(s))
                        .collect();
                    if !out.is_empty() {
                        exiting.push(b);
                    }
                    exits.extend(out);
                }
                exits.sort();
                exits.dedup();
                want.push(Loop::new(h, [&blocks, &latches, &exits, &exiting], None, 0));
            }
            let mut got = f.loops().loops.clone();
            // Nesting: the parent is the smallest other loop containing the
            // header; the depth counts the loops containing the header.
            for (i, l) in got.iter().enumerate() {
                let around: Vec<usize> = (0..got.len())
                    .filter(|&j| j != i && got[j].contains(l.header))
                    .collect();
                let parent = around
                    .iter()
                    .copied()
                    .min_by_key(|&j| got[j].blocks().len());
                assert_eq!(l.parent, parent, "round {round}\n{text}");
                assert_eq!(l.depth as usize, around.len() + 1);
                if let Some(p) = parent {
                    assert!(p < i);
                    assert!(l.blocks().iter().all(|&b| got[p].contains(b)));
                }
            }
            for b in 0..n {
                let containing = got.iter().filter(|l| l.contains(b)).count();
                assert_eq!(
                    f.loops().depth(b) as usize,
                    containing,
                    "round {round}\n{text}"
                );
                let innermost = (0..got.len())
                    .filter(|&j| got[j].contains(b))
                    .min_by_key(|&j| got[j].blocks().len());
                assert_eq!(f.loops().innermost(b), innermost);
            }
            for l in &mut got {
                l.parent = None;
                l.depth = 0;
            }
            got.sort_by_key(|l| l.header);
            assert_eq!(got, want, "round {round}\n{text}");
            // Irreducible edges: retreating edges whose target does not
            // dominate their source.
            for &(a, b) in &f.loops().irreducible {
                assert!(cfg.succs(a).contains(&b) && !dom.dominates(b, a));
            }
        }
    }

    /// The trip count of the one loop of `body` (a function taking `i32 %n`).
    fn trips(body: &str) -> Option<u64> {
        let text = format!("define void @f(i32 %n) {{\nentry:\n  br label %head\n{body}}}\n");
        let mut m = crate::ir::read_module(&text);
        let (b, diags) = m.body(0);
        assert!(diags.is_empty(), "{diags:?}");
        let du = DefUse::build(&m.functions[0], &b);
        let cf = ControlFlow::of(&b);
        assert_eq!(cf.loops().loops.len(), 1, "{text}");
        constant_trip_count(&b, &du, &m.types, &cf, 0)
    }

    /// A loop whose header is also its latch and exiting block:
    /// `i = start; do { i += step } while (!(i.next PRED bound))`.
    fn bottom_test(start: &str, step: i64, pred: &str, bound: &str) -> String {
        format!(
            "head:\n  %i = phi i32 [ {start}, %entry ], [ %i.next, %head ]\n  %i.next = add i32 %i, {step}\n  %c = icmp {pred} i32 %i.next, {bound}\n  br i1 %c, label %out, label %head\nout:\n  ret void\n"
        )
    }

    #[test]
    fn constant_trip_counts() {
        assert_eq!(trips(&bottom_test("0", 1, "eq", "5")), Some(5));
        assert_eq!(trips(&bottom_test("0", 2, "sge", "8")), Some(4));
        assert_eq!(trips(&bottom_test("10", -1, "eq", "0")), Some(10));
        // `i8`-style wrap-around is followed, not assumed away.
        assert_eq!(trips(&bottom_test("-3", 1, "eq", "0")), Some(3));
        // Test at the top, in a header that branches into the body.
        let top = "head:\n  %i = phi i32 [ 0, %entry ], [ %i.next, %body ]\n  %c = icmp ult i32 %i, 8\n  br i1 %c, label %body, label %out\nbody:\n  %i.next = add nuw i32 %i, 1\n  br label %head\nout:\n  ret void\n";
        assert_eq!(trips(top), Some(9));
    }

    /// `compares_uniform_distance` at the block labelled `at` of `f(i32
    /// %tid, i32 %n, i32 %m)`, where only `%tid` differs between threads.
    fn uniform_distance(body: &str, at: &str) -> bool {
        let text = format!("define void @f(i32 %tid, i32 %n, i32 %m) {{\n{body}}}\n");
        let mut m = crate::ir::read_module(&text);
        let (b, diags) = m.body(0);
        assert!(diags.is_empty(), "{diags:?}");
        let du = DefUse::build(&m.functions[0], &b);
        let cf = ControlFlow::of(&b);
        let block = b.blocks.iter().position(|x| x.label == Some(at)).unwrap();
        // Thread-varying: `%tid` reaches it (a few steps deep, phis too).
        fn varies(b: &Body<'_>, du: &DefUse<'_>, d: Option<Def>, depth: u32) -> bool {
            match d {
                Some(Def::Param(p)) => p == 0,
                Some(Def::Inst(i)) if depth < 8 => (0..b.instructions[i].operands.len())
                    .any(|k| varies(b, du, du.operand(i, k), depth + 1)),
                _ => false,
            }
        }
        compares_uniform_distance(&b, &du, &cf, block, |i, k| {
            !varies(&b, &du, du.operand(i, k), 0)
        })
    }

    /// A loop from `%s` (the thread's start) while `test` holds, stepping
    /// by `step`, with the guard `guard` in front (bucketMulWild's shape):
    /// blocks `entry` (guard), `body` (latch test), `out`.
    fn rotated([start, bound, guard, step, test]: [&str; 5]) -> String {
        format!(
            "entry:\n  %s = {start}\n  %e = {bound}\n  %g = {guard}\n  br i1 %g, label %body, label %out\nbody:\n  %i = phi i32 [ %s, %entry ], [ %i.next, %body ]\n  %i.next = add nuw i32 %i, {step}\n  %c = {test}\n  br i1 %c, label %out, label %body\nout:\n  ret void\n"
        )
    }

    /// `rotated` loops, and whether their guard and their latch test
    /// compare values a uniform distance apart.
    const ROTATED: [([&str; 5], bool, bool); 6] = [
        // bucketMulWild: from `s = tid * n` to `s + n`.
        (
            [
                "mul i32 %tid, %n",
                "add i32 %s, %n",
                "icmp ult i32 %s, %e",
                "1",
                "icmp eq i32 %i.next, %e",
            ],
            true,
            true,
        ),
        // A uniform step set before the loop, the bound on either side.
        (
            [
                "shl i32 %tid, 4",
                "add i32 %n, %s",
                "icmp slt i32 %e, %s",
                "%m",
                "icmp sge i32 %i.next, %e",
            ],
            true,
            true,
        ),
        // Down from `s` to `s - n`.
        (
            [
                "add i32 %tid, 7",
                "sub i32 %s, %n",
                "icmp ne i32 %s, %e",
                "-1",
                "icmp eq i32 %i.next, %e",
            ],
            true,
            true,
        ),
        // `for (i = n; i < tid; i++)`: the bound alone depends on the thread.
        (
            [
                "add i32 %n, 0",
                "add i32 %tid, 0",
                "icmp ult i32 %s, %e",
                "1",
                "icmp eq i32 %i.next, %tid",
            ],
            false,
            false,
        ),
        // From the thread to a uniform bound.
        (
            [
                "mul i32 %tid, %n",
                "add i32 %n, 0",
                "icmp ult i32 %s, %n",
                "1",
                "icmp eq i32 %i.next, %n",
            ],
            false,
            false,
        ),
        // A step that differs per thread (the guard alone is uniform).
        (
            [
                "mul i32 %tid, %n",
                "add i32 %s, %n",
                "icmp ult i32 %s, %e",
                "%tid",
                "icmp ult i32 %i.next, %e",
            ],
            true,
            false,
        ),
    ];

    #[test]
    fn uniform_distance_of_rotated_loops() {
        for (parts, guard, latch) in ROTATED {
            let text = rotated(parts);
            assert_eq!(uniform_distance(&text, "entry"), guard, "{text}");
            assert_eq!(uniform_distance(&text, "body"), latch, "{text}");
        }
        // A start literal: the counter is not the thread's.
        let from_zero = rotated(ROTATED[0].0).replace("[ %s, %entry ]", "[ 0, %entry ]");
        assert!(!uniform_distance(&from_zero, "body"));
    }

    #[test]
    fn counters_not_followed() {
        // After its loop the counter stopped where each thread left.
        let after = "entry:\n  %s = mul i32 %tid, %n\n  %e = add i32 %s, %n\n  br label %body\nbody:\n  %i = phi i32 [ %s, %entry ], [ %i.next, %body ]\n  %i.next = add i32 %i, 1\n  %c = icmp eq i32 %i, %tid\n  br i1 %c, label %out, label %body\nout:\n  %d = icmp ult i32 %i, %e\n  br i1 %d, label %x, label %x\nx:\n  ret void\n";
        assert!(!uniform_distance(after, "out"));
        // A step computed inside the loop is not trusted.
        let inner_step = "entry:\n  %s = mul i32 %tid, %n\n  %e = add i32 %s, %n\n  br label %body\nbody:\n  %i = phi i32 [ %s, %entry ], [ %i.next, %body ]\n  %k = add i32 %m, 1\n  %i.next = add i32 %i, %k\n  %c = icmp ult i32 %i.next, %e\n  br i1 %c, label %body, label %out\nout:\n  ret void\n";
        assert!(!uniform_distance(inner_step, "body"));
        // Not a conditional branch on a compare.
        assert!(!uniform_distance("entry:\n  ret void\n", "entry"));
    }

    #[test]
    fn no_constant_trip_count() {
        // Bound or start known only at run time.
        assert_eq!(trips(&bottom_test("0", 1, "eq", "%n")), None);
        assert_eq!(trips(&bottom_test("%n", 1, "eq", "5")), None);
        // Never exits within MAX_TRIPS (the step skips the bound).
        assert_eq!(trips(&bottom_test("0", 2, "eq", "5")), None);
        // Two exits: the second test is skipped by nobody, but the count
        // is no longer one compare's.
        let two = "head:\n  %i = phi i32 [ 0, %entry ], [ %i.next, %latch ]\n  %e = icmp eq i32 %i, %n\n  br i1 %e, label %out, label %latch\nlatch:\n  %i.next = add i32 %i, 1\n  %c = icmp eq i32 %i.next, 5\n  br i1 %c, label %out, label %head\nout:\n  ret void\n";
        assert_eq!(trips(two), None);
    }
}
