//! The control-flow graph of one function body: successors and predecessors
//! of each block, exits, reverse postorder, and the branch targets that name
//! no block.
//!
//! Node `i` is block `i` of the `Body`. Edges are deduplicated, so a `switch`
//! with ten cases to one block gives one edge: the analyses built on top care
//! whether control *can* go from A to B, not how many ways.
//!
//! Building is O(blocks + instructions + edges): numbered labels (most of
//! AIR's) are found by table, named ones by hash.

use crate::ir::{Body, Instruction, Opcode, Value};
use petgraph::graph::{DiGraph, NodeIndex};
use rustc_hash::FxHashMap;
use std::collections::hash_map::Entry;

/// A branch target that names no block of the function (broken input).
/// Recorded so a rule or report can say so; the edge is left out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MissingTarget {
    /// The block whose terminator names the label.
    pub block: usize,
    /// The label as written, without `%`.
    pub label: String,
    /// 1-based line of the terminator.
    pub line: u32,
}

/// The control-flow graph of one body.
///
/// Successors and predecessors are kept flat (one array of targets, one of
/// offsets per block) rather than a vector per block: a function costs four
/// allocations instead of two per block, which was most of the time spent
/// here on modules of many small functions.
#[derive(Clone, Debug, Default)]
pub struct Cfg {
    /// Successors of block `b`: `succ[succ_start[b]..succ_start[b + 1]]`,
    /// deduplicated, in the order the terminator names them.
    succ_start: Vec<u32>,
    succ: Vec<usize>,
    /// Predecessors, the same way, deduplicated, in block order.
    pred_start: Vec<u32>,
    pred: Vec<usize>,
    /// Blocks with no successor: ending in `ret` or `unreachable`, with no
    /// terminator (a reader error, or an opcode the reader does not know such
    /// as `invoke`), or whose every target names no block. Ascending.
    pub exits: Vec<usize>,
    /// Branch targets that name no block, in block order.
    pub missing: Vec<MissingTarget>,
    /// Blocks whose label an earlier block already has (broken input).
    /// Branches go to the first block with the label.
    pub duplicate_labels: Vec<usize>,
    /// Index into `Body::instructions` of each block's terminator.
    terminators: Vec<Option<usize>>,
    /// Blocks reachable from the entry, in reverse postorder.
    rpo: Vec<usize>,
    /// Whether the blocks the entry reaches hold a cycle.
    cyclic: bool,
}

impl Cfg {
    /// Builds the graph. Never fails: broken targets go to `missing`.
    pub fn build(body: &Body) -> Cfg {
        let n = body.blocks.len();
        let mut labels = LabelIndex::new(n, body.instructions.len());
        let mut duplicate_labels = Vec::new();
        for (i, b) in body.blocks.iter().enumerate() {
            if let Some(label) = b.label
                && !labels.insert(label, i)
            {
                duplicate_labels.push(i);
            }
        }

        let mut succ_start: Vec<u32> = Vec::with_capacity(n + 1);
        succ_start.push(0);
        // Most blocks end in a branch with one or two targets.
        let mut succ: Vec<usize> = Vec::with_capacity(n * 2);
        let mut terminators = vec![None; n];
        let mut missing = Vec::new();
        // added[t] == i + 1: t is already a successor of i (a `switch` may
        // name one block many times, and may have thousands of cases).
        let mut added = vec![0; n];
        for (i, block) in body.blocks.iter().enumerate() {
            Self::add_successors(
                body,
                i,
                block,
                &labels,
                &mut added,
                &mut succ,
                &mut terminators,
                &mut missing,
            );
            succ_start.push(to_u32(succ.len()));
        }

        // Predecessors by counting sort: sources come in ascending order and
        // each (i, s) once, so they need no dedup and end up sorted.
        let mut pred_start = vec![0u32; n + 1];
        for &s in &succ {
            pred_start[s + 1] += 1;
        }
        for b in 0..n {
            pred_start[b + 1] += pred_start[b];
        }
        let mut fill = added;
        for (f, &p) in fill.iter_mut().zip(&pred_start) {
            *f = p as usize;
        }
        let mut pred = vec![0usize; succ.len()];
        for i in 0..n {
            for &s in &succ[succ_start[i] as usize..succ_start[i + 1] as usize] {
                pred[fill[s]] = i;
                fill[s] += 1;
            }
        }
        let exits = (0..n)
            .filter(|&i| succ_start[i] == succ_start[i + 1])
            .collect();

        let mut cfg = Cfg {
            succ_start,
            succ,
            pred_start,
            pred,
            exits,
            missing,
            duplicate_labels,
            terminators,
            rpo: Vec::new(),
            cyclic: false,
        };
        (cfg.rpo, cfg.cyclic) = reverse_postorder(n, |b| cfg.succs(b), 0);
        cfg
    }

