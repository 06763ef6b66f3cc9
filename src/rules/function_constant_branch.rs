//! `function-constant-branch`: a branch on a switch the host sets in a
//! `constant` buffer (a `bool`, or an enum-like integer only ever compared
//! with constants), inside a loop or around a large region. The pipeline
//! could be specialised on it with a `[[function_constant]]`: the compiler
//! then drops the dead side and its registers (seed 001 findings 202 and
//! 210: Larian's 84% fewer instructions).
//!
//! A switch is told from a count by its uses: every use of the loaded value
//! tests it against a constant (`== 0`, `!= 2`, `> 1`, a `switch`, a
//! `trunc` to `i1`). A trip count is compared with a counter (`i < n`) or
//! does arithmetic, so loop bounds and their guards (`n == 0`, `n > 0`) are
//! not switches.
//! The load must be at a fixed address of a kernel's `constant` argument
//! (the argument or a field at constant offsets): an index that changes
//! per thread or per iteration reads a different value each time.

use super::engine::Matched;
use super::evidence::{ConstantBranch, Evidence};
use super::{Description, FunctionContext, RuleHook};
use crate::analysis::defuse::Def;
use crate::analysis::divergence::int_of;
use crate::analysis::provenance::{OriginKind, Sources};
use crate::analysis::slice::decided_region;
use crate::ir::{Instruction, Opcode, Value};
use arrayvec::ArrayVec;

pub struct FunctionConstantBranch;

/// Instructions a branch outside loops must decide to be reported: below
/// it, the branch costs a few cycles per thread and its dead side few
/// registers (see docs/RULES.md, "function-constant-branch").
pub const LARGE_REGION: u32 = 12;

/// A conditional `br` or a `switch`.
fn is_decision(inst: &Instruction<'_>) -> bool {
    match inst.opcode {
        Opcode::Br => inst.operands.len() == 3,
        Opcode::Switch => true,
        _ => false,
    }
}

/// Casts and masks a switch passes through between its load and its test.
fn is_transparent(inst: &Instruction<'_>) -> bool {
    match inst.opcode {
        Opcode::ZExt | Opcode::SExt | Opcode::Trunc => true,
        Opcode::And => inst
            .operands
            .get(1)
            .is_some_and(|o| matches!(o.value, Value::Int(_))),
        _ => false,
    }
}

/// Steps `tested` takes back from a condition.
const MAX_TESTED_STEPS: usize = 16;

/// The values a branch condition tests against literals, with each
/// literal: `icmp PRED x, C` (any predicate: `u.mode > 1` is as much a
/// switch as `u.mode == 2`), `trunc x to i1` (against 0), an `i1` load,
/// through `xor c, true` and into each term of `a && b`, `a || b`
/// (`and`/`or` of `i1`, or their `select` form): a switch among the terms
/// decides the branch too. On the stack (each step adds at most 3 to the
/// walk and 1 to the answer): most branches have none, and allocating for
/// them cost more than the walk.
fn tested(
    ctx: &FunctionContext<'_, '_>,
    cond: &Value<'_>,
) -> ArrayVec<(usize, i64), MAX_TESTED_STEPS> {
    let mut out = ArrayVec::new();
    let mut work: ArrayVec<Option<Def>, { 3 * MAX_TESTED_STEPS + 1 }> = ArrayVec::new();
    work.push(ctx.du.def_of(cond));
    let mut steps = 0;
    while let Some(d) = work.pop() {
        steps += 1;
        let (Some(Def::Inst(i)), true) = (d, steps <= MAX_TESTED_STEPS) else {
            continue;
        };
        let Some(inst) = ctx.body.instructions.get(i) else {
            continue;
        };
        let is_bool = ctx.module.types.int_bits(inst.ty) == Some(1);
        let literal_at = |j: usize| inst.operands.get(j).and_then(|o| int_of(&o.value));
        let mut push = |j: usize| {
            let _ = work.try_push(ctx.du.operand(i, j));
        };
        match inst.opcode {
            Opcode::Xor if literal_at(1).is_some() => push(0),
            Opcode::And | Opcode::Or if is_bool => {
                push(0);
                push(1);
            }
            Opcode::Select if is_bool && (literal_at(1).is_some() || literal_at(2).is_some()) => {
                (0..3).for_each(push);
            }
            Opcode::ICmp => {
                let x = match (literal_at(0), literal_at(1)) {
                    (None, Some(c)) => Some((0, c)),
                    (Some(c), None) => Some((1, c)),
                    _ => None,
                };
                if let Some(v) =
                    x.and_then(|(x, c)| Some((ctx.du.operand(i, x).and_then(as_inst)?, c)))
                {
                    let _ = out.try_push(v);
                }
            }
            Opcode::Trunc => {
                if let Some(v) = ctx.du.operand(i, 0).and_then(as_inst) {
                    let _ = out.try_push((v, 0));
                }
            }
            Opcode::Load => {
                let _ = out.try_push((i, 0));
            }
            _ => {}
        }
    }
    out
}

