//! `air-scan diff`: the seed's -O0/-O2 pairs (testdata/diff/O0, O2), a typed
//! and opaque twin (testdata/diff/twins), directories, errors, and every
//! typed/opaque twin of ../shared/corpus.

mod common;

use air_scan::diff::{DiffArgs, DiffFormat, run};
use serde_json::Value;
use std::path::PathBuf;

/// Paths relative to the package root (where cargo runs tests), so the
/// output names them the same on every machine.
fn diff(a: &str, b: &str, format: DiffFormat, changes_only: bool) -> (String, u8) {
    run(&DiffArgs {
        a: PathBuf::from(a),
        b: Some(PathBuf::from(b)),
        format,
        changes_only,
        levels: Vec::new(),
        xcrun: None,
        metal_flags: Vec::new(),
    })
}

fn json(a: &str, b: &str, changes_only: bool) -> (Value, u8) {
    let (out, code) = diff(a, b, DiffFormat::Json, changes_only);
    (serde_json::from_str(&out).expect("valid JSON"), code)
}

fn kernel<'v>(doc: &'v Value, name: &str) -> &'v Value {
    doc["kernels"]
        .as_array()
        .unwrap()
        .iter()
        .find(|k| k["name"] == name)
        .unwrap_or_else(|| panic!("no kernel {name} in {doc:#}"))
}

fn instructions(sites: &Value) -> Vec<String> {
    sites
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["instruction"].as_str().unwrap().to_string())
        .collect()
}

const FUSED: &str = "fused-shift-address-in-branch";

#[test]
fn buggy_o0_to_o2_text() {
    let (out, code) = diff(
        "testdata/diff/O0/buggy.ll",
        "testdata/diff/O2/buggy.ll",
        DiffFormat::Text,
        false,
    );
    assert_eq!(code, 1);
    insta::assert_snapshot!(out);
}

/// What the fixtures' comments say the diff must show, checked on the JSON.
#[test]
fn buggy_o0_to_o2_names_the_moved_computation() {
    let (doc, code) = json(
        "testdata/diff/O0/buggy.ll",
        "testdata/diff/O2/buggy.ll",
        false,
    );
    assert_eq!(code, 1);
    assert_eq!(doc["exit_code"], 1);
    let k = kernel(&doc, "buggy");
    assert_eq!(k["changed"], true);
    let f = &k["findings"][FUSED];
    assert_eq!((f["a"].as_u64(), f["b"].as_u64()), (Some(0), Some(1)));
    assert_eq!(k["removed"].as_array().unwrap().len(), 0);
    let intro = &k["introduced"].as_array().unwrap()[..];
    assert_eq!(intro.len(), 1);
    let c = &intro[0];
    assert_eq!(c["rule"], FUSED);
    assert_eq!(c["site"]["block"], "%19");
    assert_eq!(c["site"]["conditional"], true);
    assert!(
        c["site"]["instruction"]
            .as_str()
            .unwrap()
            .contains("mul i32 %27, 536870907")
    );
    let an = &c["anchor"];
    assert_eq!(an["role"], "address");
    assert_eq!(an["what"], "load i8 from `data` (address space 1)");
    // The load of data[...] on each side: one each, both conditional.
    let (la, lb) = (&an["a"][0], &an["b"][0]);
    assert_eq!(an["a"].as_array().unwrap().len(), 1);
    assert_eq!(an["b"].as_array().unwrap().len(), 1);
    assert_eq!(
        (la["block"].as_str(), la["line"].as_u64()),
        (Some("%66"), Some(118))
    );
    assert_eq!(
        (lb["block"].as_str(), lb["line"].as_u64()),
        (Some("%19"), Some(52))
    );
    assert_eq!(
        (la["conditional"].as_bool(), lb["conditional"].as_bool()),
        (Some(true), Some(true))
    );
    // The fast_idiv was computed unconditionally at -O0 (block %33) and
    // moved into the conditional block %19 at -O2.
    let moved = an["moved"].as_array().unwrap();
    let fast_div = moved
        .iter()
        .find(|m| m["shape"] == "mul i64, 1717986919")
        .unwrap_or_else(|| panic!("fast_idiv not moved: {moved:#?}"));
    assert_eq!(fast_div["how"], "into a conditional block");
    assert_eq!(fast_div["a"]["block"], "%33");
    assert_eq!(fast_div["a"]["conditional"], false);
    assert_eq!(fast_div["b"]["block"], "%19");
    assert_eq!(fast_div["b"]["conditional"], true);
    assert!(moved.iter().all(|m| m["how"] == "into a conditional block"));
    // -O0's `mul nsw i32 5, _` then `sub` became -O2's `mul i32 _, 536870907` then `add`.
    let only_a = instructions(&an["only_a"]);
    let only_b = instructions(&an["only_b"]);
    assert!(
        only_a.iter().any(|i| i == "%72 = mul nsw i32 5, %71"),
        "{only_a:#?}"
    );
    assert!(
        only_a.iter().any(|i| i.starts_with("%73 = sub nsw i32")),
        "{only_a:#?}"
    );
    assert!(
        only_b.iter().any(|i| i == "%28 = mul i32 %27, 536870907"),
        "{only_b:#?}"
    );
    assert!(!only_a.iter().any(|i| i.contains("536870907")));
    // The shift by 3 is on both sides, in a conditional block: neither moved nor one-sided.
    assert!(!only_a.iter().chain(&only_b).any(|i| i.contains("shl")));
    // -O2 keeps nothing in thread memory.
    let m = &k["metrics"];
    assert_eq!(m["allocas"]["a"], 14);
    assert_eq!(m["allocas"]["b"], 0);
    assert_eq!(m["loads_as0"]["b"], 0);
    assert_eq!(m["loads_as1"]["a"], m["loads_as1"]["b"]);
    assert_eq!(m["divides_literal"]["a"], 1);
    assert_eq!(m["divides_literal"]["b"], 1);
    let t = &doc["totals"]["findings"][FUSED];
    assert_eq!(
        (t["helped"].as_u64(), t["hurt"].as_u64()),
        (Some(0), Some(1))
    );
    assert_eq!(doc["totals"]["metrics"]["instructions"]["helped"], 1);
}

