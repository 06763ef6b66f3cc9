//! Data dependence inside one loop, and the region a branch decides.
//!
//! - `exits_fed_by`: which of a loop's exiting branches an instruction's
//!   value reaches, through operands and phis, without leaving the loop
//!   (a spin-wait: the loop ends when an atomic says so).
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
/// followed (a `store` ends the path: memory is not followed).
pub fn exits_fed_by(body: &Body<'_>, du: &DefUse<'_>, lp: &Loop, from: usize) -> Vec<usize> {
    let mut out = Vec::new();
    let mut seen: FxHashSet<usize> = FxHashSet::default();
    let mut stack = vec![from];
    seen.insert(from);
    while let Some(x) = stack.pop() {
        for u in du.users(Def::Inst(x)) {
            let block = du.block_of(u);
            if !lp.contains(block) || !seen.insert(u) || seen.len() > MAX_VISITS {
                continue;
            }
            let Some(inst) = body.instructions.get(u) else {
                continue;
            };
            match inst.opcode {
                Opcode::Br | Opcode::Switch => {
                    // The condition is operand 0 of both; a `br` has 3 then.
                    let is_condition = inst.opcode == Opcode::Switch || inst.operands.len() == 3;
                    if is_condition && lp.exiting().binary_search(&block).is_ok() {
                        out.push(block);
                    }
                }
                Opcode::Store => {}
                _ => stack.push(u),
            }
        }
    }
    out.sort_unstable();
    out.dedup();
    out
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

    #[test]
    fn an_atomic_feeds_one_exit_and_not_the_counter() {
        let mut m = read_module(SPIN);
        let (body, diags) = m.body(0);
        assert!(diags.is_empty(), "{diags:?}");
        let du = DefUse::build(&m.functions[0], &body);
        let cf = ControlFlow::of(&body);
        let lp = &cf.loops().loops[0];
        let v = index_of(&body, "v");
        let body_block = du.block_of(v);
        assert_eq!(exits_fed_by(&body, &du, lp, v), vec![body_block]);
        let i = index_of(&body, "i");
        // The counter decides the head's exit; through `%j` and the phi it
        // reaches nothing else.
        assert_eq!(exits_fed_by(&body, &du, lp, i), vec![du.block_of(i)]);
        let ready = Value::Local("ready");
        assert!(computed_in_loop_from(&body, &du, lp, &ready, |x| x == v));
        let give_up = Value::Local("give_up");
        assert!(!computed_in_loop_from(&body, &du, lp, &give_up, |x| x == v));
        // The head decides the body, and through the body's branch the head.
        let region = decided_region(&cf, du.block_of(i));
        assert!(region.contains(&body_block), "{region:?}");
    }
}
