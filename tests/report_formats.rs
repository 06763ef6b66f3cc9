//! The machine-readable reports: `--format json` against
//! docs/report.schema.json, `--format sarif` against the official SARIF 2.1.0
//! schema (testdata/sarif/), the JSON summary's arithmetic, SARIF's rules,
//! locations and fingerprints, and byte-stable output whatever `--jobs` is.
//! The schema's `evidence` part is generated from src/rules/evidence.rs and
//! checked equal to it here; regenerate it with
//! `cargo test --test report_formats -- --ignored regenerate_evidence_schema`.

mod common;

use air_scan::rules::evidence::Evidence;
use assert_cmd::Command;
use serde_json::Value;
use std::path::{Path, PathBuf};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The debug-info corpus project, when ../shared is there.
fn kolinko() -> Option<PathBuf> {
    common::shared(
        "corpus/kolinko__effort",
        "a report test on the debug-info corpus",
    )
}

/// Runs air-scan in the crate's folder (so URIs are `testdata/...`) and
/// returns stdout; any exit code but a crash is fine here.
fn run_in(dir: &Path, args: &[&str]) -> Vec<u8> {
    let out = Command::cargo_bin("air-scan")
        .unwrap()
        .current_dir(dir)
        .args(args)
        .output()
        .unwrap();
    assert!(
        matches!(out.status.code(), Some(0..=2)),
        "air-scan {args:?}: {:?}\n{}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

fn report(format: &str, paths: &[&str]) -> Value {
    let mut args = vec!["--format", format];
    args.extend(paths);
    let out = run_in(root(), &args);
    serde_json::from_slice(&out).unwrap_or_else(|e| panic!("{paths:?}: not JSON: {e}"))
}

/// Every `.ll` file under testdata/, relative to the crate, in path order.
fn fixtures() -> Vec<String> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        for e in std::fs::read_dir(dir).unwrap().flatten() {
            let p = e.path();
            if p.is_dir() {
                walk(&p, out);
            } else if p.extension().is_some_and(|x| x == "ll") {
                out.push(p);
            }
        }
    }
    let mut found = Vec::new();
    walk(&root().join("testdata"), &mut found);
    found.sort();
    let list: Vec<String> = found
        .iter()
        .map(|p| {
            let rel = p.strip_prefix(root()).unwrap();
            rel.to_string_lossy().replace('\\', "/")
        })
        .collect();
    assert!(list.len() > 20, "{list:?}");
    list
}

/// The official SARIF schema's `language` pattern, with a stray `]`: a
/// literal in ECMA 262 regexes, which JSON Schema uses, but an error for the
/// Rust regex engines. The file stays as published; the validator gets the
/// same pattern with that `]` escaped, which means the same in ECMA 262.
const SARIF_LANGUAGE_PATTERN: &str = "^[a-zA-Z]{2}|^[a-zA-Z]{2}-[a-zA-Z]{2}]?$";

fn escape_stray_bracket(v: &mut Value) {
    match v {
        Value::Object(m) => {
            for (k, x) in m.iter_mut() {
                if k == "pattern" && x == SARIF_LANGUAGE_PATTERN {
                    *x = Value::from(SARIF_LANGUAGE_PATTERN.replace("]?", "\\]?"));
                } else {
                    escape_stray_bracket(x);
                }
            }
        }
        Value::Array(a) => a.iter_mut().for_each(escape_stray_bracket),
        _ => {}
    }
}

fn validator(schema_path: &str) -> jsonschema::Validator {
    let text = std::fs::read_to_string(root().join(schema_path)).unwrap();
    let mut schema: Value = serde_json::from_str(&text).unwrap();
    escape_stray_bracket(&mut schema);
    build_validator(&schema, schema_path)
}

fn build_validator(schema: &Value, what: &str) -> jsonschema::Validator {
    jsonschema::options()
        .should_validate_formats(true)
        .build(schema)
        .unwrap_or_else(|e| panic!("{what} is no valid schema: {e}"))
}

fn assert_valid(v: &jsonschema::Validator, instance: &Value, what: &str) {
    let errors: Vec<String> = v
        .iter_errors(instance)
        .take(10)
        .map(|e| format!("  at {}: {e}", e.instance_path()))
        .collect();
    assert!(errors.is_empty(), "{what}:\n{}", errors.join("\n"));
}