/// The other way round, the same finding is removed, and the computation
/// moved out of the conditional block.
#[test]
fn buggy_o2_to_o0_names_the_removed_finding() {
    let (doc, code) = json(
        "testdata/diff/O2/buggy.ll",
        "testdata/diff/O0/buggy.ll",
        false,
    );
    assert_eq!(code, 1);
    let k = kernel(&doc, "buggy");
    assert_eq!(k["introduced"].as_array().unwrap().len(), 0);
    let removed = k["removed"].as_array().unwrap();
    assert_eq!(removed.len(), 1);
    assert_eq!(removed[0]["site"]["block"], "%19");
    let moved = removed[0]["anchor"]["moved"].as_array().unwrap();
    assert!(
        moved.iter().any(|m| m["shape"] == "mul i64, 1717986919"
            && m["how"] == "out of a conditional block"
            && m["b"]["block"] == "%33"),
        "{moved:#?}"
    );
    let t = &doc["totals"]["findings"][FUSED];
    assert_eq!(
        (t["helped"].as_u64(), t["hurt"].as_u64()),
        (Some(1), Some(0))
    );
}

#[test]
fn working_o0_to_o2_text() {
    let (out, code) = diff(
        "testdata/diff/O0/working.ll",
        "testdata/diff/O2/working.ll",
        DiffFormat::Text,
        false,
    );
    assert_eq!(code, 1);
    insta::assert_snapshot!(out);
}

#[test]
fn working_o0_to_o2_changes_counts_not_findings() {
    let (doc, code) = json(
        "testdata/diff/O0/working.ll",
        "testdata/diff/O2/working.ll",
        false,
    );
    assert_eq!(code, 1);
    let k = kernel(&doc, "working");
    assert_eq!(k["changed"], true);
    assert!(k["introduced"].as_array().unwrap().is_empty());
    assert!(k["removed"].as_array().unwrap().is_empty());
    for (rule, row) in k["findings"].as_object().unwrap() {
        assert_eq!(
            (row["a"].as_u64(), row["b"].as_u64()),
            (Some(0), Some(0)),
            "{rule}"
        );
    }
    let m = &k["metrics"];
    assert!(m["instructions"]["change"].as_i64().unwrap() < 0);
    assert_eq!(m["allocas"]["b"], 0);
    assert_eq!(m["stores_as0"]["b"], 0);
}

