//! Each limit of `air_scan::ir::limits` (docs/LIMITS.md), on inputs made at
//! test time just past it: the reader stops that part with an error that
//! names the line and the limit, reads the rest, and the scan goes on.

use air_scan::ir::limits::{
    MAX_AIR_ITEMS, MAX_BLOCKS, MAX_DEPTH, MAX_DIAGNOSTICS, MAX_FILE_SIZE, MAX_FUNCTIONS,
    MAX_GLOBALS, MAX_INSTRUCTIONS, MAX_LINE_LENGTH, MAX_QUOTED,
};
use air_scan::ir::{Diagnostic, Module, Severity, read_module};
use air_scan::rules::RuleSet;
use air_scan::scan::{ScanConfig, Status, scan_paths, scan_text};
use std::fmt::Write;
use std::time::{Duration, Instant};

const SMALL: &str = include_str!("../testdata/minimal_kernel.ll");

/// The module's diagnostics followed by every body's.
fn read_all(m: &mut Module<'_>) -> Vec<Diagnostic> {
    let mut diags = m.diagnostics.clone();
    for i in 0..m.functions.len() {
        diags.extend(m.body(i).1);
    }
    diags
}

fn errors_with<'d>(diags: &'d [Diagnostic], text: &str) -> Vec<&'d Diagnostic> {
    diags
        .iter()
        .filter(|d| d.severity == Severity::Error && d.message.contains(text))
        .collect()
}

/// A sparse file one byte over the limit: refused by `load` with both sizes
/// named, without reading (or allocating) 4 GB.
#[test]
fn a_file_over_the_size_limit_is_refused_whole() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("huge.ll");
    let f = std::fs::File::create(&path).unwrap();
    f.set_len(MAX_FILE_SIZE + 1).unwrap();
    drop(f);
    let Err(err) = air_scan::input::load(&path) else {
        panic!("a file over the limit was loaded");
    };
    assert!(
        err.0.contains(&(MAX_FILE_SIZE + 1).to_string())
            && err.0.contains(&MAX_FILE_SIZE.to_string()),
        "{err}"
    );
}

/// A line one byte over the limit, at module level and inside a body, is
/// skipped with an error naming its line; everything around it reads.
#[test]
fn a_line_over_the_length_limit_is_skipped_and_named() {
    let long_global = format!(
        "@big = global [1 x i8] c\"{}\"",
        "x".repeat(MAX_LINE_LENGTH)
    );
    let long_inst = format!("  %big = add i32 {}, 1", "9".repeat(MAX_LINE_LENGTH));
    // The long global goes after the header (line 5 then); the long
    // instruction after the body's first line.
    let header_end = SMALL.find("\n\n").unwrap() + 1;
    let global_line = 1 + SMALL[..header_end].matches('\n').count();
    let mut text = format!(
        "{}{long_global}\n{}",
        &SMALL[..header_end],
        &SMALL[header_end..]
    );
    let body_open = text.find("{\n").unwrap() + 2;
    let inst_line = 1 + text[..body_open].matches('\n').count();
    text.insert_str(body_open, &format!("{long_inst}\n"));

    let started = Instant::now();
    let mut m = read_module(&text);
    let diags = read_all(&mut m);
    let took = started.elapsed();
    let long = errors_with(&diags, "the line is skipped");
    assert_eq!(long.len(), 2, "{diags:?}");
    assert_eq!(long[0].line as usize, global_line);
    assert_eq!(long[1].line as usize, inst_line);
    for d in &long {
        assert!(d.message.contains(&MAX_LINE_LENGTH.to_string()), "{d:?}");
    }
    // Nothing else went wrong: both lines were passed over as a whole.
    assert_eq!(diags.len(), 2, "{diags:?}");
    assert!(m.global("big").is_none());
    assert_eq!(m.functions.len(), 2);
    let clean = read_module(SMALL);
    assert_eq!(m.globals.len(), clean.globals.len());
    // Skipping a long line costs nothing like reading it.
    assert!(took < Duration::from_secs(10), "{took:?}");

    let r = scan_text("long.ll".into(), &text, &RuleSet::builtin());
    assert_eq!(r.status, Status::Ok, "{:?}", r.error);
    assert_eq!(r.kernels.len(), 1);

    // The first line, and the last one without its newline.
    let filler = "w".repeat(MAX_LINE_LENGTH + 1);
    for (text, line) in [
        (format!("{filler}\n{SMALL}"), 1),
        (format!("{SMALL}{filler}"), 1 + SMALL.matches('\n').count()),
    ] {
        let mut m = read_module(&text);
        let diags = read_all(&mut m);
        assert_eq!(diags.len(), 1, "{diags:?}");
        assert_eq!(diags[0].line as usize, line);
        assert_eq!(m.functions.len(), 2);
    }

    // A line of exactly the limit is read.
    let at_limit = format!("{SMALL}; {}\n", "z".repeat(MAX_LINE_LENGTH - 2));
    let mut m = read_module(&at_limit);
    assert!(read_all(&mut m).is_empty());
}

