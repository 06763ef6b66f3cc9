//! What the SARIF stream keeps of the reports it is given: what the log
//! needs (each cause once, notifications, totals), never the reports
//! themselves, whose kernels, arguments and findings would make a scan of
//! many modules hold them all (issue 25). Measured in bytes allocated and
//! not freed by this test's thread, through a counting allocator: this file
//! is its own test binary, so no other test shares the count.

use air_scan::report::ReportStream;
use air_scan::report::sarif::{Options, SarifStream};
use air_scan::rules::RuleSet;
use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

struct Counting;

thread_local! {
    /// Bytes this thread allocated less those it freed.
    static LIVE: Cell<isize> = const { Cell::new(0) };
}

fn count(bytes: usize, sign: isize) {
    // Not at all while the thread is torn down.
    let _ = LIVE.try_with(|live| live.set(live.get() + sign * bytes as isize));
}

// SAFETY: every call is passed to the system allocator unchanged.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count(layout.size(), 1);
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        count(layout.size(), -1);
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count(layout.size(), -1);
        count(new_size, 1);
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

fn live() -> isize {
    LIVE.with(Cell::get)
}

/// The same module's report given again and again (a library's modules
/// repeat their kernels and findings the same way): its causes are kept
/// once, so the stream grows by nothing, where a copy of each report would
/// grow it by the report's size each time.
#[test]
fn the_sarif_stream_keeps_no_report() {
    let text = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/rules/divide_helpers.ll"),
    )
    .unwrap();
    let rules = RuleSet::builtin();
    let report = air_scan::scan::scan_text("h.ll".into(), &text, &rules);
    assert_eq!(report.kernels.len(), 2);
    assert!(!report.findings.is_empty());
    assert!(report.diagnostics.is_empty(), "{:?}", report.diagnostics);
    let before = live();
    let copy = report.clone();
    let one_report = live() - before;
    drop(copy);
    // Its strings are shared (`Arc<str>`), not copied: still over a KB.
    assert!(
        one_report > 1_000,
        "a report's copy takes {one_report} bytes"
    );

    let mut out = Vec::new();
    let mut stream: Box<dyn ReportStream + '_> =
        Box::new(SarifStream::new(&mut out, &rules, &Options::default()));
    stream.add(&report).unwrap();
    let after_one = live();
    for _ in 0..200 {
        stream.add(&report).unwrap();
    }
    let grown = live() - after_one;
    assert!(
        grown < one_report,
        "200 more reports kept {grown} bytes (one report is {one_report})"
    );
    let totals = stream.finish().unwrap();
    assert_eq!(totals.files, 201);
    assert_eq!(totals.findings, 201 * report.findings.len());
    // The log still counts every instance.
    let log: serde_json::Value = serde_json::from_slice(&out).unwrap();
    let message = log["runs"][0]["results"][0]["message"]["text"]
        .as_str()
        .unwrap();
    assert!(message.contains("instances"), "{message}");
}