/// A copy of `fixture` in a fresh folder, with `extra` lines of comments
/// on top, so every line moves.
fn shifted_copy(fixture: &str, extra: usize) -> (tempfile::TempDir, String) {
    let dir = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string(root().join(fixture)).unwrap();
    let name = Path::new(fixture).file_name().unwrap().to_str().unwrap();
    let moved = format!("{}{text}", "; moved\n".repeat(extra));
    std::fs::write(dir.path().join(name), moved).unwrap();
    (dir, name.to_string())
}

fn line_of(fixture: &str, needle: &str) -> u64 {
    let text = std::fs::read_to_string(root().join(fixture)).unwrap();
    let i = text.find(needle).unwrap_or_else(|| panic!("{needle}"));
    1 + text[..i].matches('\n').count() as u64
}

// ---- JSON ----

#[test]
fn json_of_every_fixture_validates_against_the_schema() {
    let v = validator("docs/report.schema.json");
    for f in fixtures() {
        assert_valid(&v, &report("json", &[&f]), &f);
    }
    let whole = report("json", &["testdata"]);
    assert_valid(&v, &whole, "testdata/");
    every_evidence_kind_is_met(&whole);
}

/// A field the report leaves out when it has no value (`cycles`, `via`,
/// `paired_with`) is never written as null, and the schema says so: a
/// dashboard may read it as a number or a string whenever it is present.
#[test]
fn fields_left_out_when_unknown_are_never_null() {
    let v = validator("docs/report.schema.json");
    let mut whole = report("json", &["testdata"]);
    let findings = whole["findings"].as_array_mut().unwrap();
    let mut nulled = 0;
    for field in ["cycles", "via", "paired_with"] {
        let finding = findings
            .iter_mut()
            .find(|f| f["evidence"].get(field).is_some())
            .unwrap_or_else(|| panic!("no finding in testdata/ has `{field}`"));
        assert!(!finding["evidence"][field].is_null());
        finding["evidence"][field] = Value::Null;
        nulled += 1;
    }
    assert_eq!(nulled, 3);
    let errors = v.iter_errors(&whole).count();
    assert!(errors >= 3, "null accepted: {errors} errors");
}

#[test]
fn json_of_failed_files_suppressions_and_baselines_validates() {
    let v = validator("docs/report.schema.json");
    let dir = tempfile::tempdir().unwrap();
    let junk = dir.path().join("junk.ll");
    std::fs::write(&junk, b"\0\x01binary").unwrap();
    let missing = dir.path().join("missing.ll");
    let r = report("json", &[junk.to_str().unwrap(), missing.to_str().unwrap()]);
    assert_eq!(r["files"][0]["status"], "error");
    assert!(r["files"][0]["error"].is_string());
    assert_valid(&v, &r, "unreadable files");

    let suppress = "testdata/suppress/divides.ll";
    let first = report("json", &[suppress]);
    assert!(first["totals"]["suppressed"].as_u64().unwrap() > 0);
    assert_valid(&v, &first, suppress);
    let baseline = dir.path().join("baseline.json");
    std::fs::write(&baseline, serde_json::to_vec(&first).unwrap()).unwrap();
    let again = report(
        "json",
        &["--baseline", baseline.to_str().unwrap(), suppress],
    );
    assert!(again["files"][0]["baseline_matched"].as_u64().unwrap() > 0);
    assert_valid(&v, &again, "with --baseline");
}

/// The whole corpus (its debug-info projects, `.air` and `.metallib` files
/// among them) in one scan: ~20 MB of JSON, validated once.
#[test]
fn json_of_the_corpus_validates() {
    let Some(corpus) = common::shared("corpus", "the corpus JSON schema test") else {
        return;
    };
    let v = validator("docs/report.schema.json");
    let r = report("json", &[corpus.to_str().unwrap()]);
    let findings = r["findings"].as_array().unwrap().len();
    assert!(findings > 2000, "{findings} findings");
    assert_valid(&v, &r, "../shared/corpus");
}

// ---- The evidence schema ----

const SCHEMA: &str = "docs/report.schema.json";

/// The report schema's `$defs.evidence` as src/rules/evidence.rs generates
/// it: the kinds' definitions in its own `$defs` (so that it is one entry of
/// the file), every object closed, so that a key the types do not declare
/// fails validation, and doc comments' line breaks made spaces.
fn generated_evidence_schema() -> Value {
    let generator = schemars::generate::SchemaSettings::draft2020_12()
        .for_serialize()
        .into_generator();
    let mut schema = generator.into_root_schema_for::<Evidence>().to_value();
    let top = schema.as_object_mut().unwrap();
    top.remove("$schema");
    top.remove("title");
    close_and_tidy(&mut schema);
    schema
}

