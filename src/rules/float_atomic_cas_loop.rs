//! `float-atomic-cas-loop`: a compare-and-exchange retried in a loop whose
//! new value is a float bitcast to an integer, i.e. a float atomic emulated
//! by hand (seed 001 finding 184: before Metal 3 MSL had no atomic<float>,
//! so float atomics were CAS loops). Under contention each retry is another
//! device round trip, and every thread but one fails each round.

use super::engine::Matched;
use super::{Description, FunctionContext, RuleHook};
use serde_json::json;

pub struct FloatAtomicCasLoop;

impl RuleHook for FloatAtomicCasLoop {
    fn name(&self) -> &'static str {
        "float-atomic-cas-loop"
    }

    fn describe(&self, ctx: &FunctionContext<'_, '_>, m: &Matched) -> Option<Description> {
        let inst = ctx.body.instructions.get(m.inst)?;
        let op = inst.callee_name().unwrap_or("cmpxchg");
        let addrspace = inst
            .operands
            .first()
            .and_then(|p| ctx.module.types.addrspace(p.ty))
            .unwrap_or(0);
        let fix = if addrspace == 3 {
            "a threadgroup atomic_float is not available either; accumulate per SIMD-group with simd_sum and let one thread write"
        } else {
            "on Metal 3 and later declare the buffer `device atomic_float*` and call atomic_fetch_add_explicit (one `air.atomic.global.add.f32`), or reduce in the SIMD-group and threadgroup first so far fewer threads contend"
        };
        Some(Description {
            message: format!(
                "`{op}` in a retry loop stores a float bitcast to an integer: a float atomic emulated with compare-and-exchange. Under contention every thread but one fails each round and goes around again. Instead, {fix}."
            ),
            evidence: json!({ "operation": op, "addrspace": addrspace, "loop_depth": m.loop_depth }),
            help: None,
        })
    }
}
