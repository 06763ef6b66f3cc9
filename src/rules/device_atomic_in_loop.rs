//! `device-atomic-in-loop`: an atomic read-modify-write on device memory
//! inside a loop. Device atomics serialise at the memory controller and get
//! worse with more GPU cores, while threadgroup atomics scale (seed 001
//! finding 188, Apple's recommended reduction: SIMD-group, then threadgroup,
//! then one device atomic per threadgroup).

use super::engine::Matched;
use super::evidence::{Atomic, Evidence};
use super::{Description, FunctionContext, RuleHook};
use crate::analysis::divergence::is_thread_varying;
use crate::analysis::provenance::OriginKind;

pub struct DeviceAtomicInLoop;

impl RuleHook for DeviceAtomicInLoop {
    fn name(&self) -> &'static str {
        "device-atomic-in-loop"
    }

    fn describe(&self, ctx: &FunctionContext<'_, '_>, m: &Matched) -> Option<Description> {
        let inst = ctx.body.instructions.get(m.inst)?;
        if let Some(reached) = m.reached {
            return Some(through_helper(ctx, m, inst.callee_name()?, reached));
        }
        let op = match inst.callee_name() {
            Some(c) => format!("`{c}`"),
            None => format!("`atomicrmw {}`", inst.predicate.unwrap_or("?")),
        };
        let ptr = inst.operands.first()?;
        let prov = ctx.prov.value(ctx.du, &ptr.value);
        // The buffer, not the thread id that indexes it.
        let target = prov
            .origin_of(OriginKind::Memory)
            .or_else(|| prov.origin_of(OriginKind::Argument))
            .map_or_else(|| "device memory".to_string(), |o| format!("`{}`", o.name));
        // No thread id reaches the address: every thread hits one word.
        let same_address = !is_thread_varying(&prov);
        let contention = if same_address {
            " Every thread updates the same address, so all of the dispatch's updates queue on one word."
        } else {
            ""
        };
        Some(Description {
            message: format!(
                "{op} on {target} inside a loop (depth {}): device atomics serialise at the memory controller and scale worse the more GPU cores there are, and the loop multiplies them.{contention}",
                m.loop_depth
            ),
            evidence: atomic_evidence(
                m,
                target.trim_matches('`'),
                op.trim_matches('`'),
                Some(same_address),
                None,
            ),
            help: None,
        })
    }
}

/// A call of a function of the module that does the atomic (`through_helpers`):
/// which buffer it updates, and whether every thread hits one address, are
/// the helper's business, so the finding names the helper and the atomic.
fn through_helper(
    ctx: &FunctionContext<'_, '_>,
    m: &Matched,
    helper: &str,
    reached: usize,
) -> Description {
    let atomic = ctx.module.functions.get(reached).map_or("?", |f| f.name);
    Description {
        message: format!(
            "this call of @{helper}, which reaches `{atomic}` on device memory, is inside a loop (depth {}): device atomics serialise at the memory controller and scale worse the more GPU cores there are, and the loop multiplies them.",
            m.loop_depth
        ),
        evidence: atomic_evidence(m, "device memory", atomic, None, Some(helper)),
        help: None,
    }
}

/// The evidence of both kinds of finding: `same_address` unknown and `via`
/// the helper for a call through one.
fn atomic_evidence(
    m: &Matched,
    memory: &str,
    operation: &str,
    same_address: Option<bool>,
    via: Option<&str>,
) -> Evidence {
    Evidence::Atomic(Atomic {
        loop_depth: m.loop_depth,
        memory: memory.to_string(),
        operation: operation.to_string(),
        same_address,
        via: via.map(str::to_string),
    })
}
