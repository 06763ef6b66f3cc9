//! Dominators, post-dominators and control dependence.
//!
//! Dominators answer "has X surely run when we reach Y" (a check before a
//! use); post-dominators answer "will X surely run after Y" (a barrier every
//! thread reaches); control dependence names the branches that decide
//! whether a block runs at all, which is what "this barrier or store sits
//! under a condition" means.
//!
//! Post-dominators are computed on the reversed graph rooted at a virtual
//! exit that every exit block flows into. Blocks that reach no exit (an
//! infinite loop) would otherwise be left out; for each such region that
//! nothing escapes from (a sink strongly connected component) one block is
//! also joined to the virtual exit: the region's latch, i.e. of the
//! predecessors of the region's first block in reverse postorder, the one
//! that comes last. That is the edge a reader would expect the loop to
//! leave by (LLVM picks a similar "furthest away" block). Every block is
//! then in the post-dominator tree, and since a terminator with a single
//! target decides nothing, the joined edge makes no control dependence.
//!
//! Costs, n blocks and e edges:
//! - `dominators`, `post_dominators`: the iterative Cooper–Harvey–Kennedy
//!   algorithm, O(n + e) per pass with two or three passes on real code
//!   (quadratic only on contrived irreducible graphs), plus O(n + e) to find
//!   exit-less regions (petgraph's Kosaraju, iterative) and number the tree.
//!   It is petgraph's `simple_fast` algorithm on dense indices instead of
//!   hash maps (see `dominators`); the tests check the two agree.
//! - `DomTree::dominates`: O(1), by pre-order intervals on the tree.
//! - `ControlDependence::compute`: O(n + e + size of the result): each step
//!   of a Ferrante–Ottenstein–Warren walk records one new dependence, and a
//!   walk stops where an earlier walk from the same branch already went.
//!   The result can be quadratic in n (deep loop nests), as the relation is.

use super::cfg::{Cfg, csr, reverse_postorder, to_u32};
use petgraph::algo::kosaraju_scc;
use petgraph::graph::{DiGraph, NodeIndex};
use std::cell::OnceCell;

const NONE: u32 = u32::MAX;

/// A dominator or post-dominator tree over the blocks of one function.
///
/// For post-dominators the root is the virtual exit, which has no index:
/// blocks whose immediate post-dominator it is have `idom` `None` and are
/// listed by `roots`.
#[derive(Clone, Debug, Default)]
pub struct DomTree {
    idom: Vec<Option<usize>>,
    /// Which blocks are in the tree.
    in_tree: Vec<bool>,
    /// Post-dominators only: blocks joined to the virtual exit because their
    /// region reaches no real exit.
    joined: Vec<usize>,
    /// Children, roots and pre-order numbers, made on first use: control
    /// dependence, the post-dominators' main use, reads only `idom`, and
    /// numbering the tree was a fifth of building it.
    numbering: OnceCell<Numbering>,
}

#[derive(Clone, Debug, Default)]
struct Numbering {
    /// Pre-order number in the tree, `NONE` for blocks not in it (blocks the
    /// entry does not reach, for dominators).
    pre: Vec<u32>,
    /// Largest pre-order number in the block's subtree.
    last: Vec<u32>,
    /// Children of each block, ascending:
    /// `children[child_start[b]..child_start[b + 1]]`.
    child_start: Vec<u32>,
    children: Vec<usize>,
    roots: Vec<usize>,
}

impl DomTree {
    fn from_idom(idom: Vec<Option<usize>>, in_tree: Vec<bool>, joined: Vec<usize>) -> DomTree {
        DomTree {
            idom,
            in_tree,
            joined,
            numbering: OnceCell::new(),
        }
    }

    fn numbering(&self) -> &Numbering {
        self.numbering
            .get_or_init(|| Numbering::of(&self.idom, &self.in_tree))
    }
}

