//! The native bitcode reader on damaged corpus modules: truncated at many
//! lengths, with bytes flipped and words overwritten by large values. Each
//! either reads or is refused with a byte offset inside the input; none
//! panics or hangs. (cargo-fuzz drives the same entry point from
//! fuzz/; this runs everywhere, with a fixed seed.) Skips, saying so,
//! without ../shared/corpus.

mod common;

use air_scan::ir::bitcode;

/// A small deterministic generator (xorshift), so failures reproduce.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

fn check(bytes: &[u8], what: &str, reuse: &mut bitcode::Reuse) {
    if let Err(e) = bitcode::to_text(bytes, what, 0, reuse) {
        assert!(
            e.offset <= bytes.len() as u64,
            "{what}: offset {} past {} bytes: {e}",
            e.offset,
            bytes.len()
        );
        assert!(!e.message.is_empty(), "{what}: empty message");
    }
}

#[test]
fn damaged_corpus_modules_are_read_or_refused_with_an_offset() {
    let Some(corpus) = common::shared("corpus", "the bitcode mutation test") else {
        return;
    };
    let files = common::files_ending(&corpus, ".air");
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let mut runs = 0;
    // Shared by every damaged module, as a library's modules share one: what
    // a damaged module leaves must not hurt the next.
    let mut reuse = bitcode::Reuse::default();
    // Every third module keeps the debug build's time reasonable.
    for path in files.iter().step_by(3) {
        let original = std::fs::read(path).unwrap();
        let name = path.display().to_string();
        for k in 0..60 {
            let mut bytes = original.clone();
            match k % 4 {
                0 => bytes.truncate(rng.below(bytes.len())),
                1 => {
                    for _ in 0..1 + rng.below(8) {
                        let i = rng.below(bytes.len());
                        bytes[i] ^= 1 << rng.below(8);
                    }
                }
                2 => {
                    let i = rng.below(bytes.len().saturating_sub(4));
                    let v = [u32::MAX, 1 << 31, 0x7FFF_FFFF, 0][rng.below(4)];
                    bytes[i..i + 4].copy_from_slice(&v.to_le_bytes());
                }
                _ => {
                    let i = rng.below(bytes.len());
                    let n = rng.below(64).min(bytes.len() - i);
                    bytes.drain(i..i + n);
                }
            }
            check(&bytes, &format!("{name} (mutation {k})"), &mut reuse);
            runs += 1;
        }
    }
    eprintln!("bitcode mutation: {runs} damaged modules, no panic");
}
