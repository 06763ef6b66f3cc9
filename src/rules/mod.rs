//! Rules: each declared by one `patterns/*.toml` file (what it matches, its
//! text) and, where the message needs more than the pattern can say, one
//! Rust file here that describes a match (`RuleHook`).

pub mod barrier_in_divergent_flow;
pub mod byte_arithmetic;
pub mod device_atomic_in_loop;
pub mod divide_by_uniform;
pub mod divide_by_varying;
pub mod double_precision;
pub mod dynamic_private_array;
pub mod engine;
pub mod float_atomic_cas_loop;
pub mod fused_shift_address_in_branch;
pub mod indirect_call;
pub mod pattern;
pub mod precise_math;

use crate::analysis::ControlFlow;
use crate::analysis::defuse::DefUse;
use crate::analysis::provenance::FunctionProvenance;
use crate::compact_json::{CompactJson, Pretty};
use crate::ir::air::AirInfo;
use crate::ir::{Body, Function, Module};
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
        "device-atomic-in-loop.toml",
        include_str!("../../patterns/device-atomic-in-loop.toml"),
    ),
    (
        "float-atomic-cas-loop.toml",
        include_str!("../../patterns/float-atomic-cas-loop.toml"),
    ),
    (
        "indirect-call.toml",
        include_str!("../../patterns/indirect-call.toml"),
    ),
];

/// What a rule's Rust side adds: the message and evidence of a match.
pub trait RuleHook: Sync {
    /// The pattern `name` this hook serves.
    fn name(&self) -> &'static str;
    /// Describes a match, or rejects it (`None`) when a closer look says it is no finding.
    fn describe(&self, ctx: &FunctionContext<'_, '_>, m: &engine::Matched) -> Option<Description>;
}

pub struct Description {
    pub message: String,
    /// A JSON object (`evidence`).
    pub evidence: CompactJson,
    /// Replaces the pattern's fix when this match needs other advice.
    pub help: Option<String>,
    /// The divisor's name (the divide rules), part of the fingerprint.
    pub divisor: Option<String>,
}

/// A finding's evidence: a JSON object whose fields `write` gives in the
/// order of their keys, as a `serde_json::Value` object (keys sorted) has
/// them, laid out where the JSON report writes it. Written by hand: made as
/// a `Value`, serialized and dropped, it cost as much as the rest of the
/// finding.
pub fn evidence(write: impl FnOnce(&mut Pretty<'_>)) -> CompactJson {
    let json = CompactJson::laid_out_by(crate::report::json::EVIDENCE_DEPTH, |p| {
        p.open(b'{');
        write(p);
        p.close(b'}');
    });
    // The keys in order: as the parsed object writes them.
    #[cfg(debug_assertions)]
    json.assert_as_serde(
        &json.value(),
        crate::report::json::EVIDENCE_DEPTH,
        "evidence",
    );
    json
}

fn hooks() -> [&'static dyn RuleHook; 11] {
    [
        &divide_by_uniform::DivideByUniform,
        &divide_by_varying::DivideByVarying,
        &fused_shift_address_in_branch::FusedShiftAddressInBranch,
        &barrier_in_divergent_flow::BarrierInDivergentFlow,
        &dynamic_private_array::DynamicPrivateArray,
        &double_precision::DoublePrecision,
        &byte_arithmetic::ByteArithmetic,
        &precise_math::PreciseMath,
        &device_atomic_in_loop::DeviceAtomicInLoop,
        &float_atomic_cas_loop::FloatAtomicCasLoop,
        &indirect_call::IndirectCall,
    ]
}

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
/// (`Arc`), and the evidence is kept as compact JSON (`CompactJson`).
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
    pub evidence: crate::compact_json::CompactJson,
    /// The optimization levels (`O0`, `O2`) a `.metal` source was compiled
    /// at where this finding appears; empty for IR given as input.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub levels: Vec<String>,
}

impl Finding {
    /// The finding's JSON as serde writes it (`Serialize`, derived above),
    /// written field by field: the JSON report writes thousands.
    pub fn write_json(&self, p: &mut crate::compact_json::Pretty<'_>) {
        self.write_json_kept(p, &mut KeptJson::default());
    }