impl Numbering {
    fn of(idom: &[Option<usize>], in_tree: &[bool]) -> Numbering {
        let n = idom.len();
        // Children by counting sort; each count lands one slot ahead, so
        // the prefix sums are the row starts without a separate count.
        let mut child_start = vec![0u32; n + 1];
        let mut roots = Vec::new();
        for b in 0..n {
            match idom[b] {
                Some(p) => child_start[p + 1] += 1,
                None if in_tree[b] => roots.push(b),
                None => {}
            }
        }
        for b in 0..n {
            child_start[b + 1] += child_start[b];
        }
        let mut fill: Vec<u32> = child_start[..n].to_vec();
        let mut children = vec![0usize; child_start[n] as usize];
        for (b, p) in idom.iter().enumerate() {
            if let Some(p) = *p {
                children[fill[p] as usize] = b;
                fill[p] += 1;
            }
        }
        // Pre-order numbering with an explicit stack; `last` is set when a
        // block's subtree is done.
        let mut pre = vec![NONE; n];
        let mut last = vec![NONE; n];
        let mut next = 0u32;
        let mut stack: Vec<(usize, u32)> = Vec::with_capacity(n);
        for &r in &roots {
            pre[r] = next;
            next += 1;
            stack.push((r, child_start[r]));
            while let Some(top) = stack.last_mut() {
                let (b, i) = *top;
                if i < child_start[b + 1] {
                    top.1 += 1;
                    let c = children[i as usize];
                    pre[c] = next;
                    next += 1;
                    stack.push((c, child_start[c]));
                } else {
                    last[b] = next - 1;
                    stack.pop();
                }
            }
        }
        Numbering {
            pre,
            last,
            child_start,
            children,
            roots,
        }
    }
}

impl DomTree {
    /// Number of blocks the tree was built for.
    pub fn len(&self) -> usize {
        self.idom.len()
    }

    /// True for a declaration's (empty) tree.
    pub fn is_empty(&self) -> bool {
        self.idom.is_empty()
    }

    /// The immediate (post-)dominator of `block`; `None` for a root, for a
    /// block not in the tree, and for an index out of range.
    pub fn idom(&self, block: usize) -> Option<usize> {
        self.idom.get(block).copied().flatten()
    }

    /// Whether `block` is in the tree. For dominators: reachable from the
    /// entry. For post-dominators: every block.
    pub fn contains(&self, block: usize) -> bool {
        self.numbering().pre.get(block).is_some_and(|&p| p != NONE)
    }

    /// Whether `a` (post-)dominates `b`. Reflexive. False when either is not
    /// in the tree (unless `a == b`). O(1).
    pub fn dominates(&self, a: usize, b: usize) -> bool {
        if a == b {
            return true;
        }
        let t = self.numbering();
        match (t.pre.get(a), t.pre.get(b), t.last.get(a)) {
            (Some(&pa), Some(&pb), Some(&la)) => pa != NONE && pb != NONE && pa < pb && pb <= la,
            _ => false,
        }
    }

    /// `dominates(a, b) && a != b`.
    pub fn strictly_dominates(&self, a: usize, b: usize) -> bool {
        a != b && self.dominates(a, b)
    }

    /// Blocks whose immediate (post-)dominator is `block`, ascending.
    pub fn children(&self, block: usize) -> &[usize] {
        let t = self.numbering();
        match (t.child_start.get(block), t.child_start.get(block + 1)) {
            (Some(&s), Some(&e)) => t.children.get(s as usize..e as usize).unwrap_or(&[]),
            _ => &[],
        }
    }

    /// Tree roots, ascending: the entry for dominators; for post-dominators
    /// the blocks immediately post-dominated by the virtual exit.
    pub fn roots(&self) -> &[usize] {
        &self.numbering().roots
    }

    /// Post-dominators only: the blocks joined to the virtual exit because
    /// they and their region reach no exit (see the module doc). Ascending.
    pub fn joined_to_exit(&self) -> &[usize] {
        &self.joined
    }

    /// `block`, its immediate (post-)dominator, and so on up to a root.
    pub fn ancestors(&self, block: usize) -> impl Iterator<Item = usize> + '_ {
        let start = self.contains(block).then_some(block);
        std::iter::successors(start, |&b| self.idom(b))
    }
}

fn to_node(b: usize) -> NodeIndex {
    NodeIndex::new(b)
}

