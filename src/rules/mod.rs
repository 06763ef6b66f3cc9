//! Rules: each declared by one `patterns/*.toml` file (what it matches, its
//! text) and, where the message needs more than the pattern can say, one
//! Rust file here that describes a match (`RuleHook`).

pub mod barrier_in_divergent_flow;
pub mod byte_arithmetic;
pub mod cause;
pub mod cross_threadgroup_spin_wait;
pub mod device_atomic_contention;
pub mod divide_by_uniform;
pub mod divide_by_varying;
pub mod double_precision;
pub mod dynamic_private_array;
pub mod engine;
pub mod evidence;
pub mod float_atomic_cas_loop;
pub mod function_constant_branch;
pub mod fused_shift_address_in_branch;
pub mod indirect_call;
pub mod options;
pub mod pattern;
pub mod per_thread_constant_read;
pub mod precise_math;

use crate::analysis::ControlFlow;
use crate::analysis::defuse::DefUse;
use crate::analysis::provenance::FunctionProvenance;
use crate::ir::air::AirInfo;
use crate::ir::{Body, Function, Module};
pub use evidence::Evidence;
pub use pattern::{Pattern, Severity};
use serde::Serialize;
use std::path::Path;
use std::sync::Arc;

/// The rules that ship with air-scan: (file name, text) of each pattern.
pub const BUILTIN_PATTERNS: &[(&str, &str)] = &[
    (
        "divide-by-uniform.toml",
        include_str!("../../patterns/divide-by-uniform.toml"),
    ),
    (
        "divide-by-varying.toml",
        include_str!("../../patterns/divide-by-varying.toml"),
    ),
    (
        "fused-shift-address-in-branch.toml",
        include_str!("../../patterns/fused-shift-address-in-branch.toml"),
    ),
    (
        "barrier-in-divergent-flow.toml",
        include_str!("../../patterns/barrier-in-divergent-flow.toml"),
    ),
    (
        "dynamic-private-array.toml",
        include_str!("../../patterns/dynamic-private-array.toml"),
    ),
    (
        "double-precision.toml",
        include_str!("../../patterns/double-precision.toml"),
    ),
    (
        "byte-arithmetic.toml",
        include_str!("../../patterns/byte-arithmetic.toml"),
    ),
    (
        "precise-math.toml",
        include_str!("../../patterns/precise-math.toml"),
    ),
    (
        "device-atomic-contention.toml",
        include_str!("../../patterns/device-atomic-contention.toml"),
    ),
    (
        "float-atomic-cas-loop.toml",
        include_str!("../../patterns/float-atomic-cas-loop.toml"),
    ),
    (
        "indirect-call.toml",
        include_str!("../../patterns/indirect-call.toml"),
    ),
    (
        "per-thread-constant-read.toml",
        include_str!("../../patterns/per-thread-constant-read.toml"),
    ),
    (
        "cross-threadgroup-spin-wait.toml",
        include_str!("../../patterns/cross-threadgroup-spin-wait.toml"),
    ),
    (
        "function-constant-branch.toml",
        include_str!("../../patterns/function-constant-branch.toml"),
    ),
];

/// What a rule's Rust side adds: the message and evidence of a match.
pub trait RuleHook: Sync {
    /// The pattern `name` this hook serves.
    fn name(&self) -> &'static str;
    /// A cheap test `describe` would fail for candidate instruction `inst`
    /// (its opcode, flags or types): false turns it away before the
    /// pattern's costlier conditions (provenance, chains, loops) are checked.
    fn may_describe(&self, _ctx: &FunctionContext<'_, '_>, _inst: usize) -> bool {
        true
    }
    /// Describes a match, or rejects it (`None`) when a closer look says it is no finding.
    fn describe(&self, ctx: &FunctionContext<'_, '_>, m: &engine::Matched) -> Option<Description>;
    /// The severity of this finding when it is not the pattern's (a
    /// rule whose milder case is a note).
    fn severity(&self, _description: &Description) -> Option<Severity> {
        None
    }
}

pub struct Description {
    pub message: String,
    pub evidence: Evidence,
    /// Replaces the pattern's fix when this match needs other advice.
    pub help: Option<String>,
}

