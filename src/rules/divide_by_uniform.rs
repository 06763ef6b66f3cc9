//! `divide-by-uniform`: an integer divide or remainder whose divisor is the
//! same for the whole dispatch but unknown when the pipeline is built.
//! Apple GPUs have no integer divider, so it runs a ~730-cycle routine;
//! a `[[function_constant]]` divisor costs ~80 (seed 000, llama.cpp #22711).

use super::engine::Matched;
use super::evidence::{Divide, Divisor, Evidence, Paired};
use super::{Description, FunctionContext, RuleHook};
use crate::analysis::provenance::{Origin, OriginKind};
use crate::ir::Opcode;

pub struct DivideByUniform;

/// The quotient's or remainder's partner: the same routine computes both
/// (LLVM's DivRemPairs keeps such pairs together for targets that do), so a
/// `udiv` and a `urem` on the same operands are one finding, costed once.
/// `Err(())` when the partner comes first and its finding covers this one.
fn partner(ctx: &FunctionContext<'_, '_>, at: usize) -> Result<Option<Paired>, ()> {
    let Some(inst) = ctx.body.instructions.get(at) else {
        return Ok(None);
    };
    let other = match inst.opcode {
        Opcode::UDiv => Opcode::URem,
        Opcode::URem => Opcode::UDiv,
        Opcode::SDiv => Opcode::SRem,
        Opcode::SRem => Opcode::SDiv,
        _ => return Ok(None),
    };
    let found = ctx
        .body
        .instructions
        .iter()
        .enumerate()
        .find(|(_, i)| i.opcode == other && i.ty == inst.ty && i.operands == inst.operands);
    match found {
        Some((j, _)) if j < at => Err(()),
        Some((_, i)) => Ok(Some(Paired {
            opcode: i.opcode.name(),
            line: i.line,
        })),
        None => Ok(None),
    }
}

/// Evidence shared by the divide rules: the divisor and the divide's shape,
/// with the routine's `cycles` when the rule counts them. `None` for the
/// second of a divide/remainder pair, which the first one's finding names.
pub fn divide_evidence(
    ctx: &FunctionContext<'_, '_>,
    m: &Matched,
    cycles: Option<u32>,
) -> Option<(Evidence, Origin, u32)> {
    let inst = ctx.body.instructions.get(m.inst)?;
    inst.operands.get(1)?;
    let paired_with = partner(ctx, m.inst).ok()?;
    // By position: the same as `value` of the operand, without a name lookup.
    let divisor = ctx.prov.operand(ctx.body, ctx.du, m.inst, 1);
    let origin = divisor.main_origin().unwrap_or(Origin {
        kind: OriginKind::Argument,
        name: "?".into(),
    });
    let bits = ctx.module.types.int_bits(inst.ty).unwrap_or(32);
    let loop_depth = m.loop_depth(ctx);
    let evidence = Evidence::Divide(Divide {
        bits,
        cycles,
        divisor: Divisor {
            class: divisor.class(),
            kind: origin.kind,
            name: origin.name.clone(),
        },
        loop_depth,
        opcode: inst.opcode.name(),
        paired_with,
        vector: ctx.module.types.is_vector(inst.ty),
    });
    Some((evidence, origin, bits))
}

/// "in a loop" and "i64" notes shared by the divide messages. The 64-bit
/// figures are Philip Turner's (metal-benchmarks: IMUL(64x64=64) 16 cycles,
/// IADD64 ~4, against 4 and 1 for 32 bits); no one has timed the 64-bit
/// divide routine itself.
pub fn cost_notes(loop_depth: u32, bits: u32) -> String {
    let mut s = String::new();
    push_cost_notes(&mut s, loop_depth, bits);
    s
}

/// The operation as the message names it: `udiv`, or `udiv` and `urem`
/// for a pair (the backquotes around it are the message's).
pub fn op_text(opcode: &str, evidence: &Evidence) -> String {
    match evidence {
        Evidence::Divide(Divide {
            paired_with: Some(p),
            ..
        }) => format!("{opcode}` and `{}", p.opcode),
        _ => opcode.to_string(),
    }
}

/// What a divide/remainder pair adds to the message: the other half.
pub fn pair_note(evidence: &Evidence) -> String {
    match evidence {
        Evidence::Divide(Divide {
            paired_with: Some(p),
            ..
        }) => format!(
            " The `{}` at line {} on the same operands runs in the same routine and is counted with this one.",
            p.opcode, p.line
        ),
        _ => String::new(),
    }
}

/// `cost_notes`, appended to `s`.
fn push_cost_notes(s: &mut String, loop_depth: u32, bits: u32) {
    if loop_depth > 0 {
        s.push_str(" It sits in a loop (depth ");
        let _ = std::fmt::Write::write_fmt(s, format_args!("{}", loop_depth));
        s.push_str("), so it pays that on every iteration.");
    }
    if bits == 64 {
        s.push_str(
            " It is a 64-bit divide, which costs more still than a 32-bit one: the routine is built from integer multiplies and adds, and a 64-bit multiply takes 16 cycles against 4, a 64-bit add about 4 against 1 (philipturner/metal-benchmarks). Divide in 32 bits if the values fit.",
        );
    }
}