/// The dominator tree, rooted at the entry (block 0). Blocks the entry does
/// not reach are not in it.
///
/// Immediate dominators by Cooper, Harvey and Kennedy ("A Simple, Fast
/// Dominance Algorithm"), the algorithm of petgraph's `simple_fast`, over
/// dense indices (petgraph keeps a hash set of predecessors per node; the
/// tests check the two agree). It runs over the graph's own reverse
/// postorder, so no second depth-first search nor its buffers; nodes are
/// numbered by position in that order, where a dominator always comes first.
pub fn dominators(cfg: &Cfg) -> DomTree {
    let n = cfg.len();
    if n == 0 {
        return DomTree::default();
    }
    let rpo = cfg.reverse_postorder();
    let (_, doms) = rpo_dominators(cfg);
    let mut idom = vec![None; n];
    let mut in_tree = vec![false; n];
    for (i, &b) in rpo.iter().enumerate() {
        in_tree[b] = true;
        if i > 0 {
            idom[b] = Some(rpo[doms[i] as usize]);
        }
    }
    DomTree::from_idom(idom, in_tree, Vec::new())
}

/// Immediate dominators by position in reverse postorder, as `dominators`
/// finds them before building the tree: `num[b]`, block `b`'s position
/// (`u32::MAX` for a block the entry does not reach), and `doms[i]`, the
/// position of the immediate dominator of the block at position `i` (0 for
/// the entry). Enough for `rpo_dominates`, which is all loops ask, without
/// the tree's children and pre-order numbering.
pub(crate) fn rpo_dominators(cfg: &Cfg) -> (Vec<u32>, Vec<u32>) {
    let rpo = cfg.reverse_postorder();
    let m = rpo.len();
    let mut num = vec![NONE; cfg.len()];
    for (i, &b) in rpo.iter().enumerate() {
        num[b] = to_u32(i);
    }
    let mut doms = vec![NONE; m];
    if m > 0 {
        doms[0] = 0;
    }
    let mut changed = true;
    while changed {
        changed = false;
        for i in 1..m {
            let new = meet(&doms, &num, cfg.preds(rpo[i]).iter().copied());
            if new != NONE && doms[i] != new {
                doms[i] = new;
                changed = true;
            }
        }
    }
    (num, doms)
}

/// Whether the block at reverse-postorder position `a` dominates the one at
/// `b`, by `rpo_dominators`' `doms`: a dominator comes first in that order,
/// so `b`'s chain of immediate dominators is followed while it stays after
/// `a`. O(depth of `b` in the tree); for the few retreating edges of a
/// function that is less than numbering the whole tree for O(1) answers.
pub(crate) fn rpo_dominates(doms: &[u32], a: u32, mut b: u32) -> bool {
    while b > a {
        match doms.get(b as usize) {
            Some(&d) if d < b => b = d,
            _ => return false,
        }
    }
    a == b
}

/// The nearest common dominator, as a reverse-postorder number, of the
/// `preds` already placed (`NONE` when none is): one step of Cooper,
/// Harvey and Kennedy's iteration, for dominators and post-dominators alike.
fn meet(doms: &[u32], num: &[u32], preds: impl Iterator<Item = usize>) -> u32 {
    let mut new = NONE;
    for p in preds {
        let pp = num[p];
        if pp == NONE || doms[pp as usize] == NONE {
            continue;
        }
        new = if new == NONE {
            pp
        } else {
            intersect_rpo(doms, pp, new)
        };
    }
    new
}

/// The nearest common ancestor of two nodes (positions in reverse
/// postorder, the root 0) in the tree `doms` describes so far.
fn intersect_rpo(doms: &[u32], mut a: u32, mut b: u32) -> u32 {
    while a != b {
        while a > b {
            a = doms[a as usize];
        }
        while b > a {
            b = doms[b as usize];
        }
    }
    a
}