#[test]
fn directories_pair_files_by_path_and_kernels_by_name() {
    let (out, code) = diff(
        "testdata/diff/O0",
        "testdata/diff/O2",
        DiffFormat::Text,
        true,
    );
    assert_eq!(code, 1);
    insta::assert_snapshot!(out);

    let (doc, code) = json("testdata/diff/O0", "testdata/diff/O2", false);
    assert_eq!(code, 1);
    let names: Vec<(&str, &str)> = doc["kernels"]
        .as_array()
        .unwrap()
        .iter()
        .map(|k| (k["file"].as_str().unwrap(), k["name"].as_str().unwrap()))
        .collect();
    assert_eq!(names, [("buggy.ll", "buggy"), ("working.ll", "working")]);
    assert_eq!(doc["files_only_a"], serde_json::json!([]));
    assert_eq!(doc["files_only_b"], serde_json::json!(["h9.ll"]));
    let only_b = doc["only_b"].as_array().unwrap();
    assert_eq!(only_b.len(), 1);
    assert_eq!(only_b[0]["file"], "h9.ll");
    assert_eq!(only_b[0]["name"], "h9");
    assert_eq!(only_b[0]["findings"], 1);
    // Totals cover the two kernels on both sides, not h9.
    let t = &doc["totals"]["findings"][FUSED];
    assert_eq!((t["a"].as_u64(), t["b"].as_u64()), (Some(0), Some(1)));
    let i = &doc["totals"]["metrics"]["instructions"];
    let sum = |side: &str| -> u64 {
        doc["kernels"]
            .as_array()
            .unwrap()
            .iter()
            .map(|k| k["metrics"]["instructions"][side].as_u64().unwrap())
            .sum()
    };
    assert_eq!(i["a"].as_u64(), Some(sum("a")));
    assert_eq!(i["b"].as_u64(), Some(sum("b")));
    assert_eq!(i["helped"], 2);
    assert_eq!(doc["summary"]["kernels"], 2);
    assert_eq!(doc["summary"]["only_b"], 1);
}

#[test]
fn kernels_on_one_side_only_are_listed() {
    let (doc, code) = json(
        "testdata/diff/O0/buggy.ll",
        "testdata/diff/O2/working.ll",
        false,
    );
    assert_eq!(code, 1, "a kernel on one side only is a change");
    assert!(doc["kernels"].as_array().unwrap().is_empty());
    assert_eq!(doc["only_a"][0]["name"], "buggy");
    assert_eq!(doc["only_b"][0]["name"], "working");
    assert_eq!(doc["only_a"][0]["metrics"]["allocas"], 14);
}

/// The typed and opaque twins of one program: pointer bitcasts, debug
/// intrinsic calls and lifetime markers on one side only must not count.
#[test]
fn typed_and_opaque_twins_are_the_same_program() {
    let (out, code) = diff(
        "testdata/diff/twins/typed.ll",
        "testdata/diff/twins/opaque.ll",
        DiffFormat::Text,
        false,
    );
    assert_eq!(code, 0, "{out}");
    insta::assert_snapshot!(out);
    let (doc, _) = json(
        "testdata/diff/twins/typed.ll",
        "testdata/diff/twins/opaque.ll",
        false,
    );
    let k = kernel(&doc, "bucket_sum");
    assert_eq!(k["changed"], false);
    let m = &k["metrics"];
    // Both functions counted (the kernel and @clear), nothing free counted.
    assert_eq!(m["instructions"]["a"], 23);
    assert_eq!(m["blocks"]["a"], 4);
    assert_eq!(m["calls"]["a"], 3, "clear, memset, memcpy");
    assert_eq!(m["barriers"]["a"], 1);
    assert_eq!(m["alloca_bytes"]["a"], 64);
    assert_eq!(m["divides_uniform"]["a"], 1);
    assert_eq!(k["findings"]["divide-by-uniform"]["b"], 1);
    // The same program against itself, with --changes-only: no kernel listed.
    let (out, code) = diff(
        "testdata/diff/twins/typed.ll",
        "testdata/diff/twins/opaque.ll",
        DiffFormat::Text,
        true,
    );
    assert_eq!(code, 0);
    assert!(!out.contains("bucket_sum"), "{out}");
    let (doc, _) = json(
        "testdata/diff/twins/typed.ll",
        "testdata/diff/twins/opaque.ll",
        true,
    );
    assert!(doc["kernels"].as_array().unwrap().is_empty());
    assert!(doc["totals"]["metrics"].as_object().unwrap().is_empty());
}

