//! Thread-divergent control flow: which blocks run on only some threads of a
//! threadgroup.
//!
//! A branch (`br i1 %c`, `switch`) is divergent when its condition's
//! provenance class is varying or mixed: it depends on a thread-varying
//! builtin or on device or threadgroup memory. A condition that is literal,
//! a function constant, uniform (kernel arguments, `constant` buffers,
//! `threadgroup_position_in_grid`) or unknown is not.
//!
//! Divergence is asked about some target blocks (those holding a barrier,
//! say), and a divergent branch only counts when at least two of its
//! successors can still reach a target: threads that leave for the exit
//! without meeting one again do not matter. For barriers this is the MSL
//! specification's wording, that every thread of the threadgroup *executing
//! the kernel* must reach it; a thread that returned no longer is (SPIRV-Cross
//! relies on it for tessellation, and Metal FlashAttention's GEMM returns
//! whole SIMD-groups early before its barriers).
//!
//! A block is divergent when such a branch decides whether it runs (control
//! dependence), directly or through blocks that are divergent themselves: a
//! block under a uniform branch inside a divergent region still runs on only
//! some threads. Loops need nothing special: a loop header is control
//! dependent on the loop's exiting branch, so a loop whose trip count varies
//! by thread makes its body divergent.
//!
//! Linear: a backward walk from the targets, one look at each block's
//! terminator, then a breadth-first walk of the control-dependence graph that
//! visits each block once.

use super::ControlFlow;
use super::defuse::DefUse;
use super::provenance::{Class, FunctionProvenance};
use crate::ir::{Body, Opcode, Operand};
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
    pub fn compute(
        body: &Body<'_>,
        du: &DefUse<'_>,
        cf: &ControlFlow,
        prov: &FunctionProvenance,
        targets: &[bool],
    ) -> Divergence {
        let n = cf.cfg.len();
        let reaches = reaches_target(cf, targets);
        let mut cause = vec![0u32; n];
        let mut queue = VecDeque::new();
        // Seeds first, so a block a divergent branch decides directly is
        // attributed to that branch rather than to one further out.
        for a in 0..n {
            if cf.control_deps.decided_by(a).is_empty() {
                continue;
            }
            let onward = cf.cfg.succs[a]
                .iter()
                .filter(|&&s| reaches.get(s).copied().unwrap_or(false))
                .count();
            if onward < 2 {
                continue;
            }
            let Some(cond) = branch_condition(cf, body, a) else {
                continue;
            };
            if !matches!(
                prov.value(du, &cond.value).class(),
                Class::Varying | Class::Mixed
            ) {
                continue;
            }
            for &x in cf.control_deps.decided_by(a) {
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
            for &y in cf.control_deps.decided_by(x) {
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
        for &p in cf.cfg.preds.get(b).map_or(&[][..], Vec::as_slice) {
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

fn to_u32(x: usize) -> u32 {
    u32::try_from(x).unwrap_or(u32::MAX - 1)
}