fn close_and_tidy(v: &mut Value) {
    match v {
        Value::Object(m) => {
            if m.get("type").is_some_and(|t| t == "object") {
                m.insert("additionalProperties".into(), Value::Bool(false));
            }
            if let Some(Value::String(r)) = m.get_mut("$ref") {
                *r = r.replace("#/$defs/", "#/$defs/evidence/$defs/");
            }
            if let Some(Value::String(d)) = m.get_mut("description") {
                *d = d.replace('\n', " ");
            }
            m.values_mut().for_each(close_and_tidy);
        }
        Value::Array(a) => a.iter_mut().for_each(close_and_tidy),
        _ => {}
    }
}

fn schema_file() -> (String, Value) {
    let text = std::fs::read_to_string(root().join(SCHEMA)).unwrap();
    let schema = serde_json::from_str(&text).unwrap();
    (text, schema)
}

#[test]
fn schema_evidence_is_what_the_types_generate() {
    let (_, schema) = schema_file();
    let documented = &schema["$defs"]["evidence"];
    let generated = generated_evidence_schema();
    assert!(
        *documented == generated,
        "{SCHEMA}'s $defs.evidence is not what src/rules/evidence.rs generates; \
         regenerate it: cargo test --test report_formats -- --ignored regenerate_evidence_schema\n\
         generated:\n{}",
        serde_json::to_string_pretty(&generated).unwrap()
    );
    // Each kind is documented: a struct and every field say what they are.
    for (name, kind) in generated["$defs"].as_object().unwrap() {
        assert!(kind["description"].is_string(), "{name} has no doc comment");
        for (key, field) in kind["properties"].as_object().into_iter().flatten() {
            let described = field["description"].is_string()
                || field["$ref"].as_str().is_some_and(|r| {
                    let def = r.rsplit('/').next().unwrap();
                    generated["$defs"][def]["description"].is_string()
                });
            assert!(described, "{name}.{key} has no doc comment");
        }
    }
}

/// Writes the generated evidence schema into docs/report.schema.json in
/// place of its `$defs.evidence`, leaving the rest of the file's text as it
/// is.
#[test]
#[ignore = "rewrites docs/report.schema.json: run by hand after changing src/rules/evidence.rs"]
fn regenerate_evidence_schema() {
    let (text, mut schema) = schema_file();
    let key = "\n    \"evidence\": ";
    assert_eq!(
        text.matches(key).count(),
        1,
        "{SCHEMA}: where is $defs.evidence?"
    );
    let start = text.find(key).unwrap() + key.len();
    let end = start + json_value_len(&text[start..]);
    let generated = generated_evidence_schema();
    let pretty = serde_json::to_string_pretty(&generated)
        .unwrap()
        .replace('\n', "\n    ");
    let new_text = format!("{}{pretty}{}", &text[..start], &text[end..]);
    schema["$defs"]["evidence"] = generated;
    let reread: Value = serde_json::from_str(&new_text).unwrap();
    assert_eq!(
        reread, schema,
        "the splice changed more than $defs.evidence"
    );
    std::fs::write(root().join(SCHEMA), new_text).unwrap();
}

/// The length of the JSON object at the start of `text`: to its matching
/// brace, outside strings.
fn json_value_len(text: &str) -> usize {
    let (mut depth, mut in_string, mut escaped) = (0usize, false, false);
    for (i, c) in text.char_indices() {
        match c {
            _ if escaped => escaped = false,
            '\\' if in_string => escaped = true,
            '"' => in_string = !in_string,
            '{' if !in_string => depth += 1,
            '}' if !in_string => {
                depth -= 1;
                if depth == 0 {
                    return i + 1;
                }
            }
            _ => {}
        }
    }
    panic!("unclosed object");
}