fn nested_array(levels: usize) -> String {
    format!(
        "@g = global {}i32{} zeroinitializer\n",
        "[1 x ".repeat(levels),
        "]".repeat(levels)
    )
}

#[test]
fn nesting_stops_at_the_depth_limit() {
    // `levels` arrays are `levels + 1` nested types.
    let (shallow, too_deep) = (
        nested_array(MAX_DEPTH as usize - 1),
        nested_array(MAX_DEPTH as usize),
    );
    let ok = read_module(&shallow);
    assert!(ok.diagnostics.is_empty(), "{:?}", ok.diagnostics);
    assert_eq!(ok.globals.len(), 1);
    let deep = read_module(&too_deep);
    assert_eq!(deep.diagnostics.len(), 1, "{:?}", deep.diagnostics);
    let d = &deep.diagnostics[0];
    assert_eq!(d.line, 1);
    assert!(d.message.contains(&MAX_DEPTH.to_string()), "{d:?}");
}

#[test]
fn functions_past_the_limit_are_skipped_with_one_error() {
    let extra = 3;
    let mut text = String::with_capacity((MAX_FUNCTIONS + extra) * 32);
    for i in 0..MAX_FUNCTIONS + extra {
        let _ = writeln!(text, "declare void @f{i}()");
    }
    // A definition past the limit: its body is passed over, not read as
    // top-level lines.
    text.push_str("define void @late() {\n  ret void\n}\n!0 = !{}\n");
    let mut m = read_module(&text);
    assert_eq!(m.functions.len(), MAX_FUNCTIONS);
    assert_eq!(m.metadata.len(), 1, "the module after them still reads");
    let diags = read_all(&mut m);
    assert_eq!(diags.len(), 1, "{diags:?}");
    assert_eq!(diags[0].line as usize, MAX_FUNCTIONS + 1);
    assert!(
        diags[0].message.contains(&MAX_FUNCTIONS.to_string())
            && diags[0].message.contains(&format!("the {} ", extra + 1)),
        "{diags:?}"
    );
}

#[test]
fn globals_past_the_limit_are_skipped_with_one_error() {
    let mut text = String::with_capacity((MAX_GLOBALS + 2) * 24);
    for i in 0..MAX_GLOBALS + 2 {
        let _ = writeln!(text, "@g{i} = global i32 0");
    }
    text.push_str("declare void @f()\n");
    let m = read_module(&text);
    assert_eq!(m.globals.len(), MAX_GLOBALS);
    assert_eq!(m.functions.len(), 1);
    assert_eq!(m.diagnostics.len(), 1, "{:?}", m.diagnostics);
    assert_eq!(m.diagnostics[0].line as usize, MAX_GLOBALS + 1);
    assert!(m.diagnostics[0].message.contains(&MAX_GLOBALS.to_string()));
}

/// A module with `big` (given as its body text) and, after it, a small
/// kernel that must still be read and analyzed.
fn with_big_function(body: &str) -> String {
    let split = SMALL.find("define").unwrap();
    format!(
        "{}define void @big(i32 %a) {{\n{body}}}\n\n{}",
        &SMALL[..split],
        &SMALL[split..]
    )
}

fn assert_body_refused(text: &str, what: &str, limit: usize) {
    let big_line = 1 + text[..text.find("define void @big").unwrap()]
        .matches('\n')
        .count() as u32;
    let mut m = read_module(text);
    assert!(m.diagnostics.is_empty(), "{:?}", m.diagnostics);
    let big = m.functions.iter().position(|f| f.name == "big").unwrap();
    let (body, diags) = m.body(big);
    assert_eq!(diags.len(), 1, "{diags:?}");
    assert_eq!(diags[0].line, big_line);
    assert!(
        diags[0]
            .message
            .contains(&format!("more than {limit} {what}")),
        "{diags:?}"
    );
    assert_eq!(body.blocks.len(), 1);
    assert!(body.instructions.is_empty());
    // The rest of the module reads, and the scan reports the limit.
    for i in (0..m.functions.len()).filter(|&i| i != big) {
        assert!(m.body(i).1.is_empty());
    }
    let r = scan_text("big.ll".into(), text, &RuleSet::builtin());
    assert_eq!(r.status, Status::Ok);
    assert_eq!(r.kernels.len(), 1);
    assert!(
        r.diagnostics
            .iter()
            .any(|d| d.line == big_line && d.message.contains(what)),
        "{:?}",
        r.diagnostics
    );
}

