//! Per-kernel metrics of one module: instruction counts by class, blocks,
//! loops, allocas and findings, summed over the kernel and every function
//! of the module it calls (each once).
//!
//! The counts must not depend on which printer made the text: a typed `.ll`
//! and its opaque twin are the same program. So instructions that make no
//! code and exist in one era or printer only are not counted at all (see
//! `is_free`).

use crate::analysis::ControlFlow;
use crate::analysis::defuse::DefUse;
use crate::analysis::layout;
use crate::analysis::provenance::{Class, FunctionProvenance, ModuleContext, Provenance};
use crate::ir::{self, Body, Diagnostic, Instruction, Module, Opcode, Severity, Value};
use crate::rules::{self, Finding, RuleSet};
use rustc_hash::FxHashMap;

/// One metric: its JSON key and its label in the text table.
pub struct MetricInfo {
    pub key: &'static str,
    pub label: &'static str,
}

const fn m(key: &'static str, label: &'static str) -> MetricInfo {
    MetricInfo { key, label }
}

/// Every metric, in the order the table shows them. `Metrics` is indexed
/// by position here, through the constants below.
pub const METRICS: [MetricInfo; 29] = [
    m("instructions", "instructions"),
    m("int_alu", "integer ALU"),
    m("float_alu", "float ALU"),
    m("divides_literal", "divides by literal"),
    m("divides_function_constant", "divides by function constant"),
    m("divides_uniform", "divides by uniform"),
    m("divides_varying", "divides by varying"),
    m("divides_mixed", "divides by mixed"),
    m("divides_unknown", "divides by unknown"),
    m("loads_as0", "loads thread (as 0)"),
    m("loads_as1", "loads device (as 1)"),
    m("loads_as2", "loads constant (as 2)"),
    m("loads_as3", "loads threadgroup (as 3)"),
    m("loads_as_other", "loads other space"),
    m("stores_as0", "stores thread (as 0)"),
    m("stores_as1", "stores device (as 1)"),
    m("stores_as2", "stores constant (as 2)"),
    m("stores_as3", "stores threadgroup (as 3)"),
    m("stores_as_other", "stores other space"),
    m("barriers", "barriers"),
    m("atomics", "atomics"),
    m("calls", "other calls"),
    m("blocks", "basic blocks"),
    m("loops", "loops"),
    m("allocas", "allocas"),
    m("alloca_bytes", "alloca bytes"),
    m("phis", "phis"),
    m("selects", "selects"),
    m("geps", "getelementptrs"),
];

pub const INSTRUCTIONS: usize = 0;
const INT_ALU: usize = 1;
const FLOAT_ALU: usize = 2;
const DIVIDES: usize = 3;
const LOADS: usize = 9;
const STORES: usize = 14;
const BARRIERS: usize = 19;
const ATOMICS: usize = 20;
const CALLS: usize = 21;
const BLOCKS: usize = 22;
const LOOPS: usize = 23;
const ALLOCAS: usize = 24;
const ALLOCA_BYTES: usize = 25;
const PHIS: usize = 26;
const SELECTS: usize = 27;
const GEPS: usize = 28;

/// Counts, indexed like `METRICS`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Metrics(pub [u64; METRICS.len()]);

impl Metrics {
    fn add(&mut self, other: &Metrics) {
        for (a, b) in self.0.iter_mut().zip(other.0.iter()) {
            *a = a.saturating_add(*b);
        }
    }
}

/// What one kernel adds up to.
pub struct KernelStats {
    pub name: String,
    /// Index of the kernel's function in `Module::functions`, when defined.
    pub function: Option<usize>,
    /// The defined functions counted: the kernel and what it calls.
    pub functions: Vec<usize>,
    pub metrics: Metrics,
    /// Findings in those functions, with the function's index.
    pub findings: Vec<(usize, Finding)>,
}

/// One module read and measured. Keeps what is needed to look at a body
/// again later (to explain a finding) without keeping any body.
pub struct Analysis<'a> {
    pub module: Module<'a>,
    pub ctx: ModuleContext<'a>,
    /// The provenance each function's parameters got, to recompute a
    /// body's provenance exactly as the rules saw it.
    pub params: Vec<Vec<Provenance>>,
    pub kernels: Vec<KernelStats>,
    /// Reader errors: the counts of a file with any are not to be trusted.
    pub errors: Vec<Diagnostic>,
    /// The file as shown in findings.
    pub path: String,
}

