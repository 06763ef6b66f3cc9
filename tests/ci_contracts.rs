//! What a CI job relies on, each test written to fail on the bug it names
//! (each was checked by putting the bug in): exit codes, suppressions that
//! silence only their rules, `--ignore`, the walk's .gitignore, hidden files
//! and extension case, files read by content, a scan that analyses nothing,
//! tools checked once, baselines across roots, and `--help`.
//! Fixtures: testdata/suppress/divides.{ll,metal}, testdata/minimal_kernel.ll,
//! testdata/rules/ (see their comments).

mod common;

use common::{air_scan, fixture};
use serde_json::Value;
use std::path::{Path, PathBuf};

/// Runs air-scan in `dir` with `args`: the JSON report (when stdout is
/// one), the exit code and stderr.
fn run_in(dir: &Path, args: &[&str]) -> (Value, i32, String) {
    let out = air_scan().current_dir(dir).args(args).output().unwrap();
    let v = serde_json::from_slice(&out.stdout).unwrap_or(Value::Null);
    let stderr = String::from_utf8(out.stderr).unwrap();
    (v, out.status.code().unwrap(), stderr)
}

fn json(args: &[&str], path: &Path) -> (Value, i32, String) {
    let mut all = vec!["--format", "json"];
    all.extend(args);
    all.push(path.to_str().unwrap());
    run_in(Path::new(env!("CARGO_MANIFEST_DIR")), &all)
}

/// `(rule, MSL line)` of every finding, sorted.
fn found(v: &Value) -> Vec<(String, u64)> {
    let mut out: Vec<(String, u64)> = v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            let line = f["source"]["line"].as_u64().unwrap_or(0);
            (f["rule"].as_str().unwrap().to_string(), line)
        })
        .collect();
    out.sort();
    out
}

/// The paths of the files a JSON report lists, relative to `dir`.
fn files_listed(v: &Value, dir: &Path) -> Vec<String> {
    let mut out: Vec<String> = v["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            let p = PathBuf::from(f["path"].as_str().unwrap());
            let rel = p.strip_prefix(dir).map(Path::to_path_buf).unwrap_or(p);
            rel.to_string_lossy().replace('\\', "/")
        })
        .collect();
    out.sort();
    out
}

/// A user pattern that flags every integer divide: with it, each divide of
/// divides.ll has two findings on its MSL line, of two rules.
fn any_divide_pattern(dir: &Path) -> PathBuf {
    let patterns = dir.join("patterns");
    std::fs::create_dir_all(&patterns).unwrap();
    std::fs::write(
        patterns.join("any-divide.toml"),
        r#"
id = "USR002"
name = "any-divide"
severity = "note"
category = "performance"
summary = "An integer divide (a rule written for this test)"
rationale = "Written for tests/ci_contracts.rs."
fix = "Nothing to fix."

[match]
opcodes = ["udiv", "urem", "sdiv", "srem"]
"#,
    )
    .unwrap();
    patterns
}

/// divides.ll and divides.metal copied into `dir`, the MSL edited by `edit`.
fn divides_in(dir: &Path, edit: impl Fn(&str) -> String) -> PathBuf {
    std::fs::create_dir_all(dir).unwrap();
    std::fs::copy(fixture("suppress/divides.ll"), dir.join("divides.ll")).unwrap();
    let msl = std::fs::read_to_string(fixture("suppress/divides.metal")).unwrap();
    std::fs::write(dir.join("divides.metal"), edit(&msl)).unwrap();
    dir.join("divides.ll")
}

// ---- exit codes ----

/// The default `--fail-on error` fails on an error-level finding (the
/// fixture has one, AIR003, and no reader error); `never` does not.
#[test]
fn default_fail_on_error_fails_on_an_error_finding() {
    let f = fixture("rules/fused_shift_buggy_typed.ll");
    let (v, code, _) = json(&[], &f);
    assert!(
        v["findings"]
            .as_array()
            .unwrap()
            .iter()
            .any(|f| f["severity"] == "error"),
        "{v:#}"
    );
    assert_eq!(code, 1, "an error finding under the default --fail-on");
    air_scan().arg(&f).assert().code(1);
    air_scan()
        .args(["--fail-on", "never"])
        .arg(&f)
        .assert()
        .code(0);
    // Only warnings (minimal_kernel.ll): the default passes.
    air_scan()
        .arg(fixture("minimal_kernel.ll"))
        .assert()
        .code(0);
}