/// Every kind of evidence the types allow is met in testdata's report, and
/// each evidence object there is of exactly one kind.
fn every_evidence_kind_is_met(report: &Value) {
    let evidence = generated_evidence_schema();
    let kinds: Vec<(String, jsonschema::Validator)> = evidence["anyOf"]
        .as_array()
        .unwrap()
        .iter()
        .map(|kind| {
            let name = kind["$ref"].as_str().unwrap().rsplit('/').next().unwrap();
            let alone = serde_json::json!({
                "$defs": { "evidence": evidence },
                "$ref": kind["$ref"],
            });
            (name.to_string(), build_validator(&alone, name))
        })
        .collect();
    assert!(kinds.len() > 10, "Evidence's variants: {}", kinds.len());
    let mut met = vec![0usize; kinds.len()];
    for f in report["findings"].as_array().unwrap() {
        let of: Vec<usize> = (0..kinds.len())
            .filter(|&k| kinds[k].1.is_valid(&f["evidence"]))
            .collect();
        assert_eq!(
            of.len(),
            1,
            "{}: {} is of kinds {of:?}",
            f["rule"],
            f["evidence"]
        );
        met[of[0]] += 1;
    }
    let never: Vec<&str> = (0..kinds.len())
        .filter(|&k| met[k] == 0)
        .map(|k| kinds[k].0.as_str())
        .collect();
    assert!(
        never.is_empty(),
        "no finding in testdata/ has evidence of {never:?}"
    );
}

#[test]
fn json_is_schema_version_4() {
    let r = report("json", &["testdata/minimal_kernel.ll"]);
    assert_eq!(r["schema_version"], 4);
    let text = std::fs::read_to_string(root().join("docs/report.schema.json")).unwrap();
    let schema: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(schema["properties"]["schema_version"]["const"], 4);
}

/// The entry of a `[{rule, ...}]` list for `rule`.
fn by_rule<'v>(list: &'v Value, rule: &str) -> &'v Value {
    list.as_array()
        .and_then(|l| l.iter().find(|e| e["rule"] == rule))
        .unwrap_or(&Value::Null)
}

/// The count of `severity` in `summary.by_severity` (a list).
fn severity_count(list: &Value, severity: &str) -> u64 {
    list.as_array()
        .and_then(|l| l.iter().find(|e| e["severity"] == severity))
        .and_then(|e| e["count"].as_u64())
        .unwrap_or(0)
}

/// The summary adds up to the findings it summarizes, on every fixture.
#[test]
fn summary_counts_agree_with_the_findings() {
    for f in fixtures() {
        let r = report("json", &[&f]);
        let findings = r["findings"].as_array().unwrap();
        let s = &r["summary"];
        let sev = |o: &Value| {
            ["error", "warning", "note"]
                .iter()
                .map(|k| o[k].as_u64().unwrap())
                .sum::<u64>()
        };
        let severities: u64 = ["error", "warning", "note"]
            .iter()
            .map(|k| severity_count(&s["by_severity"], k))
            .sum();
        assert_eq!(severities, findings.len() as u64, "{f}");
        let rules = s["by_rule"].as_array().unwrap();
        let counted: u64 = rules.iter().map(|r| r["count"].as_u64().unwrap()).sum();
        assert_eq!(counted, findings.len() as u64, "{f}");
        for rs in rules {
            let name = rs["rule"].as_str().unwrap();
            let mine: Vec<&Value> = findings.iter().filter(|x| x["rule"] == name).collect();
            assert_eq!(rs["count"], mine.len() as u64, "{f} {name}");
            assert_eq!(sev(&rs["by_severity"]), mine.len() as u64, "{f} {name}");
            let looped = mine.iter().filter(|x| x["loop_depth"] != 0).count();
            assert_eq!(rs["in_loops"], looped as u64, "{f} {name}");
            match rs["cycles_per_execution"].as_u64() {
                Some(c) => assert_eq!(rs["estimated_cycles"], c * mine.len() as u64),
                None => assert!(rs["estimated_cycles"].is_null()),
            }
        }
        let kernels = s["by_kernel"].as_array().unwrap();
        let entry_points: usize = r["files"]
            .as_array()
            .unwrap()
            .iter()
            .map(|file| {
                file["kernels"].as_array().map_or(0, Vec::len)
                    + file["shaders"].as_array().map_or(0, Vec::len)
            })
            .sum();
        assert_eq!(kernels.len(), entry_points, "{f}");
        for k in kernels {
            let reaching: Vec<&Value> = findings
                .iter()
                .filter(|x| x["path"] == k["path"])
                .filter(|x| x["kernels"].as_array().unwrap().contains(&k["name"]))
                .collect();
            assert_eq!(k["findings"], reaching.len() as u64, "{f}: {k}");
            let cycles: u64 = reaching
                .iter()
                .map(|x| {
                    by_rule(&s["by_rule"], x["rule"].as_str().unwrap())["cycles_per_execution"]
                        .as_u64()
                        .unwrap_or(0)
                })
                .sum();
            assert_eq!(k["estimated_cycles_per_thread"], cycles, "{f}: {k}");
        }
        let mut keys: Vec<(String, String)> = kernels
            .iter()
            .map(|k| (k["path"].to_string(), k["name"].to_string()))
            .collect();
        let before = keys.clone();
        keys.sort();
        assert_eq!(keys, before, "{f}: by_kernel is sorted by path, then name");
    }
}