/// The post-dominator tree, rooted at a virtual exit joined from every exit
/// block and from one block of each region that reaches no exit.
pub fn post_dominators(cfg: &Cfg) -> DomTree {
    let n = cfg.len();
    if n == 0 {
        return DomTree::default();
    }
    let joined = exitless_roots(cfg);
    // Node n is the virtual exit. In the reversed graph its successors are
    // the exits and joined blocks, and it is their extra predecessor.
    let virtual_exit = [n];
    let mut to_exit = vec![false; n];
    for &x in cfg.exits.iter().chain(&joined) {
        to_exit[x] = true;
    }
    // The reversed graph's reverse postorder from the virtual exit, then
    // Cooper–Harvey–Kennedy over it as in `dominators`.
    let mut from_exit = cfg.exits.clone();
    from_exit.extend_from_slice(&joined);
    let (rpo, _) = reverse_postorder(
        n + 1,
        |x| match x < n {
            true => cfg.preds(x),
            false => &from_exit,
        },
        n,
    );
    let m = rpo.len();
    let mut num = vec![NONE; n + 1];
    for (i, &b) in rpo.iter().enumerate() {
        num[b] = to_u32(i);
    }
    let mut doms = vec![NONE; m];
    doms[0] = 0;
    let mut changed = true;
    while changed {
        changed = false;
        for i in 1..m {
            let x = rpo[i];
            // Predecessors in the reversed graph: the successors, and the
            // virtual exit for exits and joined blocks.
            let exit: &[usize] = match to_exit[x] {
                true => &virtual_exit,
                false => &[],
            };
            let new = meet(&doms, &num, cfg.succs(x).iter().chain(exit).copied());
            if new != NONE && doms[i] != new {
                doms[i] = new;
                changed = true;
            }
        }
    }
    let mut idom = vec![None; n];
    let mut in_tree = vec![false; n];
    for (i, &b) in rpo.iter().enumerate().skip(1) {
        in_tree[b] = true;
        let d = rpo[doms[i] as usize];
        idom[b] = (d != n).then_some(d);
    }
    DomTree::from_idom(idom, in_tree, joined)
}

/// One block per sink region of the blocks that reach no exit (see the
/// module doc), ascending.
fn exitless_roots(cfg: &Cfg) -> Vec<usize> {
    let n = cfg.len();
    // Blocks that reach an exit: a walk back from the exits.
    let mut reaches = vec![false; n];
    let mut stack: Vec<usize> = cfg.exits.clone();
    for &x in &stack {
        reaches[x] = true;
    }
    while let Some(b) = stack.pop() {
        for &p in cfg.preds(b) {
            if !reaches[p] {
                reaches[p] = true;
                stack.push(p);
            }
        }
    }
    let stuck: Vec<usize> = (0..n).filter(|&b| !reaches[b]).collect();
    if stuck.is_empty() {
        return Vec::new();
    }
    // The stuck blocks' successors are all stuck too (else they would reach
    // an exit), so their subgraph is closed and its sink components are the
    // regions nothing escapes from.
    let mut local = vec![usize::MAX; n];
    for (i, &b) in stuck.iter().enumerate() {
        local[b] = i;
    }
    let mut sub: DiGraph<(), ()> = DiGraph::with_capacity(stuck.len(), 0);
    for _ in &stuck {
        sub.add_node(());
    }
    for (i, &b) in stuck.iter().enumerate() {
        for &s in cfg.succs(b) {
            if let Some(&j) = local.get(s)
                && j != usize::MAX
            {
                sub.add_edge(to_node(i), to_node(j), ());
            }
        }
    }
    // Order key: position in reverse postorder, blocks the entry does not
    // reach after all others by index.
    let mut key: Vec<usize> = (0..n).map(|b| n + b).collect();
    for (pos, &b) in cfg.reverse_postorder().iter().enumerate() {
        key[b] = pos;
    }
    let mut comp = vec![usize::MAX; stuck.len()];
    let sccs = kosaraju_scc(&sub);
    for (c, members) in sccs.iter().enumerate() {
        for m in members {
            comp[m.index()] = c;
        }
    }
    let mut roots = Vec::new();
    for (c, members) in sccs.iter().enumerate() {
        let is_sink = members
            .iter()
            .all(|m| sub.neighbors(*m).all(|s| comp[s.index()] == c));
        if !is_sink {
            continue;
        }
        let blocks = members.iter().map(|m| stuck[m.index()]);
        let Some(first) = blocks.clone().min_by_key(|&b| key[b]) else {
            continue;
        };
        let latch = cfg
            .preds(first)
            .iter()
            .copied()
            .filter(|&p| !reaches[p] && comp[local[p]] == c)
            .max_by_key(|&p| key[p])
            .unwrap_or(first);
        roots.push(latch);
    }
    roots.sort_unstable();
    roots
}