#[test]
fn changes_only_keeps_changed_rows() {
    let (doc, _) = json(
        "testdata/diff/O0/buggy.ll",
        "testdata/diff/O2/buggy.ll",
        true,
    );
    let m = kernel(&doc, "buggy")["metrics"].as_object().unwrap();
    assert!(m.contains_key("instructions"));
    assert!(!m.contains_key("divides_literal"), "unchanged: {m:#?}");
    assert!(!m.contains_key("barriers"));
    let f = kernel(&doc, "buggy")["findings"].as_object().unwrap();
    assert_eq!(f.keys().collect::<Vec<_>>(), [FUSED]);
}

#[test]
fn errors_exit_2() {
    let (doc, code) = json(
        "testdata/diff/O0/missing.ll",
        "testdata/diff/O2/buggy.ll",
        false,
    );
    assert_eq!(code, 2);
    assert!(
        doc["errors"][0]["message"]
            .as_str()
            .unwrap()
            .starts_with("cannot open")
    );

    let (out, code) = diff(
        "kernel.metal",
        "testdata/diff/O2/buggy.ll",
        DiffFormat::Text,
        false,
    );
    assert_eq!(code, 2);
    assert!(out.contains("xcrun"), "{out}");

    let (out, code) = diff(
        "testdata/diff/O0",
        "testdata/diff/O2/buggy.ll",
        DiffFormat::Text,
        false,
    );
    assert_eq!(code, 2);
    assert!(out.contains("give two files or two directories"), "{out}");

    let dir = tempfile::tempdir().unwrap();
    let junk = dir.path().join("junk.ll");
    std::fs::write(&junk, b"BC\xC0\xDE\x00\x01").unwrap();
    let (out, code) = diff(
        junk.to_str().unwrap(),
        "testdata/diff/O2/buggy.ll",
        DiffFormat::Text,
        false,
    );
    assert_eq!(code, 2);
    assert!(out.contains("bitcode"), "{out}");
}

/// Keys the schema requires are in the output, at the top, in a kernel, in
/// an introduced finding and its anchor.
#[test]
fn json_has_what_the_schema_requires() {
    let schema: Value =
        serde_json::from_str(&std::fs::read_to_string("docs/diff.schema.json").unwrap()).unwrap();
    let (doc, _) = json(
        "testdata/diff/O0/buggy.ll",
        "testdata/diff/O2/buggy.ll",
        false,
    );
    let check = |v: &Value, def: &Value| {
        for key in def["required"].as_array().unwrap() {
            let key = key.as_str().unwrap();
            assert!(v.get(key).is_some(), "missing {key} in {v:#}");
        }
    };
    check(&doc, &schema);
    let defs = &schema["$defs"];
    let k = kernel(&doc, "buggy");
    check(k, &defs["kernel"]);
    check(&k["metrics"]["instructions"], &defs["row"]);
    check(&doc["totals"]["metrics"]["instructions"], &defs["total"]);
    let c = &k["introduced"][0];
    check(c, &defs["finding_change"]);
    check(&c["site"], &defs["site"]);
    check(
        &c["anchor"],
        &defs["finding_change"]["properties"]["anchor"],
    );
    let keys: Vec<&str> = defs["metric_key"]["enum"]
        .as_array()
        .unwrap()
        .iter()
        .map(|k| k.as_str().unwrap())
        .collect();
    let got: Vec<&str> = k["metrics"]
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    let mut want = keys.clone();
    want.sort_unstable();
    assert_eq!(got, want, "metric keys and the schema's enum differ");
}

