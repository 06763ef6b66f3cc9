//! Every `.ll` file of ../shared/corpus (both pointer eras) must read with
//! status "ok", no error diagnostics, and one kernel per `!air.kernel` entry.
//! The corpus is not part of the repository: without it the test says so and
//! passes vacuously.

mod common;

use air_scan::scan::{Status, scan_file};

/// Counts the `!N` references on the `!air.kernel = !{...}` line, read
/// straight from the text so the count does not depend on the reader.
fn kernel_entries(text: &str) -> usize {
    text.lines()
        .find_map(|l| l.strip_prefix("!air.kernel = !{"))
        .map_or(0, |rest| {
            rest.split(',')
                .filter(|s| s.trim().starts_with('!'))
                .count()
        })
}

#[test]
fn every_corpus_file_reads_cleanly() {
    let Some(dir) = common::shared("corpus", "the corpus test") else {
        return;
    };
    let files = common::files_ending(&dir, ".ll");

    assert!(
        files.len() >= 1000,
        "expected the whole corpus, found {} .ll files",
        files.len()
    );
    let mut failures = Vec::new();
    let mut typed = 0;
    let mut simple_tuples = 0;
    let mut opaque = 0;
    for path in &files {
        let report = scan_file(path, &air_scan::rules::RuleSet::builtin());
        let text = std::fs::read_to_string(path).unwrap();
        if report.status != Status::Ok {
            failures.push(format!("{}: {:?}", report.path, report.error));
            continue;
        }
        if let Some(d) = report
            .diagnostics
            .iter()
            .find(|d| d.severity == air_scan::ir::Severity::Error)
        {
            failures.push(format!("{}:{}: {}", report.path, d.line, d.message));
        }
        // The byte-level tuple reader agrees with the full parser.
        let module = air_scan::ir::read_module(&text);
        for id in module.metadata.ids() {
            let node_text = module.metadata.node_text(id).unwrap_or("");
            if let Some(fast) = air_scan::ir::metadata::simple_tuple(node_text) {
                simple_tuples += 1;
                if Some(&fast) != module.metadata.parse_with_full_parser(id).as_ref() {
                    failures.push(format!("{}: !{id} = {node_text}: {fast:?}", report.path));
                }
            }
        }
        // Every metadata node parses (the scan parses only those it uses).
        module.metadata.parse_all();
        if let Some(d) = module.metadata.take_errors().first() {
            failures.push(format!("{}:{}: {}", report.path, d.line, d.message));
        }
        let expected = kernel_entries(&text);
        if report.kernels.len() != expected {
            failures.push(format!(
                "{}: {} kernels read, {} in !air.kernel",
                report.path,
                report.kernels.len(),
                expected
            ));
        }
        match report.module.as_ref().map(|m| m.pointers) {
            Some("typed") => typed += 1,
            _ => opaque += 1,
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} files failed:\n{}",
        failures.len(),
        files.len(),
        failures.join("\n")
    );
    assert!(simple_tuples > 50_000, "{simple_tuples} simple tuples");
    // Both eras are present and were told apart.
    assert!(
        typed > 500 && opaque > 400,
        "typed {typed}, opaque {opaque}"
    );
    eprintln!(
        "{} corpus files read: {typed} typed-pointer, {opaque} opaque-pointer",
        files.len()
    );
}

/// The instruction count of every file equals the number of instruction
/// lines in its text: nothing is silently skipped.
#[test]
fn corpus_instruction_counts_match_the_text() {
    let Some(dir) = common::shared("corpus", "the corpus test") else {
        return;
    };
    let files = common::files_ending(&dir, ".ll");
    for path in files.iter().step_by(7) {
        let text = std::fs::read_to_string(path).unwrap();
        let expected = text
            .lines()
            .filter(|l| {
                let t = l.trim_start();
                // Indented, not blank, not a comment, debug record or switch case.
                let skipped = t.is_empty()
                    || t.starts_with(['#', ';', ']'])
                    || (t.starts_with('i') && t.contains(", label %"));
                l.starts_with("  ") && !skipped
            })
            .count();
        let module_report = scan_file(path, &air_scan::rules::RuleSet::builtin());
        assert_eq!(
            module_report.module.unwrap().instructions,
            expected,
            "{}",
            path.display()
        );
    }
}