#[test]
fn a_body_past_the_block_limit_is_not_read() {
    let mut body = String::with_capacity((MAX_BLOCKS + 1) * 24);
    for i in 0..=MAX_BLOCKS {
        let _ = write!(body, "b{i}:\n  br label %b{}\n", i + 1);
    }
    body.push_str("  ret void\n");
    assert_body_refused(&with_big_function(&body), "blocks", MAX_BLOCKS);
}

#[test]
fn a_body_past_the_instruction_limit_is_not_read() {
    let mut body = String::with_capacity((MAX_INSTRUCTIONS + 1) * 24);
    for i in 0..=MAX_INSTRUCTIONS {
        let _ = writeln!(body, "  %v{i} = add i32 %a, {i}");
    }
    body.push_str("  ret void\n");
    assert_body_refused(&with_big_function(&body), "instructions", MAX_INSTRUCTIONS);
}

/// Bad lines at module level and in many bodies: at most `MAX_DIAGNOSTICS`
/// are kept for the whole file, plus one note that names the line where
/// they stop; reading a body again gives the same diagnostics.
#[test]
fn diagnostics_are_capped_per_file_with_one_note() {
    let mut text = String::new();
    for _ in 0..MAX_DIAGNOSTICS / 2 {
        text.push_str("x\n");
    }
    for f in 0..400 {
        let _ = writeln!(text, "define void @f{f}() {{");
        for _ in 0..5 {
            text.push_str("  %1 = bogus\n  = 1\n");
        }
        text.push_str("  ret void\n}\n");
    }
    let mut m = read_module(&text);
    let module_level = m.diagnostics.len();
    assert_eq!(module_level, MAX_DIAGNOSTICS / 2);
    let mut all = m.diagnostics.clone();
    let mut first = Vec::new();
    for i in 0..m.functions.len() {
        let d = m.body(i).1;
        first.push(d.clone());
        all.extend(d);
    }
    let notes = errors_with(&all, "too many problems");
    assert_eq!(notes.len(), 1, "{:?}", &all[all.len() - 3..]);
    assert!(notes[0].message.contains(&MAX_DIAGNOSTICS.to_string()));
    assert!(notes[0].line > 1);
    assert_eq!(all.len(), MAX_DIAGNOSTICS + 1);
    for (i, want) in first.iter().enumerate() {
        assert_eq!(&m.body(i).1, want, "body {i} read again");
    }
    // Garbage alone: a million bad lines keep the same bound.
    let garbage = "?\n".repeat(1_000_000);
    let m = read_module(&garbage);
    assert_eq!(m.diagnostics.len(), MAX_DIAGNOSTICS + 1);
    assert_eq!(
        m.diagnostics[MAX_DIAGNOSTICS].line as usize,
        MAX_DIAGNOSTICS + 1
    );
}

/// Metadata ids cost memory by the node, not by the id: one line with the
/// largest id reads at once (it used to allocate gigabytes), and ids out
/// of order or defined twice resolve, the last definition winning.
#[test]
fn metadata_ids_cost_nothing_by_their_size() {
    let text =
        "!4294967295 = !{!\"last\"}\n!67108864 = !{}\n!3 = !{!\"a\"}\n!3 = !{!\"b\"}\n!0 = !{!3}\n";
    let started = Instant::now();
    let m = read_module(text);
    assert!(started.elapsed() < Duration::from_secs(2));
    assert!(m.diagnostics.is_empty(), "{:?}", m.diagnostics);
    assert_eq!(m.metadata.len(), 4);
    let s = |id| m.metadata.tuple(id).and_then(|t| t[0].as_str());
    assert_eq!(s(u32::MAX), Some("last"));
    assert_eq!(s(3), Some("b"));
    assert_eq!(m.metadata.entry(3).unwrap().line, 4);
    assert_eq!(m.metadata.tuple(0).unwrap()[0].as_ref_id(), Some(3));
    assert!(m.metadata.tuple(67_108_864).unwrap().is_empty());
    assert!(m.metadata.get(5).is_none());
}

