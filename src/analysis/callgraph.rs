//! Which defined function calls which, found before any body is parsed, so
//! functions can be analyzed callers first (a helper's parameters take the
//! join of what its call sites pass) and each finding can name the entry
//! points that reach it.

use crate::ir::Module;
use rustc_hash::FxHashMap;
use std::cell::RefCell;
use std::rc::Rc;

pub struct CallGraph<'a> {
    /// Callees of each function (indices into `Module::functions`), defined ones only.
    pub callees: Vec<Vec<usize>>,
    /// Every function each one names, declarations (intrinsics) included.
    pub named: Vec<Vec<usize>>,
    /// Each function's index by name.
    pub index_of: FxHashMap<&'a str, usize>,
    /// The entry point (index into the names `build` was given) each
    /// function is, if any.
    pub entries: FxHashMap<usize, usize>,
    /// `reaching` answers, by the names asked about.
    reaching_memo: RefCell<Vec<Reaching>>,
    /// The functions naming each one, for `reaching`: those of `c` are
    /// `callers[starts[c]..starts[c + 1]]`, made once for every question
    /// (they were made again for each, a vector per function).
    callers: std::cell::OnceCell<(Vec<u32>, Vec<usize>)>,
    /// `table` answers, by their callers' keys.
    tables: RefCell<Vec<(u64, Rc<[bool]>)>>,
    /// Functions in an order where callers come before callees (recursion,
    /// which Metal forbids, is broken arbitrarily).
    pub order: Vec<usize>,
    /// Entry points (indices into `AirInfo::entry_points`) reaching each function.
    pub reached_by: Vec<Vec<usize>>,
}

/// The names a `reaching` question was about, and its answer.
type Reaching = (Vec<String>, Rc<[bool]>);

