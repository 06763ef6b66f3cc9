//! `dynamic-private-array`: a thread-private array (or struct) indexed by a
//! value known only at run time. The backend keeps private arrays in
//! registers only when every index is a constant; otherwise the array lives
//! in memory and its accesses spill (WWDC16 session 606: ~30% lost; seed 001
//! finding 181).
//!
//! The pattern finds an `alloca` with a GEP on a non-constant index; this
//! hook drops the arrays whose every such index is the counter of a loop with
//! a constant trip count (MLX's `#pragma unroll` loops carry
//! `llvm.loop.unroll.full`): the backend unrolls those loops when it builds
//! the pipeline and the indices become constants. An index that wraps the
//! counter (`urem`, `udiv`, `and`, `xor` and kin by a constant: keccak's
//! `(x + 4) % 5`) is no longer bounded by the array's length, so its loop
//! must have a constant trip count (`loops::constant_trip_count`).

use super::engine::Matched;
use super::evidence::{DynamicIndex, Evidence};
use super::{Description, FunctionContext, RuleHook};
use crate::analysis::defuse::Def;
use crate::analysis::loops::constant_trip_count;
use crate::analysis::provenance::Class;
use crate::ir::{Opcode, Value};

pub struct DynamicPrivateArray;

/// Users of the alloca (through casts and GEPs) looked at before giving up.
const MAX_USERS: usize = 512;

fn constant(v: &Value<'_>) -> bool {
    matches!(v, Value::Int(_) | Value::Bool(_) | Value::ZeroInitializer)
}

/// Whether operand `j` of instruction `i` becomes a constant once the
/// pipeline is built and loops with constant trip counts are unrolled:
/// literals, values computed from function constants, and counters of such
/// loops combined with them. Values are followed by position (`DefUse`
/// operand codes), not looked up by name. `stack` is a buffer the caller
/// reuses from one index to the next; each entry carries whether a wrapping
/// operation (`urem`, `and`, ...) lies between it and the index.
fn unrolls_to_constant(
    ctx: &FunctionContext<'_, '_>,
    (i, j): (usize, usize),
    stack: &mut Vec<(usize, usize, u32, bool)>,
) -> bool {
    stack.clear();
    stack.push((i, j, 0u32, false));
    let mut seen = 0usize;
    while let Some((i, j, depth, wrapped)) = stack.pop() {
        seen += 1;
        if depth > 16 || seen > 64 {
            return false;
        }
        let Some(op) = ctx.body.instructions.get(i).and_then(|x| x.operands.get(j)) else {
            return false;
        };
        if constant(&op.value) {
            continue;
        }
        let Some(Def::Inst(d)) = ctx.du.operand(i, j) else {
            return false;
        };
        let Some(inst) = ctx.body.instructions.get(d) else {
            return false;
        };
        // Computed from function constants only: a constant once the
        // pipeline is built (a phi of them could still pick by a branch).
        if inst.opcode != Opcode::Phi && ctx.prov.inst(d).class() == Class::FunctionConstant {
            continue;
        }
        match inst.opcode {
            Opcode::ZExt | Opcode::SExt | Opcode::Trunc => {
                if !inst.operands.is_empty() {
                    stack.push((d, 0, depth + 1, wrapped));
                }
            }
            Opcode::Add
            | Opcode::Sub
            | Opcode::Mul
            | Opcode::Shl
            | Opcode::Or
            | Opcode::LShr
            | Opcode::AShr
            | Opcode::URem
            | Opcode::SRem
            | Opcode::UDiv
            | Opcode::SDiv
            | Opcode::And
            | Opcode::Xor => {
                // A wrapping result stays small however long the loop
                // runs: the array's bounds no longer bound the trip count.
                let wraps = matches!(
                    inst.opcode,
                    Opcode::URem
                        | Opcode::SRem
                        | Opcode::UDiv
                        | Opcode::SDiv
                        | Opcode::And
                        | Opcode::Xor
                );
                for k in 0..inst.operands.len() {
                    stack.push((d, k, depth + 1, wrapped || wraps));
                }
            }
            Opcode::Phi => {
                if !counter_of_constant_loop(ctx, d, wrapped) {
                    return false;
                }
            }
            _ => return false,
        }
    }
    true
}

/// `phi` is a loop counter from constants: it sits in a loop header and
/// takes only literal and function-constant values (a start and steps). Its
/// loop runs a constant number of times, or at most as many as the array
/// has elements (the GEP is `inbounds`), so the backend can unroll it.
/// A `wrapped` counter (`i % 5`) gets no bound from the array: its loop
/// must run a constant number of times.
fn counter_of_constant_loop(ctx: &FunctionContext<'_, '_>, phi: usize, wrapped: bool) -> bool {
    let class = ctx.prov.inst(phi).class();
    let Some(l) = ctx.cf.loops().loop_of_header(ctx.du.block_of(phi)) else {
        return false;
    };
    matches!(class, Class::Literal | Class::FunctionConstant)
        && (!wrapped
            || constant_trip_count(ctx.body, ctx.du, &ctx.module.types, ctx.cf, l).is_some())
}

