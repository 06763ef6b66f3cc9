//! The reader alone: the input check, the module level, every body and the
//! AIR metadata layer. Every diagnostic must name a line of the input.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = air_scan::input::as_ir_text(data) else {
        return;
    };
    let last_line = 2 + memchr_count(text) as u32;
    let mut m = air_scan::ir::read_module(text);
    let mut diags = std::mem::take(&mut m.diagnostics);
    for i in 0..m.functions.len() {
        diags.extend(m.body(i).1);
    }
    diags.extend(air_scan::ir::air::air_info(&m).diagnostics);
    for d in &diags {
        assert!(
            d.line >= 1 && d.line <= last_line,
            "diagnostic outside the input ({last_line} lines): {d:?}"
        );
    }
});

fn memchr_count(text: &str) -> usize {
    text.bytes().filter(|&b| b == b'\n').count()
}
