//! `byte-arithmetic`: add, subtract, multiply, divide or remainder on 8-bit
//! integers. Apple GPUs have 16- and 32-bit integer ALUs ("most pipelines can
//! accept 16-bit operands ... with zero additional cost",
//! philipturner/metal-benchmarks) but none for 8 bits, so the 8-bit wrap is
//! emulated (seed 001 finding 177: "native operation width is 16-bit, so
//! 8-bit requires emulation").

//!
//! Only byte math the source wrote is reported: fed by `i8` loads or
//! arguments, or feeding `i8` stores, and `<N x i8>` vectors. LLVM makes
//! `i8` operations of its own (InstCombine's range check `add i8 x, -49`
//! feeding only an `icmp`, `int` math narrowed by `trunc`, loop counters
//! truncated to `i8`): those are not seed 001 finding 177's hazard.

use super::engine::Matched;
use super::evidence::{self, Evidence};
use super::{Description, FunctionContext, RuleHook};
use crate::analysis::defuse::Def;
use crate::ir::Opcode;

pub struct ByteArithmetic;

/// Operations a byte value passes through and stays byte data.
fn keeps_bytes(op: Opcode) -> bool {
    matches!(
        op,
        Opcode::Add
            | Opcode::Sub
            | Opcode::Mul
            | Opcode::UDiv
            | Opcode::SDiv
            | Opcode::URem
            | Opcode::SRem
            | Opcode::And
            | Opcode::Or
            | Opcode::Xor
            | Opcode::Shl
            | Opcode::LShr
            | Opcode::AShr
            | Opcode::Select
            | Opcode::Phi
    )
}

/// Whether instruction `i`'s operands come, through byte operations, from
/// an `i8` load, argument or vector element (not from a `trunc`).
fn fed_by_bytes(ctx: &FunctionContext<'_, '_>, i: usize) -> bool {
    let mut stack = vec![i];
    let mut seen = vec![i];
    while let Some(k) = stack.pop() {
        for &d in ctx.du.operand_row(k) {
            match ctx.du.decode(d) {
                Some(Def::Param(_)) => return true,
                Some(Def::Inst(j)) if !seen.contains(&j) && seen.len() < 64 => {
                    seen.push(j);
                    match ctx.du.opcodes().get(j) {
                        Some(Opcode::Load | Opcode::ExtractElement) => return true,
                        Some(&op) if keeps_bytes(op) => stack.push(j),
                        _ => {}
                    }
                }
                _ => {}
            }
        }
    }
    false
}

/// Whether instruction `i`'s result reaches, through byte operations, a
/// store or a vector of bytes.
fn feeds_byte_store(ctx: &FunctionContext<'_, '_>, i: usize) -> bool {
    let mut stack = vec![i];
    let mut seen = vec![i];
    while let Some(k) = stack.pop() {
        for &u in ctx.du.users_row(Def::Inst(k)) {
            let u = u as usize;
            if seen.contains(&u) || seen.len() >= 64 {
                continue;
            }
            seen.push(u);
            match ctx.du.opcodes().get(u) {
                Some(Opcode::Store | Opcode::InsertElement) => return true,
                Some(&op) if keeps_bytes(op) => stack.push(u),
                _ => {}
            }
        }
    }
    false
}

impl RuleHook for ByteArithmetic {
    fn name(&self) -> &'static str {
        "byte-arithmetic"
    }

    fn describe(&self, ctx: &FunctionContext<'_, '_>, m: &Matched) -> Option<Description> {
        let inst = ctx.body.instructions.get(m.inst)?;
        let written = ctx.module.types.is_vector(inst.ty)
            || fed_by_bytes(ctx, m.inst)
            || feeds_byte_store(ctx, m.inst);
        if !written {
            return None;
        }
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