/// The width and name of the switch `value` is, when it is one: a load,
/// through casts and masks, of a small integer at a fixed place of a
/// `constant` argument, only ever tested against constants, the same for
/// every thread and no function constant.
fn switch_load(ctx: &FunctionContext<'_, '_>, value: usize) -> Option<(u32, String)> {
    let load = load_of(ctx, value)?;
    let loaded = ctx.body.instructions.get(load)?;
    let bits = ctx.module.types.int_bits(loaded.ty)?;
    let pointer = loaded.operands.first()?;
    if bits > 32
        || ctx.module.types.addrspace(pointer.ty) != Some(2)
        || !fixed_address(ctx, load)
        || !only_tested_against_constants(ctx, load)
    {
        return None;
    }
    let address = ctx.prov.value(ctx.du, &pointer.value);
    if address.sources.contains(Sources(
        Sources::NOT_THREAD_INVARIANT.0 | Sources::FUNCTION_CONSTANT.0,
    )) {
        return None;
    }
    // The loaded value's origin names the field (`uniforms.disk_enabled`),
    // the address's only the buffer.
    let name = ctx
        .prov
        .inst(load)
        .origin_of(OriginKind::Field)
        .or_else(|| address.origin_of(OriginKind::Field))
        .or_else(|| address.origin_of(OriginKind::Argument))?
        .name;
    Some((bits, name))
}

fn as_inst(d: Def) -> Option<usize> {
    match d {
        Def::Inst(i) => Some(i),
        Def::Param(_) => None,
    }
}

/// The load a switch value comes from, through casts and masks.
fn load_of(ctx: &FunctionContext<'_, '_>, mut i: usize) -> Option<usize> {
    for _ in 0..8 {
        let inst = ctx.body.instructions.get(i)?;
        if inst.opcode == Opcode::Load {
            return Some(i);
        }
        if !is_transparent(inst) {
            return None;
        }
        i = ctx.du.operand(i, 0).and_then(as_inst)?;
    }
    None
}

/// Whether every use of `value` (through casts and masks) tests it against
/// a constant, equal or ordered: the mark of a switch, where a count is also
/// compared with a counter (`i < n`, `i.next == n`) or computed with.
fn only_tested_against_constants(ctx: &FunctionContext<'_, '_>, value: usize) -> bool {
    let mut stack = vec![value];
    let mut visits = 0;
    while let Some(x) = stack.pop() {
        for u in ctx.du.users(Def::Inst(x)) {
            visits += 1;
            let Some(user) = ctx.body.instructions.get(u) else {
                return false;
            };
            let is_operand = |j: usize| ctx.du.operand(u, j) == Some(Def::Inst(x));
            let ok = match user.opcode {
                _ if visits > 64 => return false,
                Opcode::ICmp => user.operands.iter().any(|o| int_of(&o.value).is_some()),
                Opcode::Trunc if ctx.module.types.int_bits(user.ty) == Some(1) => true,
                Opcode::Switch | Opcode::Br | Opcode::Select => is_operand(0),
                _ if is_transparent(user) => {
                    stack.push(u);
                    true
                }
                _ => false,
            };
            if !ok {
                return false;
            }
        }
    }
    true
}

/// Whether `v` is a pointer at a fixed place of a parameter: the parameter,
/// or constant-index GEPs and casts of it.
fn fixed_address(ctx: &FunctionContext<'_, '_>, load: usize) -> bool {
    let mut d = ctx.du.operand(load, 0);
    for _ in 0..8 {
        let Some(Def::Inst(i)) = d else {
            return matches!(d, Some(Def::Param(_)));
        };
        let Some(inst) = ctx.body.instructions.get(i) else {
            return false;
        };
        match inst.opcode {
            Opcode::GetElementPtr
                if inst
                    .operands
                    .iter()
                    .skip(1)
                    .all(|o| int_of(&o.value).is_some()) => {}
            Opcode::BitCast | Opcode::AddrSpaceCast => {}
            _ => return false,
        }
        d = ctx.du.operand(i, 0);
    }
    false
}

