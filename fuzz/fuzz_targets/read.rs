//! The reader alone: the input check, the module level, every body and the
//! AIR metadata layer, and, for a `metal-objdump` library dump, each of its
//! modules as a scan reads them. Every diagnostic must name a line of the
//! input.
#![no_main]

use air_scan::ir::{Diagnostic, Module};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = air_scan::input::as_ir_text(data) else {
        return;
    };
    let last_line = 2 + memchr_count(text) as u32;
    let mut diags = read_all(air_scan::ir::read_module(text));
    if let Some(dump) = air_scan::ir::dump::split(text) {
        diags.extend(dump.skipped);
        for m in &dump.modules {
            diags.extend(read_all(air_scan::ir::read_module_at(m.text, m.first_line)));
        }
    }
    for d in &diags {
        assert!(
            d.line >= 1 && d.line <= last_line,
            "diagnostic outside the input ({last_line} lines): {d:?}"
        );
    }
});

/// The module's diagnostics, its bodies' and the AIR layer's.
fn read_all(mut m: Module<'_>) -> Vec<Diagnostic> {
    let mut diags = std::mem::take(&mut m.diagnostics);
    for i in 0..m.functions.len() {
        diags.extend(m.body(i).1);
    }
    diags.extend(air_scan::ir::air::air_info(&m).diagnostics);
    diags
}

fn memchr_count(text: &str) -> usize {
    text.bytes().filter(|&b| b == b'\n').count()
}