#[test]
fn help_lists_exit_codes_and_output_options_before_metal_ones() {
    let out = air_scan().arg("--help").output().unwrap();
    let help = String::from_utf8(out.stdout).unwrap();
    assert!(help.contains("Exit codes:"), "{help}");
    for code in ["  0  ", "  1  ", "  2  "] {
        assert!(help.contains(code), "{code}: {help}");
    }
    let at = |s: &str| help.find(s).unwrap_or_else(|| panic!("{s}: {help}"));
    assert!(at("--format") < at("--xcrun"), "{help}");
    assert!(at("--fail-on") < at("--metal-flag"), "{help}");
    assert!(at("Output:") < at(".metal sources:"), "{help}");
}

// ---- suppressions ----

/// `ignore[divide-by-uniform]` on line 9 silences that rule's finding on
/// line 9, not another rule's finding on the same line.
#[test]
fn a_suppression_silences_only_the_rules_it_names() {
    let dir = tempfile::tempdir().unwrap();
    let patterns = any_divide_pattern(dir.path());
    let ll = divides_in(&dir.path().join("k"), str::to_string);
    let (v, _, _) = json(&["--patterns", patterns.to_str().unwrap()], &ll);
    let found = found(&v);
    assert!(
        !found.contains(&("divide-by-uniform".into(), 9)),
        "{found:?}"
    );
    assert!(found.contains(&("any-divide".into(), 9)), "{found:?}");
    assert!(found.contains(&("any-divide".into(), 11)), "{found:?}");
    let suppressed = v["files"][0]["suppressed"].as_array().unwrap();
    assert!(
        suppressed.iter().all(|s| s["rule"] == "divide-by-uniform"),
        "{suppressed:?}"
    );
}

/// A rule name with a typo silences nothing and is reported, with the
/// rule it was probably meant to be.
#[test]
fn an_unknown_rule_in_a_suppression_is_a_bad_suppression() {
    let dir = tempfile::tempdir().unwrap();
    let ll = divides_in(dir.path(), |msl| {
        msl.replace(
            "out[4] = (gid + 3) / n;",
            "out[4] = (gid + 3) / n; // air-scan: ignore[divide-by-unifrom] a typo",
        )
    });
    let (v, code, _) = json(&[], &ll);
    assert_eq!(code, 0);
    let all = found(&v);
    assert!(all.contains(&("divide-by-uniform".into(), 14)), "{all:?}");
    assert!(all.contains(&("bad-suppression".into(), 14)), "{all:?}");
    let bad = v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["rule"] == "bad-suppression" && f["source"]["line"] == 14)
        .unwrap();
    let message = bad["message"].as_str().unwrap();
    assert!(
        message.contains("`divide-by-unifrom`")
            && message.contains("did you mean `divide-by-uniform`"),
        "{message}"
    );
    // A rule left out by --ignore is still a rule: no complaint.
    let ignored = divides_in(&dir.path().join("ignored"), |msl| {
        msl.replace(
            "out[4] = (gid + 3) / n;",
            "out[4] = (gid + 3) / n; // air-scan: ignore[double-precision] not run here",
        )
    });
    let (v, _, _) = json(&["--ignore", "double-precision"], &ignored);
    assert!(!found(&v).contains(&("bad-suppression".into(), 14)));
}

/// Rule ids and names match in any case: in suppressions, `--select`,
/// `--ignore` and `explain`.
#[test]
fn rule_ids_are_case_insensitive() {
    let dir = tempfile::tempdir().unwrap();
    let ll = divides_in(dir.path(), |msl| {
        msl.replace(
            "out[4] = (gid + 3) / n;",
            "out[4] = (gid + 3) / n; // air-scan: ignore[air001] lower case",
        )
    });
    let (v, _, _) = json(&[], &ll);
    assert!(
        !found(&v).iter().any(|(_, line)| *line == 14),
        "{:?}",
        found(&v)
    );
    let f = fixture("minimal_kernel.ll");
    let (v, code, stderr) = json(&["--select", "air001"], &f);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(found(&v).len(), 1);
    let (v, _, _) = json(&["--ignore", "Divide-By-Uniform"], &f);
    assert_eq!(found(&v).len(), 0);
    air_scan().args(["explain", "air001"]).assert().success();
}

