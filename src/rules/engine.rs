//! Matching a pattern's `[match]` against one function. Work per rule is
//! linear in the function: every instruction is tried once, and a chain
//! step visits a bounded number of users.

use super::FunctionContext;
use super::pattern::{ChainStep, Match, OperandMatch};
use crate::analysis::defuse::Def;
use crate::analysis::provenance::Class;
use crate::ir::{Instruction, Opcode, Value};

/// Hops a chain step may take through `through` opcodes.
const MAX_HOPS: usize = 8;
/// Users a chain step may visit before giving up.
const MAX_VISITS: usize = 256;

/// A match: the instruction, the instructions each chain step ended at,
/// and where it sits.
#[derive(Debug, Clone)]
pub struct Matched {
    pub inst: usize,
    pub chain: Vec<usize>,
    pub loop_depth: u32,
    pub conditional: bool,
}

pub fn matches(m: &Match, ctx: &FunctionContext<'_, '_>) -> Vec<Matched> {
    let mut out = Vec::new();
    for (i, inst) in ctx.body.instructions.iter().enumerate() {
        if !opcode_matches(m, inst) {
            continue;
        }
        if !m.int_bits.is_empty() && !int_bits_match(&m.int_bits, ctx, inst) {
            continue;
        }
        let block = ctx.du.block_of(i);
        let conditional = ctx.cf.control_deps.is_conditional(block);
        if m.in_conditional.is_some_and(|want| want != conditional) {
            continue;
        }
        let loop_depth = ctx.cf.loops.depth(block);
        if m.in_loop.is_some_and(|want| want != (loop_depth > 0)) {
            continue;
        }
        if !m.operand.iter().all(|o| operand_matches(o, ctx, inst)) {
            continue;
        }
        let Some(chain) = chain_from(ctx, i, &m.chain) else {
            continue;
        };
        let matched = Matched {
            inst: i,
            chain,
            loop_depth,
            conditional,
        };
        if !m.operand.iter().all(|o| family_matches(o, ctx, &matched)) {
            continue;
        }
        out.push(matched);
    }
    out
}

fn opcode_matches(m: &Match, inst: &Instruction<'_>) -> bool {
    m.opcodes.iter().any(|o| o == inst.opcode.name())
        || (inst.opcode == Opcode::Call
            && inst
                .callee_name()
                .is_some_and(|c| m.calls.iter().any(|x| x == c)))
}

fn int_bits_match(bits: &[u32], ctx: &FunctionContext<'_, '_>, inst: &Instruction<'_>) -> bool {
    ctx.module
        .types
        .int_bits(inst.ty)
        .is_some_and(|b| bits.contains(&b))
}

fn constant_of(v: &Value<'_>) -> Option<i64> {
    match v {
        Value::Int(c) => Some(*c),
        Value::Splat(op) => constant_of(&op.value),
        _ => None,
    }
}

fn operand_matches(
    o: &OperandMatch,
    ctx: &FunctionContext<'_, '_>,
    inst: &Instruction<'_>,
) -> bool {
    let Some(op) = inst.operands.get(o.index) else {
        return false;
    };
    if !o.constant.is_empty() && !constant_of(&op.value).is_some_and(|c| o.constant.contains(&c)) {
        return false;
    }
    if o.family.is_some() && constant_of(&op.value).is_none() {
        return false;
    }
    if o.not_constant && constant_of(&op.value).is_some() {
        return false;
    }
    if !o.provenance.is_empty() {
        let class = ctx.prov.value(ctx.du, &op.value).class();
        if !o
            .provenance
            .iter()
            .any(|c| Class::from_name(c) == Some(class))
        {
            return false;
        }
    }
    true
}

