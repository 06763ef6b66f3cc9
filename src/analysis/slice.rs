//! Data dependence inside one loop, and the region a branch decides.
//!
//! - `exits_fed_by`: which of a loop's exiting branches an instruction's
//!   value reaches, through operands and phis, without leaving the loop
//!   (a spin-wait: the loop ends when an atomic says so). A branch the
//!   value decides passes it on to the phis whose incoming edge that
//!   branch picks (`done = true` under `if (atomic_load(f))` becomes a phi
//!   of constants once the variable leaves memory).
//! - `computed_in_loop_from`: whether a value is computed, inside the
//!   loop, from an instruction a predicate picks (a compare-and-exchange
//!   whose expected value is the loop's own last observation).
//! - `decided_region`: the blocks a branch decides, directly or through
//!   the branches it decides (the closure of control dependence).
//!
//! Memory is not followed: a value stored and loaded again is a new value.
//! Each walk visits an instruction once and stops after `MAX_VISITS`, so it
//! is linear in the loop's size and bounded on generated kernels.

use super::ControlFlow;
use super::defuse::{Def, DefUse};
use super::loops::Loop;
use crate::ir::{Body, Opcode, Value};
use rustc_hash::FxHashSet;

/// Instructions a walk may visit before it gives up (and answers with
/// what it found so far).
const MAX_VISITS: usize = 4096;

/// The exiting blocks of `lp` whose terminator's condition the value of
/// instruction `from` reaches, ascending: each user inside the loop is
/// followed (a `store` ends the path: memory is not followed), and a
/// conditional branch it reaches is followed to the phis it picks between
/// (`phis_picked_by`).
pub fn exits_fed_by(
    body: &Body<'_>,
    du: &DefUse<'_>,
    cf: &ControlFlow,
    lp: &Loop,
    from: usize,
) -> Vec<usize> {
    let mut out = Vec::new();
    let mut seen: FxHashSet<usize> = FxHashSet::default();
    let mut stack = vec![from];
    seen.insert(from);
    let mut visit = |u: usize, stack: &mut Vec<usize>| {
        if seen.len() <= MAX_VISITS && seen.insert(u) {
            stack.push(u);
        }
    };
    while let Some(x) = stack.pop() {
        let Some(inst) = body.instructions.get(x) else {
            continue;
        };
        if matches!(inst.opcode, Opcode::Br | Opcode::Switch) {
            let block = du.block_of(x);
            if lp.exiting().binary_search(&block).is_ok() {
                out.push(block);
            }
            for phi in phis_picked_by(body, cf, lp, block) {
                visit(phi, &mut stack);
            }
            continue;
        }
        if inst.opcode == Opcode::Store {
            continue;
        }
        for u in du.users(Def::Inst(x)) {
            if !lp.contains(du.block_of(u)) {
                continue;
            }
            // A branch is reached through its condition (operand 0 of a
            // `switch` and of a `br` with 3), not through a label.
            let is_condition = body.instructions.get(u).is_some_and(|b| match b.opcode {
                Opcode::Br => b.operands.len() == 3,
                _ => true,
            });
            if is_condition {
                visit(u, &mut stack);
            }
        }
    }
    out.sort_unstable();
    out.dedup();
    out
}

