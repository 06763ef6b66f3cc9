use std::time::Instant;
fn main() {
    let texts: Vec<String> = std::env::args()
        .skip(1)
        .map(|a| std::fs::read_to_string(a).unwrap())
        .collect();
    let bytes: usize = texts.iter().map(|t| t.len()).sum();
    let t = Instant::now();
    for s in &texts {
        std::hint::black_box(air_scan::ir::read_module(s));
    }
    let a = t.elapsed().as_secs_f64();
    let t = Instant::now();
    for s in &texts {
        let mut m = air_scan::ir::read_module(s);
        for i in 0..m.functions.len() {
            std::hint::black_box(m.body(i));
        }
    }
    let b = t.elapsed().as_secs_f64();
    let md: usize = texts
        .iter()
        .map(|t| {
            t.lines()
                .filter(|l| l.starts_with('!'))
                .map(|l| l.len() + 1)
                .sum::<usize>()
        })
        .sum();
    println!(
        "{:.1} MB ({:.1} MB metadata): module level {:.3}s, with bodies {:.3}s",
        bytes as f64 / 1e6,
        md as f64 / 1e6,
        a,
        b
    );
}