/// Follows each chain step from the previous step's instruction; returns
/// the instruction every step ended at, or `None` when a step finds none.
fn chain_from(
    ctx: &FunctionContext<'_, '_>,
    start: usize,
    steps: &[ChainStep],
) -> Option<Vec<usize>> {
    let Some((step, rest)) = steps.split_first() else {
        return Some(Vec::new());
    };
    for end in step_ends(ctx, start, step) {
        if let Some(mut tail) = chain_from(ctx, end, rest) {
            tail.insert(0, end);
            return Some(tail);
        }
    }
    None
}

/// The instructions one step can end at from `from`'s result.
fn step_ends(ctx: &FunctionContext<'_, '_>, from: usize, step: &ChainStep) -> Vec<usize> {
    let mut ends = Vec::new();
    let mut frontier = vec![(from, 0usize)];
    let mut visits = 0;
    while let Some((cur, hops)) = frontier.pop() {
        let Some(result) = ctx.body.instructions.get(cur).and_then(|i| i.result) else {
            continue;
        };
        for u in ctx.du.users(Def::Inst(cur)) {
            visits += 1;
            if visits > MAX_VISITS {
                return ends;
            }
            let Some(user) = ctx.body.instructions.get(u) else {
                continue;
            };
            let name = user.opcode.name();
            if step.to.iter().any(|t| t == name) && arrives_as(step, user, result) {
                let bits_ok = step.int_bits.is_empty() || int_bits_match(&step.int_bits, ctx, user);
                if bits_ok && !ends.contains(&u) {
                    ends.push(u);
                }
            } else if hops < MAX_HOPS && step.through.iter().any(|t| t == name) {
                frontier.push((u, hops + 1));
            }
        }
    }
    ends
}

/// Whether `value` reaches `user` in the position the step asks for.
fn arrives_as(step: &ChainStep, user: &Instruction<'_>, value: &str) -> bool {
    let at = |i: usize| {
        user.operands
            .get(i)
            .is_some_and(|o| o.value == Value::Local(value))
    };
    match (step.operand, step.role.as_deref()) {
        (Some(i), _) => at(i),
        // A GEP index: any operand after the base pointer.
        (None, Some("index")) => (1..user.operands.len()).any(at),
        // The address of a memory access.
        (None, Some("address")) => match user.opcode {
            Opcode::Store => at(1),
            _ => at(0),
        },
        _ => true,
    }
}

/// The named constant families.
fn family_matches(o: &OperandMatch, ctx: &FunctionContext<'_, '_>, m: &Matched) -> bool {
    let Some(family) = &o.family else { return true };
    let Some(inst) = ctx.body.instructions.get(m.inst) else {
        return false;
    };
    let Some(c) = inst
        .operands
        .get(o.index)
        .and_then(|op| constant_of(&op.value))
    else {
        return false;
    };
    match family.as_str() {
        "fused-shift" => fused_shift(ctx, inst, c, m).is_some(),
        _ => false,
    }
}

/// `C = 2^(bits-k) - m` for the shift amount `k` of the chain's `shl` and a
/// small `m`: the optimizer's fusion of `-m * x << k`. Returns (k, m).
pub fn fused_shift(
    ctx: &FunctionContext<'_, '_>,
    mul: &Instruction<'_>,
    c: i64,
    m: &Matched,
) -> Option<(u32, u32)> {
    let bits = ctx.module.types.int_bits(mul.ty)?;
    if !(2..=64).contains(&bits) {
        return None;
    }
    let shl = m
        .chain
        .iter()
        .filter_map(|&i| ctx.body.instructions.get(i))
        .find(|i| i.opcode == Opcode::Shl)?;
    let k = constant_of(&shl.operands.get(1)?.value)?;
    if k <= 0 || k as u32 >= bits {
        return None;
    }
    let mask: u64 = if bits == 64 {
        u64::MAX
    } else {
        (1u64 << bits) - 1
    };
    let c = (c as u64) & mask;
    let top = 1u64 << (bits - k as u32);
    let small = top.checked_sub(c)?;
    (1..=64)
        .contains(&small)
        .then_some((k as u32, small as u32))
}
