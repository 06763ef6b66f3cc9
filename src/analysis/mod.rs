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

    /// `n` blocks in a line, numbered as LLVM prints them: an unnamed entry
    /// (value 0), then `1:` … `{n-1}:`, the last returning.
    pub fn straight_line(n: usize) -> String {
        let mut s = String::from("define void @f() {\n");
        for i in 0..n {
            if i > 0 {
                let _ = writeln!(s, "{i}:");
            }
            if i + 1 < n {
                let _ = writeln!(s, "  br label %{}", i + 1);
            } else {
                s.push_str("  ret void\n");
            }
        }
        s.push_str("}\n");
        s
    }

    /// `depth` nested ifs without else, numbered as LLVM prints them.
    /// Block k (`i{k}`, the unnamed entry for k = 0) branches to block k + 1
    /// or to its join `j{k}`; block `depth` is the innermost body; `j{k}` is
    /// block `2 * depth - k` and falls through to `j{k-1}`; `j0` returns.
    pub fn nested_ifs(depth: usize) -> String {
        let mut s = String::from("define void @f(i1 %c) {\n");
        let j = |k: usize| 2 * depth - k;
        for k in 0..depth {
            if k > 0 {
                let _ = writeln!(s, "{k}:");
            }
            let _ = writeln!(s, "  br i1 %c, label %{}, label %{}", k + 1, j(k));
        }
        let _ = writeln!(s, "{depth}:\n  br label %{}", j(depth - 1));
        for k in (0..depth).rev() {
            if k > 0 {
                let _ = writeln!(s, "{}:\n  br label %{}", j(k), j(k - 1));
            } else {
                let _ = writeln!(s, "{}:\n  ret void", j(k));
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

#[cfg(test)]
mod timing_probe {
    #[test]
    fn probe() {
        use super::*;
        use std::time::Instant;
        for text in [
            test_util::straight_line(100_000),
            test_util::nested_ifs(50_000),
        ] {
            let t = Instant::now();
            let mut m = crate::ir::read_module(&text);
            let (body, _) = m.body(0);
            eprintln!("parse {:?}", t.elapsed());
            let t = Instant::now();
            let cfg = Cfg::build(&body);
            eprintln!("cfg {:?}", t.elapsed());
            let t = Instant::now();
            let dom = dominance::dominators(&cfg);
            eprintln!("dom {:?}", t.elapsed());
            let t = Instant::now();
            let pd = dominance::post_dominators(&cfg);
            eprintln!("postdom {:?}", t.elapsed());
            let t = Instant::now();
            let _cd = ControlDependence::compute(&cfg, &pd);
            eprintln!("cd {:?}", t.elapsed());
            let t = Instant::now();
            let _l = Loops::find(&cfg, &dom);
            eprintln!("loops {:?}", t.elapsed());
        }
    }
}
