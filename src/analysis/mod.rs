//! Analyses of one function body that rules build on: control flow
//! (`cfg`, `dominance`, `loops`), def-use chains (`defuse`), where values
//! come from (`provenance`, with `layout` for byte offsets), and which
//! function calls which (`callgraph`).
//!
//! Everything here is per function and linear or near-linear in its size,
//! with explicit stacks instead of recursion, so a generated kernel with tens
//! of thousands of blocks neither takes long nor overflows the stack.

pub mod callgraph;
pub mod cfg;
pub mod defuse;
pub mod dominance;
pub mod layout;
pub mod loops;
pub mod provenance;

use crate::ir::Body;
use cfg::Cfg;
use dominance::{ControlDependence, DomTree};
use loops::Loops;

/// The control-flow facts about one body, computed together because each
/// builds on the one before: graph → dominators → loops, and graph →
/// post-dominators → control dependence.
#[derive(Clone, Debug, Default)]
pub struct ControlFlow {
    pub cfg: Cfg,
    pub dom: DomTree,
    pub postdom: DomTree,
    pub control_deps: ControlDependence,
    pub loops: Loops,
}

impl ControlFlow {
    /// All of the above for `body`. An empty body (a declaration) gives
    /// empty results.
    pub fn of(body: &Body) -> ControlFlow {
        let cfg = Cfg::build(body);
        let dom = dominance::dominators(&cfg);
        let postdom = dominance::post_dominators(&cfg);
        let control_deps = ControlDependence::compute(&cfg, &postdom);
        let loops = Loops::find(&cfg, &dom);
        ControlFlow {
            cfg,
            dom,
            postdom,
            control_deps,
            loops,
        }
    }
}

#[cfg(test)]
pub(crate) mod test_util {
    use super::ControlFlow;
    use crate::ir::read_module;
    use std::fmt::Write;

    /// The control flow of the first function in `text`, which must read
    /// without diagnostics.
    pub fn flow(text: &str) -> ControlFlow {
        let mut m = read_module(text);
        let (body, diags) = m.body(0);
        assert!(diags.is_empty(), "{diags:?}");
        ControlFlow::of(&body)
    }

    /// `n` blocks `b0` → `b1` → … → `b{n-1}`, the last returning.
    pub fn straight_line(n: usize) -> String {
        let mut s = String::from("define void @f() {\n");
        for i in 0..n {
            if i + 1 < n {
                let _ = writeln!(s, "b{i}:\n  br label %b{}", i + 1);
            } else {
                let _ = writeln!(s, "b{i}:\n  ret void");
            }
        }
        s.push_str("}\n");
        s
    }

    /// `depth` nested ifs without else: `i{k}` branches to `i{k+1}` or to
    /// its join `j{k}`; `i{depth}` is the innermost body; `j{k}` falls
    /// through to `j{k-1}`, and `j0` returns. Blocks in order
    /// `i0..=i{depth}, j{depth-1}..=j0`, so `i{k}` is block k and `j{k}` is
    /// block `2 * depth - k`.
    pub fn nested_ifs(depth: usize) -> String {
        let mut s = String::from("define void @f(i1 %c) {\n");
        for k in 0..depth {
            let _ = writeln!(s, "i{k}:\n  br i1 %c, label %i{}, label %j{k}", k + 1);
        }
        let _ = writeln!(s, "i{depth}:\n  br label %j{}", depth - 1);
        for k in (0..depth).rev() {
            if k > 0 {
                let _ = writeln!(s, "j{k}:\n  br label %j{}", k - 1);
            } else {
                let _ = writeln!(s, "j{k}:\n  ret void");
            }
        }
        s.push_str("}\n");
        s
    }

    #[test]
    fn declaration_gives_empty_results() {
        let mut m = read_module("declare void @f()\n");
        let (body, _) = m.body(0);
        let f = ControlFlow::of(&body);
        assert!(f.cfg.is_empty());
        assert!(f.dom.is_empty());
        assert!(f.postdom.is_empty());
        assert!(f.loops.loops.is_empty());
        assert!(!f.control_deps.is_conditional(0));
        assert_eq!(f.loops.depth(0), 0);
    }
}