/// Control dependence (Ferrante, Ottenstein and Warren): block B depends on
/// block A when A's terminator decides whether B runs, i.e. one edge out of
/// A leads surely to B and another may avoid it.
///
/// Only terminators with two or more distinct targets decide anything: the
/// virtual edge joining an infinite loop's latch to the exit makes no
/// dependence. Only blocks the entry reaches are considered, so a dead
/// block neither has dependences nor is one.
#[derive(Clone, Debug, Default)]
pub struct ControlDependence {
    /// Branch blocks each block depends on, ascending (CSR layout).
    dep_start: Vec<u32>,
    deps: Vec<usize>,
    /// Blocks each branch block decides, in walk order (CSR layout).
    decided_start: Vec<u32>,
    decided: Vec<usize>,
}

impl ControlDependence {
    /// `postdom` must be `post_dominators(cfg)`.
    pub fn compute(cfg: &Cfg, postdom: &DomTree) -> ControlDependence {
        let n = cfg.len();
        let reachable = cfg.reachable();
        // stamp[x] == a + 1: x already recorded as decided by a.
        let mut stamp = vec![0usize; n];
        let mut decided_start = Vec::with_capacity(n + 1);
        let mut decided = Vec::new();
        decided_start.push(0u32);
        for (a, &live) in reachable.iter().enumerate() {
            let succs = cfg.succs(a);
            if live && succs.len() >= 2 {
                let stop = postdom.idom(a);
                for &s in succs {
                    let mut cur = Some(s);
                    while let Some(x) = cur {
                        // `stop` post-dominates every successor, so each
                        // walk ends there or at the virtual exit.
                        if Some(x) == stop {
                            break;
                        }
                        match stamp.get_mut(x) {
                            Some(seen) if *seen != a + 1 => *seen = a + 1,
                            // Walked from `a` before: the rest is recorded.
                            _ => break,
                        }
                        decided.push(x);
                        cur = postdom.idom(x);
                    }
                }
            }
            decided_start.push(to_u32(decided.len()));
        }
        // Invert by counting sort; sources come out ascending.
        let mut count = vec![0u32; n + 1];
        for &x in &decided {
            count[x + 1] += 1;
        }
        for b in 0..n {
            count[b + 1] += count[b];
        }
        let dep_start = count.clone();
        let mut fill = count;
        let mut deps = vec![0usize; decided.len()];
        for a in 0..n {
            for &x in &decided[decided_start[a] as usize..decided_start[a + 1] as usize] {
                deps[fill[x] as usize] = a;
                fill[x] += 1;
            }
        }
        ControlDependence {
            dep_start,
            deps,
            decided_start,
            decided,
        }
    }

    /// The blocks whose terminator decides whether `block` runs, ascending.
    /// A loop header usually depends on its own latch or exiting branch.
    pub fn deps(&self, block: usize) -> &[usize] {
        csr(&self.dep_start, &self.deps, block)
    }

    /// The blocks whose running `block`'s terminator decides, in no
    /// particular order.
    pub fn decided_by(&self, block: usize) -> &[usize] {
        csr(&self.decided_start, &self.decided, block)
    }

    /// Whether `block` runs only under some branch (has a dependence).
    pub fn is_conditional(&self, block: usize) -> bool {
        !self.deps(block).is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::test_util::{Rng, flow, nested_ifs, random_ir, straight_line};
    use petgraph::algo::dominators::simple_fast;
    use petgraph::graph::DiGraph;
    use std::time::Instant;

    const DIAMOND: &str = "define void @f(i1 %c) {
entry:
  br i1 %c, label %then, label %else
then:
  br label %join
else:
  br label %join
join:
  ret void
}
";

    fn idoms(t: &DomTree) -> Vec<Option<usize>> {
        (0..t.len()).map(|b| t.idom(b)).collect()
    }

    fn all_deps(cd: &ControlDependence, n: usize) -> Vec<Vec<usize>> {
        (0..n).map(|b| cd.deps(b).to_vec()).collect()
    }