/// Reads `text` and measures every `!air.kernel` entry point.
pub fn analyze<'a>(path: &str, text: &'a str, rules: &RuleSet) -> Analysis<'a> {
    let mut module = ir::read_module(text);
    let mut errors: Vec<Diagnostic> = std::mem::take(&mut module.diagnostics);
    let air = ir::air::air_info(&module);
    errors.extend(air.diagnostics.iter().cloned());
    let n = module.functions.len();
    let mut per_function: Vec<Metrics> = vec![Metrics::default(); n];
    let mut findings_of: Vec<Vec<Finding>> = vec![Vec::new(); n];
    let mut params: Vec<Vec<Provenance>> = vec![Vec::new(); n];
    let shared_path: std::sync::Arc<str> = path.into();
    let mut scratch = rules::engine::Scratch::default();
    // The same walk as the scan's, so counts and findings agree with it.
    let walked = crate::scan::walk_functions(&mut module, air, &mut errors, |module, ctx, v| {
        params[v.index] = v.params.to_vec();
        per_function[v.index] = count(module, v.body, v.du, v.cf, v.prov);
        rules::run(
            rules,
            &v.context(module, ctx),
            &shared_path,
            &mut findings_of[v.index],
            &mut scratch,
        );
    });
    let crate::scan::Walked { ctx, graph, .. } = walked;

    // Each function's counts go to every kernel that reaches it: the same
    // work as summing each kernel's closure, done once per (function, kernel).
    let mut kernels: Vec<KernelStats> = Vec::new();
    let mut slot_of_entry: FxHashMap<usize, usize> = FxHashMap::default();
    let mut named: rustc_hash::FxHashSet<&str> = rustc_hash::FxHashSet::default();
    for (e, ep) in ctx.air.entry_points.iter().enumerate() {
        if ep.stage != "kernel" || !named.insert(ep.name) {
            continue;
        }
        slot_of_entry.insert(e, kernels.len());
        kernels.push(KernelStats {
            name: ep.name.to_string(),
            function: graph.index_of.get(ep.name).copied(),
            functions: Vec::new(),
            metrics: Metrics::default(),
            findings: Vec::new(),
        });
    }
    for fi in 0..n {
        for e in &graph.reached_by[fi] {
            let Some(k) = slot_of_entry.get(e).and_then(|&s| kernels.get_mut(s)) else {
                continue;
            };
            if !module.functions[fi].is_definition {
                continue;
            }
            k.functions.push(fi);
            k.metrics.add(&per_function[fi]);
            k.findings
                .extend(findings_of[fi].iter().map(|f| (fi, f.clone())));
        }
    }
    for k in &mut kernels {
        k.findings.sort_by_key(|(_, f)| f.ir.line);
    }
    errors.retain(|d| d.severity == Severity::Error);
    errors.sort_by_key(|d| d.line);
    Analysis {
        module,
        ctx,
        params,
        kernels,
        errors,
        path: path.to_string(),
    }
}