impl<'a> CallGraph<'a> {
    /// `entry_names`: the entry points' function names, in order.
    pub fn build(module: &Module<'a>, entry_names: &[&str]) -> CallGraph<'a> {
        let n = module.functions.len();
        let by_name: FxHashMap<&'a str, usize> = module
            .functions
            .iter()
            .enumerate()
            .map(|(i, f)| (f.name, i))
            .collect();
        let mut callees = vec![Vec::new(); n];
        let mut named = vec![Vec::new(); n];
        let mut refs = References {
            found: Vec::new(),
            seen: vec![0; n],
        };
        for (i, f) in module.functions.iter().enumerate() {
            let Some(range) = f.body_range.clone() else {
                continue;
            };
            let text = module.text.get(range).unwrap_or("");
            named[i] = refs.of(i, text, &by_name);
            callees[i] = named[i]
                .iter()
                .copied()
                .filter(|&c| module.functions[c].is_definition)
                .collect();
        }
        let entries: FxHashMap<usize, usize> = entry_names
            .iter()
            .enumerate()
            .filter_map(|(e, name)| by_name.get(name).map(|&f| (f, e)))
            .collect();
        let order = callers_first(n, &callees);
        let mut reached_by: Vec<Vec<usize>> = vec![Vec::new(); n];
        for (f, e) in &entries {
            if let Some(r) = reached_by.get_mut(*f) {
                r.push(*e);
            }
        }
        for &f in &order {
            let from = reached_by[f].clone();
            for &c in &callees[f] {
                for e in &from {
                    if !reached_by[c].contains(e) {
                        reached_by[c].push(*e);
                    }
                }
            }
        }
        for r in &mut reached_by {
            r.sort_unstable();
        }
        CallGraph {
            callees,
            named,
            index_of: by_name,
            entries,
            reaching_memo: RefCell::default(),
            callers: std::cell::OnceCell::new(),
            tables: RefCell::default(),
            order,
            reached_by,
        }
    }

    /// For each function, whether it calls, directly or through functions
    /// of the module, a function whose name `is_target` accepts (the
    /// function itself aside). `key` names the question: the answer is
    /// kept for the next function that asks it.
    pub fn reaching(
        &self,
        module: &Module<'_>,
        key: &[String],
        is_target: impl Fn(&str) -> bool,
    ) -> Rc<[bool]> {
        self.reaching_by_index(key, |t| {
            module.functions.get(t).is_some_and(|f| is_target(f.name))
        })
    }

    /// `reaching`, with the targets given by index in `Module::functions`:
    /// for a caller that has already tested every name.
    pub fn reaching_by_index(
        &self,
        key: &[String],
        is_target: impl Fn(usize) -> bool,
    ) -> Rc<[bool]> {
        if let Some((_, r)) = self.reaching_memo.borrow().iter().find(|(k, _)| k == key) {
            return r.clone();
        }
        let n = self.named.len();
        // Backwards over the call edges from the functions that name a
        // target: linear, whatever cycles (which Metal forbids) the IR has.
        let (starts, callers) = self.callers.get_or_init(|| {
            let mut starts = vec![0u32; n + 2];
            for named in &self.named {
                for &c in named {
                    starts[c + 2] += 1;
                }
            }
            for c in 1..n + 2 {
                starts[c] += starts[c - 1];
            }
            let mut callers = vec![0; starts[n + 1] as usize];
            for (f, named) in self.named.iter().enumerate() {
                for &c in named {
                    callers[starts[c + 1] as usize] = f;
                    starts[c + 1] += 1;
                }
            }
            starts.pop();
            (starts, callers)
        });
        let callers_of = |c: usize| &callers[starts[c] as usize..starts[c + 1] as usize];
        let mut reach = vec![false; n];
        let mut stack: Vec<usize> = (0..n)
            .filter(|&t| is_target(t))
            .flat_map(|t| callers_of(t).iter().copied())
            .collect();
        while let Some(f) = stack.pop() {
            if !reach[f] {
                reach[f] = true;
                stack.extend(callers_of(f).iter().copied());
            }
        }
        let reach: Rc<[bool]> = reach.into();
        self.reaching_memo
            .borrow_mut()
            .push((key.to_vec(), reach.clone()));
        reach
    }

    /// A table over the module's functions that `make` gives the first time
    /// `key` asks, kept for the next function: the rules keep one per
    /// pattern with `calls` (`rules::engine`), keyed by its `Match::table_id`.
    pub fn table(&self, key: u64, make: impl FnOnce() -> Rc<[bool]>) -> Rc<[bool]> {
        if let Some((_, t)) = self.tables.borrow().iter().find(|(k, _)| *k == key) {
            return t.clone();
        }
        let t = make();
        self.tables.borrow_mut().push((key, t.clone()));
        t
    }

    /// The first function whose name `is_target` accepts that `from` names,
    /// directly or through functions of the module, depth first in the
    /// order each names them; each function is visited once.
    pub fn first_named(
        &self,
        module: &Module<'_>,
        from: usize,
        is_target: impl Fn(&str) -> bool,
    ) -> Option<usize> {
        let mut seen = vec![false; self.named.len()];
        let mut stack = vec![from];
        while let Some(f) = stack.pop() {
            if std::mem::replace(seen.get_mut(f)?, true) {
                continue;
            }
            let named = self.named.get(f)?;
            let target = named.iter().find(|&&c| {
                module
                    .functions
                    .get(c)
                    .is_some_and(|callee| is_target(callee.name))
            });
            if let Some(&t) = target {
                return Some(t);
            }
            stack.extend(named.iter().rev());
        }
        None
    }
}

/// The functions each body names, found with buffers kept from one body to
/// the next: a body names a few functions many times (`@llvm.assume`,
/// `@air.wg.barrier`), and growing a fresh vector for each and searching it
/// for every name showed in profiles.
struct References {
    found: Vec<usize>,
    /// `seen[f] == i + 1`: function `i`'s body has already named `f`.
    seen: Vec<usize>,
}

impl References {
    /// Functions named by `@name` anywhere in function `i`'s body `text`,
    /// in order of first mention, `i` itself aside.
    fn of(&mut self, i: usize, text: &str, by_name: &FxHashMap<&str, usize>) -> Vec<usize> {
        let stamp = i + 1;
        self.found.clear();
        if let Some(s) = self.seen.get_mut(i) {
            *s = stamp;
        }
        for at in memchr::memchr_iter(b'@', text.as_bytes()) {
            let rest = &text[at + 1..];
            let name = if let Some(q) = rest.strip_prefix('"') {
                q.split('"').next().unwrap_or("")
            } else {
                let end = rest
                    .bytes()
                    .position(|b| !crate::ir::lexer::is_ident_byte(b))
                    .unwrap_or(rest.len());
                &rest[..end]
            };
            if let Some(&f) = by_name.get(name)
                && let Some(s) = self.seen.get_mut(f)
                && *s != stamp
            {
                *s = stamp;
                self.found.push(f);
            }
        }
        self.found.clone()
    }
}

/// Kahn's algorithm over the call edges; what a cycle leaves is appended in
/// module order.
fn callers_first(n: usize, callees: &[Vec<usize>]) -> Vec<usize> {
    let mut indegree = vec![0usize; n];
    for cs in callees {
        for &c in cs {
            indegree[c] += 1;
        }
    }
    let mut ready: std::collections::VecDeque<usize> =
        (0..n).filter(|&i| indegree[i] == 0).collect();
    let mut order = Vec::with_capacity(n);
    let mut placed = vec![false; n];
    while let Some(f) = ready.pop_front() {
        order.push(f);
        placed[f] = true;
        for &c in &callees[f] {
            indegree[c] -= 1;
            if indegree[c] == 0 {
                ready.push_back(c);
            }
        }
    }
    order.extend((0..n).filter(|&i| !placed[i]));
    order
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::read_module;

    #[test]
    fn orders_callers_first_and_propagates_entries() {
        let text = "define void @leaf() {\n  ret void\n}\ndefine void @mid() {\n  call void @leaf()\n  ret void\n}\ndefine void @k1() {\n  call void @mid()\n  ret void\n}\ndefine void @k2() {\n  call void @leaf()\n  ret void\n}\n";
        let m = read_module(text);
        let cg = CallGraph::build(&m, &["k1", "k2"]);
        let pos = |f: usize| cg.order.iter().position(|&x| x == f).unwrap();
        assert!(pos(2) < pos(1) && pos(1) < pos(0) && pos(3) < pos(0));
        assert_eq!(cg.reached_by[0], vec![0, 1]);
        assert_eq!(cg.reached_by[1], vec![0]);
    }

    #[test]
    fn finds_the_functions_that_reach_a_callee_through_others() {
        let text = "declare void @air.wg.barrier(i32, i32)
define void @leaf() {
  call void @air.wg.barrier(i32 2, i32 1)
  ret void
}
define void @mid() {
  call void @leaf()
  ret void
}
define void @k() {
  call void @mid()
  ret void
}
define void @other() {
  ret void
}
";
        let m = read_module(text);
        let cg = CallGraph::build(&m, &[]);
        let key = ["air.wg.barrier".to_string()];
        let reach = cg.reaching(&m, &key, |n| n == "air.wg.barrier");
        assert_eq!(&*reach, &[false, true, true, true, false]);
        // Asked again, the answer is the one kept.
        let again = cg.reaching(&m, &key, |_| true);
        assert!(Rc::ptr_eq(&reach, &again));
        // A cycle (which Metal forbids) is walked once.
        let text = "declare void @air.wg.barrier(i32, i32)\ndefine void @a() {\n  call void @b()\n  ret void\n}\ndefine void @b() {\n  call void @a()\n  call void @air.wg.barrier(i32 2, i32 1)\n  ret void\n}\n";
        let m = read_module(text);
        let cg = CallGraph::build(&m, &[]);
        let reach = cg.reaching(&m, &key, |n| n == "air.wg.barrier");
        assert_eq!(&*reach, &[false, true, true]);
    }

    /// `reaching` (callers kept flat, made once) against its definition,
    /// a fixpoint over what each function names, on random call graphs.
    #[test]
    fn reaching_matches_a_fixpoint_on_random_graphs() {
        use crate::analysis::test_util::Rng;
        use std::fmt::Write;
        let mut rng = Rng(0x5851_f42d_4c95_7f2d);
        for round in 0..200 {
            let (n, targets) = (1 + rng.below(12), 1 + rng.below(3));
            let mut text = String::new();
            for t in 0..targets {
                let _ = writeln!(text, "declare void @t{t}()");
            }
            for f in 0..n {
                let _ = writeln!(text, "define void @f{f}() {{");
                for _ in 0..rng.below(4) {
                    let callee = match rng.below(3) {
                        0 => format!("t{}", rng.below(targets)),
                        _ => format!("f{}", rng.below(n)),
                    };
                    let _ = writeln!(text, "  call void @{callee}()");
                }
                text.push_str("  ret void\n}\n");
            }
            let m = read_module(&text);
            let cg = CallGraph::build(&m, &[]);
            let target = rng.below(targets);
            let is_target = |name: &str| name == format!("t{target}");
            let mut want = vec![false; cg.named.len()];
            let mut changed = true;
            while changed {
                changed = false;
                for f in 0..want.len() {
                    let now = cg.named[f]
                        .iter()
                        .any(|&c| is_target(m.functions[c].name) || want[c]);
                    if now && !want[f] {
                        want[f] = true;
                        changed = true;
                    }
                }
            }
            let reach = cg.reaching(&m, &[format!("t{target}")], is_target);
            assert_eq!(&*reach, &want[..], "round {round}\n{text}");
        }
    }

    #[test]
    fn names_the_first_target_a_function_reaches() {
        // @k names @none (a dead end) before @mid, which reaches the atomic
        // through @leaf; @a and @b call each other (Metal forbids it).
        let text = "declare i32 @air.atomic.global.add.u.i32(i32, i32)
declare void @air.wg.barrier(i32, i32)
define void @leaf() {
  %1 = call i32 @air.atomic.global.add.u.i32(i32 1, i32 2)
  ret void
}
define void @none() {
  call void @air.wg.barrier(i32 2, i32 1)
  ret void
}
define void @mid() {
  call void @leaf()
  ret void
}
define void @k() {
  call void @none()
  call void @mid()
  ret void
}
define void @a() {
  call void @b()
  ret void
}
define void @b() {
  call void @a()
  ret void
}
";
        let m = read_module(text);
        let cg = CallGraph::build(&m, &[]);
        let atomic = |n: &str| n.starts_with("air.atomic.global.");
        let index = |name: &str| cg.index_of[name];
        assert_eq!(cg.first_named(&m, index("k"), atomic), Some(0));
        assert_eq!(cg.first_named(&m, index("none"), atomic), None);
        assert_eq!(cg.first_named(&m, index("a"), atomic), None);
        assert_eq!(
            cg.first_named(&m, index("k"), |n| n == "air.wg.barrier"),
            Some(1)
        );
    }
}
