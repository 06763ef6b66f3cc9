//! SARIF as GitHub code scanning takes it, checked by Microsoft's SARIF
//! validator (the SARIF SDK's multitool, npm `@microsoft/sarif-multitool`,
//! which bundles a native binary per platform) with GitHub's rules on:
//! `validate --rule-kind "Gh;Ghas;Sarif"`. No error, and no GitHub (`GH…`)
//! or SARIF2005 warning, on the SARIF of testdata/ and ../shared/corpus.
//! .ci/run installs the validator in .ci/node_modules; elsewhere set
//! `SARIF_MULTITOOL` to its binary, or the validator tests say they skipped
//! (and fail under CI: `common::missing`).
//!
//! Also GitHub's limits the validator does not check: descriptions of at
//! most 1,024 characters, at most 25,000 results a run (the rest counted in
//! a notification and on stderr), no line in a binary artifact, and
//! suppressed findings as `suppressions`.

mod common;

use common::{air_scan, fixture};
use serde_json::Value;
use std::path::{Path, PathBuf};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The multitool binary: `SARIF_MULTITOOL`, else the one .ci/run installs.
fn multitool() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("SARIF_MULTITOOL").filter(|p| !p.is_empty()) {
        return Some(PathBuf::from(p));
    }
    let platform = match std::env::consts::OS {
        "macos" => "darwin",
        "windows" => "win32",
        other => other,
    };
    let exe = if cfg!(windows) {
        "Sarif.Multitool.exe"
    } else {
        "Sarif.Multitool"
    };
    let p = root()
        .join(".ci/node_modules/@microsoft")
        .join(format!("sarif-multitool-{platform}"))
        .join(exe);
    if p.is_file() {
        return Some(p);
    }
    common::missing(
        "the SARIF validator test",
        "no SARIF multitool (run .ci/run, or set SARIF_MULTITOOL to its binary)",
    );
    None
}

