//! `divide-by-varying`: an integer divide whose divisor differs per thread
//! (a thread id, device or threadgroup memory). It also runs the ~730-cycle
//! routine, but no function constant can fix it; lower severity.

use super::divide_by_uniform::{cost_notes, divide_evidence, op_text, pair_note};
use super::engine::Matched;
use super::{Description, FunctionContext, RuleHook};
use crate::analysis::provenance::{OriginKind, Sources};

pub struct DivideByVarying;

impl RuleHook for DivideByVarying {
    fn name(&self) -> &'static str {
        "divide-by-varying"
    }

    fn describe(&self, ctx: &FunctionContext<'_, '_>, m: &Matched) -> Option<Description> {
        let inst = ctx.body.instructions.get(m.inst)?;
        let (evidence, origin, bits) = divide_evidence(ctx, m, None)?;
        let divisor = ctx.prov.value(ctx.du, &inst.operands.get(1)?.value);
        // Loaded from memory at an address no thread id reaches: likely the
        // same for the whole dispatch, and then fixable like a uniform.
        let same_for_all = origin.kind == OriginKind::Memory
            && !divisor.sources.contains(Sources::VARYING_BUILTIN);
        let hint = if same_for_all {
            format!(
                " If `{}` is the same for every thread of a dispatch, pass it in a `constant` buffer or, better, as a [[function_constant]] (~80 cycles).",
                origin.name
            )
        } else {
            String::new()
        };
        let what = match origin.kind {
            OriginKind::Builtin => "a thread-varying builtin",
            OriginKind::Memory => "a value loaded from device or threadgroup memory",
            _ => "a value that differs per thread",
        };
        Some(Description {
            message: format!(
                "`{}` by `{}` ({what}): it runs Apple's ~730-cycle software divide.{}{hint} If the divisor takes few values, precompute a reciprocal (multiply-high and shift) or restructure to divide by a constant.{}",
                op_text(inst.opcode.name(), &evidence),
                origin.name,
                pair_note(&evidence),
                cost_notes(m.loop_depth(ctx), bits)
            ),
            evidence,
            help: None,
        })
    }
}