#[test]
fn explain_bad_suppression_works() {
    for name in ["bad-suppression", "AIR000", "air000"] {
        let out = air_scan().args(["explain", name]).output().unwrap();
        assert_eq!(out.status.code(), Some(0), "{name}");
        let text = String::from_utf8(out.stdout).unwrap();
        assert!(
            text.starts_with("AIR000 bad-suppression (warning, suppression)"),
            "{text}"
        );
        assert!(text.contains("Fix:"), "{text}");
    }
}

/// A bad suppression's fingerprint does not change when lines move above
/// it (it hashes the comment, not its line), so a baseline keeps it.
#[test]
fn a_bad_suppressions_fingerprint_has_no_line() {
    let dir = tempfile::tempdir().unwrap();
    let fingerprints = |extra: usize| -> Vec<(u64, String)> {
        let sub = dir.path().join(format!("moved{extra}"));
        let ll = divides_in(&sub, |msl| {
            // Blank lines inside the comment on top; the IR's lines point
            // `extra` lines lower with the same text.
            msl.replacen("\n", &format!("\n{}", "//\n".repeat(extra)), 1)
        });
        let text = std::fs::read_to_string(&ll).unwrap();
        // Highest first, so that no line is moved twice.
        let moved = (6..=15).rev().fold(text, |t, n| {
            t.replace(&format!("line: {n},"), &format!("line: {},", n + extra))
        });
        std::fs::write(&ll, moved).unwrap();
        let (v, _, _) = json(&[], &ll);
        let mut out: Vec<(u64, String)> = v["findings"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|f| f["rule"] == "bad-suppression")
            .map(|f| {
                let line = f["source"]["line"].as_u64().unwrap();
                (line, f["fingerprint"].as_str().unwrap().to_string())
            })
            .collect();
        out.sort();
        out
    };
    let (before, after) = (fingerprints(0), fingerprints(3));
    assert_eq!(before.len(), 2, "{before:?}");
    assert_eq!(
        before.iter().map(|b| b.0 + 3).collect::<Vec<_>>(),
        after.iter().map(|a| a.0).collect::<Vec<_>>(),
        "the lines moved"
    );
    assert_eq!(
        before.iter().map(|b| &b.1).collect::<Vec<_>>(),
        after.iter().map(|a| &a.1).collect::<Vec<_>>(),
        "the fingerprints did not"
    );
    assert_ne!(before[0].1, before[1].1);
}

// ---- rule selection ----

/// `--ignore X` drops X's findings and only X's: every other rule found
/// without it is still found (and there are several).
#[test]
fn ignore_drops_only_the_rule_it_names() {
    let dir = fixture("rules");
    let rules = |args: &[&str]| -> std::collections::BTreeSet<String> {
        let (v, _, _) = json(args, &dir);
        found(&v).into_iter().map(|(r, _)| r).collect()
    };
    let all = rules(&[]);
    assert!(all.len() >= 5, "{all:?}");
    assert!(all.contains("divide-by-uniform"));
    let mut without = all.clone();
    without.remove("divide-by-uniform");
    assert_eq!(rules(&["--ignore", "divide-by-uniform"]), without);
    assert_eq!(rules(&["--ignore", "AIR001"]), without);
}

// ---- the walk ----

const GOOD: &str = "minimal_kernel.ll";