/// The phis of `lp` whose value the terminator of `block` picks: taking
/// one of its successors inside the loop rather than another brings a
/// different set of the phi's incoming values within this iteration (a
/// path from the successor to the incoming edge that does not start the
/// next iteration at the header). So the branch that only continues the
/// loop picks no phi, and a counter that every path bumps alike is not
/// picked.
fn phis_picked_by(body: &Body<'_>, cf: &ControlFlow, lp: &Loop, block: usize) -> Vec<usize> {
    let succs: Vec<usize> = cf
        .cfg
        .succs(block)
        .iter()
        .copied()
        .filter(|&s| lp.contains(s))
        .collect();
    if succs.len() < 2 {
        return Vec::new();
    }
    let reached: Vec<FxHashSet<usize>> = succs
        .iter()
        .map(|&s| reached_this_iteration(cf, lp, s))
        .collect();
    let block_named = |label: &str| {
        lp.blocks()
            .iter()
            .copied()
            .find(|&b| body.blocks.get(b).and_then(|blk| blk.label) == Some(label))
    };
    let mut picked = Vec::new();
    for &join in lp.blocks() {
        let Some(blk) = body.blocks.get(join) else {
            continue;
        };
        for i in blk.instructions.clone() {
            let Some(phi) = body.instructions.get(i).filter(|p| p.opcode == Opcode::Phi) else {
                break; // phis open a block
            };
            let incoming: Vec<(&Value<'_>, usize)> = phi
                .operands
                .chunks(2)
                .filter_map(|pair| match (pair.first(), pair.get(1)) {
                    (Some(v), Some(l)) => match &l.value {
                        Value::Label(name) => Some((&v.value, block_named(name)?)),
                        _ => None,
                    },
                    _ => None,
                })
                .collect();
            // The incoming values each successor can bring.
            let brought: Vec<Vec<&Value<'_>>> = succs
                .iter()
                .zip(&reached)
                .map(|(&s, reach)| {
                    let mut values: Vec<&Value<'_>> = Vec::new();
                    for &(v, from) in &incoming {
                        let taken = (from == block && s == join) || reach.contains(&from);
                        if taken && !values.contains(&v) {
                            values.push(v);
                        }
                    }
                    values
                })
                .collect();
            let same = |a: &Vec<&Value<'_>>, b: &Vec<&Value<'_>>| {
                a.len() == b.len() && a.iter().all(|v| b.contains(v))
            };
            if let Some(first) = brought.first()
                && brought.iter().any(|v| !same(v, first))
            {
                picked.push(i);
            }
        }
    }
    picked
}

/// The blocks of `lp` reachable from `start` without going through the
/// header (which begins the next iteration); `start` included unless it is
/// the header.
fn reached_this_iteration(cf: &ControlFlow, lp: &Loop, start: usize) -> FxHashSet<usize> {
    let mut seen: FxHashSet<usize> = FxHashSet::default();
    let mut stack = vec![start];
    while let Some(b) = stack.pop() {
        if b == lp.header || !lp.contains(b) || !seen.insert(b) {
            continue;
        }
        stack.extend(cf.cfg.succs(b).iter().copied());
    }
    seen
}

/// Whether `value` is computed, inside `lp`, from an instruction for which
/// `pick` holds: its definition and their operands are followed back while
/// they are instructions of the loop's blocks (phis included).
pub fn computed_in_loop_from(
    body: &Body<'_>,
    du: &DefUse<'_>,
    lp: &Loop,
    value: &Value<'_>,
    pick: impl Fn(usize) -> bool,
) -> bool {
    let Some(Def::Inst(start)) = du.def_of(value) else {
        return false;
    };
    let mut seen: FxHashSet<usize> = FxHashSet::default();
    let mut stack = vec![start];
    while let Some(x) = stack.pop() {
        if !lp.contains(du.block_of(x)) || !seen.insert(x) || seen.len() > MAX_VISITS {
            continue;
        }
        if pick(x) {
            return true;
        }
        let Some(inst) = body.instructions.get(x) else {
            continue;
        };
        for j in 0..inst.operands.len() {
            if let Some(Def::Inst(d)) = du.operand(x, j) {
                stack.push(d);
            }
        }
    }
    false
}

/// The blocks whose running the terminator of `block` decides, directly or
/// through the branches of blocks it decides; `block` itself left out.
/// Ascending.
pub fn decided_region(cf: &ControlFlow, block: usize) -> Vec<usize> {
    let deps = cf.control_deps();
    let mut seen: FxHashSet<usize> = FxHashSet::default();
    seen.insert(block);
    let mut stack = vec![block];
    let mut out = Vec::new();
    while let Some(x) = stack.pop() {
        for &b in deps.decided_by(x) {
            if seen.insert(b) {
                out.push(b);
                stack.push(b);
            }
        }
    }
    out.sort_unstable();
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::defuse::DefUse;
    use crate::ir::read_module;

    const SPIN: &str = "define void @f(i32 addrspace(1)* %p, i32 %n) {
entry:
  br label %head
head:
  %i = phi i32 [ 0, %entry ], [ %j, %body ]
  %give_up = icmp ugt i32 %i, 999
  br i1 %give_up, label %done, label %body
body:
  %j = add i32 %i, 1
  %v = load atomic i32, i32 addrspace(1)* %p monotonic, align 4
  %w = and i32 %v, 1
  %ready = icmp ne i32 %w, 0
  store i32 %w, i32 addrspace(1)* %p
  br i1 %ready, label %done, label %head
done:
  ret void
}
";

    fn index_of(body: &Body<'_>, result: &str) -> usize {
        body.instructions
            .iter()
            .position(|i| i.result == Some(result))
            .unwrap()
    }

    /// Runs `check` on the first function of `text` and its first loop.
    fn with_first_loop(text: &str, check: impl Fn(&Body<'_>, &DefUse<'_>, &ControlFlow, &Loop)) {
        let mut m = read_module(text);
        let (body, diags) = m.body(0);
        assert!(diags.is_empty(), "{diags:?}");
        let du = DefUse::build(&m.functions[0], &body);
        let cf = ControlFlow::of(&body);
        check(&body, &du, &cf, &cf.loops().loops[0]);
    }

    #[test]
    fn an_atomic_feeds_one_exit_and_not_the_counter() {
        with_first_loop(SPIN, |body, du, cf, lp| {
            let v = index_of(body, "v");
            let body_block = du.block_of(v);
            assert_eq!(exits_fed_by(body, du, cf, lp, v), vec![body_block]);
            let i = index_of(body, "i");
            // The counter decides the head's exit; through `%j` and the phi it
            // reaches nothing else.
            assert_eq!(exits_fed_by(body, du, cf, lp, i), vec![du.block_of(i)]);
            let ready = Value::Local("ready");
            assert!(computed_in_loop_from(body, du, lp, &ready, |x| x == v));
            let give_up = Value::Local("give_up");
            assert!(!computed_in_loop_from(body, du, lp, &give_up, |x| x == v));
            // The head decides the body, and through the body's branch the head.
            let region = decided_region(cf, du.block_of(i));
            assert!(region.contains(&body_block), "{region:?}");
        });
    }

    /// `bool done = false; while (!done) { if (atomic_load(p)) done = true;
    /// else ... }` once `done` is out of memory: the header's phi of
    /// constants, picked by the atomic's branch, ends the loop.
    const FLAG: &str = "define void @f(i32 addrspace(1)* %p, i32 addrspace(1)* %log) {
entry:
  br label %wait
wait:
  %n = phi i32 [ 0, %entry ], [ %n, %seen ], [ %m, %missed ]
  %done = phi i1 [ false, %entry ], [ true, %seen ], [ false, %missed ]
  br i1 %done, label %out, label %poll
poll:
  %v = load atomic i32, i32 addrspace(1)* %p monotonic, align 4
  %set = icmp ne i32 %v, 0
  br i1 %set, label %seen, label %missed
seen:
  br label %wait
missed:
  %m = add i32 %n, 1
  store i32 %m, i32 addrspace(1)* %log
  br label %wait
out:
  ret void
}
";

    #[test]
    fn a_branch_passes_the_atomic_on_to_the_phis_it_picks() {
        with_first_loop(FLAG, |body, du, cf, lp| {
            let v = index_of(body, "v");
            let wait = du.block_of(index_of(body, "done"));
            assert_eq!(exits_fed_by(body, du, cf, lp, v), vec![wait]);
            // Both phis are picked by the atomic's branch (`%n` keeps or
            // counts); the loop's only exit is `%done`'s.
            let poll = du.block_of(v);
            let picked = phis_picked_by(body, cf, lp, poll);
            assert_eq!(picked, vec![index_of(body, "n"), index_of(body, "done")]);
            // The exit's own branch picks no phi: it leaves or starts the same
            // next iteration.
            assert!(phis_picked_by(body, cf, lp, wait).is_empty());
        });
    }
}