fn hooks() -> [&'static dyn RuleHook; 14] {
    [
        &divide_by_uniform::DivideByUniform,
        &divide_by_varying::DivideByVarying,
        &fused_shift_address_in_branch::FusedShiftAddressInBranch,
        &barrier_in_divergent_flow::BarrierInDivergentFlow,
        &dynamic_private_array::DynamicPrivateArray,
        &double_precision::DoublePrecision,
        &byte_arithmetic::ByteArithmetic,
        &precise_math::PreciseMath,
        &device_atomic_contention::DeviceAtomicContention,
        &float_atomic_cas_loop::FloatAtomicCasLoop,
        &indirect_call::IndirectCall,
        &per_thread_constant_read::PerThreadConstantRead,
        &cross_threadgroup_spin_wait::CrossThreadgroupSpinWait,
        &function_constant_branch::FunctionConstantBranch,
    ]
}

#[derive(Clone)]
pub struct Rule {
    pub pattern: Pattern,
    pub hook: Option<&'static dyn RuleHook>,
    /// Where the pattern came from (built in, or a user's file).
    pub origin: String,
    /// What every finding of the rule repeats, shared by them all.
    shared: SharedNames,
}

/// A rule's name, id, category and help (the first paragraph of the
/// pattern's `fix`, unless a hook gives other advice), made once: copied
/// into each finding they were most of a large report's allocations.
#[derive(Clone)]
struct SharedNames {
    name: Arc<str>,
    id: Arc<str>,
    category: Arc<str>,
    help: Arc<str>,
}

impl Rule {
    /// Whether `name` is this rule's name or id, in any case: ids and names
    /// are matched so everywhere (`--select`, `explain`, suppressions).
    pub fn is_named(&self, name: &str) -> bool {
        name.eq_ignore_ascii_case(&self.pattern.name) || name.eq_ignore_ascii_case(&self.pattern.id)
    }

    fn new(pattern: Pattern, origin: String) -> Rule {
        let shared = SharedNames {
            name: pattern.name.as_str().into(),
            id: pattern.id.as_str().into(),
            category: pattern.category.as_str().into(),
            help: first_paragraph(&pattern.fix).into(),
        };
        Rule {
            pattern,
            hook: None,
            origin,
            shared,
        }
    }
}

/// `BUILTIN_PATTERNS` parsed, once a process: the rules in force and the
/// report's fallback cycle figures (`report::json::builtin_cycles`) both
/// start from them, and each parse cost ~1.5 M instructions.
pub fn builtin_patterns() -> Result<&'static [Pattern], String> {
    static PARSED: std::sync::OnceLock<Result<Vec<Pattern>, String>> = std::sync::OnceLock::new();
    let parsed = PARSED.get_or_init(|| {
        BUILTIN_PATTERNS
            .iter()
            .map(|(file, text)| {
                Pattern::parse(text).map_err(|e| format!("built-in pattern {file}: {e}"))
            })
            .collect()
    });
    parsed.as_deref().map_err(Clone::clone)
}

/// The rules in force for a scan.
#[derive(Clone)]
pub struct RuleSet {
    pub rules: Vec<Rule>,
}

impl RuleSet {
    /// The built-in rules, plus every `*.toml` in `extra_dirs`, filtered by
    /// `select` and `ignore` (rule names or ids; empty `select` keeps all).
    pub fn load(
        extra_dirs: &[&Path],
        select: &[String],
        ignore: &[String],
    ) -> Result<RuleSet, String> {
        let mut rules = Vec::new();
        for ((file, _), pattern) in BUILTIN_PATTERNS.iter().zip(builtin_patterns()?) {
            rules.push(Rule::new(pattern.clone(), format!("patterns/{file}")));
        }
        for dir in extra_dirs {
            let mut files: Vec<_> = std::fs::read_dir(dir)
                .map_err(|e| format!("{}: {e}", dir.display()))?
                .flatten()
                .map(|e| e.path())
                .filter(|p| p.extension().is_some_and(|x| x == "toml"))
                .collect();
            files.sort();
            for f in files {
                let text =
                    std::fs::read_to_string(&f).map_err(|e| format!("{}: {e}", f.display()))?;
                let pattern = Pattern::parse(&text).map_err(|e| format!("{}: {e}", f.display()))?;
                if rules
                    .iter()
                    .any(|r: &Rule| r.is_named(&pattern.name) || r.is_named(&pattern.id))
                {
                    return Err(format!(
                        "{}: rule {} ({}) is already defined",
                        f.display(),
                        pattern.name,
                        pattern.id
                    ));
                }
                rules.push(Rule::new(pattern, f.display().to_string()));
            }
        }
        for r in &mut rules {
            r.hook = hooks().into_iter().find(|h| h.name() == r.pattern.name);
        }
        let named = |r: &Rule, list: &[String]| list.iter().any(|s| r.is_named(s));
        for s in select.iter().chain(ignore) {
            if !rules.iter().any(|r| r.is_named(s)) {
                return Err(format!("no rule is named '{s}' (see `air-scan rules`)"));
            }
        }
        rules.retain(|r| (select.is_empty() || named(r, select)) && !named(r, ignore));
        Ok(RuleSet { rules })
    }