/// A walk leaves out what .gitignore names (also without a git
/// repository) and hidden files and folders, as the README promises;
/// files named on the command line are read whatever they are.
#[test]
fn the_walk_respects_gitignore_and_hidden_files() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    for rel in [
        "a.ll",
        "ignored/b.ll",
        "c.O0.ll",
        ".hidden.ll",
        ".cache/d.ll",
        "sub/e.ll",
    ] {
        let p = d.join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::copy(fixture(GOOD), p).unwrap();
    }
    std::fs::write(d.join(".gitignore"), "ignored/\n*.O0.ll\n").unwrap();
    let (v, _, _) = json(&[], d);
    assert_eq!(files_listed(&v, d), ["a.ll", "sub/e.ll"]);
    // Named directly: read.
    let (v, _, _) = json(&[], &d.join(".hidden.ll"));
    assert_eq!(v["files"][0]["status"], "ok");
}

/// Extensions match in any case: `.LL` and `.Air` are picked up.
#[test]
fn the_walk_matches_extensions_in_any_case() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::copy(fixture(GOOD), d.join("upper.LL")).unwrap();
    // IR text in a `.Air`: found by its name, read as what it holds.
    std::fs::copy(fixture(GOOD), d.join("mixed.Air")).unwrap();
    std::fs::write(d.join("notes.txt"), "not scanned").unwrap();
    let (v, code, stderr) = json(&[], d);
    assert_eq!(files_listed(&v, d), ["mixed.Air", "upper.LL"], "{stderr}");
    assert_eq!(code, 0, "{v:#}");
}

// ---- files by content ----

fn diagnostics(file: &Value) -> Vec<String> {
    file["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["message"].as_str().unwrap().to_string())
        .collect()
}

/// IR text named `.air` is read as text, with a note; bitcode named `.ll`
/// goes to llvm-dis, with a note; a metallib named `.bin` is read as one.
#[test]
fn files_are_read_as_what_their_bytes_are() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::copy(fixture(GOOD), d.join("text.air")).unwrap();
    let (v, code, _) = json(&[], &d.join("text.air"));
    assert_eq!(code, 0, "{v:#}");
    assert_eq!(v["files"][0]["status"], "ok");
    assert_eq!(
        diagnostics(&v["files"][0]),
        ["the file is named .air but holds LLVM IR text: read as what it holds"]
    );
    assert_eq!(v["findings"].as_array().unwrap().len(), 1);

    let bc = d.join("bitcode.ll");
    if !common::assemble(&fixture(GOOD), &bc, "the bitcode-named-.ll test") {
        return;
    }
    let (v, code, _) = json(&[], &bc);
    assert_eq!(code, 0, "{v:#}");
    assert_eq!(v["files"][0]["status"], "ok", "{v:#}");
    assert_eq!(v["files"][0]["kernels"][0]["name"], "minimal");
    assert_eq!(
        diagnostics(&v["files"][0]),
        ["the file is named .ll but holds LLVM bitcode: read as what it holds"]
    );
    // In a folder too, beside a real `.ll`.
    std::fs::copy(fixture(GOOD), d.join("plain.ll")).unwrap();
    let (v, _, _) = json(&[], d);
    assert_eq!(v["totals"]["ok"], 3, "{v:#}");

    let Some(corpus) = common::shared("corpus", "the metallib-named-.bin test") else {
        return;
    };
    let lib = corpus.join("philipturner__air-v/Tests/AIRVTests/Shaders/vecAdd_msl.metallib");
    std::fs::copy(lib, d.join("lib.bin")).unwrap();
    let (v, code, _) = json(&[], &d.join("lib.bin"));
    assert_eq!(code, 0, "{v:#}");
    let file = &v["files"][0];
    assert_eq!(
        file["path"].as_str().unwrap(),
        format!("{}:vecAdd", d.join("lib.bin").display())
    );
    assert_eq!(file["kernels"][0]["name"], "vecAdd");
    assert_eq!(
        diagnostics(file),
        ["the file is named .bin but holds a metallib: read as what it holds"]
    );
}

// ---- nothing analysed ----

/// A PATH with no xcrun and no llvm-dis.
fn bare_path(dir: &Path) -> PathBuf {
    let bin = dir.join("empty-bin");
    std::fs::create_dir_all(&bin).unwrap();
    bin
}

fn stderr_lines(stderr: &str) -> Vec<&str> {
    stderr.lines().filter(|l| !l.is_empty()).collect()
}

