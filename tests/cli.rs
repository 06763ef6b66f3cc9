//! The command line as a user runs it: paths, formats, exit codes.

use assert_cmd::Command;
use std::path::Path;

fn testdata(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("testdata")
        .join(name)
        .display()
        .to_string()
}

fn air_scan() -> Command {
    Command::cargo_bin("air-scan").unwrap()
}

#[test]
fn text_inventory_names_kernels_and_arguments() {
    let out = air_scan()
        .args(["--inventory", &testdata("minimal_kernel.ll")])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let out = String::from_utf8(out).unwrap();
    assert!(out.contains("1 kernel, 2 functions (1 defined), 9 instructions, typed pointers, AIR 2.7.0, Metal 3.2.0"), "{out}");
    assert!(out.contains("  kernel minimal (3 arguments)"), "{out}");
    assert!(
        out.contains("    [1] divisor: buffer constant uint [[buffer(1)]]"),
        "{out}"
    );
    assert!(
        out.contains("    [2] gid: builtin thread_position_in_grid"),
        "{out}"
    );
    assert!(
        out.ends_with(
            "1 file read: 1 ok, 0 failed; 1 kernel; 1 finding from 1 cause; 0 reader errors, 0 reader warnings\n"
        ),
        "{out}"
    );
    // Without --inventory the findings come first, and no argument list.
    let plain = air_scan()
        .arg(testdata("minimal_kernel.ll"))
        .output()
        .unwrap();
    let plain = String::from_utf8(plain.stdout).unwrap();
    assert!(
        plain.starts_with("warning[AIR001]: `udiv` by `divisor`"),
        "{plain}"
    );
    assert!(!plain.contains("[1] divisor"), "{plain}");
    // --quiet keeps only the summary.
    let quiet = air_scan()
        .args(["--quiet", &testdata("minimal_kernel.ll")])
        .output()
        .unwrap();
    let quiet = String::from_utf8(quiet.stdout).unwrap();
    assert!(quiet.starts_with("findings by rule:\n"), "{quiet}");
    assert!(!quiet.contains("warning["), "{quiet}");
}

#[test]
fn json_report_has_the_documented_shape() {
    let out = air_scan()
        .args(["--format", "json", &testdata("minimal_kernel.ll")])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let v: serde_json::Value = serde_json::from_slice(&out).unwrap();
    assert_eq!(v["schema_version"], 4);
    assert!(v["scan"]["arguments"].is_array(), "{v:#}");
    assert_eq!(v["tool"]["name"], "air-scan");
    let file = &v["files"][0];
    assert!(
        file["path"]
            .as_str()
            .unwrap()
            .ends_with("minimal_kernel.ll")
    );
    assert_eq!(file["status"], "ok");
    assert_eq!(file["diagnostics"].as_array().unwrap().len(), 0);
    let kernel = &file["kernels"][0];
    assert_eq!(kernel["name"], "minimal");
    let args = kernel["arguments"].as_array().unwrap();
    assert_eq!(args.len(), 3);
    assert_eq!(args[1]["name"], "divisor");
    assert_eq!(args[1]["kind"], "buffer");
    assert_eq!(args[1]["address_space"], 2);
    assert_eq!(args[1]["location_index"], 1);
    assert_eq!(args[1]["buffer_size"], 4);
    assert_eq!(args[2]["kind"], "builtin");
    assert_eq!(args[2]["builtin"], "thread_position_in_grid");
}

#[test]
fn an_unreadable_file_is_reported_and_the_scan_goes_on() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(testdata("minimal_kernel.ll"), dir.path().join("a_good.ll")).unwrap();
    std::fs::write(
        dir.path().join("b_binary.ll"),
        [0u8, 159, 146, 150, 0, 1, 2],
    )
    .unwrap();
    std::fs::write(dir.path().join("c_empty.ll"), "").unwrap();
    std::fs::write(dir.path().join("ignored.txt"), "not scanned").unwrap();
    let out = air_scan()
        .args(["--format", "json"])
        .arg(dir.path())
        .assert()
        .code(2)
        .get_output()
        .stdout
        .clone();
    let v: serde_json::Value = serde_json::from_slice(&out).unwrap();
    let files = v["files"].as_array().unwrap();
    assert_eq!(files.len(), 3, "{v:#}");
    assert_eq!(files[0]["status"], "ok");
    assert_eq!(files[1]["status"], "error");
    assert!(files[1]["error"].as_str().unwrap().contains("binary data"));
    assert_eq!(files[2]["status"], "error");
    assert!(files[2]["error"].as_str().unwrap().contains("empty file"));
}