    /// Hands a project's options to the rules they are about.
    pub fn apply(&mut self, options: &options::RuleOptions) {
        for r in &mut self.rules {
            if r.pattern.name == "barrier-in-divergent-flow" {
                r.pattern.matcher.divergent_strict = options.barrier_in_divergent_flow.strict;
            }
        }
    }

    pub fn builtin() -> RuleSet {
        // The built-in patterns are tested; failing to load them is a build bug.
        RuleSet::load(&[], &[], &[]).unwrap_or(RuleSet { rules: Vec::new() })
    }

    /// The rule with this name or id, in any case (`AIR001`, `air001`).
    pub fn find(&self, name: &str) -> Option<&Rule> {
        self.rules.iter().find(|r| r.is_named(name))
    }
}

/// Everything a rule may look at for one function.
pub struct FunctionContext<'c, 'a> {
    pub module: &'c Module<'a>,
    pub air: &'c AirInfo<'a>,
    pub function: &'c Function<'a>,
    pub body: &'c Body<'a>,
    pub du: &'c DefUse<'a>,
    pub cf: &'c ControlFlow,
    pub prov: &'c FunctionProvenance,
    /// Which function of the module calls which.
    pub graph: &'c crate::analysis::callgraph::CallGraph<'a>,
    /// Names of the entry points that reach this function.
    pub kernels: Vec<&'a str>,
}

/// One finding, ready for every output format. A large module has
/// thousands: the strings its rule, file and function share are shared
/// (`Arc`).
#[derive(Debug, Clone, Serialize)]
pub struct Finding {
    pub rule: Arc<str>,
    pub rule_id: Arc<str>,
    pub severity: Severity,
    pub category: Arc<str>,
    pub message: String,
    /// How to fix it: the first paragraph of the pattern's `fix`.
    pub help: Arc<str>,
    pub path: Arc<str>,
    pub function: Arc<str>,
    pub kernels: Arc<[String]>,
    pub ir: IrLocation,
    /// The MSL location, from debug info (`null` without it).
    pub source: Option<crate::source::SourceLocation>,
    /// Where `source` was inlined, innermost call site first, up to the kernel.
    pub inlined_at: Vec<crate::source::SourceLocation>,
    /// Stable across line moves: a hash of the rule, function, the
    /// instruction's shape (opcode, types, constants, callee) and its rank
    /// among same-shaped findings of the function.
    pub fingerprint: String,
    /// The cause this finding is an instance of (`cause::cause_id`): the
    /// same for every instance of one problem, across files and kernels.
    pub cause: String,
    /// The rule's cost figure per execution (`cycles` in its pattern), for
    /// the report's estimates; user patterns have one too.
    #[serde(skip)]
    pub cycles: Option<u32>,
    /// Index of the instruction in its function's body, for source mapping.
    #[serde(skip)]
    pub inst: usize,
    /// Loop nesting depth of the instruction (0 outside loops).
    pub loop_depth: u32,
    /// Higher is more urgent: severity first, then loop depth, so a divide
    /// in a loop outranks the same divide outside one.
    pub rank: u32,
    pub evidence: Evidence,
    /// The optimization levels (`O0`, `O2`) a `.metal` source was compiled
    /// at where this finding appears; empty for IR given as input.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub levels: Vec<String>,
}

#[derive(Debug, Clone, Serialize)]
pub struct IrLocation {
    pub path: Arc<str>,
    pub line: u32,
    /// The instruction's text as the IR has it: for a binary input the
    /// only view of it a person has.
    pub instruction: String,
    /// Whether `path` is IR text on disk whose line `line` a person can
    /// open; not for a module disassembled from bitcode in memory.
    #[serde(skip)]
    pub on_disk: bool,
}