/// Every typed `.ll` of the corpus and its `.opaque.ll` twin diff as equal.
#[test]
fn corpus_typed_and_opaque_twins_diff_equal() {
    use rayon::prelude::*;
    let Some(dir) = common::shared("corpus", "the typed/opaque twin diff") else {
        return;
    };
    let opaque = common::files_ending(&dir, ".opaque.ll");
    let pairs: Vec<(PathBuf, PathBuf)> = opaque
        .into_iter()
        .filter_map(|o| {
            let typed = PathBuf::from(o.to_string_lossy().replace(".opaque.ll", ".ll"));
            typed.is_file().then_some((typed, o))
        })
        .collect();
    assert!(pairs.len() >= 500, "{} twins", pairs.len());
    let results: Vec<(String, u8, u64)> = pairs
        .par_iter()
        .map(|(t, o)| {
            let (out, code) = run(&DiffArgs {
                a: t.clone(),
                b: Some(o.clone()),
                format: DiffFormat::Json,
                changes_only: false,
                levels: Vec::new(),
                xcrun: None,
                metal_flags: Vec::new(),
            });
            let doc: Value = serde_json::from_str(&out).unwrap();
            let kernels = doc["summary"]["kernels"].as_u64().unwrap();
            (format!("{}\n{out}", t.display()), code, kernels)
        })
        .collect();
    let differ: Vec<&String> = results
        .iter()
        .filter(|(_, code, _)| *code != 0)
        .map(|(out, _, _)| out)
        .collect();
    assert!(
        differ.is_empty(),
        "{} twins differ; first:\n{}",
        differ.len(),
        differ[0]
    );
    let kernels: u64 = results.iter().map(|(_, _, k)| k).sum();
    assert!(kernels >= 500, "{kernels} kernels compared");
    eprintln!("{} twins, {kernels} kernels: all equal", pairs.len());
}

/// The JSON of the seed's buggy kernel, changes only.
#[test]
fn buggy_o0_to_o2_json_changes_only() {
    let (out, code) = diff(
        "testdata/diff/O0/buggy.ll",
        "testdata/diff/O2/buggy.ll",
        DiffFormat::Json,
        true,
    );
    assert_eq!(code, 1);
    insta::assert_snapshot!(out);
}

/// `air-scan diff kernel.metal` compiles the levels with the driver and
/// compares them. A stand-in driver answers like xcrun: it prints a version
/// and writes the seed's -O0 or -O2 buggy kernel for the level asked.
#[test]
#[cfg(unix)]
fn a_metal_source_is_compiled_at_each_level_and_compared() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let root = env!("CARGO_MANIFEST_DIR");
    let driver = dir.path().join("xcrun");
    std::fs::write(
        &driver,
        format!(
            "#!/bin/sh\n[ \"$2\" = --version ] && {{ echo 'Apple metal version 32023.620 (stand-in)'; exit 0; }}\n\
             out=; level=\nfor a in \"$@\"; do case \"$a\" in -O*) level=${{a#-}};; esac; done\n\
             while [ $# -gt 0 ]; do [ \"$1\" = -o ] && {{ shift; out=$1; }}; shift; done\n\
             cp {root}/testdata/diff/$level/buggy.ll \"$out\"\n"
        ),
    )
    .unwrap();
    std::fs::set_permissions(&driver, std::fs::Permissions::from_mode(0o755)).unwrap();
    let source = dir.path().join("buggy.metal");
    std::fs::write(&source, "kernel void buggy() {}\n").unwrap();
    let out = assert_cmd::Command::cargo_bin("air-scan")
        .unwrap()
        .env("XDG_CACHE_HOME", dir.path().join("cache"))
        .args(["diff", "--xcrun", driver.to_str().unwrap()])
        .arg(&source)
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(text.contains("buggy.metal at -O0"), "{text}");
    assert!(text.contains("buggy.metal at -O2"), "{text}");
    assert!(
        text.contains("introduced: fused-shift-address-in-branch"),
        "{text}"
    );

    // Without a driver the diff says what to do and exits 2.
    let out = assert_cmd::Command::cargo_bin("air-scan")
        .unwrap()
        .env("PATH", "/nonexistent")
        .args(["diff"])
        .arg(&source)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8(out.stdout)
            .unwrap()
            .contains("needs xcrun on a Mac")
    );
}