/// The example: about 730 cycles per thread for each uniform divide.
#[test]
fn summary_estimates_730_cycles_per_uniform_divide() {
    let r = report("json", &["testdata/rules/divide_helpers.ll"]);
    let s = &r["summary"];
    let rule = by_rule(&s["by_rule"], "divide-by-uniform");
    assert_eq!(rule["rule_id"], "AIR001");
    assert_eq!(rule["count"], 1);
    assert_eq!(rule["cycles_per_execution"], 730);
    assert_eq!(rule["estimated_cycles"], 730);
    assert_eq!(severity_count(&s["by_severity"], "warning"), 1);
    // One divide in a helper both kernels call: 730 for each.
    let k = s["by_kernel"].as_array().unwrap();
    assert_eq!(k.len(), 2);
    for (k, name) in k.iter().zip(["kernel_a", "kernel_b"]) {
        assert_eq!(k["name"], name);
        assert_eq!(k["stage"], "kernel");
        assert_eq!(k["findings"], 1);
        assert_eq!(by_rule(&k["by_rule"], "divide-by-uniform")["count"], 1);
        assert_eq!(k["estimated_cycles_per_thread"], 730);
    }

    let r = report("json", &["testdata/rules/fused_shift_buggy_typed.ll"]);
    let rule = by_rule(&r["summary"]["by_rule"], "fused-shift-address-in-branch");
    assert!(rule["cycles_per_execution"].is_null(), "{rule}");
    assert_eq!(severity_count(&r["summary"]["by_severity"], "error"), 1);
}

#[test]
fn summary_counts_findings_in_loops() {
    let r = report("json", &["testdata/rules/divide_cost.ll"]);
    let rule = by_rule(&r["summary"]["by_rule"], "divide-by-uniform");
    assert!(rule["in_loops"].as_u64().unwrap() > 0, "{rule}");
    let conv = r["summary"]["by_kernel"]
        .as_array()
        .unwrap()
        .iter()
        .find(|k| k["name"] == "kernel_conv_2d")
        .cloned()
        .unwrap();
    assert!(conv["in_loops"].as_u64().unwrap() > 0, "{conv}");
}

// ---- stable output ----

#[test]
fn output_does_not_depend_on_jobs() {
    // JSON's `scan.arguments` records `--jobs` itself: left out here.
    let without_arguments = |format: &str, out: Vec<u8>| {
        if format != "json" {
            return out;
        }
        let mut v: Value = serde_json::from_slice(&out).unwrap();
        v["scan"]["arguments"] = Value::Null;
        serde_json::to_vec(&v).unwrap()
    };
    let both = |format: &str, p: &str| {
        let one = run_in(root(), &["--format", format, "--jobs", "1", p]);
        let two = run_in(root(), &["--format", format, "--jobs", "2", p]);
        let (one, two) = (
            without_arguments(format, one),
            without_arguments(format, two),
        );
        assert!(one == two, "{format} of {p} differs with --jobs");
        two
    };
    for format in ["json", "sarif"] {
        let two = both(format, "testdata");
        let again = run_in(root(), &["--format", format, "--jobs", "2", "testdata"]);
        let again = without_arguments(format, again);
        assert!(two == again, "{format} of testdata differs between runs");
    }
    // Many files: the corpus's extracted modules (SARIF follows the same
    // file and finding order as JSON).
    if let Some(k) = kolinko() {
        both(
            "json",
            k.join("default.metallib.extracted").to_str().unwrap(),
        );
    }
    // A library large enough to be cut into parts read in parallel
    // (`scan::Unit::Part`, 32 functions each: 12 parts) gives its 382
    // modules' reports in its own order, as one thread reads them.
    if let Some(mlx) = common::shared("corpus/Iito__spindll", "a library cut into parts") {
        let lib = mlx.join("mlx.metallib");
        for format in ["json", "text"] {
            both(format, lib.to_str().unwrap());
        }
    }
}