/// Whether control from `block` reaches the function's `ret` doing nothing
/// on the way (blocks of phis and an unconditional `br` at most): the side
/// of an early return, `if (!u.enabled) return;`. Specialising on such a
/// switch removes only its test; when it is off, the host had better not
/// dispatch at all.
fn returns_at_once(ctx: &FunctionContext<'_, '_>, mut block: usize) -> bool {
    for _ in 0..8 {
        let Some(b) = ctx.body.blocks.get(block) else {
            return false;
        };
        let work = ctx
            .body
            .instructions
            .get(b.instructions.clone())
            .unwrap_or(&[])
            .iter()
            .filter(|i| i.opcode != Opcode::Phi)
            .collect::<Vec<_>>();
        match work.as_slice() {
            [t] if t.opcode == Opcode::Ret => return true,
            [t] if t.opcode == Opcode::Br && t.operands.len() == 1 => {
                match ctx.cf.cfg.succs(block) {
                    [next] => block = *next,
                    _ => return false,
                }
            }
            _ => return false,
        }
    }
    false
}

impl RuleHook for FunctionConstantBranch {
    fn name(&self) -> &'static str {
        "function-constant-branch"
    }

    /// A conditional `br` or a `switch`: an unconditional `br` decides nothing.
    fn may_describe(&self, ctx: &FunctionContext<'_, '_>, inst: usize) -> bool {
        ctx.body
            .instructions
            .get(inst)
            .is_some_and(|i| is_decision(i))
    }

    fn describe(&self, ctx: &FunctionContext<'_, '_>, m: &Matched) -> Option<Description> {
        let inst = ctx.body.instructions.get(m.inst)?;
        if !is_decision(inst) {
            return None;
        }
        let (bits, switch, compared_to) = match inst.opcode {
            Opcode::Br => tested(ctx, &inst.operands.first()?.value)
                .into_iter()
                .find_map(|(value, c)| {
                    let (bits, switch) = switch_load(ctx, value)?;
                    Some((bits, switch, vec![c]))
                })?,
            Opcode::Switch => {
                let value = ctx.du.operand(m.inst, 0).and_then(as_inst)?;
                let (bits, switch) = switch_load(ctx, value)?;
                let cases = inst.operands.get(2..).unwrap_or(&[]);
                let values = cases
                    .iter()
                    .step_by(2)
                    .filter_map(|o| int_of(&o.value))
                    .collect();
                (bits, switch, values)
            }
            _ => return None,
        };
        let block = ctx.du.block_of(m.inst);
        if ctx
            .cf
            .cfg
            .succs(block)
            .iter()
            .any(|&s| returns_at_once(ctx, s))
        {
            return None;
        }
        let region = decided_region(ctx.cf, block);
        let region_instructions: u32 = region
            .iter()
            .filter_map(|&b| ctx.body.blocks.get(b))
            .map(|b| b.instructions.len() as u32)
            .sum();
        let loop_depth = m.loop_depth(ctx);
        if loop_depth == 0 && region_instructions < LARGE_REGION {
            return None;
        }
        let kind = if bits <= 8 && compared_to.iter().all(|c| *c == 0 || *c == 1) {
            "bool"
        } else {
            "enum"
        };
        let what = match kind {
            "bool" => "a bool",
            _ => "an enum-like switch",
        };
        let place = if loop_depth > 0 {
            format!("inside a loop (depth {loop_depth}), every iteration")
        } else {
            format!("around {region_instructions} instructions")
        };
        let help = (kind == "enum").then(|| enum_help(&switch));
        Some(Description {
            message: format!(
                "Branch on `{switch}`, {what} from a `constant` buffer, {place}: the pipeline could be built with it as a `[[function_constant]]`. Read at run time, both sides are compiled into one kernel, which keeps the dead side's registers and code and tests the switch on every pass; as a function constant the compiler removes the side not taken."
            ),
            evidence: Evidence::ConstantBranch(ConstantBranch {
                compared_to,
                kind,
                region_instructions,
                loop_depth,
                switch,
            }),
            help,
        })
    }
}

/// The fix for a switch tested against several values: the pattern's
/// `fix` shows a `bool`, which would not hold a mode.
fn enum_help(switch: &str) -> String {
    let field = switch.rsplit(['.', ']']).next().unwrap_or("");
    let is_identifier = field.bytes().next().is_some_and(|b| !b.is_ascii_digit())
        && field
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_');
    let name = if is_identifier { field } else { "mode" };
    format!(
        "Declare the switch as a function constant of the field's own type, `constant int {name} [[function_constant(0)]];`, and test it as before (`switch ({name})`, `{name} > 1`); set it with MTLFunctionConstantValues when building the pipeline (one pipeline per value in use, cached), and the compiler keeps only the cases that value takes."
    )
}