/// Unclosed bodies used to make locating each body scan the rest of the
/// file (quadratic): 100,000 of them took minutes. Now each stops at the
/// next `define`.
#[test]
fn many_unclosed_bodies_read_in_linear_time() {
    let n = 100_000;
    let mut text = String::with_capacity(n * 24);
    for i in 0..n {
        let _ = writeln!(text, "define void @f{i}() {{");
    }
    let started = Instant::now();
    let m = read_module(&text);
    let took = started.elapsed();
    assert_eq!(m.functions.len(), n);
    assert!(errors_with(&m.diagnostics, "not closed").len() >= MAX_DIAGNOSTICS / 2);
    assert!(took < Duration::from_secs(20), "{took:?}");
}

/// One entry-point node listed over and over: the AIR layer stops after
/// `MAX_AIR_ITEMS` entry points, arguments and fields, with one warning.
#[test]
fn air_metadata_stops_at_the_item_limit() {
    let line = SMALL
        .lines()
        .find(|l| l.starts_with("!air.kernel = !{"))
        .unwrap();
    let node = line["!air.kernel = !{".len()..].trim_end_matches('}');
    let one = air_scan::ir::air::air_info(&read_module(SMALL));
    let per_kernel = 1 + one.entry_points[0].arguments.len();
    let copies = MAX_AIR_ITEMS / per_kernel + 10;
    let list = vec![node; copies].join(", ");
    let text = SMALL.replace(line, &format!("!air.kernel = !{{{list}}}"));
    let m = read_module(&text);
    let air = air_scan::ir::air::air_info(&m);
    assert!(air.entry_points.len() <= MAX_AIR_ITEMS / per_kernel + 1);
    assert!(air.entry_points.len() >= MAX_AIR_ITEMS / per_kernel - 1);
    assert_eq!(air.diagnostics.len(), 1, "{:?}", air.diagnostics);
    let d = &air.diagnostics[0];
    assert!(d.message.contains(&MAX_AIR_ITEMS.to_string()), "{d:?}");
    let kernel_line = 1 + text[..text.find("!air.kernel").unwrap()]
        .matches('\n')
        .count();
    assert!(d.line as usize >= kernel_line, "{d:?}");
}

/// A message quotes at most `MAX_QUOTED` characters of a token.
#[test]
fn a_long_token_is_cut_in_messages() {
    let text = format!("{} = global i32 0\n", "x".repeat(100_000));
    let m = read_module(&text);
    assert_eq!(m.diagnostics.len(), 1);
    let msg = &m.diagnostics[0].message;
    assert!(msg.len() < MAX_QUOTED + 100, "{} bytes", msg.len());
    assert!(msg.contains('…'), "{msg}");
}

/// A scan of a directory holding files past the limits reports each and
/// still scans the good file beside them.
#[test]
fn a_scan_goes_on_past_files_at_their_limits() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("a_good.ll"), SMALL).unwrap();
    std::fs::write(dir.path().join("b_garbage.ll"), "?\n".repeat(100_000)).unwrap();
    let f = std::fs::File::create(dir.path().join("c_huge.ll")).unwrap();
    f.set_len(MAX_FILE_SIZE + 1).unwrap();
    drop(f);
    let long = format!("{SMALL}\n; {}\n", "y".repeat(MAX_LINE_LENGTH));
    std::fs::write(dir.path().join("d_long.ll"), long).unwrap();
    let rules = RuleSet::builtin();
    let reports = scan_paths(&[dir.path().to_path_buf()], 2, &ScanConfig::new(&rules));
    let names: Vec<_> = reports
        .iter()
        .map(|r| r.path.rsplit('/').next().unwrap().to_string())
        .collect();
    assert_eq!(
        names,
        ["a_good.ll", "b_garbage.ll", "c_huge.ll", "d_long.ll"]
    );
    assert_eq!(reports[0].status, Status::Ok);
    assert_eq!(reports[0].kernels.len(), 1);
    assert_eq!(reports[1].status, Status::Error);
    assert!(reports[1].diagnostics.len() <= MAX_DIAGNOSTICS + 1);
    assert_eq!(reports[2].status, Status::Error);
    assert!(reports[2].error.as_deref().unwrap().contains("limit"));
    // A comment line is skipped like any other: the module is whole.
    assert_eq!(reports[3].status, Status::Ok);
    assert_eq!(reports[3].kernels.len(), 1);
    assert_eq!(
        reports[3].diagnostics.len(),
        1,
        "{:?}",
        reports[3].diagnostics
    );
}