    /// `write_json`, copying the fields this finding shares with the one
    /// `kept` last saw (its rule's, its help, its function's) as they were
    /// written then: consecutive findings mostly share them, and escaping
    /// the same help text and kernel list again was a third of the time
    /// spent per finding.
    pub fn write_json_kept(&self, p: &mut crate::compact_json::Pretty<'_>, kept: &mut KeptJson) {
        p.open(b'{');
        kept.rule.write(
            p,
            |(rule, id, severity, category)| {
                same(rule, &self.rule)
                    && same(id, &self.rule_id)
                    && *severity == self.severity
                    && same(category, &self.category)
            },
            || {
                (
                    self.rule.clone(),
                    self.rule_id.clone(),
                    self.severity,
                    self.category.clone(),
                )
            },
            |p| {
                p.key("rule");
                p.str(&self.rule);
                p.key("rule_id");
                p.str(&self.rule_id);
                p.key("severity");
                p.str(self.severity.name());
                p.key("category");
                p.str(&self.category);
            },
        );
        p.key("message");
        p.str(&self.message);
        kept.help.write(
            p,
            |help| same(help, &self.help),
            || self.help.clone(),
            |p| {
                p.key("help");
                p.str(&self.help);
            },
        );
        kept.place.write(
            p,
            |(path, function, kernels)| {
                same(path, &self.path)
                    && same(function, &self.function)
                    && (Arc::ptr_eq(kernels, &self.kernels) || kernels[..] == self.kernels[..])
            },
            || {
                (
                    self.path.clone(),
                    self.function.clone(),
                    self.kernels.clone(),
                )
            },
            |p| {
                p.key("path");
                p.str(&self.path);
                p.key("function");
                p.str(&self.function);
                p.key("kernels");
                p.strs(&self.kernels);
            },
        );
        p.key("ir");
        p.open(b'{');
        p.key("path");
        p.str(&self.ir.path);
        p.key("line");
        p.u64(self.ir.line.into());
        p.close(b'}');
        p.key("source");
        match &self.source {
            Some(s) => s.write_json(p),
            None => p.null(),
        }
        p.key("inlined_at");
        p.open(b'[');
        for s in &self.inlined_at {
            p.element();
            s.write_json(p);
        }
        p.close(b']');
        p.key("fingerprint");
        p.str(&self.fingerprint);
        p.key("loop_depth");
        p.u64(self.loop_depth.into());
        p.key("rank");
        p.u64(self.rank.into());
        p.key("evidence");
        p.raw(&self.evidence);
        if !self.levels.is_empty() {
            p.key("levels");
            p.strs(&self.levels);
        }
        p.close(b'}');
    }
}

/// Equal text, most often the same shared string.
fn same(a: &Arc<str>, b: &Arc<str>) -> bool {
    Arc::ptr_eq(a, b) || **a == **b
}

/// What `Finding::write_json_kept` wrote last for each run of shared
/// fields, and what from. Keys are compared by content (pointers first),
/// so a kept text is never copied for other fields.
#[derive(Default)]
pub struct KeptJson {
    rule: Kept<RuleKey>,
    help: Kept<Arc<str>>,
    place: Kept<PlaceKey>,
}

/// Rule, rule id, severity and category.
type RuleKey = (Arc<str>, Arc<str>, Severity, Arc<str>);
/// Path, function and kernels.
type PlaceKey = (Arc<str>, Arc<str>, Arc<[String]>);

/// Fields' text as written for `key` at `depth`.
struct Kept<K> {
    key: Option<(K, usize)>,
    text: Vec<u8>,
}

impl<K> Default for Kept<K> {
    fn default() -> Self {
        Kept {
            key: None,
            text: Vec::new(),
        }
    }
}

impl<K> Kept<K> {
    /// Copies the kept text if `same` says its key is the one `key` makes,
    /// or else writes the fields by `write` and keeps their text. The
    /// fields follow others in the object, or come first in both cases.
    fn write(
        &mut self,
        p: &mut Pretty<'_>,
        same: impl FnOnce(&K) -> bool,
        key: impl FnOnce() -> K,
        write: impl FnOnce(&mut Pretty<'_>),
    ) {
        if let Some((k, depth)) = &self.key
            && *depth == p.depth()
            && same(k)
        {
            p.copy(&self.text);
            return;
        }
        let start = p.mark();
        write(p);
        self.text.clear();
        self.text.extend_from_slice(p.since(start));
        self.key = Some((key(), p.depth()));
    }
}

#[derive(Debug, Clone, Serialize)]
pub struct IrLocation {
    pub path: Arc<str>,
    pub line: u32,
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

/// Runs every rule over one function.
pub fn run(
    rules: &RuleSet,
    ctx: &FunctionContext<'_, '_>,
    path: &Arc<str>,
    out: &mut Vec<Finding>,
) {
    let mut scratch = engine::Scratch::take();
    let index = engine::Candidates::new(ctx.body, ctx.du.opcodes(), ctx.graph, &mut scratch);
    let mut matched = std::mem::take(&mut scratch.matched);
    let mut fingerprints = Fingerprints::default();
    // Made on the first finding, then shared by the function's findings.
    let mut function: Option<(Arc<str>, Arc<[String]>)> = None;
    for rule in &rules.rules {
        engine::matches_into(
            &rule.pattern.matcher,
            ctx,
            &index,
            &mut scratch,
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
                    evidence: CompactJson::empty_object(),
                    help: None,
                    divisor: None,
                },
            };
            let (name, kernels) = function.get_or_insert_with(|| {
                let kernels = ctx.kernels.iter().map(|k| k.to_string()).collect();
                (ctx.function.name.into(), kernels)
            });
            let fingerprint = fingerprints.next(ctx, rule, inst, description.divisor.as_deref());
            out.push(Finding {
                rule: rule.shared.name.clone(),
                rule_id: rule.shared.id.clone(),
                severity: rule.pattern.severity,
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
                },
                source: None,
                inlined_at: Vec::new(),
                fingerprint,
                cycles: rule.pattern.cycles,
                inst: m.inst,
                loop_depth: m.loop_depth,
                rank: rank(rule.pattern.severity, m.loop_depth),
                evidence: description.evidence,
                levels: Vec::new(),
            });
        }
    }
    index.recycle(&mut scratch);
    scratch.matched = matched;
    scratch.put_back();
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
