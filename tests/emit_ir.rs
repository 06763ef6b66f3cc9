//! `--emit-ir DIR`: the IR text of every module read from a binary is
//! written where a person can open the line a finding names. Checked on
//! kolinko's metallib (79 modules, findings in several): every finding's IR
//! line, in the file named for its module, holds its instruction; the files
//! together are what `air-scan dis` prints. Skips, saying so, without
//! ../shared/corpus.

mod common;

use air_scan::scan::emitted_ir_name;
use std::collections::BTreeSet;

#[test]
fn every_finding_names_a_line_of_the_emitted_ir() {
    let Some(corpus) = common::shared("corpus", "the --emit-ir test") else {
        return;
    };
    let lib = corpus.join("kolinko__effort/default.metallib");
    let dir = tempfile::tempdir().unwrap();
    let out_dir = dir.path().join("ir");
    let out = common::air_scan()
        .arg(&lib)
        .args(["--format", "json", "--fail-on", "never", "--jobs", "1"])
        .arg("--emit-ir")
        .arg(&out_dir)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("the IR text of 79 modules"), "{stderr}");
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();

    // One file a module, named for the report's name of it.
    let modules: Vec<&str> = report["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["path"].as_str().unwrap())
        .collect();
    assert_eq!(modules.len(), 79);
    let written: BTreeSet<String> = std::fs::read_dir(&out_dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    let expected: BTreeSet<String> = modules.iter().map(|m| emitted_ir_name(m)).collect();
    assert_eq!(written, expected);

    let findings = report["findings"].as_array().unwrap();
    assert!(findings.len() >= 10, "{} findings", findings.len());
    for f in findings {
        let ir = &f["ir"];
        let path = out_dir.join(emitted_ir_name(ir["path"].as_str().unwrap()));
        let text = std::fs::read_to_string(&path).unwrap();
        let line = ir["line"].as_u64().unwrap() as usize;
        let at = text.lines().nth(line - 1).unwrap_or_default();
        let instruction = ir["instruction"].as_str().unwrap();
        assert!(
            !instruction.is_empty() && at.trim() == instruction.trim(),
            "{}:{line} is `{at}`, the finding says `{instruction}`",
            path.display()
        );
    }

    // The files, in the library's order, are what `air-scan dis` prints.
    let dis = common::air_scan().arg("dis").arg(&lib).output().unwrap();
    assert!(dis.status.success());
    let mut joined = String::new();
    for m in &modules {
        joined.push_str(&std::fs::read_to_string(out_dir.join(emitted_ir_name(m))).unwrap());
    }
    assert!(
        joined == String::from_utf8_lossy(&dis.stdout),
        "emitted IR differs from `dis`"
    );
}

#[test]
fn emitted_names_are_distinct_safe_file_names() {
    let names = [
        "lib.metallib:gemm",
        "lib.metallib_gemm",
        "lib.metallib%3Agemm",
        "a/b.air",
        "a_b.air",
        "../up.air",
        ".hidden.air",
        "C:\\x\\y.metallib:k",
        "é.air",
        &"k".repeat(400),
        &format!("{}x", "k".repeat(400)),
    ];
    let mut seen = BTreeSet::new();
    for n in names {
        let file = emitted_ir_name(n);
        assert!(seen.insert(file.clone()), "{n} shares {file}");
        assert!(file.len() <= 255, "{file}");
        assert!(!file.starts_with('.'), "{file}");
        assert!(file.ends_with(".ll"));
        assert!(
            file.bytes()
                .all(|b| b.is_ascii_alphanumeric() || b"_-+,=@.%~".contains(&b)),
            "{file}"
        );
    }
    assert_eq!(
        emitted_ir_name("lib.metallib:gemm"),
        "lib.metallib%3Agemm.ll"
    );
}
