//! Bad input never panics, hangs or overflows the stack: it becomes a clear
//! error or diagnostic with a line, and the scan goes on.

use air_scan::ir::{Severity, read_module};
use air_scan::scan::{Status, scan_text};

const SMALL: &str = include_str!("../testdata/minimal_kernel.ll");

fn read_all(text: &str) -> Vec<air_scan::ir::Diagnostic> {
    let mut m = read_module(text);
    let mut diags = std::mem::take(&mut m.diagnostics);
    for i in 0..m.functions.len() {
        diags.extend(m.body(i).1);
    }
    // The reader checks metadata nodes' brackets; the rest of their grammar
    // is checked when they are used. Use them all.
    m.metadata.parse_all();
    diags.extend(m.metadata.take_errors());
    diags
}

#[test]
fn a_malformed_metadata_node_is_reported_with_its_line_when_used() {
    let text = "!0 = !{i32 1}\n!1 = !{i32 }\n!2 = !DILocation(line: 3, column: )\n!3 = !{!0, \n";
    let m = read_module(text);
    // Unbalanced: the reader parses it at once and reports it where it
    // finds out (here, the end of the input after line 4).
    assert!(
        m.diagnostics.iter().any(|d| d.line >= 4),
        "{:?}",
        m.diagnostics
    );
    // Balanced but wrong: reported once used, with its line, and only once.
    assert!(m.metadata.get(0).is_some());
    assert!(m.metadata.get(1).is_none());
    m.metadata.parse_all();
    let errors = m.metadata.take_errors();
    let lines: Vec<u32> = errors.iter().map(|d| d.line).collect();
    assert_eq!(lines, [2, 3], "{errors:?}");
    assert!(errors.iter().all(|d| d.severity == Severity::Error));
    assert!(m.metadata.take_errors().is_empty());
}

#[test]
fn the_small_fixture_is_clean() {
    assert!(read_all(SMALL).is_empty(), "{:?}", read_all(SMALL));
}

#[test]
fn truncated_files_give_diagnostics_not_panics() {
    // Cut the file at every 7th byte: each prefix reads without panicking,
    // and a prefix that ends inside a body says the body is not closed.
    let body_start = SMALL.find("{\n").unwrap();
    let body_end = SMALL[body_start..].find("\n}").unwrap() + body_start;
    for cut in (0..SMALL.len()).step_by(7) {
        let Some(prefix) = SMALL.get(..cut) else {
            continue;
        };
        let diags = read_all(prefix);
        if cut > body_start + 2 && cut <= body_end {
            assert!(
                diags
                    .iter()
                    .any(|d| d.message.contains("not closed") && d.line > 0),
                "cut at {cut}: {diags:?}"
            );
        }
    }
}

#[test]
fn binary_garbage_is_reported_as_such() {
    let mut bytes = vec![0u8; 4096];
    let mut x: u32 = 12345;
    for b in bytes.iter_mut() {
        x = x.wrapping_mul(1103515245).wrapping_add(12345);
        *b = (x >> 16) as u8;
    }
    let err = air_scan::input::as_ir_text(&bytes).unwrap_err();
    assert!(err.0.contains("binary data"), "{err}");
    let err = air_scan::input::as_ir_text(b"BC\xC0\xDE\x35\x14").unwrap_err();
    assert!(err.0.contains("bitcode"), "{err}");
    let err = air_scan::input::as_ir_text(b"").unwrap_err();
    assert!(err.0.contains("empty"), "{err}");
}

#[test]
fn text_that_is_not_ir_is_an_error() {
    let text = "Hello, this is a README.\nIt has no IR in it.\n";
    let r = scan_text(
        "notes.txt".into(),
        text,
        &air_scan::rules::RuleSet::builtin(),
    );
    assert_eq!(r.status, Status::Error);
    assert!(
        r.error.as_deref().unwrap().contains("not LLVM IR"),
        "{:?}",
        r.error
    );
}

