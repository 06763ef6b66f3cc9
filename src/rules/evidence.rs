//! What a rule found, as plain typed facts: one struct per kind of finding,
//! in the manner of ruff's violation structs. Rules fill these in; the
//! report alone decides how they are written (`Serialize`: the JSON report's
//! `evidence` object, whose keys are the fields in declaration order, kept
//! alphabetical as reports always had them).
//!
//! The doc comments here are the report's documentation too: `JsonSchema`
//! turns them into the descriptions of docs/report.schema.json's `evidence`,
//! which tests/report_formats.rs keeps equal to what these types generate.

use crate::analysis::provenance::{Class, OriginKind};
use schemars::JsonSchema;
use serde::Serialize;

/// Rule-specific facts behind a finding: an object of one of the kinds
/// below, each named after the rule or rules that write it.
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
    /// The integer width of the divide.
    pub bits: u32,
    /// The routine's cost per execution, where the rule counts it.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(with = "u32")]
    pub cycles: Option<u32>,
    pub divisor: Divisor,
    /// As the finding's `loop_depth`: loops around the divide, 0 outside any.
    pub loop_depth: u32,
    /// `udiv`, `sdiv`, `urem` or `srem`.
    #[schemars(extend("enum" = ["udiv", "sdiv", "urem", "srem"]))]
    pub opcode: &'static str,
    /// The remainder (or quotient) on the same operands, computed by the
    /// same routine and reported with this one.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(with = "Paired")]
    pub paired_with: Option<Paired>,
    /// A divide of vectors.
    pub vector: bool,
}

/// The other half of a divide/remainder pair.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct Paired {
    /// Its `udiv`, `sdiv`, `urem` or `srem`.
    #[schemars(extend("enum" = ["udiv", "sdiv", "urem", "srem"]))]
    pub opcode: &'static str,
    /// Its IR line.
    pub line: u32,
}

/// Where a divisor comes from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct Divisor {
    /// Its provenance class.
    pub class: Class,
    /// What its main origin is.
    pub kind: OriginKind,
    /// As a person would write it: `args.ne12`, `divisor`, `threads_per_threadgroup`.
    pub name: String,
}

/// A barrier that only some threads reach (`barrier-in-divergent-flow`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct Barrier {
    /// `air.wg.barrier` or `air.simdgroup.barrier`.
    #[schemars(extend("enum" = ["air.wg.barrier", "air.simdgroup.barrier"]))]
    pub barrier: &'static str,
    /// The IR line of the branch that decides whether it runs.
    pub branch_line: u32,
    /// Where that branch's condition comes from.
    pub condition: Condition,
    /// The branch exits a loop around the barrier.
    pub loop_exit: bool,
    /// The IR line of the barrier (or barrier-reaching call) the skipping
    /// threads can reach instead, or null.
    pub other_barrier_line: Option<u32>,
    /// Where the threads sent the other way go.
    pub skipping: Skipping,
    /// The helper called here that reaches the barrier, when the finding
    /// is such a call (`through_helpers`).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(with = "String")]
    pub via: Option<String>,
}

/// A branch condition: its class and the value it depends on.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct Condition {
    /// Its provenance class (`varying` or `mixed`).
    pub class: Class,
    /// The builtin, argument or memory named as its main origin, or null.
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
    /// Loops around the atomic, 0 outside any.
    pub loop_depth: u32,
    /// The buffer updated (`sum`, `result[0]`), or `device memory`.
    pub memory: String,
    /// The atomic's callee or `atomicrmw` operation.
    pub operation: String,
}

/// 8-bit integer arithmetic (`byte-arithmetic`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct ByteArithmetic {
    /// The instruction's opcode (`add`, `mul`, ...).
    pub opcode: String,
    /// Its IR type, as `i8` or `<4 x i8>`.
    #[serde(rename = "type")]
    pub ty: String,
}

/// A double-precision operation or conversion (`double-precision`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct DoublePrecision {
    /// The function called, for a call; null otherwise.
    pub callee: Option<String>,
    /// The IR type of the first operand.
    pub from: String,
    /// The instruction's opcode (`fpext`, `fmul`, `call`, ...).
    pub opcode: &'static str,
    /// The IR type of the result.
    pub to: String,
}

/// A private array indexed by a runtime value (`dynamic-private-array`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct DynamicIndex {
    /// The IR line of the `getelementptr` that indexes the array.
    pub gep_line: u32,
    /// The index value, as `%12`, or `?`.
    pub index: String,
    /// The index's provenance class.
    pub index_class: Class,
    /// The array's element type.
    #[serde(rename = "type")]
    pub ty: String,
}

/// A compare-and-swap loop standing in for a float atomic (`float-atomic-cas-loop`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct FloatAtomicCas {
    /// The address space updated: 1 device, 3 threadgroup (0 when unknown).
    pub addrspace: u32,
    /// Loops around the exchange, counting its retry loop.
    pub loop_depth: u32,
    /// The compare-and-exchange's callee, or `cmpxchg`.
    pub operation: String,
}

/// The miscompiled `mul`/`shl` address chain (`fused-shift-address-in-branch`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct FusedShift {
    /// IR lines of the chain, from the multiply to the memory access.
    pub chain_lines: Vec<u32>,
    /// The exact constant of the confirmed miscompile (m = 5, shift 3).
    pub confirmed: bool,
    /// The multiplier, 2^(32-shift) - m.
    pub constant: i64,
    /// m in that multiplier.
    pub m: u32,
    /// The shift, k.
    pub shift: u32,
}

/// A call through a function pointer (`indirect-call`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct IndirectCall {
    /// Which function is called can differ from thread to thread.
    pub divergent: bool,
    /// Where the callee comes from: a `visible_function_table` or another
    /// `function_pointer`.
    #[schemars(extend("enum" = ["visible_function_table", "function_pointer"]))]
    pub source: &'static str,
    /// The visible function table read (`?` when unnamed), or null.
    pub table: Option<String>,
}

/// A precise math function where a fast one exists (`precise-math`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct PreciseMath {
    /// The precise function called, as `air.sin.f32`.
    pub callee: String,
    /// Its fast form, as `air.fast_sin.f32`.
    pub fast_form: String,
    /// The MSL function, as `sin`.
    pub function: String,
}

/// A `constant` read at a per-thread address (`per-thread-constant-read`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct ConstantRead {
    /// The `constant` buffer argument read.
    pub buffer: String,
    /// The thread-varying value the address depends on.
    pub index: String,
    /// Loops around the read, 0 outside any.
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
    #[schemars(extend("enum" = ["bool", "enum"]))]
    pub kind: &'static str,
    /// The instructions of the blocks the branch decides.
    pub region_instructions: u32,
    /// Loops around the branch, 0 outside any.
    pub loop_depth: u32,
    /// The field or argument, as `uniforms.disk_enabled` or `mode`.
    pub switch: String,
}