    /// Records `block`'s terminator and appends its deduplicated targets to
    /// `succ` (labels that name no block to `missing`).
    #[allow(clippy::too_many_arguments)]
    fn add_successors(
        body: &Body,
        i: usize,
        block: &crate::ir::Block,
        labels: &LabelIndex,
        added: &mut [usize],
        succ: &mut Vec<usize>,
        terminators: &mut [Option<usize>],
        missing: &mut Vec<MissingTarget>,
    ) {
        let Some(last) = block.instructions.end.checked_sub(1) else {
            return;
        };
        if last < block.instructions.start {
            return;
        }
        let Some(inst) = body.instructions.get(last) else {
            return;
        };
        if !inst.opcode.is_terminator() {
            return;
        }
        terminators[i] = Some(last);
        if !matches!(
            inst.opcode,
            Opcode::Br | Opcode::Switch | Opcode::IndirectBr
        ) {
            return;
        }
        for op in &inst.operands {
            let Value::Label(name) = op.value else {
                continue;
            };
            match labels.get(name) {
                Some(t) => {
                    if added[t] != i + 1 {
                        added[t] = i + 1;
                        succ.push(t);
                    }
                }
                None => missing.push(MissingTarget {
                    block: i,
                    label: name.to_string(),
                    line: inst.line,
                }),
            }
        }
    }

    /// Successors of `block`, deduplicated, in the order its terminator
    /// names them; empty out of range.
    pub fn succs(&self, block: usize) -> &[usize] {
        csr(&self.succ_start, &self.succ, block)
    }

    /// Predecessors of `block`, deduplicated, ascending; empty out of range.
    pub fn preds(&self, block: usize) -> &[usize] {
        csr(&self.pred_start, &self.pred, block)
    }

    /// Number of blocks.
    pub fn len(&self) -> usize {
        self.terminators.len()
    }

    /// True for a declaration (no blocks).
    pub fn is_empty(&self) -> bool {
        self.terminators.is_empty()
    }

    /// The terminator of `block`: its last instruction when that is `br`,
    /// `switch`, `indirectbr`, `ret` or `unreachable`. `None` when the block
    /// ends otherwise (the reader dropped a bad line, or an unknown opcode).
    pub fn terminator<'b, 'a>(
        &self,
        body: &'b Body<'a>,
        block: usize,
    ) -> Option<&'b Instruction<'a>> {
        body.instructions.get(self.terminator_index(block)?)
    }

    /// The index in `Body::instructions` of `block`'s terminator.
    pub fn terminator_index(&self, block: usize) -> Option<usize> {
        *self.terminators.get(block)?
    }

    /// Which blocks the entry reaches. O(blocks).
    pub fn reachable(&self) -> Vec<bool> {
        let mut r = vec![false; self.len()];
        for &b in &self.rpo {
            r[b] = true;
        }
        r
    }

    /// Blocks reachable from the entry in reverse postorder: every block
    /// comes before its successors except along back edges, the order
    /// forward data-flow problems converge fastest in.
    pub fn reverse_postorder(&self) -> &[usize] {
        &self.rpo
    }

    /// Whether the blocks the entry reaches hold a cycle (an edge to a block
    /// no later in reverse postorder). Without one there are no loops, nor
    /// irreducible edges, so `Loops` needs no dominator tree.
    pub fn is_cyclic(&self) -> bool {
        self.cyclic
    }

    /// Number of edges (after deduplication).
    pub fn edge_count(&self) -> usize {
        self.succ.len()
    }

    /// The graph as a petgraph `DiGraph` (node `i` is block `i`), built on
    /// demand for petgraph's algorithms. O(blocks + edges).
    pub fn to_graph(&self) -> DiGraph<(), ()> {
        let mut graph = DiGraph::with_capacity(self.len(), self.edge_count());
        for _ in 0..self.len() {
            graph.add_node(());
        }
        for i in 0..self.len() {
            for &s in self.succs(i) {
                graph.add_edge(NodeIndex::new(i), NodeIndex::new(s), ());
            }
        }
        graph
    }
}

/// `items[start[i]..start[i + 1]]`, empty when `i` is out of range.
pub(crate) fn csr<'s>(start: &[u32], items: &'s [usize], i: usize) -> &'s [usize] {
    match (start.get(i), start.get(i + 1)) {
        (Some(&s), Some(&e)) => items.get(s as usize..e as usize).unwrap_or(&[]),
        _ => &[],
    }
}