/// The counts of one function body.
fn count(
    module: &Module<'_>,
    body: &Body<'_>,
    du: &DefUse<'_>,
    cf: &ControlFlow,
    prov: &FunctionProvenance,
) -> Metrics {
    let types = &module.types;
    let mut m = Metrics::default();
    m.0[BLOCKS] = body.blocks.len() as u64;
    m.0[LOOPS] = cf.loops().loops.len() as u64;
    for inst in &body.instructions {
        if is_free(module, inst) {
            continue;
        }
        m.0[INSTRUCTIONS] += 1;
        use Opcode::*;
        let class = match inst.opcode {
            Add | Sub | Mul | Shl | LShr | AShr | And | Or | Xor | ICmp | Trunc | ZExt | SExt => {
                Some(INT_ALU)
            }
            UDiv | SDiv | URem | SRem => {
                let class = inst
                    .operands
                    .get(1)
                    .map_or(Class::Unknown, |d| prov.value(du, &d.value).class());
                Some(DIVIDES + divide_slot(class))
            }
            FNeg | FAdd | FSub | FMul | FDiv | FRem | FCmp | FPTrunc | FPExt | FPToUI | FPToSI
            | UIToFP | SIToFP => Some(FLOAT_ALU),
            Load => Some(LOADS + space_slot(types, inst.operands.first())),
            Store => Some(STORES + space_slot(types, inst.operands.get(1))),
            AtomicRmw | CmpXchg => Some(ATOMICS),
            Call => Some(match inst.callee_name() {
                Some("air.wg.barrier" | "air.simdgroup.barrier") => BARRIERS,
                Some(c) if c.starts_with("air.atomic.") => ATOMICS,
                _ => CALLS,
            }),
            Alloca => {
                let n = match inst.operands.first().map(|o| &o.value) {
                    Some(Value::Int(c)) => (*c).max(0) as u64,
                    _ => 1,
                };
                let size = inst
                    .elem_ty
                    .and_then(|t| layout::size_align(types, t))
                    .map_or(0, |(s, _)| s);
                m.0[ALLOCA_BYTES] = m.0[ALLOCA_BYTES].saturating_add(size.saturating_mul(n));
                Some(ALLOCAS)
            }
            Phi => Some(PHIS),
            Select => Some(SELECTS),
            GetElementPtr => Some(GEPS),
            _ => None,
        };
        if let Some(c) = class {
            m.0[c] += 1;
        }
    }
    m
}

fn divide_slot(class: Class) -> usize {
    match class {
        Class::Literal => 0,
        Class::FunctionConstant => 1,
        Class::Uniform => 2,
        Class::Varying => 3,
        Class::Mixed => 4,
        Class::Unknown => 5,
    }
}

/// Address spaces 0..3 (thread, device, constant, threadgroup), then any other.
fn space_slot(types: &ir::TypeTable<'_>, ptr: Option<&ir::Operand<'_>>) -> usize {
    match ptr.and_then(|p| types.addrspace(p.ty)) {
        Some(a) if a < 4 => a as usize,
        _ => 4,
    }
}

/// True for instructions that make no code, which one printer or pointer
/// era has and the other lacks, so they are not counted:
/// - pointer-to-pointer `bitcast` (typed pointers need them, opaque
///   pointers do not) and `addrspacecast`;
/// - `llvm.dbg.*` calls (LLVM 19+ prints `#dbg_value` records instead);
/// - markers that only inform the optimizer (`llvm.lifetime.*`,
///   `llvm.assume`, `llvm.experimental.noalias.scope.decl`, ...), which
///   -O2 adds and -O0 lacks, and which some upgrades drop.
pub fn is_free(module: &Module<'_>, inst: &Instruction<'_>) -> bool {
    let types = &module.types;
    match inst.opcode {
        Opcode::BitCast | Opcode::AddrSpaceCast => {
            types.addrspace(inst.ty).is_some()
                && inst
                    .operands
                    .first()
                    .is_some_and(|o| types.addrspace(o.ty).is_some())
        }
        Opcode::Call => inst.callee_name().is_some_and(is_marker),
        _ => false,
    }
}

