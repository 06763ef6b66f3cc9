//! `precise-math`: a transcendental in its precise form in a module built
//! without fast math, where a `fast::` form exists. Precise sine runs at
//! 24.4 cycles of throughput against 14.3 for the fast one (latency ~225
//! against ~25), precise sqrt 15.0 against 8 (philipturner/metal-benchmarks;
//! seed 001 finding 211: "1.6-2.4x").

use super::engine::Matched;
use super::evidence::{self, Evidence};
use super::{Description, FunctionContext, RuleHook};

pub struct PreciseMath;

impl RuleHook for PreciseMath {
    fn name(&self) -> &'static str {
        "precise-math"
    }

    fn describe(&self, ctx: &FunctionContext<'_, '_>, m: &Matched) -> Option<Description> {
        let inst = ctx.body.instructions.get(m.inst)?;
        let callee = inst.callee_name()?;
        // air.sin.f32 → sin; air.pow.v4f32 → pow.
        let rest = callee.strip_prefix("air.")?;
        let function = rest.split('.').next()?;
        let fast = format!("air.fast_{rest}");
        // The measured figures (philipturner/metal-benchmarks); the seed's
        // range for the rest.
        let figure = match function {
            "sin" | "cos" | "tan" | "sincos" | "sinpi" | "cospi" | "tanpi" => {
                "precise sine: 24.4 cycles of throughput against 14.3, ~225 cycles of latency against ~25"
            }
            "sqrt" => "precise sqrt: 15.0 cycles of throughput against 8",
            _ => "precise transcendentals cost 1.6 to 2.4 times the fast ones",
        };
        Some(Description {
            message: format!(
                "`{callee}` is the precise {function}: this module is compiled without fast math, so every {function} runs the slower precise routine ({figure}). Where its accuracy is not needed, call metal::fast::{function} (`{fast}`) or build with fast math."
            ),
            evidence: Evidence::PreciseMath(evidence::PreciseMath {
                callee: callee.to_string(),
                fast_form: fast,
                function: function.to_string(),
            }),
            help: None,
        })
    }
}
