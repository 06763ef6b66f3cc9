//! `double-precision`: arithmetic, comparison, conversion or a call on
//! `double`. Apple GPUs have no FP64 unit (0 F64 ops per clock per core,
//! philipturner/metal-benchmarks; seed 000: AGX "lacks double") and MSL has
//! no `double`, so such IR comes from another front end and is emulated in
//! software, if the backend accepts it at all.

use super::engine::{Matched, scalar_name};
use super::evidence::{self, Evidence};
use super::{Description, FunctionContext, RuleHook};
use crate::ir::Opcode;

pub struct DoublePrecision;

impl RuleHook for DoublePrecision {
    fn name(&self) -> &'static str {
        "double-precision"
    }

    fn describe(&self, ctx: &FunctionContext<'_, '_>, m: &Matched) -> Option<Description> {
        let inst = ctx.body.instructions.get(m.inst)?;
        let types = &ctx.module.types;
        let from = inst
            .operands
            .first()
            .and_then(|o| scalar_name(types, o.ty))
            .unwrap_or_default();
        let to = scalar_name(types, inst.ty).unwrap_or_default();
        let what = match inst.opcode {
            Opcode::FPExt | Opcode::SIToFP | Opcode::UIToFP => {
                format!("`{}` converts {from} to double", inst.opcode.name())
            }
            Opcode::FPTrunc | Opcode::FPToSI | Opcode::FPToUI => {
                format!("`{}` converts double to {to}", inst.opcode.name())
            }
            Opcode::Call => format!(
                "a call to `{}` takes or returns double",
                inst.callee_name().unwrap_or("?")
            ),
            Opcode::FCmp => "`fcmp` compares in double".to_string(),
            op => format!("`{}` computes in double", op.name()),
        };
        Some(Description {
            message: format!(
                "{what}: Apple GPUs have no 64-bit floating-point unit and MSL has no `double`, so the backend must emulate it in software or refuse the pipeline."
            ),
            evidence: Evidence::DoublePrecision(evidence::DoublePrecision {
                callee: inst.callee_name().map(str::to_string),
                from,
                opcode: inst.opcode.name(),
                to,
            }),
            help: None,
        })
    }
}
