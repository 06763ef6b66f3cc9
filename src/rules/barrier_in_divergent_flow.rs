//! `barrier-in-divergent-flow`: a threadgroup or SIMD-group barrier that
//! only some threads reach, because a branch on a thread-varying value
//! decides whether it runs, while the threads it sends the other way can
//! still reach a barrier. The MSL specification requires every thread of the
//! threadgroup (SIMD-group) executing the kernel to encounter the barrier;
//! otherwise the threads wait at different barriers (a hang, or threadgroup
//! memory read before it is written).
//!
//! The engine's `in_divergent_block` finds the branch and where the other
//! threads go (`analysis::divergence`); this hook names them, and drops a
//! `simdgroup_barrier` whose branch differs only between SIMD-groups.

use super::engine::Matched;
use super::evidence::{self, Barrier, Condition, Evidence};
use super::{Description, FunctionContext, RuleHook};
use crate::analysis::divergence::{Skipping, branch_condition};
use crate::analysis::provenance::{
    OriginKind, Provenance, Sources, is_threadgroup_uniform_builtin,
};

pub struct BarrierInDivergentFlow;

/// The callees this rule is about.
const BARRIERS: [&str; 2] = ["air.wg.barrier", "air.simdgroup.barrier"];

/// The barrier a call meets: the call itself, or (`through_helpers`) one
/// inside the function of the module it calls. A helper that reaches both
/// kinds counts as a threadgroup barrier, the stricter.
fn barrier_of(ctx: &FunctionContext<'_, '_>, callee: &str) -> Option<&'static str> {
    if let Some(b) = BARRIERS.iter().find(|&&b| b == callee) {
        return Some(b);
    }
    let index = *ctx.graph.index_of.get(callee)?;
    BARRIERS.into_iter().find(|&b| {
        ctx.graph
            .reaching(ctx.module, &[b.to_string()], |name| name == b)
            .get(index)
            == Some(&true)
    })
}

/// Whether a condition is the same for every thread of a SIMD-group: its
/// only thread-varying builtin is the SIMD-group's index (every named
/// builtin is that one or threadgroup-uniform, and none was dropped).
fn simdgroup_uniform(p: &Provenance) -> bool {
    let origins: Vec<_> = p.origins().collect();
    let thread_varying = Sources(
        Sources::DEVICE_MEMORY.0
            | Sources::THREADGROUP_MEMORY.0
            | Sources::ATOMIC_RESULT.0
            | Sources::UNKNOWN.0,
    );
    !p.sources.contains(thread_varying)
        && origins.len() < 4
        && origins.iter().any(|o| o.kind == OriginKind::Builtin)
        && origins.iter().all(|o| {
            o.kind != OriginKind::Builtin
                || o.name == "simdgroup_index_in_threadgroup"
                || is_threadgroup_uniform_builtin(&o.name)
        })
}

