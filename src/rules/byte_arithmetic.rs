//! `byte-arithmetic`: add, subtract, multiply, divide or remainder on 8-bit
//! integers. Apple GPUs have 16- and 32-bit integer ALUs ("most pipelines can
//! accept 16-bit operands ... with zero additional cost",
//! philipturner/metal-benchmarks) but none for 8 bits, so the 8-bit wrap is
//! emulated (seed 001 finding 177: "native operation width is 16-bit, so
//! 8-bit requires emulation").

use super::engine::Matched;
use super::evidence::{self, Evidence};
use super::{Description, FunctionContext, RuleHook};

pub struct ByteArithmetic;

impl RuleHook for ByteArithmetic {
    fn name(&self) -> &'static str {
        "byte-arithmetic"
    }

    fn describe(&self, ctx: &FunctionContext<'_, '_>, m: &Matched) -> Option<Description> {
        let inst = ctx.body.instructions.get(m.inst)?;
        let ty = ctx.module.types.display(inst.ty);
        let op = inst.opcode.name();
        Some(Description {
            message: format!(
                "`{op} {ty}`: 8-bit arithmetic has no native ALU on Apple GPUs (16-bit is native), so the backend computes it wider and wraps it back to 8 bits."
            ),
            evidence: Evidence::ByteArithmetic(evidence::ByteArithmetic {
                opcode: op.to_string(),
                ty,
            }),
            help: None,
        })
    }
}
