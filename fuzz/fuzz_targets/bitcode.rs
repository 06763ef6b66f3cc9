//! The native bitcode reader: `ir::bitcode::to_text` on raw or wrapped
//! bitcode. A refusal must name a byte inside the input and say why; a
//! module that reads must print text the text reader takes without a
//! diagnostic outside that text, and every body must parse.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = match air_scan::ir::bitcode::to_text(data, "fuzz", 0, &mut Default::default()) {
        Ok(text) => text,
        Err(e) => {
            assert!(
                e.offset <= data.len() as u64,
                "error past the end ({} bytes): {e}",
                data.len()
            );
            assert!(!e.message.is_empty(), "an error without a message");
            return;
        }
    };
    let last_line = 2 + text.bytes().filter(|&b| b == b'\n').count() as u32;
    let mut m = air_scan::ir::read_module(&text);
    let mut diags = std::mem::take(&mut m.diagnostics);
    for i in 0..m.functions.len() {
        diags.extend(m.body(i).1);
    }
    for d in &diags {
        assert!(
            d.line >= 1 && d.line <= last_line,
            "diagnostic outside the printed text ({last_line} lines): {d:?}"
        );
    }
});