// ---- SARIF ----

#[test]
fn sarif_of_every_fixture_validates_against_the_sarif_schema() {
    let v = validator("testdata/sarif/sarif-schema-2.1.0.json");
    for f in fixtures() {
        assert_valid(&v, &report("sarif", &[&f]), &f);
    }
    assert_valid(&v, &report("sarif", &["testdata"]), "testdata/");
    if let Some(dir) = kolinko() {
        assert_valid(
            &v,
            &report("sarif", &[dir.to_str().unwrap()]),
            "kolinko__effort",
        );
    }
}

/// Every result's rule is in the driver at its `ruleIndex`, every level is
/// the rule's (AIR009's append-counter notes aside), and every URI is relative with forward slashes.
#[test]
fn sarif_results_point_at_their_rules_and_relative_uris() {
    let s = report("sarif", &["testdata"]);
    let run = &s["runs"][0];
    let rules = run["tool"]["driver"]["rules"].as_array().unwrap();
    let results = run["results"].as_array().unwrap();
    assert!(results.len() > 20);
    for r in results {
        let rule = &rules[r["ruleIndex"].as_u64().unwrap() as usize];
        assert_eq!(rule["id"], r["ruleId"], "{r}");
        // A rule's milder case may carry its own level: AIR009's append
        // counters are notes (SARIF lets a result override the default).
        let append_counter =
            r["ruleId"] == "AIR009" && r["message"]["text"].to_string().contains("hands out slots");
        if append_counter {
            assert_eq!(r["level"], "note", "{r}");
        } else {
            assert_eq!(rule["defaultConfiguration"]["level"], r["level"], "{r}");
        }
        let key = &r["partialFingerprints"]["airScanFingerprint/v1"];
        assert!(key.as_str().is_some_and(|k| !k.is_empty()), "{r}");
        let uri = |loc: &Value| {
            let p = &loc["physicalLocation"];
            assert!(p["region"]["startLine"].as_u64() >= Some(1), "{loc}");
            let uri = p["artifactLocation"]["uri"].as_str().unwrap().to_string();
            assert!(!uri.contains('\\') && !uri.contains("/./"), "{uri}");
            uri
        };
        // Where the finding is shown: always a file the scan read or found.
        let primary = uri(&r["locations"][0]);
        assert!(primary.starts_with("testdata/"), "{primary}");
        // An MSL file debug info names but that is not on disk keeps the
        // path it was compiled at.
        for loc in r["relatedLocations"].as_array().into_iter().flatten() {
            let related = uri(loc);
            assert!(
                related.starts_with("testdata/") || related.starts_with("file:///"),
                "{related}"
            );
        }
    }
}

#[test]
fn sarif_driver_lists_every_rule_with_its_texts() {
    let s = report("sarif", &["testdata/minimal_kernel.ll"]);
    assert_eq!(s["version"], "2.1.0");
    let driver = &s["runs"][0]["tool"]["driver"];
    assert_eq!(driver["name"], "air-scan");
    assert_eq!(driver["version"], env!("CARGO_PKG_VERSION"));
    let rules = driver["rules"].as_array().unwrap();
    let ids: Vec<&str> = rules.iter().map(|r| r["id"].as_str().unwrap()).collect();
    let builtin = air_scan::rules::RuleSet::builtin();
    let want: Vec<&str> = builtin
        .rules
        .iter()
        .map(|r| r.pattern.id.as_str())
        .collect();
    assert_eq!(ids, want);
    assert_eq!(&ids[..3], ["AIR001", "AIR002", "AIR003"]);
    let expect = [
        ("divide-by-uniform", "warning", "performance"),
        ("divide-by-varying", "note", "performance"),
        ("fused-shift-address-in-branch", "error", "correctness"),
    ];
    for (r, (name, level, category)) in rules.iter().zip(expect) {
        assert_eq!(r["name"], name);
        assert_eq!(r["defaultConfiguration"]["level"], level);
        assert_eq!(r["properties"]["category"], category);
        assert!(r["shortDescription"]["text"].as_str().unwrap().len() > 20);
        assert!(r["fullDescription"]["text"].as_str().unwrap().len() > 100);
        let help = r["help"]["text"].as_str().unwrap();
        assert!(help.len() > 50, "{r}");
        assert!(r["help"]["markdown"].as_str().unwrap().starts_with(help));
    }
    assert!(
        rules[0]["help"]["text"]
            .as_str()
            .unwrap()
            .contains("[[function_constant]]")
    );
    assert_eq!(rules[0]["properties"]["cycles"], 730);
    // A selected rule set is what the driver lists.
    let s = report(
        "sarif",
        &["--select", "AIR003", "testdata/minimal_kernel.ll"],
    );
    let rules = s["runs"][0]["tool"]["driver"]["rules"].as_array().unwrap();
    assert_eq!(rules.len(), 1);
    assert_eq!(rules[0]["id"], "AIR003");
}

