//! The divide rules measured on ../shared/corpus. Skips, saying so, where
//! the corpus is absent.

mod common;

use air_scan::analysis::provenance::OriginKind;
use air_scan::rules::{Evidence, Finding, RuleSet};
use air_scan::scan::scan_file;
use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};

fn findings_under(dir: &Path) -> BTreeMap<PathBuf, Vec<Finding>> {
    findings_under_with(dir, &RuleSet::builtin())
}

fn findings_under_with(dir: &Path, rules: &RuleSet) -> BTreeMap<PathBuf, Vec<Finding>> {
    let files = common::files_ending(dir, ".ll");
    files
        .into_iter()
        .map(|f| {
            let r = scan_file(&f, rules);
            (f, r.findings)
        })
        .collect()
}

#[test]
fn function_constant_divisors_of_mistral_rs_are_not_findings() {
    let Some(dir) = common::shared("corpus", "the corpus rule tests") else {
        return;
    };
    let all = findings_under(&dir.join("EricLBuehler__mistral.rs"));
    assert!(
        all.len() >= 32,
        "expected the mistral.rs modules, found {}",
        all.len()
    );
    // Those kernels do divide, by function constants only.
    let divides: usize = all
        .keys()
        .map(|p| {
            std::fs::read_to_string(p)
                .unwrap()
                .matches(" = udiv ")
                .count()
        })
        .sum();
    assert!(divides > 0, "the fixture set lost its divides");
    let found: Vec<String> = all
        .values()
        .flatten()
        .filter(|f| f.rule.starts_with("divide-by"))
        .map(|f| format!("{}:{} {}", f.path, f.ir.line, f.message))
        .collect();
    assert!(found.is_empty(), "{found:#?}");
}

/// A divide whose divisor is loaded, in the same function, straight from a
/// `constant` (address space 2) pointer that is not a global must be a
/// divide-by-uniform finding. Found from the text alone, independently of
/// the analysis.
#[test]
fn every_divide_by_a_constant_buffer_load_is_found_in_mlx() {
    let Some(dir) = common::shared("corpus", "the corpus rule tests") else {
        return;
    };
    let all = findings_under(&dir.join("Iito__spindll"));
    let mut expected = 0;
    let mut missing = Vec::new();
    for (path, findings) in &all {
        let text = std::fs::read_to_string(path).unwrap();
        let mut loads: HashMap<&str, bool> = HashMap::new();
        for (n, line) in text.lines().enumerate() {
            let t = line.trim_start();
            if t.starts_with("define ") {
                loads.clear();
            }
            if let Some((lhs, rhs)) = t.split_once(" = ") {
                let from_constant = rhs.starts_with("load ")
                    && (rhs.contains(" addrspace(2)* %") || rhs.contains("ptr addrspace(2) %"));
                loads.insert(lhs, from_constant);
                let is_div = ["udiv ", "sdiv ", "urem ", "srem "]
                    .iter()
                    .any(|d| rhs.starts_with(d));
                if is_div {
                    let divisor = rhs
                        .rsplit(", ")
                        .next()
                        .unwrap_or("")
                        .split(',')
                        .next()
                        .unwrap_or("")
                        .trim();
                    if loads.get(divisor) == Some(&true) {
                        expected += 1;
                        let line_no = n as u32 + 1;
                        // A divide/remainder pair on the same operands is one
                        // finding, which names the other half.
                        let covers = |f: &Finding| {
                            let paired = match &f.evidence {
                                Evidence::Divide(d) => d.paired_with.as_ref().map(|p| p.line),
                                _ => None,
                            };
                            f.ir.line == line_no || paired == Some(line_no)
                        };
                        if !findings
                            .iter()
                            .any(|f| &*f.rule == "divide-by-uniform" && covers(f))
                        {
                            missing.push(format!("{}:{line_no}: {t}", path.display()));
                        }
                    }
                }
            }
        }
    }
    assert!(
        expected > 500,
        "only {expected} such divides: the corpus changed?"
    );
    eprintln!(
        "{expected} divides by a constant-buffer load, {} missed",
        missing.len()
    );
    assert!(
        missing.is_empty(),
        "{} of {expected} missed:\n{}",
        missing.len(),
        missing.join("\n")
    );
}