#[test]
fn parse_errors_name_file_and_line_and_exit_2() {
    let dir = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string(testdata("minimal_kernel.ll")).unwrap();
    let broken = text.replace("  %6 = zext i32 %5 to i64", "  %6 = zext i32 %5 too i64");
    let path = dir.path().join("broken.ll");
    std::fs::write(&path, broken).unwrap();
    let out = air_scan()
        .args(["--inventory"])
        .arg(&path)
        .assert()
        .code(2)
        .get_output()
        .stdout
        .clone();
    let out = String::from_utf8(out).unwrap();
    assert!(
        out.contains(&format!(
            "{}:17: error: expected 'to', found 'too'",
            path.display()
        )),
        "{out}"
    );
    // The instructions after the broken one still count.
    assert!(out.contains("8 instructions"), "{out}");
}

#[test]
fn usage_errors_exit_2() {
    air_scan().arg("--format=yaml").assert().code(2);
    air_scan().arg("/no/such/path.ll").assert().code(2);
}

#[test]
fn scans_are_deterministic_across_job_counts() {
    let one = air_scan()
        .args(["--format", "json", "-j", "1", &testdata("")])
        .output()
        .unwrap()
        .stdout;
    let two = air_scan()
        .args(["--format", "json", "-j", "2", &testdata("")])
        .output()
        .unwrap()
        .stdout;
    // Alike but for `scan.arguments`, which records `-j`.
    let without_arguments = |out: &[u8]| {
        let mut v: serde_json::Value = serde_json::from_slice(out).unwrap();
        v["scan"]["arguments"] = serde_json::Value::Null;
        v
    };
    assert_eq!(without_arguments(&one), without_arguments(&two));
    assert_ne!(one, two);
}

/// `-` reads standard input, as IR text or as bitcode: `xcrun metal -S
/// -emit-llvm -o - k.metal | air-scan -`. A finding's snippet is drawn
/// from the bytes read, since the stream cannot be read again.
#[test]
fn a_dash_scans_standard_input() {
    let text = std::fs::read(testdata("minimal_kernel.ll")).unwrap();
    let out = air_scan()
        .arg("-")
        .write_stdin(text.clone())
        .assert()
        .code(0);
    let out = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    assert!(out.contains("--> -:16:3"), "{out}");
    assert!(out.contains("16 |   %5 = udiv i32 %2, %4"), "{out}");
    let json = air_scan()
        .args(["--format", "json", "-"])
        .write_stdin(text)
        .assert()
        .code(0);
    let v: serde_json::Value = serde_json::from_slice(&json.get_output().stdout).unwrap();
    assert_eq!(v["files"][0]["path"], "-");
    assert_eq!(v["findings"].as_array().unwrap().len(), 1);
    assert!(v["files"][0]["diagnostics"].as_array().unwrap().is_empty());
}

/// A named pipe (and bash's `<(...)`, a pipe under /dev/fd) is read once,
/// whole, not taken for an empty file; `/dev/zero` ends at its first block
/// with a clear error instead of filling memory.
#[cfg(unix)]
#[test]
fn pipes_and_devices_are_read_once_or_refused() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("kernel.ll");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status();
    if !made.is_ok_and(|s| s.success()) {
        eprintln!("SKIPPED: no mkfifo here");
        return;
    }
    let text = std::fs::read(testdata("minimal_kernel.ll")).unwrap();
    let writer = {
        let fifo = fifo.clone();
        std::thread::spawn(move || std::fs::write(fifo, text))
    };
    let out = air_scan()
        .args(["--format", "json"])
        .arg(&fifo)
        .timeout(std::time::Duration::from_secs(60))
        .assert()
        .code(0);
    writer.join().unwrap().unwrap();
    let v: serde_json::Value = serde_json::from_slice(&out.get_output().stdout).unwrap();
    assert_eq!(v["files"][0]["status"], "ok", "{v}");
    assert_eq!(v["findings"].as_array().unwrap().len(), 1);
    if Path::new("/dev/zero").exists() {
        let out = air_scan()
            .arg("/dev/zero")
            .timeout(std::time::Duration::from_secs(60))
            .assert()
            .code(2);
        let out = String::from_utf8(out.get_output().stdout.clone()).unwrap();
        assert!(
            out.contains("/dev/zero: error: binary data (a NUL byte) at line 1"),
            "{out}"
        );
    }
}