/// BlackHoleGPU's build folder: `ParticleSystem.air` (4 kernels), the
/// release `default.metallib` (13 functions, one module each, the 4 among
/// them) and a Debug build's (6 functions), each with the `.ll` llvm-dis
/// printed of every function in `<lib>.extracted/`.
fn black_hole() -> Option<PathBuf> {
    common::shared("corpus", "the diff of .air and .metallib files")
        .map(|c| c.join("SirArthurNerdolot1__BlackHoleGPU/build"))
}

fn names(doc: &Value, key: &str) -> Vec<String> {
    let mut v: Vec<String> = doc[key]
        .as_array()
        .unwrap()
        .iter()
        .map(|k| k["name"].as_str().unwrap().to_string())
        .collect();
    v.sort();
    v
}

#[test]
fn binaries_pair_their_kernels_by_name_across_modules() {
    let Some(dir) = black_hole() else {
        return;
    };
    let p = |rel: &str| dir.join(rel).to_string_lossy().into_owned();
    let lib = p("default.metallib");
    // Each kernel of the .air sits in a module of its own in the library.
    let (doc, code) = json(&p("ParticleSystem.air"), &lib, false);
    assert_eq!(doc["errors"].as_array().unwrap().len(), 0, "{doc:#}");
    let paired = names(&doc, "kernels");
    let only_b = names(&doc, "only_b");
    assert_eq!(paired.len(), 4, "{paired:?}");
    assert_eq!(doc["summary"]["changed"], 0, "{doc:#}");
    assert_eq!(code, 1, "kernels only in b count as a change");
    // The two lists together are the library's functions, as extracted.
    let mut all: Vec<String> = paired.iter().chain(&only_b).cloned().collect();
    all.sort();
    let mut extracted: Vec<String> =
        common::files_ending(&dir.join("default.metallib.extracted"), ".air")
            .iter()
            .map(|f| {
                let stem = f.file_stem().unwrap().to_string_lossy();
                stem.split_once('_').unwrap().1.to_string()
            })
            .collect();
    extracted.sort();
    assert_eq!(all, extracted);

    // The module read natively measures as llvm-dis's text of it does.
    let (doc, code) = json(
        &p("default.metallib.extracted/00001_bloom_brightness_pass.ll"),
        &p("default.metallib:bloom_brightness_pass"),
        false,
    );
    assert_eq!(
        (code, &doc["summary"]["kernels"]),
        (0, &Value::from(1)),
        "{doc:#}"
    );
}

#[test]
fn a_changed_kernel_of_two_libraries_is_what_their_extracted_text_says() {
    let Some(dir) = black_hole() else {
        return;
    };
    let p = |rel: &str| dir.join(rel).to_string_lossy().into_owned();
    let debug = "Debug/BlackHole.app/Contents/Resources/default.metallib";
    // One function of each library, by `lib.metallib:function`.
    let (native, code) = json(
        &p(&format!("{debug}:computeShader")),
        &p("default.metallib:computeShader"),
        false,
    );
    let (text, text_code) = json(
        &p(&format!("{debug}.extracted/00000_computeShader.ll")),
        &p("default.metallib.extracted/00000_computeShader.ll"),
        false,
    );
    assert_eq!((code, text_code), (1, 1));
    let (k, t) = (
        kernel(&native, "computeShader"),
        kernel(&text, "computeShader"),
    );
    assert_eq!(k["changed"], true);
    for key in ["metrics", "findings", "introduced", "removed"] {
        assert_eq!(k[key], t[key], "{key}: native {k:#}\nllvm-dis {t:#}");
    }
    // The whole libraries: the Debug build's 6 kernels are in the release
    // one, which has 7 more; computeShader is the one that changed.
    let (whole, code) = json(&p(debug), &p("default.metallib"), false);
    assert_eq!(code, 1);
    assert_eq!(whole["summary"]["kernels"], 6, "{whole:#}");
    assert_eq!(whole["summary"]["only_b"], 7, "{whole:#}");
    assert_eq!(whole["summary"]["changed"], 1, "{whole:#}");
    assert_eq!(kernel(&whole, "computeShader")["metrics"], k["metrics"]);
}

#[test]
fn a_function_a_library_lacks_is_an_error() {
    let Some(dir) = black_hole() else {
        return;
    };
    let lib = dir.join("default.metallib").to_string_lossy().into_owned();
    let (doc, code) = json(&format!("{lib}:noSuchKernel"), &lib, false);
    assert_eq!(code, 2);
    let message = doc["errors"][0]["message"].as_str().unwrap();
    assert!(message.contains("no function `noSuchKernel`"), "{message}");
    assert!(message.contains("computeShader"), "{message}");
}