/// FNV-1a: tiny, and stable across Rust versions (unlike `DefaultHasher`),
/// which a fingerprint stored in a baseline file needs. Text is hashed as it
/// is written (`fmt::Write`), byte for byte as if it had been built into a
/// string first, which a fingerprint's key no longer is.
struct Fnv1a(u64);

impl Fnv1a {
    fn new() -> Self {
        Fnv1a(0xcbf2_9ce4_8422_2325)
    }
}

impl Fnv1a {
    fn byte(&mut self, b: u8) {
        self.0 ^= b as u64;
        self.0 = self.0.wrapping_mul(0x0100_0000_01b3);
    }

    /// The bytes of `v` in decimal, as `{v}` writes them.
    fn decimal(&mut self, v: u64) {
        let mut digits = [0u8; 20];
        let mut at = digits.len();
        let mut v = v;
        loop {
            at -= 1;
            digits[at] = b'0' + (v % 10) as u8;
            v /= 10;
            if v == 0 {
                break;
            }
        }
        for &b in &digits[at..] {
            self.byte(b);
        }
    }
}

impl std::fmt::Write for Fnv1a {
    fn write_str(&mut self, s: &str) -> std::fmt::Result {
        for b in s.bytes() {
            self.byte(b);
        }
        Ok(())
    }
}

/// Writes the shape of an instruction, without value names or line numbers.
/// `names` caches the text of each type met (findings of one function share
/// a few types, and printing one cost as much as hashing the whole key).
fn write_shape(
    out: &mut impl std::fmt::Write,
    ctx: &FunctionContext<'_, '_>,
    inst: &crate::ir::Instruction<'_>,
    names: &mut Vec<(crate::ir::TypeId, String)>,
) -> std::fmt::Result {
    use crate::ir::Value;
    let mut write_type = |out: &mut _, ty| {
        let at = match names.iter().position(|(t, _)| *t == ty) {
            Some(at) => at,
            None => {
                names.push((ty, ctx.module.types.display(ty)));
                names.len() - 1
            }
        };
        std::fmt::Write::write_str(out, &names[at].1)
    };
    out.write_str(inst.opcode_text)?;
    out.write_str(" ")?;
    write_type(out, inst.ty)?;
    for op in &inst.operands {
        out.write_str(" ,")?;
        write_type(out, op.ty)?;
        match &op.value {
            Value::Int(v) => write!(out, " {v}")?,
            Value::Global(g) => write!(out, " @{g}")?,
            Value::Float(f) => write!(out, " {f}")?,
            _ => {}
        }
    }
    Ok(())
}

/// The first paragraph of a multi-line text, on one line.
fn first_paragraph(text: &str) -> String {
    let para = text.trim().split("\n\n").next().unwrap_or("");
    para.split_whitespace().collect::<Vec<_>>().join(" ")
}

pub fn rank(severity: Severity, loop_depth: u32) -> u32 {
    let s = match severity {
        Severity::Note => 1,
        Severity::Warning => 2,
        Severity::Error => 3,
    };
    s * 10 + loop_depth.min(9)
}