#[test]
fn sarif_result_without_debug_info_points_at_the_ir_line() {
    let fixture = "testdata/rules/divide_helpers.ll";
    let s = report("sarif", &[fixture]);
    let j = report("json", &[fixture]);
    let results = s["runs"][0]["results"].as_array().unwrap();
    assert_eq!(results.len(), 1);
    let r = &results[0];
    assert_eq!(r["ruleId"], "AIR001");
    assert_eq!(r["level"], "warning");
    assert_eq!(r["message"]["text"], j["findings"][0]["message"]);
    let loc = &r["locations"][0]["physicalLocation"];
    assert_eq!(loc["artifactLocation"]["uri"], fixture);
    let line = line_of(fixture, "%1 = udiv i32 %a, %b");
    assert_eq!(loc["region"]["startLine"], line);
    assert!(loc["region"]["startColumn"].is_null(), "IR has no column");
    assert_eq!(
        r["locations"][0]["logicalLocations"][0]["name"],
        "div_helper"
    );
    // A result stands for a cause: its fingerprint is the cause's.
    assert_eq!(
        r["partialFingerprints"]["airScanFingerprint/v1"],
        format!("cause:{}", j["findings"][0]["cause"].as_str().unwrap())
    );
    assert_eq!(
        r["properties"]["kernels"],
        serde_json::json!(["kernel_a", "kernel_b"])
    );
}

#[test]
fn sarif_result_with_debug_info_points_at_the_msl_line_and_inlined_chain() {
    let fixture = "testdata/source/inlined.ll";
    let s = report("sarif", &[fixture]);
    let j = report("json", &[fixture]);
    let f = &j["findings"][0];
    let r = &s["runs"][0]["results"][0];
    let loc = &r["locations"][0]["physicalLocation"];
    assert_eq!(
        loc["artifactLocation"]["uri"],
        "testdata/source/inlined.metal"
    );
    assert_eq!(loc["region"]["startLine"], f["source"]["line"]);
    assert_eq!(loc["region"]["startColumn"], f["source"]["column"]);
    let related = r["relatedLocations"].as_array().unwrap();
    let chain = f["inlined_at"].as_array().unwrap();
    assert!(!chain.is_empty(), "the fixture is inlined: {f}");
    assert_eq!(related.len(), 1 + chain.len());
    let ir = &related[0]["physicalLocation"];
    assert_eq!(ir["artifactLocation"]["uri"], fixture);
    assert_eq!(ir["region"]["startLine"], f["ir"]["line"]);
    for (rel, at) in related[1..].iter().zip(chain) {
        let p = &rel["physicalLocation"];
        assert_eq!(
            p["artifactLocation"]["uri"],
            "testdata/source/inlined.metal"
        );
        assert_eq!(p["region"]["startLine"], at["line"]);
        assert!(rel["message"]["text"].as_str().unwrap().contains("inlined"));
    }
    let ids: Vec<u64> = related.iter().map(|r| r["id"].as_u64().unwrap()).collect();
    assert_eq!(ids, (1..=related.len() as u64).collect::<Vec<_>>());
}

