//! What a rule found, as plain typed facts: one struct per kind of finding,
//! in the manner of ruff's violation structs. Rules fill these in; the
//! report alone decides how they are written (`Serialize`: the JSON report's
//! `evidence` object, whose keys are the fields in declaration order, kept
//! alphabetical as reports always had them).

use crate::analysis::provenance::{Class, OriginKind};
use schemars::JsonSchema;
use serde::Serialize;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(untagged)]
pub enum Evidence {
    /// A rule without a hook (a user's pattern), or a finding that carries
    /// nothing but its message: `{}`.
    None(Empty),
    Divide(Divide),
    Barrier(Barrier),
    Atomic(Atomic),
    ByteArithmetic(ByteArithmetic),
    DoublePrecision(DoublePrecision),
    DynamicIndex(DynamicIndex),
    FloatAtomicCas(FloatAtomicCas),
    FusedShift(FusedShift),
    IndirectCall(IndirectCall),
    PreciseMath(PreciseMath),
    ConstantRead(ConstantRead),
    SpinWait(SpinWait),
    ConstantBranch(ConstantBranch),
}

impl Evidence {
    pub fn none() -> Evidence {
        Evidence::None(Empty {})
    }

    /// What the finding is about, when a rule names one (the divisor of a
    /// divide): part of the fingerprint, so that two divides of one shape by
    /// different values are told apart.
    pub fn subject(&self) -> Option<&str> {
        match self {
            Evidence::Divide(d) => Some(&d.divisor.name),
            _ => None,
        }
    }
}

/// An empty object.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct Empty {}

/// An integer divide or remainder (`divide-by-uniform`, `divide-by-varying`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct Divide {
    pub bits: u32,
    /// The routine's cost per execution, where the rule counts it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cycles: Option<u32>,
    pub divisor: Divisor,
    pub loop_depth: u32,
    /// `udiv`, `sdiv`, `urem` or `srem`.
    pub opcode: &'static str,
    /// The remainder (or quotient) on the same operands, computed by the
    /// same routine and reported with this one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub paired_with: Option<Paired>,
    pub vector: bool,
}

/// The other half of a divide/remainder pair.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct Paired {
    pub opcode: &'static str,
    /// Its IR line.
    pub line: u32,
}

/// Where a divisor comes from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct Divisor {
    pub class: Class,
    pub kind: OriginKind,
    /// As a person would write it: `args.ne12`, `divisor`, `threads_per_threadgroup`.
    pub name: String,
}

/// A barrier that only some threads reach (`barrier-in-divergent-flow`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct Barrier {
    /// `air.wg.barrier` or `air.simdgroup.barrier`.
    pub barrier: &'static str,
    /// The IR line of the branch that decides whether it runs.
    pub branch_line: u32,
    pub condition: Condition,
    /// The branch exits a loop around the barrier.
    pub loop_exit: bool,
    /// The barrier the skipping threads can reach instead.
    pub other_barrier_line: Option<u32>,
    pub skipping: Skipping,
    /// The helper called here that reaches the barrier.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub via: Option<String>,
}

/// A branch condition: its class and the value it depends on.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct Condition {
    pub class: Class,
    pub name: Option<String>,
}

/// What the threads a divergent branch sends away from a barrier do.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Skipping {
    /// They can reach another barrier.
    MeetsBarrier,
    /// They come around the loop and may reach this one in another iteration.
    ComesBack,
    /// Not ruled out that they reach another barrier.
    Unknown,
    /// They reach no other barrier but go on running the kernel (reported
    /// only with `strict = true`).
    KeepsRunning,
}

/// Many threads' device atomic on one address (`device-atomic-contention`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct Atomic {
    /// Every thread uses the atomic's result (an append counter handing
    /// out slots): a note, with its own advice.
    pub append_counter: bool,
    pub loop_depth: u32,
    /// The buffer updated (`sum`, `result[0]`), or `device memory`.
    pub memory: String,
    /// The atomic's callee or `atomicrmw` operation.
    pub operation: String,
}

/// 8-bit integer arithmetic (`byte-arithmetic`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct ByteArithmetic {
    pub opcode: String,
    #[serde(rename = "type")]
    pub ty: String,
}

/// A double-precision operation or conversion (`double-precision`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct DoublePrecision {
    pub callee: Option<String>,
    pub from: String,
    pub opcode: &'static str,
    pub to: String,
}

/// A private array indexed by a runtime value (`dynamic-private-array`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct DynamicIndex {
    pub gep_line: u32,
    pub index: String,
    pub index_class: Class,
    #[serde(rename = "type")]
    pub ty: String,
}

/// A compare-and-swap loop standing in for a float atomic (`float-atomic-cas-loop`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct FloatAtomicCas {
    pub addrspace: u32,
    pub loop_depth: u32,
    pub operation: String,
}

/// The miscompiled `mul`/`shl` address chain (`fused-shift-address-in-branch`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct FusedShift {
    /// IR lines of the chain, from the multiply to the memory access.
    pub chain_lines: Vec<u32>,
    /// The exact constant of the confirmed miscompile (m = 5, shift 3).
    pub confirmed: bool,
    pub constant: i64,
    pub m: u32,
    pub shift: u32,
}

/// A call through a function pointer (`indirect-call`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct IndirectCall {
    pub divergent: bool,
    pub source: &'static str,
    pub table: Option<String>,
}

/// A precise math function where a fast one exists (`precise-math`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct PreciseMath {
    pub callee: String,
    pub fast_form: String,
    pub function: String,
}

/// A `constant` read at a per-thread address (`per-thread-constant-read`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct ConstantRead {
    /// The `constant` buffer argument read.
    pub buffer: String,
    /// The thread-varying value the address depends on.
    pub index: String,
    pub loop_depth: u32,
}

/// A loop that waits on a device atomic (`cross-threadgroup-spin-wait`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct SpinWait {
    /// The loop also ends on a condition the atomic does not decide (a try
    /// count): the wait gives up rather than hangs.
    pub bounded: bool,
    /// The IR line of the branch the atomic's value decides, which leaves the loop.
    pub exit_line: u32,
    /// The IR line of the loop's header.
    pub loop_line: u32,
    /// The buffer waited on, or `device memory`.
    pub memory: String,
    /// The atomic's callee, or `cmpxchg`, `load atomic`, `atomicrmw xchg`.
    pub operation: String,
}

/// A branch on a `constant` buffer's switch (`function-constant-branch`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct ConstantBranch {
    /// The literals the value is compared with (`[0]` for a bool).
    pub compared_to: Vec<i64>,
    /// `bool` (an `i1`/`i8` with a 0/1 range, or a value only tested
    /// against zero) or `enum` (compared with other constants).
    pub kind: &'static str,
    /// The instructions of the blocks the branch decides.
    pub region_instructions: u32,
    pub loop_depth: u32,
    /// The field or argument, as `uniforms.disk_enabled` or `mode`.
    pub switch: String,
}