    #[test]
    fn diamond() {
        let f = flow(DIAMOND);
        assert_eq!(idoms(f.dom()), vec![None, Some(0), Some(0), Some(0)]);
        assert_eq!(idoms(f.postdom()), vec![Some(3), Some(3), Some(3), None]);
        assert_eq!(f.postdom().roots(), &[3]);
        assert!(f.postdom().joined_to_exit().is_empty());
        assert_eq!(
            all_deps(f.control_deps(), 4),
            vec![vec![], vec![0], vec![0], vec![]]
        );
        assert!(f.dom().dominates(0, 3));
        assert!(!f.dom().dominates(1, 3));
        assert!(f.dom().dominates(2, 2));
        assert!(f.postdom().dominates(3, 0));
        assert!(!f.postdom().dominates(1, 0));
        assert!(!f.control_deps().is_conditional(3));
        assert_eq!(f.dom().children(0), &[1, 2, 3]);
        assert_eq!(f.dom().ancestors(3).collect::<Vec<_>>(), vec![3, 0]);
        let mut d = f.control_deps().decided_by(0).to_vec();
        d.sort();
        assert_eq!(d, vec![1, 2]);
    }

    #[test]
    fn if_without_else() {
        // The classic: `body` (a barrier, say) runs only when %c holds.
        let f = flow(
            "define void @f(i1 %c) {
entry:
  br i1 %c, label %body, label %done
body:
  call void @air.wg.barrier(i32 2, i32 1)
  br label %done
done:
  ret void
}
declare void @air.wg.barrier(i32, i32)
",
        );
        assert_eq!(idoms(f.dom()), vec![None, Some(0), Some(0)]);
        assert_eq!(idoms(f.postdom()), vec![Some(2), Some(2), None]);
        assert_eq!(all_deps(f.control_deps(), 3), vec![vec![], vec![0], vec![]]);
        assert!(f.control_deps().is_conditional(1));
        assert!(!f.control_deps().is_conditional(2));
    }

    #[test]
    fn switch() {
        let f = flow(
            "define void @f(i32 %x) {
entry:
  switch i32 %x, label %d [
    i32 0, label %a
    i32 1, label %b
  ]
a:
  br label %m
b:
  br label %m
m:
  br label %d
d:
  ret void
}
",
        );
        // entry=0 a=1 b=2 m=3 d=4
        assert_eq!(
            idoms(f.dom()),
            vec![None, Some(0), Some(0), Some(0), Some(0)]
        );
        assert_eq!(
            idoms(f.postdom()),
            vec![Some(4), Some(3), Some(3), Some(4), None]
        );
        assert_eq!(
            all_deps(f.control_deps(), 5),
            vec![vec![], vec![0], vec![0], vec![0], vec![]]
        );
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
        assert_eq!(idoms(f.dom()), vec![None, Some(0), Some(1), Some(1)]);
        assert_eq!(idoms(f.postdom()), vec![Some(1), Some(3), Some(1), None]);
        // The header decides both whether the body runs and whether it runs
        // again itself.
        assert_eq!(
            all_deps(f.control_deps(), 4),
            vec![vec![], vec![1], vec![1], vec![]]
        );
    }

    #[test]
    fn infinite_loop_without_exit() {
        let f = flow(
            "define void @f(i1 %c) {
entry:
  br label %header
header:
  br i1 %c, label %a, label %b
a:
  br label %latch
b:
  br label %latch
latch:
  br label %header
}
",
        );
        // entry=0 header=1 a=2 b=3 latch=4; no exit at all.
        assert!(f.cfg.exits.is_empty());
        assert_eq!(f.postdom().joined_to_exit(), &[4]);
        assert_eq!(f.postdom().roots(), &[4]);
        assert_eq!(
            idoms(f.postdom()),
            vec![Some(1), Some(4), Some(4), Some(4), None]
        );
        assert_eq!(
            idoms(f.dom()),
            vec![None, Some(0), Some(1), Some(1), Some(1)]
        );
        assert_eq!(
            all_deps(f.control_deps(), 5),
            vec![vec![], vec![], vec![1], vec![1], vec![]]
        );
    }

    #[test]
    fn infinite_loop_beside_exit() {
        let f = flow(
            "define void @f(i1 %c) {
entry:
  br i1 %c, label %spin, label %done
spin:
  br label %spin
done:
  ret void
}
",
        );
        assert_eq!(f.postdom().joined_to_exit(), &[1]);
        assert_eq!(f.postdom().roots(), &[0, 1, 2]);
        assert_eq!(idoms(f.postdom()), vec![None, None, None]);
        assert_eq!(
            all_deps(f.control_deps(), 3),
            vec![vec![], vec![0], vec![0]]
        );
    }

    #[test]
    fn unreachable_blocks() {
        let f = flow(
            "define void @f(i1 %c) {
entry:
  br label %done
dead:
  br i1 %c, label %done, label %dead2
dead2:
  br label %dead
done:
  ret void
}
",
        );
        // entry=0 dead=1 dead2=2 done=3
        assert_eq!(idoms(f.dom()), vec![None, None, None, Some(0)]);
        assert!(!f.dom().contains(1));
        assert!(!f.dom().dominates(0, 1));
        assert!(f.dom().dominates(1, 1));
        // Post-dominance covers dead code too.
        assert_eq!(idoms(f.postdom()), vec![Some(3), Some(3), Some(1), None]);
        // A dead branch decides nothing.
        assert_eq!(all_deps(f.control_deps(), 4), vec![Vec::<usize>::new(); 4]);
    }

    #[test]
    fn missing_label_does_not_panic() {
        let f = flow(
            "define void @f(i1 %c) {
entry:
  br i1 %c, label %gone, label %done
done:
  ret void
}
",
        );
        assert_eq!(f.cfg.missing.len(), 1);
        assert_eq!(idoms(f.dom()), vec![None, Some(0)]);
        assert_eq!(idoms(f.postdom()), vec![Some(1), None]);
        assert_eq!(all_deps(f.control_deps(), 2), vec![Vec::<usize>::new(); 2]);
    }

    #[test]
    fn out_of_range_queries() {
        let f = flow(DIAMOND);
        assert_eq!(f.dom().idom(99), None);
        assert!(!f.dom().dominates(0, 99));
        assert!(!f.dom().dominates(99, 0));
        assert!(f.dom().children(99).is_empty());
        assert!(f.control_deps().deps(99).is_empty());
        let empty = DomTree::default();
        assert!(!empty.dominates(0, 1));
    }

    #[test]
    fn straight_line_100k() {
        let n = 100_000;
        let text = straight_line(n);
        let t = Instant::now();
        let f = flow(&text);
        let took = t.elapsed();
        assert_eq!(f.dom().idom(0), None);
        assert!((1..n).all(|b| f.dom().idom(b) == Some(b - 1)));
        assert!((0..n - 1).all(|b| f.postdom().idom(b) == Some(b + 1)));
        assert_eq!(f.postdom().idom(n - 1), None);
        assert!(f.dom().dominates(0, n - 1));
        assert!(f.postdom().dominates(n - 1, 0));
        assert!((0..n).all(|b| !f.control_deps().is_conditional(b)));
        assert!(f.loops().loops.is_empty());
        assert_eq!(f.loops().depth(n - 1), 0);
        eprintln!("straight line of {n} blocks: {took:?}");
    }

    #[test]
    fn nested_ifs_50k() {
        let depth = 50_000;
        let text = nested_ifs(depth);
        let t = Instant::now();
        let f = flow(&text);
        let took = t.elapsed();
        // Blocks: i0..=iN are 0..=N, then jN-1..=j0 are N+1..=2N.
        let n = depth;
        let i = |k: usize| k;
        let j = |k: usize| 2 * n - k;
        assert_eq!(f.cfg.len(), 2 * n + 1);
        for k in 0..n - 1 {
            assert_eq!(f.dom().idom(i(k + 1)), Some(i(k)));
            assert_eq!(f.dom().idom(j(k)), Some(i(k)));
            assert_eq!(f.postdom().idom(i(k)), Some(j(k)));
            assert_eq!(f.control_deps().deps(i(k + 1)), &[i(k)]);
            assert_eq!(f.control_deps().deps(j(k + 1)), &[i(k)]);
        }
        assert_eq!(f.postdom().idom(i(n)), Some(j(n - 1)));
        assert_eq!(f.postdom().idom(j(0)), None);
        assert!(f.dom().dominates(i(0), i(n)));
        assert!(f.dom().dominates(i(10), j(40_000)));
        assert!(!f.dom().dominates(i(40_000), j(10)));
        assert!(f.control_deps().deps(i(0)).is_empty());
        assert!(f.control_deps().deps(j(0)).is_empty());
        assert_eq!(f.control_deps().deps(i(n)), &[i(n - 1)]);
        assert!(f.loops().loops.is_empty());
        eprintln!("nested ifs {depth} deep: {took:?}");
    }

    /// Our dominator trees against petgraph's `simple_fast` on the same
    /// graphs (the post-dominator one with the same virtual exit and joined
    /// blocks), and control dependence against its definition: B depends on
    /// A iff some successor S of A has B post-dominating S, and B does not
    /// strictly post-dominate A.
    #[test]
    fn random_graphs_match_petgraph_and_definition() {
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
        for round in 0..400 {
            let n = 1 + rng.below(24);
            let text = random_ir(&mut rng, n);
            let f = flow(&text);
            let cfg = &f.cfg;
            assert_eq!(cfg.len(), n);

            let doms = simple_fast(&cfg.to_graph(), to_node(0));
            for b in 0..n {
                let want = doms.immediate_dominator(to_node(b)).map(|d| d.index());
                assert_eq!(f.dom().idom(b), want, "round {round} block {b}\n{text}");
            }

            let mut g: DiGraph<(), ()> = DiGraph::new();
            for _ in 0..=n {
                g.add_node(());
            }
            for a in 0..n {
                for &s in cfg.succs(a) {
                    g.add_edge(to_node(s), to_node(a), ());
                }
            }
            for &x in cfg.exits.iter().chain(f.postdom().joined_to_exit()) {
                g.add_edge(to_node(n), to_node(x), ());
            }
            let pdoms = simple_fast(&g, to_node(n));
            for b in 0..n {
                let want = pdoms
                    .immediate_dominator(to_node(b))
                    .map(|d| d.index())
                    .filter(|&d| d != n);
                assert!(f.postdom().contains(b), "round {round} block {b}");
                assert_eq!(f.postdom().idom(b), want, "round {round} block {b}\n{text}");
            }

            // Joined blocks reach no exit; every block reaches an exit or a
            // joined block.
            let reaches = |from: usize, goal: &dyn Fn(usize) -> bool| {
                let mut seen = vec![false; n];
                let mut stack = vec![from];
                seen[from] = true;
                while let Some(b) = stack.pop() {
                    if goal(b) {
                        return true;
                    }
                    for &s in cfg.succs(b) {
                        if !seen[s] {
                            seen[s] = true;
                            stack.push(s);
                        }
                    }
                }
                false
            };
            let is_exit = |b: usize| cfg.succs(b).is_empty();
            for &j in f.postdom().joined_to_exit() {
                assert!(!reaches(j, &is_exit), "round {round}\n{text}");
            }
            let joined = f.postdom().joined_to_exit();
            for b in 0..n {
                assert!(reaches(b, &|x| is_exit(x) || joined.contains(&x)));
            }

            // `dominates` against walking the idom chain.
            for t in [f.dom(), f.postdom()] {
                for a in 0..n {
                    for b in 0..n {
                        let mut chain = t.ancestors(b);
                        let want = a == b || chain.any(|x| x == a);
                        assert_eq!(t.dominates(a, b), want, "round {round} {a} {b}");
                    }
                }
            }

            let reachable = cfg.reachable();
            for b in 0..n {
                let want: Vec<usize> = (0..n)
                    .filter(|&a| reachable[a] && cfg.succs(a).len() >= 2)
                    .filter(|&a| {
                        cfg.succs(a).iter().any(|&s| f.postdom().dominates(b, s))
                            && !f.postdom().strictly_dominates(b, a)
                    })
                    .collect();
                assert_eq!(
                    f.control_deps().deps(b),
                    want,
                    "round {round} block {b}\n{text}"
                );
                for &a in &want {
                    assert!(f.control_deps().decided_by(a).contains(&b));
                }
            }
        }
    }
}
