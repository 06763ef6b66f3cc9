//! `indirect-call`: a call through a function pointer, usually one read
//! from a visible function table. The compiler cannot inline or optimise
//! across it, and when threads of a SIMD-group call different functions the
//! calls run one after another (seed 001 finding 203, WWDC20).

use super::engine::Matched;
use super::evidence::{self, Evidence};
use super::{Description, FunctionContext, RuleHook};
use crate::analysis::defuse::Def;
use crate::analysis::divergence::is_thread_varying;
use crate::ir::{Opcode, Value};

pub struct IndirectCall;

/// The call that produced the function pointer, through casts, when it is
/// `air.get_function_pointer_visible_function_table`: (table argument, index).
fn table_lookup<'b, 'a>(
    ctx: &'b FunctionContext<'_, 'a>,
    callee: &Value<'a>,
) -> Option<(&'b Value<'a>, &'b Value<'a>)> {
    let mut v = callee.clone();
    for _ in 0..8 {
        let Some(Def::Inst(d)) = ctx.du.def_of(&v) else {
            return None;
        };
        let inst = ctx.body.instructions.get(d)?;
        match inst.opcode {
            Opcode::BitCast | Opcode::AddrSpaceCast => v = inst.operands.first()?.value.clone(),
            Opcode::Call
                if inst
                    .callee_name()
                    .is_some_and(|c| c.starts_with("air.get_function_pointer")) =>
            {
                let args = inst.call_args();
                return Some((&args.first()?.value, &args.get(1)?.value));
            }
            _ => return None,
        }
    }
    None
}

impl RuleHook for IndirectCall {
    fn name(&self) -> &'static str {
        "indirect-call"
    }

    fn describe(&self, ctx: &FunctionContext<'_, '_>, m: &Matched) -> Option<Description> {
        let inst = ctx.body.instructions.get(m.inst)?;
        let callee = &inst.callee()?.value;
        let (source, table, divergent) = match table_lookup(ctx, callee) {
            Some((table, index)) => {
                let name = ctx
                    .prov
                    .value(ctx.du, table)
                    .origins()
                    .next()
                    .map_or_else(|| "?".to_string(), |o| o.name);
                let divergent = is_thread_varying(&ctx.prov.value(ctx.du, index));
                ("visible_function_table", Some(name), divergent)
            }
            None => (
                "function_pointer",
                None,
                is_thread_varying(&ctx.prov.value(ctx.du, callee)),
            ),
        };
        let from = match &table {
            Some(t) => format!("a function read from the visible function table `{t}`"),
            None => "a function pointer".to_string(),
        };
        let divergence = if divergent {
            " Which function is called differs per thread, so a SIMD-group whose threads pick different functions runs each of them in turn."
        } else {
            " The choice is the same for every thread, so what it costs is the call itself, not divergence."
        };
        Some(Description {
            message: format!(
                "call through {from}: the compiler can neither inline it nor optimise across it.{divergence}"
            ),
            evidence: Evidence::IndirectCall(evidence::IndirectCall {
                divergent,
                source,
                table,
            }),
            help: None,
        })
    }
}