fn is_marker(callee: &str) -> bool {
    const PREFIXES: &[&str] = &[
        "llvm.dbg.",
        "llvm.lifetime.",
        "llvm.invariant.",
        "llvm.experimental.noalias.scope.decl",
        "llvm.pseudoprobe",
    ];
    matches!(callee, "llvm.assume" | "llvm.donothing" | "llvm.sideeffect")
        || PREFIXES.iter().any(|p| callee.starts_with(p))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn of(text: &str) -> Metrics {
        let a = analyze("t.ll", text, &RuleSet { rules: Vec::new() });
        assert!(a.errors.is_empty(), "{:?}", a.errors);
        a.kernels
            .first()
            .map(|k| k.metrics.clone())
            .unwrap_or_default()
    }

    fn get(m: &Metrics, key: &str) -> u64 {
        let i = METRICS.iter().position(|x| x.key == key).unwrap();
        m.0[i]
    }

    const KERNEL_MD: &str = "!air.kernel = !{!0}\n!0 = !{ptr @k, !1, !2}\n!1 = !{}\n!2 = !{!3}\n!3 = !{i32 0, !\"air.buffer\", !\"air.location_index\", i32 0, i32 1, !\"air.read_write\", !\"air.address_space\", i32 1, !\"air.arg_type_size\", i32 4, !\"air.arg_type_align_size\", i32 4, !\"air.arg_type_name\", !\"int\", !\"air.arg_name\", !\"out\"}\n";

    #[test]
    fn classes_and_free_instructions() {
        let text = format!(
            "@tg = internal addrspace(3) global [4 x i32] undef\n\
             define void @k(ptr addrspace(1) %0) {{\n\
             \x20 %p = alloca [3 x i64], align 8\n\
             \x20 %q = bitcast ptr %p to ptr\n\
             \x20 call void @llvm.lifetime.start.p0(i64 24, ptr %q)\n\
             \x20 %v = load i32, ptr addrspace(1) %0\n\
             \x20 %w = load i32, ptr addrspace(3) @tg\n\
             \x20 store i32 %v, ptr addrspace(3) @tg\n\
             \x20 %d = udiv i32 %v, 7\n\
             \x20 %e = sdiv i32 %w, %v\n\
             \x20 %f = sitofp i32 %e to float\n\
             \x20 %g = fmul float %f, %f\n\
             \x20 call void @air.wg.barrier(i32 2, i32 1)\n\
             \x20 %h = call float @air.atomic.global.add.f32(ptr addrspace(1) %0, float %g, i32 0, i32 2, i1 true)\n\
             \x20 %i = atomicrmw add ptr addrspace(1) %0, i32 1 monotonic\n\
             \x20 call void @helper(i32 %d)\n\
             \x20 ret void\n\
             }}\n\
             define internal void @helper(i32 %x) {{\n\
             \x20 %y = add i32 %x, 1\n\
             \x20 ret void\n\
             }}\n\
             declare void @llvm.lifetime.start.p0(i64, ptr)\n\
             declare void @air.wg.barrier(i32, i32)\n\
             declare float @air.atomic.global.add.f32(ptr addrspace(1), float, i32, i32, i1)\n\
             {KERNEL_MD}"
        );
        let m = of(&text);
        // 15 in @k without the bitcast and the lifetime marker, 2 in @helper.
        assert_eq!(get(&m, "instructions"), 15);
        assert_eq!(get(&m, "blocks"), 2);
        assert_eq!(get(&m, "int_alu"), 1);
        assert_eq!(get(&m, "float_alu"), 2);
        assert_eq!(get(&m, "divides_literal"), 1);
        assert_eq!(get(&m, "divides_varying"), 1);
        assert_eq!(get(&m, "loads_as1"), 1);
        assert_eq!(get(&m, "loads_as3"), 1);
        assert_eq!(get(&m, "stores_as3"), 1);
        assert_eq!(get(&m, "barriers"), 1);
        assert_eq!(get(&m, "atomics"), 2);
        assert_eq!(get(&m, "calls"), 1);
        assert_eq!(get(&m, "allocas"), 1);
        assert_eq!(get(&m, "alloca_bytes"), 24);
    }

    /// A helper called twice, and by two kernels, counts once per kernel.
    #[test]
    fn each_function_once_per_kernel() {
        let text = "define void @k(ptr addrspace(1) %0) {\n  call void @h()\n  call void @h()\n  ret void\n}\n\
             define void @k2(ptr addrspace(1) %0) {\n  call void @h()\n  ret void\n}\n\
             define internal void @h() {\n  %a = add i32 1, 2\n  ret void\n}\n\
             !air.kernel = !{!0, !4}\n!0 = !{ptr @k, !1, !2}\n!1 = !{}\n!2 = !{}\n!4 = !{ptr @k2, !1, !2}\n";
        let a = analyze("t.ll", text, &RuleSet { rules: Vec::new() });
        let n: Vec<(String, u64)> = a
            .kernels
            .iter()
            .map(|k| (k.name.clone(), get(&k.metrics, "instructions")))
            .collect();
        assert_eq!(n, [("k".to_string(), 5), ("k2".to_string(), 4)]);
    }
}