/// An empty folder, a folder of `.metal` files with no compiler, and a
/// `.metal` named directly: exit 2 with one line saying why.
#[test]
fn a_scan_that_analyses_nothing_exits_2_with_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let empty = dir.path().join("empty");
    std::fs::create_dir(&empty).unwrap();
    let metal = dir.path().join("metal");
    std::fs::create_dir(&metal).unwrap();
    std::fs::write(metal.join("k.metal"), "kernel void k() {}\n").unwrap();
    let path = bare_path(dir.path());
    let run = |target: &Path, format: &str| {
        let out = air_scan()
            .env("PATH", &path)
            .args(["--format", format])
            .arg(target)
            .output()
            .unwrap();
        (out.status.code(), String::from_utf8(out.stderr).unwrap())
    };
    for format in ["text", "json", "sarif"] {
        let (code, stderr) = run(&empty, format);
        assert_eq!(code, Some(2), "{format}: {stderr}");
        assert_eq!(stderr_lines(&stderr).len(), 1, "{stderr}");
        assert!(
            stderr
                .starts_with("air-scan: nothing analysed: no .ll, .air, .metallib or .metal file"),
            "{stderr}"
        );
        for target in [metal.clone(), metal.join("k.metal")] {
            let (code, stderr) = run(&target, format);
            assert_eq!(code, Some(2), "{format} {}: {stderr}", target.display());
            assert_eq!(stderr_lines(&stderr).len(), 1, "{stderr}");
            assert!(
                stderr.starts_with(
                    "air-scan: nothing analysed: 1 .metal file skipped (no `xcrun` on PATH)"
                ),
                "{stderr}"
            );
        }
    }
}

