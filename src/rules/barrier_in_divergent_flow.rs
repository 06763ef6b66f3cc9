//! `barrier-in-divergent-flow`: a threadgroup or SIMD-group barrier that
//! only some threads reach, because a branch on a thread-varying value
//! decides whether it runs. The MSL specification requires every thread of
//! the threadgroup (SIMD-group) executing the kernel to encounter it; if not,
//! the threads that do may wait forever or read stale threadgroup memory.

use super::engine::Matched;
use super::{Description, FunctionContext, RuleHook};
use crate::analysis::divergence::branch_condition;
use crate::analysis::provenance::{OriginKind, Sources};
use serde_json::json;

pub struct BarrierInDivergentFlow;

impl RuleHook for BarrierInDivergentFlow {
    fn name(&self) -> &'static str {
        "barrier-in-divergent-flow"
    }

    fn describe(&self, ctx: &FunctionContext<'_, '_>, m: &Matched) -> Option<Description> {
        let inst = ctx.body.instructions.get(m.inst)?;
        let callee = inst.callee_name()?;
        let branch_block = m.divergent_branch?;
        let branch = ctx.cf.cfg.terminator(ctx.body, branch_block)?;
        let cond = branch_condition(ctx.cf, ctx.body, branch_block)?;
        let prov = ctx.prov.value(ctx.du, &cond.value);
        let origin = prov.main_origin();
        let name = origin.as_ref().map_or("?", |o| o.name.as_str());
        let what = match origin.as_ref().map(|o| o.kind) {
            Some(OriginKind::Builtin) => "a thread-varying builtin",
            Some(OriginKind::Memory) => "device or threadgroup memory",
            _ if prov.sources.contains(Sources::VARYING_BUILTIN) => "a thread-varying value",
            _ => "memory that may differ per thread",
        };
        // The deciding branch exits a loop around the barrier: its trip count varies.
        let loop_exit = ctx.cf.loops.loops.iter().any(|l| {
            l.contains(ctx.du.block_of(m.inst)) && l.exiting.binary_search(&branch_block).is_ok()
        });
        let (kind, group) = if callee.starts_with("air.simdgroup") {
            ("simdgroup_barrier", "SIMD-group")
        } else {
            ("threadgroup_barrier", "threadgroup")
        };
        let under = if loop_exit {
            format!(
                "inside a loop whose exit (line {}) depends on `{name}` ({what}), so threads run it a different number of times",
                branch.line
            )
        } else {
            format!(
                "under the branch at line {}, whose condition depends on `{name}` ({what})",
                branch.line
            )
        };
        Some(Description {
            message: format!(
                "{kind} {under}: every thread of the {group} must reach the same barrier, or the threads that do wait for the ones that never come (a hang) or read threadgroup memory before it is written."
            ),
            evidence: json!({
                "barrier": callee,
                "branch_line": branch.line,
                "condition": { "name": name, "class": prov.class().name() },
                "loop_exit": loop_exit,
            }),
            help: None,
        })
    }
}