/// Findings whose divisor comes from an argument buffer name its field or argument.
#[test]
fn argument_buffer_divisors_are_named() {
    let Some(dir) = common::shared("corpus", "the corpus rule tests") else {
        return;
    };
    let all = findings_under(&dir);
    let mut total = 0;
    let mut named = 0;
    for f in all
        .values()
        .flatten()
        .filter(|f| &*f.rule == "divide-by-uniform")
    {
        let Evidence::Divide(divide) = &f.evidence else {
            panic!("divide-by-uniform without a divisor: {f:?}");
        };
        let d = &divide.divisor;
        if matches!(d.kind, OriginKind::Field | OriginKind::Argument) {
            total += 1;
            let name = d.name.as_str();
            if !name.is_empty() && name != "?" && !name.starts_with("argument ") {
                named += 1;
            }
        }
    }
    assert!(total > 1000, "{total}");
    assert!(named * 100 >= total * 95, "{named} of {total} named");
    eprintln!("{named} of {total} argument-buffer divisors named");
}

/// The typed `.ll` and the `.opaque.ll` of the same module give the same
/// findings (rule, function, subject, severity, loop depth), with the
/// default options and with barrier-in-divergent-flow's `strict`, which
/// alone finds barriers in the corpus. Every rule with findings in a
/// twinned module is compared.
#[test]
fn pointer_eras_give_the_same_findings() {
    let Some(dir) = common::shared("corpus", "the corpus rule tests") else {
        return;
    };
    let mut strict = RuleSet::builtin();
    let mut options = air_scan::rules::options::RuleOptions::default();
    options.barrier_in_divergent_flow.strict = true;
    strict.apply(&options);
    let mut rules_compared = std::collections::BTreeSet::new();
    for rules in [RuleSet::builtin(), strict] {
        rules_compared.extend(eras_agree(&findings_under_with(&dir, &rules)));
    }
    // divide-by-varying's only corpus file (metal2vulkan's
    // kernel_divide_shapes.ll) has no `.opaque.ll` twin.
    let want = [
        "barrier-in-divergent-flow",
        "cross-threadgroup-spin-wait",
        "device-atomic-contention",
        "divide-by-uniform",
        "dynamic-private-array",
        "function-constant-branch",
        "indirect-call",
        "per-thread-constant-read",
    ];
    assert_eq!(rules_compared.into_iter().collect::<Vec<_>>(), want);
}

/// Checks each typed/opaque pair of `all`; the rules their findings name.
fn eras_agree(all: &BTreeMap<PathBuf, Vec<Finding>>) -> Vec<String> {
    let key = |fs: &Vec<Finding>| {
        let mut v: Vec<(String, String, String, String, u32)> = fs
            .iter()
            .map(|f| {
                (
                    f.rule.to_string(),
                    f.function.to_string(),
                    f.evidence.subject().unwrap_or("").to_string(),
                    format!("{:?}", f.severity),
                    f.loop_depth,
                )
            })
            .collect();
        v.sort();
        v
    };
    let mut rules = Vec::new();
    let mut pairs = 0;
    for (path, findings) in all {
        let name = path.to_string_lossy();
        let Some(typed) = name.strip_suffix(".opaque.ll") else {
            continue;
        };
        let Some(twin) = all.get(Path::new(&format!("{typed}.ll"))) else {
            continue;
        };
        pairs += 1;
        assert_eq!(key(findings), key(twin), "{name}");
        rules.extend(findings.iter().map(|f| f.rule.to_string()));
    }
    assert!(pairs >= 500, "{pairs}");
    rules
}