/// Beside IR that was analysed, a skipped `.metal` file is no failure, and
/// the reports say it was skipped and why.
#[test]
fn skipped_files_are_in_json_and_sarif() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().join("src");
    std::fs::create_dir(&d).unwrap();
    std::fs::copy(fixture(GOOD), d.join("a.ll")).unwrap();
    std::fs::write(d.join("k.metal"), "kernel void k() {}\n").unwrap();
    let path = bare_path(dir.path());
    let out = air_scan()
        .env("PATH", &path)
        .args(["--format", "json"])
        .arg(&d)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    let files = v["files"].as_array().unwrap();
    assert_eq!(files.len(), 2, "{v:#}");
    assert_eq!(files[1]["status"], "skipped");
    assert!(files[1]["path"].as_str().unwrap().ends_with("k.metal"));
    assert_eq!(files[1]["reason"], "no `xcrun` on PATH");
    assert_eq!(
        v["totals"]["files"], 1,
        "a skipped file is not counted as read"
    );

    let out = air_scan()
        .env("PATH", &path)
        .current_dir(dir.path())
        .args(["--format", "sarif", "src"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let s: Value = serde_json::from_slice(&out.stdout).unwrap();
    let notes = s["runs"][0]["invocations"][0]["toolExecutionNotifications"]
        .as_array()
        .unwrap();
    let note = notes
        .iter()
        .find(|n| n["message"]["text"] == "not analysed: no `xcrun` on PATH")
        .unwrap_or_else(|| panic!("{notes:#?}"));
    assert_eq!(
        note["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
        "src/k.metal"
    );
}

// ---- tools ----

/// A bad `--llvm-dis` or `--xcrun` is one error on stderr before anything
/// is scanned (nothing on stdout), exit 2, however many files need it.
#[test]
fn a_bad_tool_is_one_error_before_the_scan() {
    let dir = tempfile::tempdir().unwrap();
    for i in 0..5 {
        std::fs::write(dir.path().join(format!("m{i}.air")), b"BC\xC0\xDE junk").unwrap();
        std::fs::write(
            dir.path().join(format!("k{i}.metal")),
            "kernel void k() {}\n",
        )
        .unwrap();
    }
    std::fs::copy(fixture(GOOD), dir.path().join("a.ll")).unwrap();
    for (flag, tool) in [
        ("--llvm-dis", "/nonexistent/llvm-dis"),
        ("--xcrun", "/nonexistent/xcrun"),
    ] {
        let out = air_scan()
            .args([flag, tool])
            .arg(dir.path())
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{flag}");
        assert!(
            out.stdout.is_empty(),
            "{flag}: {}",
            String::from_utf8_lossy(&out.stdout)
        );
        let stderr = String::from_utf8(out.stderr).unwrap();
        assert_eq!(stderr_lines(&stderr).len(), 1, "{stderr}");
        assert!(
            stderr.starts_with(&format!("air-scan: {flag} {tool}: ")),
            "{stderr}"
        );
    }
}

// ---- baselines ----

/// A baseline made by `air-scan .` inside a tree applies when the same tree
/// is scanned by its absolute path and from its parent; one made elsewhere
/// matches nothing and says so.
#[test]
fn a_baseline_applies_from_any_root_of_the_same_tree() {
    let dir = tempfile::tempdir().unwrap();
    let tree = dir.path().join("tree");
    divides_in(&tree.join("shaders"), str::to_string);
    let (first, _, _) = run_in(&tree, &["--format", "json", "."]);
    let known = first["findings"].as_array().unwrap().len();
    assert_eq!(known, 5);
    let baseline = dir.path().join("baseline.json");
    std::fs::write(&baseline, serde_json::to_vec(&first).unwrap()).unwrap();
    let b = baseline.to_str().unwrap();
    let absolute = tree.to_str().unwrap();
    for (cwd, target) in [
        (&tree, "."),
        (&tree, absolute),
        (&dir.path().to_path_buf(), "tree"),
    ] {
        let (v, _, stderr) = run_in(cwd, &["--format", "json", "--baseline", b, target]);
        assert_eq!(
            v["findings"].as_array().unwrap().len(),
            0,
            "from {} scanning {target}: {v:#}",
            cwd.display()
        );
        assert_eq!(v["totals"]["baseline_matched"], 5);
        assert!(!stderr.contains("baseline"), "{stderr}");
    }
    // Another tree with the same file names but different code: nothing matches.
    let other = dir.path().join("other");
    std::fs::create_dir_all(&other).unwrap();
    std::fs::copy(fixture(GOOD), other.join("divides.ll")).unwrap();
    let (v, _, stderr) = run_in(&other, &["--format", "json", "--baseline", b, "."]);
    assert_eq!(v["findings"].as_array().unwrap().len(), 1);
    assert!(
        stderr.contains("the baseline matched none of the 1 findings (5 in the baseline)"),
        "{stderr}"
    );
}

// ---- paths in JSON and SARIF ----

/// A SARIF artifact URI as a path: `%XX` decoded, a `file:///` URI made
/// absolute again.
fn uri_path(uri: &str) -> String {
    let uri = uri.strip_prefix("file://").unwrap_or(uri);
    let b = uri.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        match (b[i], b.get(i + 1..i + 3)) {
            (b'%', Some(hex)) => {
                out.push(u8::from_str_radix(std::str::from_utf8(hex).unwrap(), 16).unwrap());
                i += 3;
            }
            (c, _) => {
                out.push(c);
                i += 1;
            }
        }
    }
    String::from_utf8(out).unwrap()
}

/// Every path a JSON report writes (a library member's `:function` cut).
fn json_paths(v: &Value) -> std::collections::BTreeSet<String> {
    let mut out = std::collections::BTreeSet::new();
    let mut add = |p: &Value| {
        if let Some(p) = p.as_str() {
            out.insert(p.to_string());
        }
    };
    for f in v["files"].as_array().unwrap() {
        add(&f["path"]);
        for s in f["suppressed"].as_array().into_iter().flatten() {
            add(&s["path"]);
        }
    }
    for f in v["findings"].as_array().unwrap() {
        add(&f["path"]);
        add(&f["ir"]["path"]);
        add(&f["source"]["path"]);
        for at in f["inlined_at"].as_array().into_iter().flatten() {
            add(&at["path"]);
        }
    }
    out
}

/// Every artifact URI of a SARIF log's results and notifications, as paths.
fn sarif_paths(s: &Value) -> std::collections::BTreeSet<String> {
    let run = &s["runs"][0];
    let results = run["results"].as_array().unwrap().iter();
    let locations = results
        .flat_map(|r| {
            let locations = r["locations"].as_array().unwrap().iter();
            locations.chain(r["relatedLocations"].as_array().into_iter().flatten())
        })
        .chain(
            run["invocations"][0]["toolExecutionNotifications"]
                .as_array()
                .into_iter()
                .flatten()
                .flat_map(|n| n["locations"].as_array().unwrap()),
        );
    locations
        .map(|l| {
            uri_path(
                l["physicalLocation"]["artifactLocation"]["uri"]
                    .as_str()
                    .unwrap(),
            )
        })
        .collect()
}

/// The same tree scanned from inside it by `.` and by its absolute path,
/// and from its parent by name (with and without `--sarif-root`): in each,
/// every path in the JSON report is written as SARIF writes its artifact
/// URIs, relative to the root `scan.root` and `%SRCROOT%` both name; and
/// each names the same files whichever way the tree was given.
#[test]
fn json_paths_are_sarif_uris_however_the_tree_is_scanned() {
    let dir = tempfile::tempdir().unwrap();
    let parent = dir.path().canonicalize().unwrap();
    let tree = parent.join("tree");
    let shaders = tree.join("shaders");
    std::fs::create_dir_all(&shaders).unwrap();
    let copied = [
        "source/inlined.ll",
        "source/inlined.metal",
        "suppress/divides.ll",
        "suppress/divides.metal",
    ];
    for f in copied {
        let name = Path::new(f).file_name().unwrap();
        std::fs::copy(fixture(f), shaders.join(name)).unwrap();
    }
    // A file the reader cannot read: a SARIF notification.
    std::fs::write(shaders.join("broken.ll"), "define void @f( {\n").unwrap();
    let absolute = tree.to_str().unwrap();
    let tree_root = tree.to_str().unwrap();
    let mut files_seen = Vec::new();
    for (cwd, args) in [
        (&tree, vec!["."]),
        (&tree, vec![absolute]),
        (&parent, vec!["tree"]),
        (&parent, vec!["--sarif-root", "tree", "tree"]),
        (&shaders, vec!["--report-root", tree_root, "../shaders"]),
    ] {
        let with = |format: &str| {
            let mut all = vec!["--format", format, "--show-suppressed"];
            all.extend(&args);
            let out = air_scan().current_dir(cwd).args(&all).output().unwrap();
            serde_json::from_slice::<Value>(&out.stdout).unwrap()
        };
        let (json, sarif) = (with("json"), with("sarif"));
        let how = format!("in {} scanning {args:?}", cwd.display());
        let root = json["scan"]["root"].as_str().unwrap();
        let srcroot = sarif["runs"][0]["originalUriBaseIds"]["%SRCROOT%"]["uri"]
            .as_str()
            .unwrap();
        assert_eq!(format!("{}/", root), uri_path(srcroot), "{how}");
        let in_json = json_paths(&json);
        let in_sarif = sarif_paths(&sarif);
        assert!(in_json.len() >= 4, "{how}: {in_json:?}");
        assert!(
            in_sarif.is_subset(&in_json),
            "{how}: in SARIF, not in JSON: {:?}",
            in_sarif.difference(&in_json).collect::<Vec<_>>()
        );
        // The files the report names, absolute: the same every way.
        let files: std::collections::BTreeSet<String> = json["files"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| {
                let p = f["path"].as_str().unwrap();
                assert!(!p.contains('\\') && !p.contains("./"), "{how}: {p}");
                Path::new(root).join(p).display().to_string()
            })
            .collect();
        files_seen.push((how, files, in_json));
    }
    let (first_how, first_files, first_paths) = &files_seen[0];
    for (how, files, paths) in &files_seen[1..] {
        assert_eq!(files, first_files, "{how} vs {first_how}");
        // The root is the tree itself in all but the runs from its parent.
        if !how.contains(&format!("{} scanning [\"tree\"]", parent.display())) {
            assert_eq!(paths, first_paths, "{how} vs {first_how}");
        }
    }
    assert!(
        first_paths.contains("shaders/inlined.ll") && first_paths.contains("shaders/broken.ll"),
        "{first_paths:?}"
    );
}