/// `diff` reads each input as what its bytes are, whatever its name: IR
/// text named `.air`, bitcode named `.ll`, a metallib named `.bin` compare
/// as the same modules under their own names do.
#[test]
fn inputs_are_read_by_content_not_extension() {
    let dir = tempfile::tempdir().unwrap();
    let p = |name: &str| dir.path().join(name).to_string_lossy().into_owned();
    std::fs::copy("testdata/diff/O0/buggy.ll", p("text.air")).unwrap();
    let (expected, code) = json(
        "testdata/diff/O0/buggy.ll",
        "testdata/diff/O2/buggy.ll",
        false,
    );
    assert_eq!(code, 1, "{expected:#}");
    let (doc, _) = json(&p("text.air"), "testdata/diff/O2/buggy.ll", false);
    assert_eq!(doc["errors"].as_array().unwrap().len(), 0, "{doc:#}");
    assert_eq!(doc["summary"], expected["summary"]);
    assert_eq!(doc["kernels"], expected["kernels"]);

    let bitcode = dir.path().join("bitcode.ll");
    if !common::assemble(
        std::path::Path::new("testdata/diff/O2/buggy.ll"),
        &bitcode,
        "the diff of bitcode named .ll",
    ) {
        return;
    }
    let (doc, _) = json(&p("text.air"), &p("bitcode.ll"), false);
    assert_eq!(doc["errors"].as_array().unwrap().len(), 0, "{doc:#}");
    assert_eq!(doc["summary"], expected["summary"]);
    assert_eq!(
        names(&doc, "kernels"),
        names(&expected, "kernels"),
        "{doc:#}"
    );

    let Some(build) = black_hole() else {
        return;
    };
    let lib = build.join("default.metallib");
    std::fs::copy(&lib, p("lib.bin")).unwrap();
    let (expected, _) = json(&lib.to_string_lossy(), &lib.to_string_lossy(), false);
    let (doc, code) = json(&p("lib.bin"), &lib.to_string_lossy(), false);
    assert_eq!(doc["errors"].as_array().unwrap().len(), 0, "{doc:#}");
    assert_eq!((code, &doc["summary"]), (0, &expected["summary"]));
    assert_eq!(names(&doc, "kernels"), names(&expected, "kernels"));
    assert_eq!(names(&doc, "kernels").len(), 13, "{doc:#}");
}

/// A file whose name says another kind than it holds (here a `.air` that
/// holds IR text) is compared as what it holds, and the diff says so in
/// `notes`, not in `errors`: the exit code is the comparison's.
#[test]
fn a_file_named_for_another_kind_is_noted_not_failed() {
    let dir = tempfile::tempdir().unwrap();
    let misnamed = dir.path().join("typed.air");
    std::fs::copy("testdata/diff/twins/typed.ll", &misnamed).unwrap();
    let (doc, code) = json(
        "testdata/diff/twins/typed.ll",
        misnamed.to_str().unwrap(),
        false,
    );
    assert_eq!(code, 0, "{doc:#}");
    assert_eq!(doc["errors"].as_array().unwrap().len(), 0, "{doc:#}");
    let notes = doc["notes"].as_array().unwrap();
    assert_eq!(notes.len(), 1, "{doc:#}");
    assert!(notes[0]["path"].as_str().unwrap().ends_with("typed.air"));
    assert_eq!(
        notes[0]["message"],
        "the file is named .air but holds LLVM IR text: read as what it holds"
    );
    let (text, _) = diff(
        "testdata/diff/twins/typed.ll",
        misnamed.to_str().unwrap(),
        DiffFormat::Text,
        false,
    );
    assert!(text.contains("\nnotes:\n  "), "{text}");
    assert!(
        text.contains("typed.air: the file is named .air but holds LLVM IR text"),
        "{text}"
    );
    // Files named for what they hold have none.
    let (doc, _) = json(
        "testdata/diff/twins/typed.ll",
        "testdata/diff/twins/opaque.ll",
        false,
    );
    assert_eq!(doc["notes"].as_array().unwrap().len(), 0);
}