/// `dynamic_access`'s buffers, kept per thread: most arrays are rejected
/// (their indices unroll), and growing fresh buffers for each cost more
/// than the walk (measured with the engine's `Scratch`: engine.rs).
#[derive(Default)]
struct Buffers {
    frontier: Vec<usize>,
    stack: Vec<(usize, usize, u32, bool)>,
    unrolled: Vec<u32>,
}

thread_local! {
    static BUFFERS: std::cell::Cell<Buffers> = std::cell::Cell::default();
}

/// The first GEP into the alloca whose non-constant index stays dynamic
/// after unrolling (its index in the body), with that index.
fn dynamic_access<'b, 'a>(
    ctx: &'b FunctionContext<'_, 'a>,
    alloca: usize,
) -> Option<(usize, &'b Value<'a>)> {
    let mut b = BUFFERS.try_with(std::cell::Cell::take).unwrap_or_default();
    let found = dynamic_access_with(ctx, alloca, &mut b);
    let _ = BUFFERS.try_with(|c| c.set(b));
    found
}

fn dynamic_access_with<'b, 'a>(
    ctx: &'b FunctionContext<'_, 'a>,
    alloca: usize,
    b: &mut Buffers,
) -> Option<(usize, &'b Value<'a>)> {
    b.frontier.clear();
    b.frontier.push(alloca);
    // Indices (operand codes) already found to unroll to constants: the
    // GEPs into one array mostly share a loop counter.
    b.unrolled.clear();
    let mut visits = 0;
    while let Some(cur) = b.frontier.pop() {
        ctx.body.instructions.get(cur)?.result?;
        for u in ctx.du.users(Def::Inst(cur)) {
            visits += 1;
            if visits > MAX_USERS {
                return None;
            }
            let Some(user) = ctx.body.instructions.get(u) else {
                continue;
            };
            // The base pointer is `cur`: by its operand code, as `users` found it.
            if ctx.du.operand(u, 0) != Some(Def::Inst(cur)) {
                continue;
            }
            match user.opcode {
                Opcode::BitCast | Opcode::AddrSpaceCast => b.frontier.push(u),
                Opcode::GetElementPtr => {
                    let codes = ctx.du.operand_row(u);
                    let dynamic = (1..user.operands.len()).find(|&j| {
                        if !matches!(user.operands[j].value, Value::Local(_)) {
                            return false;
                        }
                        let code = codes.get(j).copied();
                        if code.is_some_and(|c| b.unrolled.contains(&c)) {
                            return false;
                        }
                        let dynamic = !unrolls_to_constant(ctx, (u, j), &mut b.stack);
                        if let (false, Some(c), true) = (dynamic, code, b.unrolled.len() < 16) {
                            b.unrolled.push(c);
                        }
                        dynamic
                    });
                    match dynamic {
                        Some(j) => return Some((u, &user.operands[j].value)),
                        None => b.frontier.push(u),
                    }
                }
                _ => {}
            }
        }
    }
    None
}

impl RuleHook for DynamicPrivateArray {
    fn name(&self) -> &'static str {
        "dynamic-private-array"
    }

    fn describe(&self, ctx: &FunctionContext<'_, '_>, m: &Matched) -> Option<Description> {
        let alloca = ctx.body.instructions.get(m.inst)?;
        let (gep_at, index) = dynamic_access(ctx, m.inst)?;
        let gep = ctx.body.instructions.get(gep_at)?;
        let ty = ctx.module.types.display(alloca.elem_ty?);
        let prov = ctx.prov.value(ctx.du, index);
        let from = match prov.main_origin() {
            Some(o) => format!(" (from `{}`)", o.name),
            None => String::new(),
        };
        let index_name = match index {
            Value::Local(n) => format!("%{n}"),
            _ => "?".into(),
        };
        let in_loop = ctx.cf.loops().depth(ctx.du.block_of(gep_at));
        let loop_note = if in_loop > 0 {
            format!(", inside a loop (depth {in_loop})")
        } else {
            String::new()
        };
        Some(Description {
            message: format!(
                "private `{ty}` is indexed at line {} by `{index_name}`{from}, which is not a constant even after constant loops are unrolled{loop_note}: the backend cannot keep the array in registers, so every access goes to memory (Apple measured ~30% lost to such spills, WWDC16 session 606).",
                gep.line
            ),
            evidence: Evidence::DynamicIndex(DynamicIndex {
                gep_line: gep.line,
                index: index_name,
                index_class: prov.class(),
                ty,
            }),
            help: None,
        })
    }
}
