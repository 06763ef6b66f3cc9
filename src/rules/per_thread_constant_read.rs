//! `per-thread-constant-read`: a load from the `constant` address space at
//! an address a thread-varying value reaches (seed 001 finding 179: constant
//! memory is built for data every thread reads alike; LoganHX's life kernel
//! reads its whole grid from a `constant int*`).

use super::engine::Matched;
use super::evidence::{ConstantRead, Evidence};
use super::{Description, FunctionContext, RuleHook};
use crate::analysis::provenance::OriginKind;

pub struct PerThreadConstantRead;

impl RuleHook for PerThreadConstantRead {
    fn name(&self) -> &'static str {
        "per-thread-constant-read"
    }

    fn describe(&self, ctx: &FunctionContext<'_, '_>, m: &Matched) -> Option<Description> {
        let address = ctx.prov.operand(ctx.body, ctx.du, m.inst, 0);
        // A buffer the host fills. Program-scope `constant` tables (MLX's
        // Winograd matrices, a triangle's three vertices) are the
        // compiler's, small, and read by design at a per-lane index.
        let buffer = address
            .origin_of(OriginKind::Argument)
            .or_else(|| address.origin_of(OriginKind::Field))?
            .name;
        let index = address
            .origin_of(OriginKind::Builtin)
            .map_or_else(|| "a per-thread value".to_string(), |o| o.name);
        Some(Description {
            message: format!(
                "`constant` buffer `{buffer}` is read at an address that depends on `{index}`: each thread reads its own word, which the constant path serves one at a time. Per-thread data belongs in `device const` memory."
            ),
            evidence: Evidence::ConstantRead(ConstantRead {
                buffer,
                index,
                loop_depth: m.loop_depth(ctx),
            }),
            help: None,
        })
    }
}
