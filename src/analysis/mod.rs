//! Analyses of one function body that rules build on: control flow
//! (`cfg`, `dominance`, `loops`), def-use chains (`defuse`), where values
//! come from (`provenance`, with `layout` for byte offsets), which blocks
//! run on only some threads (`divergence`), and which function calls which
//! (`callgraph`).
//!
//! Everything here is per function and linear or near-linear in its size,
//! with explicit stacks instead of recursion, so a generated kernel with tens
//! of thousands of blocks neither takes long nor overflows the stack.

pub mod callgraph;
pub mod cfg;
pub mod defuse;
pub mod divergence;
pub mod dominance;
pub mod layout;
pub mod loops;
pub mod provenance;
pub mod slice;

use crate::ir::Body;
use cfg::Cfg;
use dominance::{ControlDependence, DomTree};
use loops::Loops;
use std::cell::OnceCell;

/// The control-flow facts about one body. The graph is built at once; the
/// rest on first use, each from the one before: graph → dominators, graph →
/// loops (immediate dominators only, not the tree), and graph →
/// post-dominators → control dependence. Most functions meet no
/// rule that asks about conditions or loops, and building all five eagerly
/// was most of the analysis time on modules of many small functions.
#[derive(Clone, Debug, Default)]
pub struct ControlFlow {
    pub cfg: Cfg,
    dom: OnceCell<DomTree>,
    postdom: OnceCell<DomTree>,
    control_deps: OnceCell<ControlDependence>,
    loops: OnceCell<Loops>,
}

impl ControlFlow {
    /// The graph of `body`; the other facts wait until asked for. An empty
    /// body (a declaration) gives empty results.
    pub fn of(body: &Body) -> ControlFlow {
        ControlFlow {
            cfg: Cfg::build(body),
            ..ControlFlow::default()
        }
    }

    /// The dominator tree (`dominance::dominators`).
    pub fn dom(&self) -> &DomTree {
        self.dom.get_or_init(|| dominance::dominators(&self.cfg))
    }

    /// The post-dominator tree (`dominance::post_dominators`).
    pub fn postdom(&self) -> &DomTree {
        self.postdom
            .get_or_init(|| dominance::post_dominators(&self.cfg))
    }

    /// Control dependence, from the post-dominator tree.
    pub fn control_deps(&self) -> &ControlDependence {
        self.control_deps
            .get_or_init(|| ControlDependence::compute(&self.cfg, self.postdom()))
    }

    /// Natural loops, from the immediate dominators (`Loops::of`: not the
    /// tree `dom` builds); an acyclic graph (most functions) has none, known
    /// without either.
    pub fn loops(&self) -> &Loops {
        self.loops.get_or_init(|| match self.cfg.is_cyclic() {
            true => Loops::of(&self.cfg),
            false => Loops::default(),
        })
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

    /// A small deterministic generator (xorshift64*), so tests need no
    /// dependency and fail the same way every run.
    pub struct Rng(pub u64);

    impl Rng {
        pub fn below(&mut self, n: usize) -> usize {
            self.0 ^= self.0 >> 12;
            self.0 ^= self.0 << 25;
            self.0 ^= self.0 >> 27;
            (self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 33) as usize % n.max(1)
        }
    }

    /// A function of `n` blocks `b0..b{n-1}` with random terminators:
    /// returns, `unreachable`, jumps, conditional branches, switches, and
    /// now and then a target that names no block. Any block may branch
    /// anywhere, the entry included, so loops and irreducible cycles abound.
    pub fn random_ir(rng: &mut Rng, n: usize) -> String {
        let mut s = String::from("define void @f(i1 %c, i32 %x) {\n");
        let target = |rng: &mut Rng| {
            if rng.below(40) == 0 {
                "missing".to_string()
            } else {
                format!("b{}", rng.below(n))
            }
        };
        for i in 0..n {
            let _ = writeln!(s, "b{i}:");
            match rng.below(12) {
                0 => s.push_str("  ret void\n"),
                1 => s.push_str("  unreachable\n"),
                2..=4 => {
                    let _ = writeln!(s, "  br label %{}", target(rng));
                }
                5..=9 => {
                    let (a, b) = (target(rng), target(rng));
                    let _ = writeln!(s, "  br i1 %c, label %{a}, label %{b}");
                }
                _ => {
                    let _ = write!(s, "  switch i32 %x, label %{} [", target(rng));
                    for k in 0..rng.below(4) + 1 {
                        let _ = write!(s, " i32 {k}, label %{}", target(rng));
                    }
                    s.push_str(" ]\n");
                }
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
        assert!(f.dom().is_empty());
        assert!(f.postdom().is_empty());
        assert!(f.loops().loops.is_empty());
        assert!(!f.control_deps().is_conditional(0));
        assert_eq!(f.loops().depth(0), 0);
    }

    /// The acyclic shortcut in `ControlFlow::loops` gives what the full
    /// search gives.
    #[test]
    fn acyclic_shortcut_matches_full_search() {
        let mut rng = Rng(0x2545_f491_4f6c_dd1d);
        for _ in 0..400 {
            let n = 1 + rng.below(12);
            let text = random_ir(&mut rng, n);
            let f = flow(&text);
            let full = super::Loops::find(&f.cfg, f.dom());
            let lazy = f.loops();
            assert_eq!(lazy.loops, full.loops, "{text}");
            assert_eq!(lazy.irreducible, full.irreducible, "{text}");
            for b in 0..n {
                assert_eq!(lazy.depth(b), full.depth(b));
                assert_eq!(lazy.innermost(b), full.innermost(b));
            }
            if !f.cfg.is_cyclic() {
                assert!(full.loops.is_empty() && full.irreducible.is_empty());
            }
        }
    }
}