/// What the validator says of `sarif` that GitHub would mind: every error,
/// and the warnings of GitHub's rules and SARIF2005 (tool information).
fn problems(tool: &Path, sarif: &[u8]) -> Vec<String> {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("scan.sarif");
    let output = dir.path().join("validation.sarif");
    std::fs::write(&input, sarif).unwrap();
    let out = std::process::Command::new(tool)
        .args(["validate", "--rule-kind", "Gh;Ghas;Sarif", "--output"])
        .arg(&output)
        .arg(&input)
        .output()
        .unwrap();
    let text = std::fs::read(&output).unwrap_or_else(|e| {
        panic!(
            "the validator wrote no log ({e}): {}\n{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    });
    let log: Value = serde_json::from_slice(&text).unwrap();
    let mut out = Vec::new();
    for run in log["runs"].as_array().unwrap() {
        for r in run["results"].as_array().into_iter().flatten() {
            let id = r["ruleId"].as_str().unwrap_or("");
            let level = r["level"].as_str().unwrap_or("warning");
            let counts = level == "error"
                || (level == "warning" && (id.starts_with("GH") || id == "SARIF2005"));
            if counts {
                out.push(format!("{level} {id}: {}", r["message"]));
            }
        }
        // The validator's own failures (an unreadable file) are notifications.
        for inv in run["invocations"].as_array().into_iter().flatten() {
            for n in inv["toolExecutionNotifications"]
                .as_array()
                .into_iter()
                .flatten()
            {
                if n["level"] == "error" {
                    out.push(format!("validator: {}", n["message"]));
                }
            }
        }
    }
    out
}

/// air-scan's SARIF for `args`, run in `dir`; any exit but a crash.
fn sarif_in(dir: &Path, args: &[&str]) -> (Vec<u8>, String) {
    let out = air_scan()
        .current_dir(dir)
        .args(["--format", "sarif"])
        .args(args)
        .output()
        .unwrap();
    assert!(
        matches!(out.status.code(), Some(0..=2)),
        "{args:?}: {:?}",
        out.status
    );
    (out.stdout, String::from_utf8(out.stderr).unwrap())
}

fn results(s: &Value) -> &Vec<Value> {
    s["runs"][0]["results"].as_array().unwrap()
}

fn notifications(s: &Value) -> Vec<String> {
    s["runs"][0]["invocations"][0]["toolExecutionNotifications"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|n| n["message"]["text"].as_str().unwrap().to_string())
        .collect()
}

// ---- the validator ----

#[test]
fn validator_finds_nothing_in_the_sarif_of_testdata() {
    let Some(tool) = multitool() else { return };
    for args in [&["testdata"][..], &["--show-suppressed", "testdata"]] {
        let (sarif, _) = sarif_in(root(), args);
        let found = problems(&tool, &sarif);
        assert!(found.is_empty(), "{args:?}:\n{}", found.join("\n"));
    }
    // The validator is not vacuous: a rule without a full description is
    // GitHub's error GH2012.
    let (sarif, _) = sarif_in(root(), &["testdata/minimal_kernel.ll"]);
    let mut s: Value = serde_json::from_slice(&sarif).unwrap();
    let rule = s.pointer_mut("/runs/0/tool/driver/rules/0").unwrap();
    rule.as_object_mut().unwrap().remove("fullDescription");
    let found = problems(&tool, &serde_json::to_vec(&s).unwrap());
    assert!(found.iter().any(|p| p.contains("GH2012")), "{found:?}");
}

#[test]
fn validator_finds_nothing_in_the_sarif_of_the_corpus() {
    let Some(corpus) = common::shared("corpus", "the SARIF validator on the corpus") else {
        return;
    };
    let Some(tool) = multitool() else { return };
    // Relative to ../shared, so that URIs are relative too.
    let (sarif, _) = sarif_in(corpus.parent().unwrap(), &["corpus"]);
    let s: Value = serde_json::from_slice(&sarif).unwrap();
    // One result per cause (86 on the corpus when this was written).
    assert!(results(&s).len() > 50, "{}", results(&s).len());
    assert!(results(&s).len() <= 25_000);
    let found = problems(&tool, &sarif);
    assert!(found.is_empty(), "{}", found.join("\n"));
}

// ---- rules ----

/// Every rule, bad-suppression included, has a full description GitHub
/// accepts (at most 1,024 characters) and help; the driver says where to
/// learn about the tool.
#[test]
fn every_rule_has_a_short_enough_full_description_and_help() {
    let (sarif, _) = sarif_in(root(), &["testdata/suppress/divides.ll"]);
    let s: Value = serde_json::from_slice(&sarif).unwrap();
    let driver = &s["runs"][0]["tool"]["driver"];
    let rules = driver["rules"].as_array().unwrap();
    assert!(
        rules.iter().any(|r| r["id"] == "AIR000"),
        "bad-suppression is listed"
    );
    assert!(rules.len() >= 12);
    for r in rules {
        let full = r["fullDescription"]["text"].as_str().unwrap_or("");
        assert!(!full.is_empty(), "{r:#}");
        assert!(
            full.chars().count() <= 1024,
            "{}: {}",
            r["id"],
            full.chars().count()
        );
        assert!(
            !r["help"]["text"].as_str().unwrap_or("").is_empty(),
            "{r:#}"
        );
        assert!(
            !r["help"]["markdown"].as_str().unwrap_or("").is_empty(),
            "{r:#}"
        );
    }
    // A rationale over the limit is cut at a paragraph and points on.
    let long = rules
        .iter()
        .find(|r| {
            r["fullDescription"]["text"]
                .as_str()
                .unwrap()
                .contains("says more.)")
        })
        .expect("at least one rationale is longer than 1,024 characters");
    let name = long["name"].as_str().unwrap();
    assert!(
        long["fullDescription"]["text"]
            .as_str()
            .unwrap()
            .ends_with(&format!("(`air-scan explain {name}` says more.)"))
    );
    let uri = driver["informationUri"].as_str().unwrap();
    assert!(
        uri.starts_with("file:///") || uri.starts_with("https://"),
        "{uri}"
    );
    // The run says where relative URIs start and whether it went well.
    let run = &s["runs"][0];
    assert!(
        run["originalUriBaseIds"]["%SRCROOT%"]["uri"]
            .as_str()
            .unwrap()
            .ends_with('/')
    );
    assert_eq!(
        results(&s)[0]["locations"][0]["physicalLocation"]["artifactLocation"]["uriBaseId"],
        "%SRCROOT%"
    );
    assert_eq!(run["invocations"][0]["executionSuccessful"], true);
}

// ---- suppressions ----

#[test]
fn suppressed_findings_are_results_with_suppressions_when_asked() {
    let f = "testdata/suppress/divides.ll";
    let (plain, _) = sarif_in(root(), &[f]);
    let plain: Value = serde_json::from_slice(&plain).unwrap();
    let (shown, _) = sarif_in(root(), &["--show-suppressed", f]);
    let shown: Value = serde_json::from_slice(&shown).unwrap();
    assert!(
        results(&plain)
            .iter()
            .all(|r| r.get("suppressions").is_none())
    );
    let suppressed: Vec<&Value> = results(&shown)
        .iter()
        .filter(|r| r.get("suppressions").is_some())
        .collect();
    assert_eq!(suppressed.len(), 2);
    assert_eq!(results(&shown).len(), results(&plain).len() + 2);
    let s = &suppressed[0]["suppressions"][0];
    assert_eq!(s["kind"], "inSource");
    assert_eq!(
        s["justification"],
        "n is a power of two, checked on the host"
    );
    assert_eq!(suppressed[0]["ruleId"], "AIR001");
    assert_eq!(
        suppressed[0]["locations"][0]["physicalLocation"]["region"]["startLine"],
        9
    );
}

// ---- binary artifacts ----

/// A finding in an `.air` file with no debug info: the file, no line (its
/// lines would be the disassembly's), and the module and function as
/// logical locations.
#[test]
fn results_in_binary_artifacts_have_no_region() {
    let Some(dir) = minimal_kernel_air("the binary-artifact SARIF test") else {
        return;
    };
    let (sarif, _) = sarif_in(dir.path(), &["k.air"]);
    let s: Value = serde_json::from_slice(&sarif).unwrap();
    let r = &results(&s)[0];
    let location = &r["locations"][0];
    assert_eq!(
        location["physicalLocation"]["artifactLocation"]["uri"],
        "k.air"
    );
    assert!(
        location["physicalLocation"].get("region").is_none(),
        "{r:#}"
    );
    let logical: Vec<(&str, &str)> = location["logicalLocations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| (l["kind"].as_str().unwrap(), l["name"].as_str().unwrap()))
        .collect();
    assert_eq!(logical, [("module", "k.air"), ("function", "minimal")]);
    assert_valid(&sarif);
}

/// A folder holding testdata/minimal_kernel.ll assembled as `k.air`.
fn minimal_kernel_air(what: &str) -> Option<tempfile::TempDir> {
    let dir = tempfile::tempdir().unwrap();
    common::assemble(
        &fixture("minimal_kernel.ll"),
        &dir.path().join("k.air"),
        what,
    )
    .then_some(dir)
}

/// No problem for GitHub in `sarif`, when the validator is here.
fn assert_valid(sarif: &[u8]) {
    if let Some(tool) = multitool() {
        let found = problems(&tool, sarif);
        assert!(found.is_empty(), "{}", found.join("\n"));
    }
}

/// With `--emit-ir DIR`, a result in a binary artifact also points at its
/// instruction's line in the IR text written there (a related location:
/// the binary stays the primary one, which GitHub places in the checkout).
#[test]
fn results_in_binary_artifacts_point_at_the_emitted_ir() {
    let Some(dir) = minimal_kernel_air("the --emit-ir SARIF test") else {
        return;
    };
    std::fs::create_dir(dir.path().join("ir")).unwrap();
    let (sarif, _) = sarif_in(dir.path(), &["--emit-ir", "ir", "k.air"]);
    let s: Value = serde_json::from_slice(&sarif).unwrap();
    let r = &results(&s)[0];
    let at_ir: Vec<&Value> = r["relatedLocations"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|l| l["message"]["text"].as_str().unwrap().contains("--emit-ir"))
        .collect();
    assert_eq!(at_ir.len(), 1, "{r:#}");
    let physical = &at_ir[0]["physicalLocation"];
    assert_eq!(physical["artifactLocation"]["uri"], "ir/k.air.ll");
    let line = physical["region"]["startLine"].as_u64().unwrap() as usize;
    let text = std::fs::read_to_string(dir.path().join("ir/k.air.ll")).unwrap();
    let at = text.lines().nth(line - 1).unwrap();
    assert!(at.contains(" udiv "), "line {line}: {at}");
    // Without --emit-ir, no such location.
    let (plain, _) = sarif_in(dir.path(), &["k.air"]);
    assert!(!String::from_utf8(plain).unwrap().contains("--emit-ir"));
    assert_valid(&sarif);
}

// ---- the 25,000 results ----

/// A module of `uniform` + `varying` kernels shaped like minimal_kernel.ll,
/// each its own cause (kernels named apart by letters, which a template
/// family keeps apart; `q` first, so that no name is a type such as `int`):
/// `uniform` divide by their `constant` argument
/// (warnings), `varying` by the thread id (notes, ranked lower).
fn many_divides(dir: &Path, uniform: usize, varying: usize) -> PathBuf {
    let letters = |mut n: usize| {
        let mut s = String::new();
        loop {
            s.push(char::from(b'a' + (n % 26) as u8));
            n /= 26;
            if n == 0 {
                return s;
            }
        }
    };
    let mut text = String::from("target triple = \"air64-apple-macosx15.0.0\"\n\n");
    let mut kernels = Vec::new();
    for i in 0..uniform + varying {
        let (name, divide) = if i < uniform {
            (format!("u_q{}", letters(i)), "udiv i32 %2, %4")
        } else {
            (format!("v_q{}", letters(i)), "udiv i32 %4, %2")
        };
        text.push_str(&format!(
            "define void @{name}(float addrspace(1)* %0, i32 addrspace(2)* %1, i32 %2) {{\n  \
             %4 = load i32, i32 addrspace(2)* %1, align 4\n  %5 = {divide}\n  \
             %6 = zext i32 %5 to i64\n  \
             %7 = getelementptr inbounds float, float addrspace(1)* %0, i64 %6\n  \
             store float 1.0, float addrspace(1)* %7, align 4\n  ret void\n}}\n\n"
        ));
        kernels.push(format!(
            "!{} = !{{void (float addrspace(1)*, i32 addrspace(2)*, i32)* @{name}, !1, !2}}\n",
            i + 10
        ));
    }
    let list: Vec<String> = (0..kernels.len()).map(|i| format!("!{}", i + 10)).collect();
    text.push_str(&format!("!air.kernel = !{{{}}}\n", list.join(", ")));
    text.push_str("!1 = !{}\n!2 = !{!3, !4, !5}\n");
    text.push_str("!3 = !{i32 0, !\"air.buffer\", !\"air.location_index\", i32 0, i32 1, !\"air.read_write\", !\"air.address_space\", i32 1, !\"air.arg_type_name\", !\"float\", !\"air.arg_name\", !\"data\"}\n");
    text.push_str("!4 = !{i32 1, !\"air.buffer\", !\"air.location_index\", i32 1, i32 1, !\"air.read\", !\"air.address_space\", i32 2, !\"air.arg_type_name\", !\"uint\", !\"air.arg_name\", !\"divisor\"}\n");
    text.push_str("!5 = !{i32 2, !\"air.thread_position_in_grid\", !\"air.arg_type_name\", !\"uint\", !\"air.arg_name\", !\"gid\"}\n");
    text.push_str(&kernels.concat());
    let path = dir.join("many.ll");
    std::fs::write(&path, text).unwrap();
    path
}

/// Over 25,000 causes: 25,000 results, the highest-ranked (every
/// warning, then the first notes), and the cut said in a notification and
/// on stderr.
#[test]
fn a_run_keeps_at_most_25000_results_the_highest_ranked() {
    let dir = tempfile::tempdir().unwrap();
    many_divides(dir.path(), 24_001, 2_000);
    let (sarif, stderr) = sarif_in(dir.path(), &["many.ll"]);
    let s: Value = serde_json::from_slice(&sarif).unwrap();
    let all = results(&s);
    assert_eq!(all.len(), 25_000);
    let warnings = all.iter().filter(|r| r["level"] == "warning").count();
    assert_eq!(warnings, 24_001, "every warning is kept");
    assert_eq!(all.len() - warnings, 999);
    let said =
        "SARIF: 1001 of 26001 results left out (GitHub code scanning takes at most 25000 a run)";
    assert!(
        notifications(&s).iter().any(|n| n.starts_with(said)),
        "{:?}",
        notifications(&s)
    );
    assert!(stderr.contains(&format!("air-scan: {said}")), "{stderr}");
    // Under the limit: nothing said.
    let small = tempfile::tempdir().unwrap();
    many_divides(small.path(), 11, 0);
    let (sarif, stderr) = sarif_in(small.path(), &["many.ll"]);
    let s: Value = serde_json::from_slice(&sarif).unwrap();
    assert_eq!(results(&s).len(), 11);
    assert!(notifications(&s).is_empty());
    assert!(!stderr.contains("left out"), "{stderr}");
}

/// Eight copies of Iito's repository (its metallib, and the `.air` and
/// `.ll` files extracted from it: the 33,152 results, 4,144 a
/// copy, before results stood for causes): the copies' findings are the
/// same causes as one copy's, so the run has one copy's results, each
/// listing the other instances, and nothing is cut. The copies are links to
/// ../shared, never files in the repository. Slow in a debug build: CI
/// runs it in release.
#[test]
#[ignore]
fn eight_copies_of_a_corpus_repo_stay_within_25000_results() {
    let Some(iito) = common::shared("corpus/Iito__spindll", "the 8-copy SARIF test") else {
        return;
    };
    let one = tempfile::tempdir().unwrap();
    let dir = tempfile::tempdir().unwrap();
    #[cfg(unix)]
    std::os::unix::fs::symlink(&iito, one.path().join("copy0")).unwrap();
    for copy in 0..8 {
        let link = dir.path().join(format!("copy{copy}"));
        #[cfg(unix)]
        std::os::unix::fs::symlink(&iito, &link).unwrap();
        #[cfg(not(unix))]
        {
            let _ = (&iito, &link);
            return;
        }
    }
    let (sarif_one, _) = sarif_in(one.path(), &["."]);
    let (sarif, stderr) = sarif_in(dir.path(), &["."]);
    let s: Value = serde_json::from_slice(&sarif).unwrap();
    let s_one: Value = serde_json::from_slice(&sarif_one).unwrap();
    let n = results(&s).len();
    assert!(n > 20 && n <= 25_000, "{n}");
    assert_eq!(n, results(&s_one).len());
    // Each result lists other instances, from other copies among them.
    let related: usize = results(&s)
        .iter()
        .map(|r| r["relatedLocations"].as_array().map_or(0, Vec::len))
        .sum();
    assert!(
        related >= 7 * n,
        "{related} related locations for {n} results"
    );
    let said = notifications(&s);
    assert!(
        !said.iter().any(|m| m.contains("results left out")),
        "{said:?}"
    );
    assert!(!stderr.contains("results left out"), "{stderr}");
    if let Some(tool) = multitool() {
        let found = problems(&tool, &sarif);
        assert!(found.is_empty(), "{}", found.join("\n"));
    }
}