#[test]
fn sarif_fingerprints_survive_line_moves() {
    let fixture = "testdata/rules/divide_cost.ll";
    let before = report("sarif", &[fixture]);
    let (dir, name) = shifted_copy(fixture, 7);
    let after: Value =
        serde_json::from_slice(&run_in(dir.path(), &["--format", "sarif", &name])).unwrap();
    let pick = |s: &Value| -> Vec<(String, u64)> {
        s["runs"][0]["results"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| {
                (
                    r["partialFingerprints"]["airScanFingerprint/v1"]
                        .as_str()
                        .unwrap()
                        .to_string(),
                    r["locations"][0]["physicalLocation"]["region"]["startLine"]
                        .as_u64()
                        .unwrap(),
                )
            })
            .collect()
    };
    let (b, a) = (pick(&before), pick(&after));
    assert!(b.len() > 3);
    assert_eq!(b.len(), a.len());
    for ((fb, lb), (fa, la)) in b.iter().zip(&a) {
        assert_eq!(fb, fa, "the fingerprint moved with the line");
        assert_eq!(*la, lb + 7);
    }
    let uri = &after["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]
        ["uri"];
    assert_eq!(*uri, Value::from(name));
}

#[test]
fn sarif_leaves_suppressed_findings_out_and_describes_bad_suppressions() {
    let fixture = "testdata/suppress/divides.ll";
    let j = report("json", &[fixture]);
    let s = report("sarif", &[fixture]);
    let run = &s["runs"][0];
    let results = run["results"].as_array().unwrap();
    assert_eq!(results.len(), j["findings"].as_array().unwrap().len());
    assert!(j["totals"]["suppressed"].as_u64().unwrap() > 0);
    let rules = run["tool"]["driver"]["rules"].as_array().unwrap();
    let bad: Vec<&Value> = results.iter().filter(|r| r["ruleId"] == "AIR000").collect();
    assert!(!bad.is_empty(), "the fixture has malformed suppressions");
    for r in bad {
        let rule = &rules[r["ruleIndex"].as_u64().unwrap() as usize];
        assert_eq!(rule["name"], "bad-suppression");
        assert_eq!(r["level"], "warning");
        let loc = &r["locations"][0]["physicalLocation"];
        assert_eq!(
            loc["artifactLocation"]["uri"],
            "testdata/suppress/divides.metal"
        );
    }
}

#[test]
fn sarif_reports_unreadable_files_as_tool_notifications() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("junk.ll"), b"\0\x01binary").unwrap();
    let out = run_in(dir.path(), &["--format", "sarif", "junk.ll"]);
    let s: Value = serde_json::from_slice(&out).unwrap();
    let inv = &s["runs"][0]["invocations"][0];
    assert_eq!(inv["executionSuccessful"], false);
    let n = &inv["toolExecutionNotifications"][0];
    assert_eq!(n["level"], "error");
    assert_eq!(
        n["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
        "junk.ll"
    );
    assert_valid(
        &validator("testdata/sarif/sarif-schema-2.1.0.json"),
        &s,
        "unreadable file",
    );
}

/// The validators are not vacuous: an undocumented field, a bad URI or a
/// missing required field fails.
#[test]
fn schemas_reject_what_they_should() {
    let json = validator("docs/report.schema.json");
    let mut r = report("json", &["testdata/rules/divide_helpers.ll"]);
    assert!(json.is_valid(&r));
    r["findings"][0]["undocumented"] = Value::from(1);
    assert!(!json.is_valid(&r));
    r["findings"][0]
        .as_object_mut()
        .unwrap()
        .remove("undocumented");
    r["summary"]["by_kernel"][0]
        .as_object_mut()
        .unwrap()
        .remove("stage");
    assert!(!json.is_valid(&r));

    // Evidence: a misspelled key, a missing one, a value out of its enum.
    let r = report("json", &["testdata/rules/divide_helpers.ll"]);
    let evidence = |f: &dyn Fn(&mut Value)| {
        let mut r = r.clone();
        f(&mut r["findings"][0]["evidence"]);
        json.is_valid(&r)
    };
    assert!(evidence(&|_| {}));
    assert!(!evidence(&|e| e["loop_dept"] = Value::from(0)));
    assert!(!evidence(&|e| {
        e.as_object_mut().unwrap().remove("bits");
    }));
    assert!(!evidence(
        &|e| e["divisor"]["class"] = Value::from("constant")
    ));
    assert!(!evidence(&|e| e["opcode"] = Value::from("fdiv")));

    let sarif = validator("testdata/sarif/sarif-schema-2.1.0.json");
    let mut s = report("sarif", &["testdata/rules/divide_helpers.ll"]);
    assert!(sarif.is_valid(&s));
    let uri = "/runs/0/results/0/locations/0/physicalLocation/artifactLocation/uri";
    *s.pointer_mut(uri).unwrap() = Value::from("a b\\c");
    assert!(!sarif.is_valid(&s), "uri-reference is checked");
    s.as_object_mut().unwrap().remove("version");
    assert!(!sarif.is_valid(&s));
}
