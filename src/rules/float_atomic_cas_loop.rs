//! `float-atomic-cas-loop`: a compare-and-exchange retried in a loop whose
//! new value is a float bitcast to an integer, i.e. a float atomic emulated
//! by hand (seed 001 finding 184: before Metal 3 MSL had no atomic<float>,
//! so float atomics were CAS loops). Under contention each retry is another
//! device round trip, and every thread but one fails each round.

use super::engine::Matched;
use super::evidence::{Evidence, FloatAtomicCas};
use super::{Description, FunctionContext, RuleHook};

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
        Some(Description {
            message: format!(
                "`{op}` in a retry loop stores a float bitcast to an integer: a float atomic emulated with compare-and-exchange. Under contention every thread but one fails each round and goes around again, each time a round trip to memory."
            ),
            evidence: Evidence::FloatAtomicCas(FloatAtomicCas {
                addrspace,
                loop_depth: m.loop_depth(ctx),
                operation: op.to_string(),
            }),
            help: None,
        })
    }
}
