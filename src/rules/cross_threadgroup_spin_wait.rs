//! `cross-threadgroup-spin-wait`: a loop that ends when a device atomic
//! (an atomic load, a compare-and-exchange, an exchange) shows a value some
//! other thread writes. Metal promises no forward progress between
//! threadgroups, and without `coherent(device)` (Metal 3.2; seed 001 finding
//! 182) the write need not become visible: Metal FlashAttention's attention
//! kernel spins up to 1,000 times on a device `cmpxchg` for another
//! threadgroup's flag.
//!
//! Told apart from a compare-and-exchange retry loop (float-atomic-cas-loop,
//! an atomic max): there the loop ends when its own exchange succeeds, and
//! its expected value is the loop's own last observation of the word (the
//! exchange's previous result, or an atomic load in the loop) or its new
//! value is computed from one. A spin's expected value is fixed (the flag's
//! "ready" value) and nothing it writes depends on what it read.

use super::engine::Matched;
use super::evidence::{Evidence, SpinWait};
use super::{Description, FunctionContext, RuleHook};
use crate::analysis::loops::Loop;
use crate::analysis::provenance::OriginKind;
use crate::analysis::slice::{computed_in_loop_from, exits_fed_by};
use crate::ir::{Flags, Opcode, Value};

pub struct CrossThreadgroupSpinWait;

#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Load,
    Exchange,
    CompareExchange,
}

/// The kind of device atomic instruction `i` is, and its name for the
/// message; `None` for anything else (threadgroup atomics included).
fn device_atomic(ctx: &FunctionContext<'_, '_>, i: usize) -> Option<(Kind, &'static str)> {
    let inst = ctx.body.instructions.get(i)?;
    let kind = match inst.opcode {
        Opcode::Load if inst.flags.contains(Flags::ATOMIC) => (Kind::Load, "load atomic"),
        Opcode::CmpXchg => (Kind::CompareExchange, "cmpxchg"),
        Opcode::AtomicRmw if inst.predicate == Some("xchg") => (Kind::Exchange, "atomicrmw xchg"),
        Opcode::Call => {
            let callee = inst.callee_name()?.strip_prefix("air.atomic.global.")?;
            if callee.starts_with("load.") {
                (Kind::Load, "air.atomic.global.load")
            } else if callee.starts_with("cmpxchg.") {
                (Kind::CompareExchange, "air.atomic.global.cmpxchg")
            } else if callee.starts_with("xchg.") {
                (Kind::Exchange, "air.atomic.global.xchg")
            } else {
                return None;
            }
        }
        _ => return None,
    };
    let ptr = inst.operands.first()?;
    (ctx.module.types.addrspace(ptr.ty) == Some(1)).then_some(kind)
}

/// Whether the compare-and-exchange `i` retries an update of its own (the
/// loop around `lp` is a retry loop): its expected or its new value is
/// computed in the loop from a device atomic's result.
fn is_retry(ctx: &FunctionContext<'_, '_>, lp: &Loop, i: usize) -> bool {
    let Some(inst) = ctx.body.instructions.get(i) else {
        return false;
    };
    let from_atomic = |v: &Value<'_>| {
        computed_in_loop_from(ctx.body, ctx.du, lp, v, |x| device_atomic(ctx, x).is_some())
    };
    if inst.operands.get(2).is_some_and(|d| from_atomic(&d.value)) {
        return true;
    }
    let Some(expected) = inst.operands.get(1) else {
        return false;
    };
    if inst.opcode == Opcode::CmpXchg {
        return from_atomic(&expected.value);
    }
    // AIR passes the expected value through private memory, which the
    // exchange overwrites with what it found when it fails: stored in the
    // loop from a fixed value, it is a wait; not stored in the loop, the
    // next try expects what the last one saw, a retry.
    let Some(slot) = ctx.du.def_of(&expected.value) else {
        return true;
    };
    let stores: Vec<usize> = ctx
        .du
        .users(slot)
        .filter(|&u| lp.contains(ctx.du.block_of(u)))
        .filter(|&u| {
            ctx.body.instructions.get(u).is_some_and(|s| {
                s.opcode == Opcode::Store
                    && s.operands.get(1).is_some_and(|p| p.value == expected.value)
            })
        })
        .collect();
    stores.is_empty()
        || stores.iter().any(|&s| {
            ctx.body
                .instructions
                .get(s)
                .and_then(|st| st.operands.first())
                .is_some_and(|v| from_atomic(&v.value))
        })
}