#[test]
fn unterminated_string_names_its_line() {
    let text = SMALL.replacen(
        "source_filename = \"minimal.metal\"",
        "source_filename = \"minimal.metal",
        1,
    );
    let diags = read_all(&text);
    assert_eq!(diags.len(), 1, "{diags:?}");
    assert_eq!(diags[0].line, 1);
    assert_eq!(diags[0].severity, Severity::Error);
    // The rest of the module still reads.
    let m = read_module(&text);
    assert_eq!(m.functions.len(), 2);
}

fn deep(open: &str, n: usize, close: &str) -> String {
    let mut s = String::with_capacity(n * (open.len() + close.len()));
    for _ in 0..n {
        s.push_str(open);
    }
    for _ in 0..n {
        s.push_str(close);
    }
    s
}

/// 100,000 levels of nesting in every place the grammar recurses, run on a
/// thread with a small stack to prove the depth limit holds.
#[test]
fn nesting_100000_deep_is_refused_without_overflow() {
    let n = 100_000;
    let cases = [
        format!("@g = global {} zeroinitializer\n", deep("[1 x ", n, "]")),
        format!("@g = global {{ i32 }} {}\n", deep("{ ", n, " }")),
        format!("!0 = {}\n", deep("!{", n, "}")),
        format!(
            "define void @f() {{\n  call void @g(i32 {})\n  ret void\n}}\n",
            deep("(", n, ")")
        ),
        format!(
            "define void @f(i32 {} %x) {{\n  ret void\n}}\n",
            deep("(", n, ")")
        ),
        format!("{}\n", deep("(", n, ")")),
        format!("@g = global i32 {}\n", deep("add (i32 ", n, ", i32 1)")),
    ];
    let handle = std::thread::Builder::new()
        .stack_size(1 << 20)
        .spawn(move || {
            for (i, text) in cases.iter().enumerate() {
                let diags = read_all(text);
                assert!(!diags.is_empty(), "case {i} gave no diagnostic");
                assert!(diags.iter().all(|d| d.line >= 1), "case {i}: {diags:?}");
            }
        })
        .unwrap();
    handle
        .join()
        .expect("reader panicked or overflowed its stack");
}

/// A 200 MB module, made at test time by renaming one kernel's copies. Run
/// by .ci/run with `--ignored`, since it takes a few seconds in release mode.
#[test]
#[ignore = "large: run with --ignored (CI does)"]
fn a_200_mb_module_reads() {
    let def = &SMALL[SMALL.find("define").unwrap()..SMALL.find("\n}\n").unwrap() + 3];
    let mut text = String::with_capacity(210 << 20);
    text.push_str(&SMALL[..SMALL.find("define").unwrap()]);
    let mut copies = 0;
    while text.len() < 200 << 20 {
        text.push_str(&def.replacen("@minimal(", &format!("@minimal_{copies}("), 1));
        copies += 1;
    }
    let mut m = read_module(&text);
    assert!(m.diagnostics.is_empty(), "{:?}", &m.diagnostics[..1]);
    assert_eq!(m.functions.len(), copies);
    let mut instructions = 0;
    for i in 0..m.functions.len() {
        let (body, diags) = m.body(i);
        assert!(diags.is_empty());
        instructions += body.instructions.len();
    }
    assert!(instructions > copies * 5);
}

/// The pointer era does not depend on which metadata nodes the scan parses:
/// here the only typed pointer is in a node nobody uses (as in
/// kolinko__effort's `00070_cojest3.ll`, where it is in `!air.kernel`).
#[test]
fn a_typed_pointer_only_in_metadata_makes_the_module_typed() {
    let rules = air_scan::rules::RuleSet::builtin();
    let typed = "define void @f() {\n  ret void\n}\n!0 = !{void ()* @f, !\"x\"}\n";
    let opaque = "define void @f() {\n  ret void\n}\n!0 = !{ptr @f, !\"x*\"}\n";
    for (text, era) in [(typed, "typed"), (opaque, "opaque")] {
        let report = scan_text("m.ll".into(), text, &rules);
        assert_eq!(
            report.module.as_ref().map(|m| m.pointers),
            Some(era),
            "{text}"
        );
    }
}
