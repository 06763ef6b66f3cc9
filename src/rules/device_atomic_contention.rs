//! `device-atomic-contention`: a device atomic that many threads do on one
//! address with no reduction first. Device atomics on one word serialise at
//! the memory controller (seed 001 finding 188: SIMD-group first, then
//! threadgroup, then one device atomic per threadgroup).
//!
//! Contention is told by the address and what precedes the atomic, not by
//! loops: kolinko's `dot` does one `atomic_fetch_add(sum, …)` per thread of
//! the grid, all on one word, while its bucketMulQ8 loops over
//! `result[id.x * 16 + i]`, a different word per thread and iteration.

use super::engine::Matched;
use super::evidence::{Atomic, Evidence};
use super::{Description, FunctionContext, RuleHook, Severity};
use crate::analysis::defuse::Def;
use crate::analysis::divergence::is_thread_varying;
use crate::analysis::provenance::{OriginKind, Sources};
use crate::ir::{Opcode, Value};

pub struct DeviceAtomicContention;

/// Calls that reduce or exchange across a SIMD-group or wait for the
/// threadgroup: after one, the atomic is (likely) the last step of a
/// reduction rather than every thread's own update.
fn is_reduction_step(callee: &str) -> bool {
    callee.starts_with("air.simd_")
        || callee.starts_with("air.quad_")
        || callee == "air.wg.barrier"
        || callee == "air.simdgroup.barrier"
}

/// Whether a call that reduces (`is_reduction_step`) runs before the atomic
/// `at` on every path: earlier in its block or in a block that dominates it.
fn reduction_precedes(ctx: &FunctionContext<'_, '_>, at: usize) -> bool {
    let block = ctx.du.block_of(at);
    let is_step = |i: usize| {
        ctx.body
            .instructions
            .get(i)
            .and_then(|x| x.callee_name())
            .is_some_and(is_reduction_step)
    };
    let dom = ctx.cf.dom();
    let mut b = Some(block);
    while let Some(d) = b {
        let Some(range) = ctx.body.blocks.get(d).map(|x| x.instructions.clone()) else {
            break;
        };
        let end = if d == block { at } else { range.end };
        if (range.start..end).any(is_step) {
            return true;
        }
        b = dom.idom(d).filter(|&p| p != d);
    }
    false
}

/// Whether the atomic's block runs only where a thread-varying value equals
/// a constant (`if (lid == 0)`, `if (simd_lane == 0)`): one thread per
/// threadgroup or SIMD-group, not the whole grid.
fn guarded_to_one_thread(ctx: &FunctionContext<'_, '_>, at: usize) -> bool {
    let block = ctx.du.block_of(at);
    let dom = ctx.cf.dom();
    let mut child = block;
    while let Some(d) = dom.idom(child).filter(|&p| p != child) {
        if let Some(taken) = equality_side(ctx, d) {
            if ctx
                .cf
                .cfg
                .succs(d)
                .get(taken)
                .is_some_and(|&s| dom.dominates(s, block))
            {
                return true;
            }
        }
        child = d;
    }
    false
}

/// For a block ending in `br (icmp eq|ne x, C)` with `x` thread-varying and
/// `C` a literal: which successor (0 or 1) the threads with `x == C` take.
fn equality_side(ctx: &FunctionContext<'_, '_>, block: usize) -> Option<usize> {
    let br = ctx.cf.cfg.terminator(ctx.body, block)?;
    if br.opcode != Opcode::Br || br.operands.len() != 3 || ctx.cf.cfg.succs(block).len() != 2 {
        return None;
    }
    let Some(Def::Inst(c)) = ctx.du.def_of(&br.operands.first()?.value) else {
        return None;
    };
    let cmp = ctx.body.instructions.get(c)?;
    if cmp.opcode != Opcode::ICmp {
        return None;
    }
    let (a, b) = (cmp.operands.first()?, cmp.operands.get(1)?);
    let varying_vs_literal = |x: &Value<'_>, y: &Value<'_>| {
        matches!(y, Value::Int(_)) && is_thread_varying(&ctx.prov.value(ctx.du, x))
    };
    if !(varying_vs_literal(&a.value, &b.value) || varying_vs_literal(&b.value, &a.value)) {
        return None;
    }
    match cmp.predicate {
        Some("eq") => Some(0),
        Some("ne") => Some(1),
        _ => None,
    }
}

impl RuleHook for DeviceAtomicContention {
    fn name(&self) -> &'static str {
        "device-atomic-contention"
    }

    fn describe(&self, ctx: &FunctionContext<'_, '_>, m: &Matched) -> Option<Description> {
        let inst = ctx.body.instructions.get(m.inst)?;
        let ptr = inst.operands.first()?;
        let address = ctx.prov.value(ctx.du, &ptr.value);
        // A thread id, per-thread memory or an atomic's result in the
        // address: each thread (or each datum) has its own word.
        if address.sources.contains(Sources::NOT_THREAD_INVARIANT)
            || reduction_precedes(ctx, m.inst)
            || guarded_to_one_thread(ctx, m.inst)
        {
            return None;
        }
        let op = match inst.callee_name() {
            Some(c) => c.to_string(),
            None => format!("atomicrmw {}", inst.predicate.unwrap_or("?")),
        };
        let memory = address
            .origin_of(OriginKind::Memory)
            .or_else(|| address.origin_of(OriginKind::Argument))
            .map_or_else(|| "device memory".to_string(), |o| o.name);
        let append_counter = !ctx.du.users_row(Def::Inst(m.inst)).is_empty();
        let loop_depth = m.loop_depth(ctx);
        let in_loop = if loop_depth > 0 {
            format!(" It sits in a loop (depth {loop_depth}), which multiplies the updates.")
        } else {
            String::new()
        };
        let (message, help) = if append_counter {
            (
                format!(
                    "`{op}` on `{memory}` hands out slots: every thread takes its index from one counter, so the dispatch's updates queue on one word.{in_loop}"
                ),
                Some(APPEND_HELP.to_string()),
            )
        } else {
            (
                format!(
                    "`{op}` on `{memory}`: every thread updates the same device address, with no SIMD-group or threadgroup reduction first, so all of the dispatch's updates queue on one word at the memory controller.{in_loop}"
                ),
                None,
            )
        };
        Some(Description {
            message,
            evidence: Evidence::Atomic(Atomic {
                append_counter,
                loop_depth,
                memory,
                operation: op,
            }),
            help,
        })
    }

    fn severity(&self, d: &Description) -> Option<Severity> {
        match &d.evidence {
            Evidence::Atomic(a) if a.append_counter => Some(Severity::Note),
            _ => None,
        }
    }
}

/// The fix for an append counter: one atomic per SIMD-group.
const APPEND_HELP: &str = "Hand out slots per SIMD-group: `uint offset = simd_prefix_exclusive_sum(n); uint total = simd_sum(n);` then lane 0 does one `atomic_fetch_add(counter, total)` and broadcasts the base (`simd_broadcast_first`), so each thread writes at base + offset: one device atomic per SIMD-group instead of one per thread.";