/// kolinko's `device const uint&` divisors (`rowsCount`, `bSize`, `vSize`,
/// `number`), read at one address no thread id reaches, are
/// divide-by-uniform; metal2vulkan's `in[gid + 8]` stays divide-by-varying.
#[test]
fn device_scalars_divide_by_uniform_per_thread_memory_by_varying() {
    let Some(dir) = common::shared("corpus", "the corpus rule tests") else {
        return;
    };
    let divisors = |repo: &str, rule: &str| -> BTreeMap<String, usize> {
        let mut by_name = BTreeMap::new();
        for f in findings_under(&dir.join(repo)).values().flatten() {
            if let (true, Evidence::Divide(d)) = (&*f.rule == rule, &f.evidence) {
                if d.divisor.kind == OriginKind::Memory {
                    *by_name.entry(d.divisor.name.clone()).or_insert(0) += 1;
                }
            }
        }
        by_name
    };
    let uniform = divisors("kolinko__effort", "divide-by-uniform");
    let names: Vec<&str> = uniform.keys().map(String::as_str).collect();
    assert_eq!(
        names,
        ["bSize", "number", "rowsCount", "vSize"],
        "{uniform:?}"
    );
    assert!(
        divisors("kolinko__effort", "divide-by-varying").is_empty(),
        "kolinko has no per-thread divisor"
    );
    let varying = divisors("imbushuo__metal2vulkan", "divide-by-varying");
    assert_eq!(varying.keys().collect::<Vec<_>>(), ["in"], "{varying:?}");
    assert!(divisors("imbushuo__metal2vulkan", "divide-by-uniform").is_empty());
}

/// The two rules of issue 23's new hazards, on the whole corpus: every
/// cross-threadgroup-spin-wait is one of Metal FlashAttention's three waits
/// per attention instantiation (the lock by compare-and-exchange, and two
/// waits for partial results by atomic loads: one whose exit the loads feed
/// through a `select`, one whose exit tests a flag their branch sets, a
/// phi of constants), and every function-constant-branch is
/// one of BlackHoleGPU's three feature switches; both alike in the two
/// pointer eras.
#[test]
fn spin_waits_and_constant_switches_are_the_judged_ones() {
    let Some(dir) = common::shared("corpus", "the corpus rule tests") else {
        return;
    };
    let all = findings_under(&dir);
    let of = |rule: &str| -> Vec<(String, String)> {
        let mut v: Vec<(String, String)> = all
            .iter()
            .flat_map(|(p, fs)| fs.iter().map(move |f| (p, f)))
            .filter(|(_, f)| &*f.rule == rule)
            .map(|(p, f)| {
                let name = p.file_name().unwrap().to_string_lossy().into_owned();
                let what = match &f.evidence {
                    Evidence::SpinWait(s) => format!("{} {}", s.operation, s.memory),
                    Evidence::ConstantBranch(b) => format!("{} {}", f.function, b.switch),
                    other => panic!("{rule}: {other:?}"),
                };
                (name, what)
            })
            .collect();
        v.sort();
        v
    };
    let spins = of("cross-threadgroup-spin-wait");
    let mut want = Vec::new();
    for file in ["00003_attention.ll", "00003_attention.opaque.ll"] {
        for _ in 0..3 {
            want.push((
                file.to_string(),
                "air.atomic.global.cmpxchg locks".to_string(),
            ));
            for _ in 0..2 {
                want.push((
                    file.to_string(),
                    "air.atomic.global.load partials".to_string(),
                ));
            }
        }
    }
    want.sort();
    assert_eq!(spins, want);
    let switches = of("function-constant-branch");
    assert!(switches.len() >= 18, "{switches:#?}");
    for (file, what) in &switches {
        let known = [
            ("_Z8rayMarch", "uniforms.adaptive_stepping"),
            ("computeShader", "uniforms.show_orbiting_star"),
            ("tonemapping_kernel", "tonemappingEnabled"),
            ("renderParticlesAdvanced", "uniforms.particle_trails"),
        ];
        assert!(
            known.iter().any(|(function, switch)| {
                what.starts_with(function) && what.ends_with(&format!(" {switch}"))
            }),
            "{file}: {what}"
        );
    }
    // The early returns on `particle_spawning` (spawnParticles) and
    // `particle_trails` (updateParticleTrails) are not findings.
    assert!(
        !switches
            .iter()
            .any(|(_, what)| what.starts_with("spawnParticles")
                || what.starts_with("updateParticleTrails")),
        "{switches:#?}"
    );
}