impl RuleHook for BarrierInDivergentFlow {
    fn name(&self) -> &'static str {
        "barrier-in-divergent-flow"
    }

    fn describe(&self, ctx: &FunctionContext<'_, '_>, m: &Matched) -> Option<Description> {
        let inst = ctx.body.instructions.get(m.inst)?;
        let callee = inst.callee_name()?;
        let barrier = barrier_of(ctx, callee)?;
        let helper = (barrier != callee).then_some(callee);
        let divergent = m.divergent_branch?;
        let branch = ctx.cf.cfg.terminator(ctx.body, divergent.block)?;
        let cond = branch_condition(ctx.cf, ctx.body, divergent.block)?;
        let prov = ctx.prov.value(ctx.du, &cond.value);
        let simdgroup = barrier.starts_with("air.simdgroup");
        if simdgroup && simdgroup_uniform(&prov) {
            return None;
        }
        let origin = prov.main_origin();
        let name = origin.as_ref().map(|o| o.name.clone());
        let what = match origin.as_ref().map(|o| o.kind) {
            Some(OriginKind::Builtin) => "a thread-varying builtin",
            Some(OriginKind::Memory) if prov.sources.contains(Sources::VARYING_BUILTIN) => {
                "memory read at a thread-dependent address"
            }
            _ if prov.sources.contains(Sources::ATOMIC_RESULT) => "an atomic's per-thread result",
            _ => "a thread-varying value",
        };
        let subject = match &name {
            Some(n) => format!("`{n}` ({what})"),
            None => what.to_string(),
        };
        let block = ctx.du.block_of(m.inst);
        // The deciding branch exits a loop around the barrier: its trip count varies.
        let loop_exit = ctx
            .cf
            .loops()
            .loops
            .iter()
            .any(|l| l.contains(block) && l.exiting().binary_search(&divergent.block).is_ok());
        let (kind, group) = if simdgroup {
            ("simdgroup_barrier", "SIMD-group")
        } else {
            ("threadgroup_barrier", "threadgroup")
        };
        let kind = match helper {
            Some(h) => format!("this call of @{h}, which reaches a {kind},"),
            None => kind.to_string(),
        };
        let under = if loop_exit {
            format!(
                "inside a loop whose exit (line {}) depends on {subject}, so threads run it a different number of times",
                branch.line
            )
        } else {
            format!(
                "under the branch at line {}, whose condition depends on {subject}",
                branch.line
            )
        };
        let other_line = match divergent.skipping {
            Skipping::MeetTarget(b) => ctx
                .body
                .block_instructions(b)
                .iter()
                .find(|i| {
                    i.callee_name()
                        .is_some_and(|c| barrier_of(ctx, c).is_some())
                })
                .map(|i| i.line),
            _ => None,
        };
        let (skipping, elsewhere) = match (divergent.skipping, other_line) {
            (Skipping::MeetTarget(_), Some(l)) if loop_exit => (
                evidence::Skipping::MeetsBarrier,
                format!("the threads that leave the loop early can reach the barrier at line {l} instead"),
            ),
            (Skipping::MeetTarget(_), Some(l)) => (
                evidence::Skipping::MeetsBarrier,
                format!("the threads it sends the other way can reach the barrier at line {l} instead"),
            ),
            (Skipping::ComeBack, _) => (
                evidence::Skipping::ComesBack,
                "the threads that skip it come around the loop again and may reach it in another iteration".to_string(),
            ),
            // Strict mode only: by the specification's letter they are still
            // executing the kernel; Apple GPUs are known to run this shape.
            (Skipping::KeepRunning, _) => (
                evidence::Skipping::KeepsRunning,
                "the threads it sends the other way reach no barrier but keep running the kernel (undefined by the MSL specification's letter; Apple GPUs run this in MLX's gemv, and air-scan reports it only under `strict = true`)".to_string(),
            ),
            _ => (
                evidence::Skipping::Unknown,
                "air-scan could not rule out that the threads it sends the other way reach another barrier".to_string(),
            ),
        };
        let simd_note = if simdgroup {
            " simdgroup_barrier is said to be free on current Apple GPUs, whose SIMD-groups run in lockstep, so this may not hang today; it is still undefined behaviour."
        } else {
            ""
        };
        let evidence = Evidence::Barrier(Barrier {
            barrier,
            branch_line: branch.line,
            condition: Condition {
                class: prov.class(),
                name,
            },
            loop_exit,
            other_barrier_line: other_line,
            skipping,
            via: helper.map(str::to_string),
        });
        Some(Description {
            message: format!(
                "{kind} {under}, and {elsewhere}: every thread of the {group} must reach the same barrier, or the threads wait at different barriers (a hang, or threadgroup memory read before it is written).{simd_note}"
            ),
            evidence,
            help: helper.map(|h| {
                format!(
                    "Call @{h} where every thread of the {group} reaches it, keeping only the work inside the condition, or take its barrier out into the caller, after the branch."
                )
            }),
        })
    }
}