/// Runs every rule over one function, with `scratch`'s buffers (kept by
/// the caller from one function to the next).
pub fn run(
    rules: &RuleSet,
    ctx: &FunctionContext<'_, '_>,
    path: &Arc<str>,
    out: &mut Vec<Finding>,
    scratch: &mut engine::Scratch,
) {
    let index = engine::Candidates::new(ctx.body, ctx.du.opcodes(), ctx.graph, scratch);
    let mut matched = std::mem::take(&mut scratch.matched);
    let mut fingerprints = Fingerprints::default();
    // Made on the first finding, then shared by the function's findings.
    let mut function: Option<(Arc<str>, Arc<[String]>)> = None;
    for rule in &rules.rules {
        engine::matches_into(
            &rule.pattern.matcher,
            ctx,
            &index,
            rule.hook,
            scratch,
            &mut matched,
        );
        for m in matched.drain(..) {
            let Some(inst) = ctx.body.instructions.get(m.inst) else {
                continue;
            };
            let description = match rule.hook {
                Some(h) => match h.describe(ctx, &m) {
                    Some(d) => d,
                    None => continue,
                },
                None => Description {
                    message: rule.pattern.summary.clone(),
                    evidence: Evidence::none(),
                    help: None,
                },
            };
            let (name, kernels) = function.get_or_insert_with(|| {
                let kernels = ctx.kernels.iter().map(|k| k.to_string()).collect();
                (ctx.function.name.into(), kernels)
            });
            let severity = rule
                .hook
                .and_then(|h| h.severity(&description))
                .unwrap_or(rule.pattern.severity);
            let fingerprint = fingerprints.next(ctx, rule, inst, description.evidence.subject());
            let loop_depth = m.loop_depth(ctx);
            out.push(Finding {
                rule: rule.shared.name.clone(),
                rule_id: rule.shared.id.clone(),
                severity,
                category: rule.shared.category.clone(),
                message: description.message,
                help: match description.help {
                    Some(h) => h.into(),
                    None => rule.shared.help.clone(),
                },
                path: path.clone(),
                function: name.clone(),
                kernels: kernels.clone(),
                ir: IrLocation {
                    path: path.clone(),
                    line: inst.line,
                    instruction: String::new(),
                    on_disk: true,
                },
                source: None,
                inlined_at: Vec::new(),
                fingerprint,
                cause: String::new(),
                cycles: rule.pattern.cycles,
                inst: m.inst,
                loop_depth,
                rank: rank(severity, loop_depth),
                evidence: description.evidence,
                levels: Vec::new(),
            });
        }
    }
    index.recycle(scratch);
    scratch.matched = matched;
}

/// The fingerprints of one function's findings, in the order they are
/// found: a hash of `rule|function|shape|divisor name`, then of that hash
/// and its rank among the function's findings that share it.
#[derive(Default)]
struct Fingerprints {
    seen: rustc_hash::FxHashMap<u64, u32>,
    type_names: Vec<(crate::ir::TypeId, String)>,
}

impl Fingerprints {
    fn next(
        &mut self,
        ctx: &FunctionContext<'_, '_>,
        rule: &Rule,
        inst: &crate::ir::Instruction<'_>,
        divisor: Option<&str>,
    ) -> String {
        use std::fmt::Write;
        let mut key = Fnv1a::new();
        for part in [&*rule.shared.name, "|", ctx.function.name, "|"] {
            let _ = key.write_str(part);
        }
        let _ = write_shape(&mut key, ctx, inst, &mut self.type_names);
        // As the evidence's `divisor.name` printed as JSON, `null` without one.
        let _ = match divisor {
            Some(name) => write!(key, "|{}", serde_json::to_string(name).unwrap_or_default()),
            None => key.write_str("|null"),
        };
        let base = key.0;
        let n = self.seen.entry(base).or_insert(0);
        // `{base}/{n}` hashed and the hash written as `{:016x}`, digit by
        // digit: through `fmt` these were a tenth of a finding's cost.
        let mut h = Fnv1a::new();
        h.decimal(base);
        h.byte(b'/');
        h.decimal((*n).into());
        *n += 1;
        hex16(h.0)
    }
}

/// A fingerprint for a finding made outside the rules (a bad suppression):
/// FNV-1a of the parts, each followed by `|`, as 16 hex digits.
pub fn fingerprint_of(parts: &[&str]) -> String {
    let mut h = Fnv1a::new();
    for part in parts {
        part.bytes().for_each(|b| h.byte(b));
        h.byte(b'|');
    }
    hex16(h.0)
}

/// `format!("{v:016x}")`.
fn hex16(v: u64) -> String {
    (0..16)
        .rev()
        .map(|k| char::from(b"0123456789abcdef"[(v >> (4 * k)) as usize & 15]))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::{Fnv1a, hex16};
    use std::fmt::Write;

    /// The fingerprint's hand-written formatting gives `fmt`'s bytes.
    #[test]
    fn fingerprint_digits_as_fmt() {
        for v in [
            0u64,
            7,
            10,
            99,
            100,
            12345,
            1 << 63,
            u64::MAX,
            0x0123_4567_89ab_cdef,
        ] {
            let (mut a, mut b) = (Fnv1a::new(), Fnv1a::new());
            a.decimal(v);
            let _ = write!(b, "{v}");
            assert_eq!(a.0, b.0, "{v}");
            assert_eq!(hex16(v), format!("{v:016x}"));
        }
    }
}