impl RuleHook for DivideByUniform {
    fn name(&self) -> &'static str {
        "divide-by-uniform"
    }

    fn describe(&self, ctx: &FunctionContext<'_, '_>, m: &Matched) -> Option<Description> {
        let inst = ctx.body.instructions.get(m.inst)?;
        let (evidence, origin, bits) = divide_evidence(ctx, m, Some(730))?;
        let op = &op_text(inst.opcode.name(), &evidence);
        if origin.kind == OriginKind::Builtin && origin.name == "threads_per_simdgroup" {
            return Some(Description {
                message: format!(
                    "`{op}` by threads_per_simdgroup, which is always 32 on Apple GPUs: write 32 and the divide becomes a shift (~5 cycles instead of ~730).{}{}",
                    pair_note(&evidence),
                    cost_notes(m.loop_depth(ctx), bits)
                ),
                evidence,
                help: Some("Divide by the literal 32 (or shift right by 5): threads_per_simdgroup is 32 on every Apple GPU.".into()),
            });
        }
        // A shape read per dimension in a loop (`batch_shape[*]`,
        // `params.oS[*]`) takes a different value each iteration: no single
        // function constant can stand for it.
        let per_element = origin.name.ends_with("[*]");
        let (what, fix, help) = match origin.kind {
            _ if per_element => (
                match origin.kind {
                    OriginKind::Field => {
                        "an element of a constant buffer's array field, indexed at run time"
                    }
                    OriginKind::Memory => {
                        "an element of a device buffer, indexed by a value the same for every thread"
                    }
                    _ => "an element of a constant array argument, indexed at run time",
                },
                " One function constant cannot stand for it: precompute a magic multiplier and shift per element on the host.",
                Some(SHAPE_ARRAY_HELP),
            ),
            OriginKind::Argument if origin.name.ends_with("()") => (
                "a texture's size",
                " Bind it as a [[function_constant]] per pipeline (textures of one size share a pipeline), or pass host-computed magic numbers for a multiply-high and shift.",
                None,
            ),
            OriginKind::Field => (
                "a field of a constant buffer",
                " Bind it as a [[function_constant]] per pipeline and put its value in the pipeline-cache key.",
                None,
            ),
            // kolinko's `device const uint& rowsCount`: device memory no
            // thread id addresses, in a buffer the kernel does not write.
            OriginKind::Memory => (
                if origin.name.contains('[') {
                    "an element of a device buffer at a fixed index, the same for every thread"
                } else {
                    "a device scalar, read at one address by every thread"
                },
                " Bind it as a [[function_constant]] per pipeline (or pass host-computed magic numbers for a multiply-high and shift) instead of reading it from a device buffer.",
                None,
            ),
            OriginKind::Builtin => (
                "a threadgroup-uniform builtin",
                " Fix the threadgroup size the kernel is dispatched with and divide by that literal or a [[function_constant]].",
                Some(BUILTIN_HELP),
            ),
            _ => (
                "a kernel argument",
                " Bind it as a [[function_constant]] per pipeline and put its value in the pipeline-cache key.",
                None,
            ),
        };
        // Pieces pushed in turn: through `format!` and a `String` of notes
        // it cost a third of describing the finding.
        let mut message = String::with_capacity(512);
        for piece in [
            "`",
            op,
            "` by `",
            &origin.name,
            "` (",
            what,
            "): Apple GPUs have no integer divider, so a divisor unknown when the pipeline is built runs a ~730-cycle routine each time, against ~80 for a [[function_constant]] and ~5 for a power of two.",
            fix,
        ] {
            message.push_str(piece);
        }
        message.push_str(&pair_note(&evidence));
        push_cost_notes(&mut message, m.loop_depth(ctx), bits);
        Some(Description {
            message,
            evidence,
            help: help.map(str::to_string),
        })
    }
}

/// The fix for a divisor read from a shape array in a loop over dimensions.
const SHAPE_ARRAY_HELP: &str = "Precompute on the host, for each element, a magic multiplier and shift (the round-up method of Granlund and Montgomery, as libdivide does) and pass them beside the shape, so each divide becomes a multiply-high and a shift; or give contiguous and low-ndim inputs a fast path (a [[function_constant]] ndim, or a kernel of their own) that skips the loop.";

/// The fix for a divide by `threads_per_threadgroup` and its kin.
const BUILTIN_HELP: &str = "Dispatch with a fixed threadgroup size and divide by it as a literal or a [[function_constant]] (with [[max_total_threads_per_threadgroup]] to hold the kernel to it); a power of two becomes a shift.";
