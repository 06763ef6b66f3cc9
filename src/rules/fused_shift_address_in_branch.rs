//! `fused-shift-address-in-branch`: Apple's GPU backend miscompiles
//! `mul i32 X, 536870907` → `add` → `shl 3` → `sext` → GEP → load when it
//! sits in a conditional block: the load returns 0 (seed 002, confirmed on
//! metalfe-32023.622, M3 Pro). The IR is valid; -O2 makes the pattern.

use super::engine::{Matched, fused_shift};
use super::evidence::{Evidence, FusedShift};
use super::{Description, FunctionContext, RuleHook};
use crate::ir::Value;

pub struct FusedShiftAddressInBranch;

/// The one member of the family seen miscompiling.
const CONFIRMED: (u32, u32) = (3, 5);

impl RuleHook for FusedShiftAddressInBranch {
    fn name(&self) -> &'static str {
        "fused-shift-address-in-branch"
    }

    fn describe(&self, ctx: &FunctionContext<'_, '_>, m: &Matched) -> Option<Description> {
        let mul = ctx.body.instructions.get(m.inst)?;
        let c = match mul.operands.get(1)?.value {
            Value::Int(c) => c,
            _ => return None,
        };
        let (k, small) = fused_shift(ctx, mul, c, m)?;
        let bits = ctx.module.types.int_bits(mul.ty).unwrap_or(32);
        let confirmed = bits == 32 && (k, small) == CONFIRMED;
        let chain_lines: Vec<u32> = m
            .chain
            .iter()
            .filter_map(|&i| ctx.body.instructions.get(i))
            .map(|i| i.line)
            .collect();
        let status = if confirmed {
            "the confirmed miscompile (metalfe-32023.622, M3 Pro): the load returns 0".to_string()
        } else {
            format!(
                "the same shape as the confirmed miscompile (C = 2^({bits}-{k}) - {small}), unconfirmed"
            )
        };
        Some(Description {
            message: format!(
                "`mul i{bits} _, {c}` feeds `shl {k}` and then the address of a memory access, inside a conditional block: {status}. This is the optimizer's fusion of `-{small}*x << {k}`. Workaround: use the same remainder variable for the branch condition and the address, so the optimizer computes `x * -{small}` before the branch."
            ),
            evidence: Evidence::FusedShift(FusedShift {
                chain_lines,
                confirmed,
                constant: c,
                m: small,
                shift: k,
            }),
            help: None,
        })
    }
}