/// Offsets are stored as u32 to halve the offset arrays; a function with
/// four billion edges would not fit in memory anyway.
pub(crate) fn to_u32(x: usize) -> u32 {
    u32::try_from(x).unwrap_or(u32::MAX)
}

/// A block on `reverse_postorder`'s stack, and the index of the next
/// successor to try.
type Visit = (usize, usize);

/// Label → block. LLVM numbers unnamed blocks, so most AIR labels are
/// decimal numbers below the count of values: those are looked up in a
/// table by number, the rest in a hash map. Labels match as written, so
/// `007` is not `7` (it goes to the map).
struct LabelIndex<'a> {
    /// Block + 1 for each numbered label, 0 for none (u32: the table has
    /// a slot per value of the function, and is zeroed for each).
    numbered: Vec<u32>,
    named: FxHashMap<&'a str, usize>,
}

impl<'a> LabelIndex<'a> {
    fn new(blocks: usize, instructions: usize) -> Self {
        // Values are numbered in one sequence with blocks; a little slack
        // covers unnamed parameters. Larger numbers use the map.
        let numbered = vec![0; blocks + instructions + 64];
        LabelIndex {
            numbered,
            named: FxHashMap::default(),
        }
    }

    /// The number of a numbered label below the table's length (LLVM's
    /// rules, as `DefUse` reads value names: digits, no leading zero).
    #[inline(always)]
    fn number(&self, label: &str) -> Option<usize> {
        super::defuse::number(label, self.numbered.len())
    }

    /// Records `label` for `block`; false if it was already defined (the
    /// first definition stays).
    fn insert(&mut self, label: &'a str, block: usize) -> bool {
        if let Some(k) = self.number(label)
            && let Some(slot) = self.numbered.get_mut(k)
        {
            if *slot != 0 {
                return false;
            }
            *slot = to_u32(block + 1);
            return true;
        }
        match self.named.entry(label) {
            Entry::Vacant(v) => {
                v.insert(block);
                true
            }
            Entry::Occupied(_) => false,
        }
    }

    fn get(&self, label: &str) -> Option<usize> {
        if let Some(k) = self.number(label)
            && let Some(&slot) = self.numbered.get(k)
        {
            return (slot as usize).checked_sub(1);
        }
        self.named.get(label).copied()
    }
}