/// The instructions of `lp`'s blocks.
fn loop_instructions<'c>(
    ctx: &'c FunctionContext<'_, '_>,
    lp: &'c Loop,
) -> impl Iterator<Item = usize> + 'c {
    lp.blocks()
        .iter()
        .filter_map(|&b| ctx.body.blocks.get(b))
        .flat_map(|b| b.instructions.clone())
}

/// The innermost loop around device atomic `i` whose exit the atomic's
/// value decides (an index into `Loops::loops`), with those exiting
/// blocks; `None` when there is none or the loop retries an update of its
/// own (a compare-and-exchange retry on the same address).
fn waiting_loop(ctx: &FunctionContext<'_, '_>, i: usize) -> Option<(usize, Vec<usize>)> {
    let (kind, _) = device_atomic(ctx, i)?;
    let address = &ctx.body.instructions.get(i)?.operands.first()?.value;
    let loops = ctx.cf.loops();
    let mut at = loops.innermost(ctx.du.block_of(i));
    while let Some(l) = at {
        let lp = loops.loops.get(l)?;
        let exits = exits_fed_by(ctx.body, ctx.du, ctx.cf, lp, i);
        if !exits.is_empty() {
            let retry = match kind {
                Kind::CompareExchange => is_retry(ctx, lp, i),
                // The read of a retry loop (`do { old = load(p); } while
                // (!cas(p, &old, f(old)))`) decides its exit too.
                Kind::Load | Kind::Exchange => loop_instructions(ctx, lp).any(|x| {
                    matches!(device_atomic(ctx, x), Some((Kind::CompareExchange, _)))
                        && ctx
                            .body
                            .instructions
                            .get(x)
                            .and_then(|c| c.operands.first())
                            .is_some_and(|p| &p.value == address)
                        && is_retry(ctx, lp, x)
                }),
            };
            return (!retry).then_some((l, exits));
        }
        at = lp.parent;
    }
    None
}

impl RuleHook for CrossThreadgroupSpinWait {
    fn name(&self) -> &'static str {
        "cross-threadgroup-spin-wait"
    }

    /// The pattern names every load (it cannot say "atomic"): a plain one,
    /// most of them, is turned away here before its loop is looked for.
    fn may_describe(&self, ctx: &FunctionContext<'_, '_>, inst: usize) -> bool {
        device_atomic(ctx, inst).is_some()
    }

    fn describe(&self, ctx: &FunctionContext<'_, '_>, m: &Matched) -> Option<Description> {
        let (_, operation) = device_atomic(ctx, m.inst)?;
        let (l, exits) = waiting_loop(ctx, m.inst)?;
        let lp = ctx.cf.loops().loops.get(l)?;
        // One finding per loop: at the first atomic that decides its exit.
        if loop_instructions(ctx, lp)
            .filter(|&x| x < m.inst)
            .any(|x| waiting_loop(ctx, x).is_some_and(|(other, _)| other == l))
        {
            return None;
        }
        let line_of_block = |b: usize| {
            ctx.body
                .blocks
                .get(b)
                .and_then(|blk| {
                    ctx.body
                        .instructions
                        .get(blk.instructions.end.checked_sub(1)?)
                })
                .map_or(0, |t| t.line)
        };
        let exit_line = exits.first().map_or(0, |&b| line_of_block(b));
        let loop_line = ctx
            .body
            .blocks
            .get(lp.header)
            .and_then(|blk| ctx.body.instructions.get(blk.instructions.start))
            .map_or(0, |t| t.line);
        let bounded = lp.exiting().iter().any(|b| exits.binary_search(b).is_err());
        let address = ctx.prov.operand(ctx.body, ctx.du, m.inst, 0);
        let memory = address
            .origin_of(OriginKind::Memory)
            .or_else(|| address.origin_of(OriginKind::Argument))
            .map_or_else(|| "device memory".to_string(), |o| o.name);
        let ending = if bounded {
            " The loop also ends on a try limit, and then the kernel goes on without the value it waited for."
        } else {
            " Nothing else ends the loop: if the value never comes, the kernel hangs."
        };
        Some(Description {
            message: format!(
                "This loop waits on `{operation}` of `{memory}`: it ends when another thread, usually of another threadgroup, writes the value it expects. Metal promises no forward progress between threadgroups (the writer may not run until the waiter finishes) and, without `coherent(device)` memory, not that the write is ever seen.{ending}"
            ),
            evidence: Evidence::SpinWait(SpinWait {
                bounded,
                exit_line,
                loop_line,
                memory,
                operation: operation.to_string(),
            }),
            help: None,
        })
    }
}