/// Reverse postorder of the blocks `root` reaches, by an explicit-stack DFS
/// (a recursive one overflows on deep graphs), and whether they hold a cycle
/// (an edge back to a block still on the stack). Successors are visited in
/// order, so the result is deterministic.
pub(crate) fn reverse_postorder<'g>(
    n: usize,
    succs: impl Fn(usize) -> &'g [usize],
    root: usize,
) -> (Vec<usize>, bool) {
    let mut post = Vec::with_capacity(n);
    if root >= n {
        return (post, false);
    }
    const NEW: u8 = 0;
    const OPEN: u8 = 1;
    const DONE: u8 = 2;
    let mut state = vec![NEW; n];
    let mut cyclic = false;
    // (block, index of the next successor to try)
    // Sized for the deepest walk at once: growing it one push at a time
    // was a visible share of building the graph.
    let mut stack: Vec<Visit> = Vec::with_capacity(n);
    stack.push((root, 0));
    state[root] = OPEN;
    while let Some(top) = stack.last_mut() {
        let (b, next) = *top;
        if let Some(&s) = succs(b).get(next) {
            top.1 += 1;
            match state[s] {
                NEW => {
                    state[s] = OPEN;
                    stack.push((s, 0));
                }
                OPEN => cyclic = true,
                _ => {}
            }
        } else {
            post.push(b);
            state[b] = DONE;
            stack.pop();
        }
    }
    post.reverse();
    (post, cyclic)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::read_module;

    /// Builds the CFG of the first function in `text`.
    pub(crate) fn cfg_of(text: &str) -> Cfg {
        let mut m = read_module(text);
        let (body, diags) = m.body(0);
        assert!(diags.is_empty(), "{diags:?}");
        Cfg::build(&body)
    }

    fn succ_lists(cfg: &Cfg) -> Vec<Vec<usize>> {
        (0..cfg.len()).map(|b| cfg.succs(b).to_vec()).collect()
    }

    fn pred_lists(cfg: &Cfg) -> Vec<Vec<usize>> {
        (0..cfg.len()).map(|b| cfg.preds(b).to_vec()).collect()
    }

    #[test]
    fn diamond_edges() {
        let cfg = cfg_of(
            "define void @f(i1 %c) {
entry:
  br i1 %c, label %then, label %else
then:
  br label %join
else:
  br label %join
join:
  ret void
}
",
        );
        assert_eq!(succ_lists(&cfg), vec![vec![1, 2], vec![3], vec![3], vec![]]);
        assert_eq!(pred_lists(&cfg), vec![vec![], vec![0], vec![0], vec![1, 2]]);
        assert_eq!(cfg.exits, vec![3]);
        assert!(cfg.missing.is_empty());
        assert_eq!(cfg.reverse_postorder()[0], 0);
        assert_eq!(cfg.reachable(), vec![true; 4]);
    }

    #[test]
    fn unnamed_entry_and_numbered_blocks() {
        let mut m = read_module(
            "define void @f(i32 %x) {
  %2 = icmp ult i32 %x, 4
  br i1 %2, label %3, label %4

3:
  br label %4

4:
  ret void
}
",
        );
        let (body, diags) = m.body(0);
        assert!(diags.is_empty());
        let cfg = Cfg::build(&body);
        assert_eq!(body.blocks[0].label, None);
        assert_eq!(succ_lists(&cfg), vec![vec![1, 2], vec![2], vec![]]);
        let t = cfg.terminator(&body, 0).unwrap();
        assert_eq!(t.opcode, Opcode::Br);
        assert_eq!(cfg.terminator(&body, 2).unwrap().opcode, Opcode::Ret);
        assert!(cfg.terminator(&body, 9).is_none());
    }

    #[test]
    fn switch_targets_deduplicated() {
        let cfg = cfg_of(
            "define void @f(i32 %x) {
entry:
  switch i32 %x, label %d [
    i32 0, label %a
    i32 1, label %b
    i32 2, label %a
    i32 3, label %d
  ]
a:
  br label %d
b:
  unreachable
d:
  ret void
}
",
        );
        assert_eq!(cfg.succs(0), vec![3, 1, 2]);
        assert_eq!(cfg.preds(3), vec![0, 1]);
        assert_eq!(cfg.exits, vec![2, 3]);
    }

    #[test]
    fn phi_labels_are_not_edges() {
        let cfg = cfg_of(
            "define i32 @f(i1 %c) {
entry:
  br i1 %c, label %a, label %b
a:
  br label %b
b:
  %v = phi i32 [ 1, %entry ], [ 2, %a ]
  ret i32 %v
}
",
        );
        assert_eq!(succ_lists(&cfg), vec![vec![1, 2], vec![2], vec![]]);
    }

    #[test]
    fn missing_target_recorded() {
        let cfg = cfg_of(
            "define void @f(i1 %c) {
entry:
  br i1 %c, label %nowhere, label %done
done:
  ret void
}
",
        );
        assert_eq!(succ_lists(&cfg), vec![vec![1], vec![]]);
        assert_eq!(
            cfg.missing,
            vec![MissingTarget {
                block: 0,
                label: "nowhere".into(),
                line: 3
            }]
        );
    }

    #[test]
    fn unreachable_blocks_not_reached() {
        let cfg = cfg_of(
            "define void @f() {
entry:
  ret void
dead:
  br label %dead2
dead2:
  br label %dead
}
",
        );
        assert_eq!(cfg.reachable(), vec![true, false, false]);
        assert_eq!(cfg.reverse_postorder(), &[0]);
        assert_eq!(cfg.exits, vec![0]);
    }

    #[test]
    fn block_without_terminator_is_exit() {
        let cfg = cfg_of(
            "define void @f() {
entry:
  br label %a
a:
  %x = add i32 1, 2
}
",
        );
        assert_eq!(cfg.exits, vec![1]);
        assert_eq!(cfg.terminators, vec![Some(0), None]);
    }

    #[test]
    fn duplicate_label_first_wins() {
        let cfg = cfg_of(
            "define void @f() {
entry:
  br label %a
a:
  ret void
a:
  ret void
}
",
        );
        assert_eq!(cfg.succs(0), vec![1]);
        assert_eq!(cfg.duplicate_labels, vec![2]);
    }

    #[test]
    fn declaration_is_empty() {
        let mut m = read_module("declare void @f()\n");
        let (body, _) = m.body(0);
        let cfg = Cfg::build(&body);
        assert!(cfg.is_empty());
        assert!(cfg.reachable().is_empty());
        assert!(cfg.reverse_postorder().is_empty());
    }

    #[test]
    fn rpo_is_deep_safe() {
        let n = 200_000;
        let succs: Vec<Vec<usize>> = (0..n)
            .map(|i| if i + 1 < n { vec![i + 1] } else { vec![] })
            .collect();
        let (rpo, cyclic) = reverse_postorder(n, |b| succs[b].as_slice(), 0);
        assert!(!cyclic);
        assert_eq!(rpo.len(), n);
        assert_eq!(rpo[0], 0);
        assert_eq!(rpo[n - 1], n - 1);
    }
}
