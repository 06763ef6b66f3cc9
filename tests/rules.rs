//! The rules on hand-written fixtures (testdata/rules/*.ll), run
//! through the binary as a user runs it. Each fixture's leading comments say
//! where its shape comes from and what it must and must not trigger.
//!
//! Every test first checks the key facts on `--format json` (rule, line of
//! the instruction, divisor name and kind, kernels, confirmed, cost notes),
//! so it fails for the right reason even if a snapshot is re-accepted
//! carelessly, and then snapshots the text report (tests/snapshots/).
//! Lines are found by searching the fixture for the instruction, so the
//! facts do not hang on line numbers typed by hand.
//!
//! should do and currently does not; `cargo test --test rules -- --ignored`
//! runs them. Snapshots are made with `INSTA_UPDATE=always cargo test --test
//! rules` and read before they are committed.

use assert_cmd::Command;
use serde_json::Value;

const DIR: &str = "testdata/rules";

/// The binary, run from the crate root so that reports name the fixture by
/// the relative path `testdata/rules/<name>` and hold no absolute path.
fn air_scan() -> Command {
    let mut cmd = Command::cargo_bin("air-scan").unwrap();
    cmd.current_dir(env!("CARGO_MANIFEST_DIR"));
    cmd
}

fn rel(name: &str) -> String {
    format!("{DIR}/{name}")
}

/// Runs the binary on one fixture and returns stdout. The exit code must say
/// the file was read (0, or 1 when findings fail the scan); never 2.
fn run(args: &[&str]) -> Vec<u8> {
    let out = air_scan().args(args).output().unwrap();
    assert!(
        matches!(out.status.code(), Some(0 | 1)),
        "air-scan {args:?}: {:?}\n{}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

/// The text report of one fixture.
fn text(name: &str) -> String {
    String::from_utf8(run(&[&rel(name)])).unwrap()
}

/// The JSON report of one fixture, checked to have read cleanly.
fn json(name: &str) -> Value {
    let out = run(&["--format", "json", &rel(name)]);
    let v: Value = serde_json::from_slice(&out).unwrap();
    let file = &v["files"][0];
    assert_eq!(file["path"], rel(name));
    assert_eq!(file["status"], "ok", "{name}: {file}");
    assert_eq!(
        file["diagnostics"].as_array().map(Vec::len),
        Some(0),
        "{name} must read without diagnostics: {}",
        file["diagnostics"]
    );
    v
}

fn findings(v: &Value) -> &[Value] {
    v["findings"].as_array().map(Vec::as_slice).unwrap_or(&[])
}

/// The 1-based line of the only line of function `@func` in the fixture
/// that contains `needle`.
fn line_in(name: &str, func: &str, needle: &str) -> u64 {
    let path = format!("{}/{DIR}/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let head = format!("@{func}(");
    let start = text
        .lines()
        .position(|l| l.starts_with("define ") && l.contains(&head))
        .unwrap_or_else(|| panic!("{name}: no function @{func}"));
    let hits: Vec<u64> = text
        .lines()
        .enumerate()
        .skip(start + 1)
        .take_while(|(_, l)| *l != "}")
        .filter(|(_, l)| l.contains(needle))
        .map(|(i, _)| i as u64 + 1)
        .collect();
    assert_eq!(
        hits.len(),
        1,
        "{name}: `{needle}` must occur once in @{func}: {hits:?}"
    );
    hits[0]
}

/// (rule, line) of every finding, in report order.
fn rule_lines(v: &Value) -> Vec<(String, u64)> {
    findings(v)
        .iter()
        .map(|f| {
            (
                f["rule"].as_str().unwrap().to_string(),
                f["ir"]["line"].as_u64().unwrap(),
            )
        })
        .collect()
}

/// The finding at `line`; there must be exactly one.
fn at(v: &Value, line: u64) -> &Value {
    let hits: Vec<&Value> = findings(v)
        .iter()
        .filter(|f| f["ir"]["line"] == line)
        .collect();
    assert_eq!(hits.len(), 1, "one finding at line {line}: {hits:?}");
    hits[0]
}

fn message(f: &Value) -> &str {
    f["message"].as_str().unwrap()
}

/// Checks a divide finding: rule, divisor name and kind, loop depth, width.
fn assert_divide(f: &Value, rule: &str, name: &str, kind: &str, depth: u64, bits: u64) {
    let line = &f["ir"]["line"];
    assert_eq!(f["rule"], rule, "line {line}: {f}");
    assert_eq!(f["evidence"]["divisor"]["name"], name, "line {line}: {f}");
    assert_eq!(f["evidence"]["divisor"]["kind"], kind, "line {line}: {f}");
    assert_eq!(f["loop_depth"], depth, "line {line}: {f}");
    assert_eq!(f["evidence"]["loop_depth"], depth, "line {line}: {f}");
    assert_eq!(f["evidence"]["bits"], bits, "line {line}: {f}");
    let m = message(f);
    assert!(
        m.contains(name),
        "line {line}: the message must name the divisor: {m}"
    );
    assert_eq!(m.contains("in a loop"), depth > 0, "line {line}: {m}");
    assert_eq!(m.contains("64-bit"), bits == 64, "line {line}: {m}");
    let severity = if rule == "divide-by-uniform" {
        "warning"
    } else {
        "note"
    };
    assert_eq!(f["severity"], severity);
}

/// Snapshots the text report of `name`.
fn snapshot(name: &str) {
    let out = text(name);
    assert!(!out.contains(env!("CARGO_MANIFEST_DIR")), "{out}");
    insta::with_settings!({
        description => format!("air-scan {}", rel(name)),
        omit_expression => true,
    }, {
        insta::assert_snapshot!(name.trim_end_matches(".ll"), out);
    });
}

// ---- fused-shift-address-in-branch (seed 002) ----

/// The chain of the buggy kernel: the `mul` and then shl, sext, gep, load.
fn assert_buggy_chain(name: &str, v: &Value) {
    let mul = line_in(name, "buggy", "%28 = mul i32 %27, 536870907");
    assert_eq!(
        rule_lines(v),
        vec![("fused-shift-address-in-branch".to_string(), mul)]
    );
    let f = at(v, mul);
    assert_eq!(f["severity"], "error");
    assert_eq!(f["function"], "buggy");
    assert_eq!(f["kernels"], serde_json::json!(["buggy"]));
    let e = &f["evidence"];
    assert_eq!(e["confirmed"], true);
    assert_eq!(e["constant"], 536_870_907);
    assert_eq!((&e["shift"], &e["m"]), (&3.into(), &5.into()));
    let chain: Vec<u64> = [
        "%30 = shl i32 %29, 3",
        "%31 = sext i32 %30 to i64",
        "%32 = getelementptr inbounds i8",
        "%33 = load i8",
    ]
    .iter()
    .map(|n| line_in(name, "buggy", n))
    .collect();
    assert_eq!(e["chain_lines"], serde_json::json!(chain));
    assert!(message(f).contains("confirmed miscompile"), "{f}");
    assert!(!message(f).contains("unconfirmed"), "{f}");
}

#[test]
fn fused_shift_buggy_typed_fires_confirmed() {
    let name = "fused_shift_buggy_typed.ll";
    let v = json(name);
    assert_eq!(v["files"][0]["module"]["pointers"], "typed");
    assert_buggy_chain(name, &v);
    snapshot(name);
}

#[test]
fn fused_shift_buggy_opaque_fires_confirmed() {
    let name = "fused_shift_buggy_opaque.ll";
    let v = json(name);
    assert_eq!(v["files"][0]["module"]["pointers"], "opaque");
    assert_buggy_chain(name, &v);
    snapshot(name);
}

/// Both pointer eras of `buggy` give the same finding, line for line.
#[test]
fn fused_shift_buggy_twins_agree() {
    let strip = |mut v: Value| {
        let mut fs = v["findings"].take();
        for f in fs.as_array_mut().unwrap() {
            let o = f.as_object_mut().unwrap();
            o.remove("path");
            o["ir"].as_object_mut().unwrap().remove("path");
        }
        fs
    };
    let typed = strip(json("fused_shift_buggy_typed.ll"));
    let opaque = strip(json("fused_shift_buggy_opaque.ll"));
    assert_eq!(typed.as_array().unwrap().len(), 1);
    assert_eq!(typed, opaque);
}

#[test]
fn fused_shift_working_is_silent() {
    let name = "fused_shift_working.ll";
    let v = json(name);
    // The -5 multiply is there, before the branch; the shl is in it.
    line_in(name, "working", "%20 = mul i32 %19, -5");
    line_in(name, "working", "%26 = shl i32 %21, 3");
    assert_eq!(rule_lines(&v), vec![]);
    snapshot(name);
}

#[test]
fn fused_shift_h9_always_true_branch_fires() {
    let name = "fused_shift_h9.ll";
    let v = json(name);
    line_in(name, "h9", "%16 = icmp slt i32 %15, 100");
    let mul = line_in(name, "h9", "%28 = mul i32 %27, 536870907");
    assert_eq!(
        rule_lines(&v),
        vec![("fused-shift-address-in-branch".to_string(), mul)]
    );
    let f = at(&v, mul);
    assert_eq!(f["function"], "h9");
    assert_eq!(f["evidence"]["confirmed"], true);
    snapshot(name);
}

#[test]
fn fused_shift_t4_unconditional_is_silent() {
    let name = "fused_shift_t4_unconditional.ll";
    let v = json(name);
    line_in(name, "t4", "%20 = mul i32 %19, 536870907");
    assert_eq!(rule_lines(&v), vec![]);
    snapshot(name);
}

#[test]
fn fused_shift_family_member_fires_unconfirmed() {
    let name = "fused_shift_family_m7_k2.ll";
    let v = json(name);
    let mul = line_in(name, "mod7", "%28 = mul i32 %27, 1073741817");
    assert_eq!(
        rule_lines(&v),
        vec![("fused-shift-address-in-branch".to_string(), mul)]
    );
    let f = at(&v, mul);
    let e = &f["evidence"];
    assert_eq!(e["confirmed"], false);
    assert_eq!(e["constant"], 1_073_741_817);
    assert_eq!((&e["shift"], &e["m"]), (&2.into(), &7.into()));
    // shl, sext, gep, then the load behind the bitcast.
    let chain: Vec<u64> = [
        "%30 = shl i32 %29, 2",
        "%31 = sext i32 %30 to i64",
        "%32 = getelementptr inbounds i8",
        "%34 = load i32",
    ]
    .iter()
    .map(|n| line_in(name, "mod7", n))
    .collect();
    assert_eq!(e["chain_lines"], serde_json::json!(chain));
    assert!(message(f).contains("unconfirmed"), "{f}");
    assert!(message(f).contains("2^(32-2) - 7"), "{f}");
    snapshot(name);
}

// ---- divide-by-uniform and divide-by-varying ----

#[test]
fn divide_compile_time_divisors_are_silent() {
    let name = "divide_compile_time.ll";
    let v = json(name);
    let fcs = &v["files"][0]["module"]["function_constants"];
    assert_eq!(fcs.as_array().map(Vec::len), Some(2), "{fcs}");
    // Nothing in @div_literals or @kernel_mul_mv_fc: the three findings are
    // the probes, which join each function constant with a uniform `n`.
    let probes: Vec<u64> = [
        "%7 = udiv i32 %2, %6",
        "%10 = udiv i32 %2, %9",
        "%14 = sdiv i32 %2, %13",
    ]
    .iter()
    .map(|n| line_in(name, "fc_probe", n))
    .collect();
    let want: Vec<(String, u64)> = probes
        .iter()
        .map(|&l| ("divide-by-uniform".to_string(), l))
        .collect();
    assert_eq!(rule_lines(&v), want);
    for &l in &probes {
        let f = at(&v, l);
        assert_eq!(f["function"], "fc_probe");
        assert_divide(f, "divide-by-uniform", "n", "argument", 0, 32);
    }
    // The silent divides are there (so a rename cannot make this pass).
    for (func, needle) in [
        ("div_literals", "%3 = udiv i32 %1, 7"),
        ("div_literals", "%4 = udiv i32 %1, 32"),
        ("kernel_mul_mv_fc", "%7 = srem i32 %4, %6"),
        ("kernel_mul_mv_fc", "%8 = sdiv i32 %4, %6"),
        ("kernel_mul_mv_fc", "%10 = udiv i32 %2, %9"),
        ("kernel_mul_mv_fc", "%12 = urem i32 %2, %11"),
    ] {
        line_in(name, func, needle);
    }
    snapshot(name);
}

fn assert_args_ne12(name: &str) {
    let v = json(name);
    let k = "kernel_mul_mv_q4_0_f32";
    let srem = line_in(name, k, "%9 = srem i32 %6, %8");
    let sdiv = line_in(name, k, "%10 = sdiv i32 %6, %8");
    // The srem and sdiv on the same operands are one finding (one routine
    // computes both), at the first, naming the second.
    assert_eq!(
        rule_lines(&v),
        vec![("divide-by-uniform".to_string(), srem)]
    );
    let f = at(&v, srem);
    assert_divide(f, "divide-by-uniform", "args.ne12", "field", 0, 32);
    assert_eq!(f["evidence"]["divisor"]["class"], "uniform");
    assert_eq!(
        f["evidence"]["paired_with"],
        serde_json::json!({"opcode": "sdiv", "line": sdiv})
    );
    assert_eq!(f["kernels"], serde_json::json!(["kernel_mul_mv_q4_0_f32"]));
    assert!(message(f).contains("a field of a constant buffer"), "{f}");
    assert!(
        message(f).starts_with("`srem` and `sdiv` by `args.ne12`"),
        "{f}"
    );
}

#[test]
fn divide_by_struct_field_typed_names_args_ne12() {
    assert_args_ne12("divide_args_field_typed.ll");
    snapshot("divide_args_field_typed.ll");
}

#[test]
fn divide_by_struct_field_opaque_names_args_ne12() {
    assert_args_ne12("divide_args_field_opaque.ll");
    snapshot("divide_args_field_opaque.ll");
}

#[test]
fn divide_by_uniform_arguments_and_builtins() {
    let name = "divide_uniform_args.ll";
    let v = json(name);
    let simd = line_in(name, "arg_reduce_tail", "%8 = udiv i32 %7, %2");
    let ntg = line_in(name, "arg_reduce_tail", "%9 = urem i32 %3, %5");
    let n = line_in(name, "scalar_args", "%6 = udiv i32 %3, %5");
    let k = line_in(name, "scalar_args", "%7 = urem i32 %3, %2");
    let uniform = |l| ("divide-by-uniform".to_string(), l);
    assert_eq!(
        rule_lines(&v),
        vec![uniform(simd), uniform(ntg), uniform(n), uniform(k)]
    );
    let f = at(&v, simd);
    assert_divide(
        f,
        "divide-by-uniform",
        "threads_per_simdgroup",
        "builtin",
        0,
        32,
    );
    assert!(message(f).contains("always 32"), "{f}");
    let f = at(&v, ntg);
    assert_divide(
        f,
        "divide-by-uniform",
        "threads_per_threadgroup",
        "builtin",
        0,
        32,
    );
    assert!(message(f).contains("threadgroup-uniform builtin"), "{f}");
    assert!(!message(f).contains("always 32"), "{f}");
    assert_divide(at(&v, n), "divide-by-uniform", "n", "argument", 0, 32);
    assert_divide(at(&v, k), "divide-by-uniform", "k", "argument", 0, 32);
    snapshot(name);
}

#[test]
fn divide_by_varying_memory_and_thread_id() {
    let name = "divide_varying.ll";
    let v = json(name);
    let s = "div_by_scalar_buffer";
    let dev = line_in(name, s, "%10 = sdiv i32 %8, %9");
    let tga = line_in(name, s, "%12 = srem i32 %8, %11");
    let tgg = line_in(name, s, "%14 = urem i32 %8, %13");
    let tid = line_in(name, "div_by_thread", "%6 = udiv i32 %4, %5");
    let mix = line_in(name, "div_by_thread", "%8 = udiv i32 %2, %7");
    let varying = |l| ("divide-by-varying".to_string(), l);
    assert_eq!(
        rule_lines(&v),
        vec![
            ("divide-by-uniform".to_string(), dev),
            varying(tga),
            varying(tgg),
            varying(tid),
            varying(mix)
        ]
    );
    // tinygrad's `*(data2_1+0)`: device memory every thread reads at one
    // address, in a buffer the kernel does not write.
    let f = at(&v, dev);
    assert_divide(f, "divide-by-uniform", "b", "memory", 0, 32);
    assert_eq!(f["evidence"]["divisor"]["class"], "uniform");
    assert!(message(f).contains("a device scalar"), "{f}");
    for (l, who) in [(tga, "shmem"), (tgg, "_ZZ20div_by_scalar_bufferE4bins")] {
        let f = at(&v, l);
        assert_divide(f, "divide-by-varying", who, "memory", 0, 32);
        assert_eq!(f["evidence"]["divisor"]["class"], "varying");
        assert!(message(f).contains("loaded from device or threadgroup memory"));
    }
    let f = at(&v, tid);
    assert_divide(
        f,
        "divide-by-varying",
        "thread_position_in_grid",
        "builtin",
        0,
        32,
    );
    assert_eq!(f["evidence"]["divisor"]["class"], "varying");
    assert!(message(f).contains("a thread-varying builtin"), "{f}");
    let f = at(&v, mix);
    assert_divide(
        f,
        "divide-by-varying",
        "thread_position_in_grid",
        "builtin",
        0,
        32,
    );
    assert_eq!(f["evidence"]["divisor"]["class"], "mixed");
    snapshot(name);
}

/// Device memory at one address for every thread, from a buffer the kernel
/// does not write, is uniform (kolinko's `rowsCount`); a rewritten buffer,
/// a per-thread address, or a helper's pointer its callers index are not.
#[test]
fn divide_by_device_scalar_is_uniform() {
    let name = "divide_device_uniform.ll";
    let v = json(name);
    let rows = line_in(name, "expert_dispatch", "%10 = urem i32 %9, %5");
    let number = line_in(name, "round_up", "%5 = udiv i32 %3, %4");
    let rewritten = line_in(name, "rewritten", "%6 = udiv i32 %1, %5");
    let per_thread = line_in(name, "per_thread", "%11 = udiv i32 %6, %10");
    let helper = line_in(name, "helper_div", "%4 = sdiv i32 %1, %3");
    let rule = |r: &str, l| (r.to_string(), l);
    assert_eq!(
        rule_lines(&v),
        vec![
            rule("divide-by-uniform", rows),
            rule("divide-by-uniform", number),
            rule("divide-by-varying", rewritten),
            rule("divide-by-varying", per_thread),
            rule("divide-by-varying", helper),
        ]
    );
    for (l, who, depth) in [(rows, "rowsCount", 1), (number, "number", 0)] {
        let f = at(&v, l);
        assert_divide(f, "divide-by-uniform", who, "memory", depth, 32);
        assert_eq!(f["evidence"]["divisor"]["class"], "uniform");
        assert_eq!(f["evidence"]["cycles"], 730);
        assert!(message(f).contains("a device scalar"), "{f}");
        assert!(message(f).contains("[[function_constant]]"), "{f}");
    }
    for (l, who) in [(rewritten, "s"), (per_thread, "in"), (helper, "b")] {
        let f = at(&v, l);
        assert_divide(f, "divide-by-varying", who, "memory", 0, 32);
        assert_eq!(f["evidence"]["divisor"]["class"], "varying");
    }
    snapshot(name);
}

/// A texture's size is named as the MSL method that gives it.
#[test]
fn divide_by_texture_size_names_the_query() {
    let name = "divide_texture_size.ll";
    let v = json(name);
    let w = line_in(name, "wrap", "%6 = urem i32 %2, %4");
    let h = line_in(name, "wrap", "%7 = udiv i32 %2, %5");
    for (l, who) in [
        (w, "inputTexture.get_width()"),
        (h, "inputTexture.get_height()"),
    ] {
        let f = at(&v, l);
        assert_divide(f, "divide-by-uniform", who, "argument", 0, 32);
        assert!(message(f).contains("a texture's size"), "{f}");
        assert!(!message(f).contains("a kernel argument"), "{f}");
    }
    assert_eq!(rule_lines(&v).len(), 2);
}

/// The divides of divide_varying_indexed_memory.ll: (function, instruction,
/// the memory the divisor is loaded from).
const INDEXED: [(&str, &str, &str); 4] = [
    ("div_elementwise", "%10 = sdiv i32 %7, %9", "b"),
    ("div_by_group", "%10 = udiv i32 %4, %9", "b"),
    ("div_by_group", "%14 = srem i32 %6, %13", "shmem"),
    (
        "div_by_group",
        "%17 = urem i32 %6, %16",
        "_ZZ12div_by_groupE4bins",
    ),
];

/// Lines and rules of the indexed-memory fixture: these hold today.
#[test]
fn divide_by_indexed_memory_fires_varying() {
    let name = "divide_varying_indexed_memory.ll";
    let v = json(name);
    let lines: Vec<u64> = INDEXED
        .iter()
        .map(|(func, needle, _)| line_in(name, func, needle))
        .collect();
    let want: Vec<(String, u64)> = lines
        .iter()
        .map(|&l| ("divide-by-varying".to_string(), l))
        .collect();
    assert_eq!(rule_lines(&v), want);
}

/// The divisor is the loaded value: it must be named by the memory it is
/// read from, not by the thread id that indexes it.
#[test]
fn divide_by_indexed_memory_names_the_memory() {
    let name = "divide_varying_indexed_memory.ll";
    let v = json(name);
    for (func, needle, who) in INDEXED {
        let f = at(&v, line_in(name, func, needle));
        assert_eq!(f["rule"], "divide-by-varying", "{f}");
        assert_eq!(f["evidence"]["divisor"]["name"], who, "{needle}: {f}");
        assert_eq!(f["evidence"]["divisor"]["kind"], "memory", "{needle}: {f}");
        assert!(
            message(f).contains("loaded from device or threadgroup memory"),
            "{needle}: {f}"
        );
    }
    snapshot(name);
}

#[test]
fn divide_cost_notes_for_loops_and_64_bit() {
    let name = "divide_cost.ll";
    let v = json(name);
    let conv = "kernel_conv_2d";
    let owrem = line_in(name, conv, "%32 = urem i64 %31, %18");
    let owdiv = line_in(name, conv, "%33 = udiv i64 %31, %18");
    let ohrem = line_in(name, conv, "%34 = urem i64 %33, %14");
    let d1 = line_in(name, conv, "%42 = sdiv i32 %41, %29");
    let shrem = line_in(name, "elem_to_loc", "%26 = srem i64 %20, %25");
    let shdiv = line_in(name, "elem_to_loc", "%31 = sdiv i64 %20, %25");
    let blk = line_in(name, "arg_reduce_blocks", "%10 = udiv i64 %9, %7");
    // owrem/owdiv and shrem/shdiv are pairs on the same operands: one
    // finding each, at the first, naming the second.
    let all = [owrem, ohrem, d1, shrem, blk];
    let want: Vec<(String, u64)> = all
        .iter()
        .map(|&l| ("divide-by-uniform".to_string(), l))
        .collect();
    assert_eq!(rule_lines(&v), want);
    let u = "divide-by-uniform";
    assert_divide(at(&v, owrem), u, "args.OW", "field", 1, 64);
    assert_eq!(at(&v, owrem)["evidence"]["paired_with"]["line"], owdiv);
    assert_divide(at(&v, ohrem), u, "args.OH", "field", 1, 64);
    assert_divide(at(&v, d1), u, "args.d1", "field", 1, 32);
    assert_divide(at(&v, shrem), u, "shape[*]", "argument", 1, 64);
    assert_eq!(at(&v, shrem)["evidence"]["paired_with"]["line"], shdiv);
    assert_divide(at(&v, blk), u, "threads_per_threadgroup", "builtin", 0, 64);
    for l in all {
        let f = at(&v, l);
        let m = message(f);
        if f["evidence"]["bits"] == 64 {
            assert!(m.contains("costs more"), "{m}");
        }
        if f["loop_depth"] == 1 {
            assert!(m.contains("loop (depth 1)"), "{m}");
        }
    }
    snapshot(name);
}

#[test]
fn divide_in_helper_names_both_kernels() {
    let name = "divide_helpers.ll";
    let v = json(name);
    let div = line_in(name, "div_helper", "%1 = udiv i32 %a, %b");
    line_in(name, "lit_helper", "%1 = urem i32 %a, %b");
    assert_eq!(rule_lines(&v), vec![("divide-by-uniform".to_string(), div)]);
    let f = at(&v, div);
    assert_eq!(f["function"], "div_helper");
    assert_eq!(f["kernels"], serde_json::json!(["kernel_a", "kernel_b"]));
    assert_divide(f, "divide-by-uniform", "n", "argument", 0, 32);
    snapshot(name);
}

// ---- barrier-in-divergent-flow ----

/// One expected barrier finding: (function, the barrier's line marker, the
/// branch, the condition's name, where skipping threads go, the other
/// barrier's marker).
type BarrierCase = (
    &'static str,
    &'static str,
    &'static str,
    Option<&'static str>,
    &'static str,
    Option<&'static str>,
);

const DIVERGENT: [BarrierCase; 7] = [
    (
        "reduce_in_branch",
        "; in branch",
        "br i1 %10, label %pair",
        Some("thread_position_in_threadgroup"),
        "meets_barrier",
        Some("; after branch"),
    ),
    (
        "strided_loop",
        "; in loop",
        "br i1 %20, label %body",
        Some("thread_position_in_threadgroup"),
        "meets_barrier",
        Some("; after loop"),
    ),
    (
        "alternate_lanes",
        "; every other",
        "br i1 %8, label %even",
        Some("thread_position_in_threadgroup"),
        "comes_back",
        None,
    ),
    (
        "first_ticket",
        "; ticket",
        "br i1 %5, label %first",
        None,
        "meets_barrier",
        Some("; all tickets"),
    ),
    (
        "by_element",
        "; positive only",
        "br i1 %7, label %positive",
        Some("in"),
        "meets_barrier",
        Some("; everyone"),
    ),
    (
        "lanes_simd",
        "; low lanes",
        "br i1 %3, label %low",
        Some("thread_index_in_simdgroup"),
        "meets_barrier",
        Some("; all lanes"),
    ),
    (
        "group_leader",
        "; group 0 only",
        "br i1 %3, label %leader",
        Some("simdgroup_index_in_threadgroup"),
        "meets_barrier",
        Some("; all groups"),
    ),
];

#[test]
fn barrier_in_divergent_flow_fires() {
    let name = "barrier_divergent.ll";
    let v = json(name);
    let mut want: Vec<(String, u64)> = DIVERGENT
        .iter()
        .map(|(f, b, ..)| ("barrier-in-divergent-flow".to_string(), line_in(name, f, b)))
        .collect();
    // Every thread takes a ticket from one counter: an append counter.
    let ticket = line_in(name, "first_ticket", "@air.atomic.global.add.u.i32(");
    want.push(("device-atomic-contention".to_string(), ticket));
    want.sort_by_key(|w| w.1);
    assert_eq!(rule_lines(&v), want);
    let f = at(&v, ticket);
    assert_eq!(f["severity"], "note", "{f}");
    assert_eq!(f["evidence"]["append_counter"], true, "{f}");
    for (func, barrier, branch, cond, skipping, other) in DIVERGENT {
        let f = at(&v, line_in(name, func, barrier));
        assert_eq!(f["function"], func);
        assert_eq!(f["severity"], "error");
        assert_eq!(f["category"], "correctness");
        let e = &f["evidence"];
        assert_eq!(e["branch_line"], line_in(name, func, branch), "{func}: {f}");
        assert_eq!(
            e["condition"]["name"],
            serde_json::json!(cond),
            "{func}: {f}"
        );
        assert_eq!(e["skipping"], skipping, "{func}: {f}");
        let other = other.map(|o| line_in(name, func, o));
        assert_eq!(
            e["other_barrier_line"],
            serde_json::json!(other),
            "{func}: {f}"
        );
        assert_eq!(e["loop_exit"], func == "strided_loop", "{func}: {f}");
        let m = message(f);
        assert!(m.contains(&format!("line {}", e["branch_line"])), "{m}");
        assert_eq!(
            func == "lanes_simd",
            m.starts_with("simdgroup_barrier"),
            "{m}"
        );
        assert_eq!(func == "lanes_simd", m.contains("lockstep"), "{m}");
    }
    assert!(message(at(&v, line_in(name, "first_ticket", "; ticket"))).contains("atomic"));
    snapshot(name);
}

#[test]
fn barrier_reached_through_a_helper_fires_at_the_call() {
    let name = "barrier_in_helper.ll";
    let v = json(name);
    let call = line_in(name, "helper_in_branch", "; call in branch");
    let deep = line_in(name, "helper_two_deep", "; low lanes");
    let rule = "barrier-in-divergent-flow".to_string();
    assert_eq!(rule_lines(&v), vec![(rule.clone(), call), (rule, deep)]);
    for (line, func, via, barrier, branch, cond, other) in [
        (
            call,
            "helper_in_branch",
            "sync_tile",
            "air.wg.barrier",
            "br i1 %5, label %some",
            "thread_position_in_threadgroup",
            "; after branch",
        ),
        (
            deep,
            "helper_two_deep",
            "lane_step",
            "air.simdgroup.barrier",
            "br i1 %3, label %low",
            "thread_index_in_simdgroup",
            "; all lanes",
        ),
    ] {
        let f = at(&v, line);
        assert_eq!(f["function"], func);
        assert_eq!(f["severity"], "error");
        let e = &f["evidence"];
        assert_eq!(e["via"], via, "{f}");
        assert_eq!(e["barrier"], barrier, "{f}");
        assert_eq!(e["branch_line"], line_in(name, func, branch), "{f}");
        assert_eq!(e["condition"]["name"], cond, "{f}");
        assert_eq!(e["skipping"], "meets_barrier", "{f}");
        assert_eq!(e["other_barrier_line"], line_in(name, func, other), "{f}");
        let m = message(f);
        assert!(
            m.starts_with(&format!("this call of @{via}, which reaches a ")),
            "{m}"
        );
        assert_eq!(
            barrier == "air.simdgroup.barrier",
            m.contains("lockstep"),
            "{m}"
        );
    }
    // The helpers' own barriers run whenever they are called.
    for (func, barrier) in [
        ("sync_tile", "; inside sync_tile"),
        ("lane_sync", "; inside lane_sync"),
    ] {
        line_in(name, func, barrier);
    }
    snapshot(name);
}

#[test]
fn barrier_under_uniform_conditions_is_silent() {
    let name = "barrier_uniform.ll";
    let v = json(name);
    // Each kernel has a barrier inside its branch or loop.
    for (func, barrier) in [
        ("by_argument", "; n > 16"),
        ("by_threadgroup", "; first group"),
        ("by_function_constant", "; use_tg"),
        ("by_flag", "; flag set"),
        ("by_shared_count", "; each round"),
        ("simd_by_group", "; group 0"),
    ] {
        line_in(name, func, barrier);
    }
    assert_eq!(rule_lines(&v), vec![]);
    snapshot(name);
}

#[test]
fn barrier_skipped_only_by_leaving_threads_is_silent() {
    let name = "barrier_threads_leave.ll";
    let v = json(name);
    for (func, barrier) in [
        ("early_return", "; staged"),
        ("early_return", "; written"),
        ("loop_then_return", "; chunk step"),
        ("lock_with_timeout", "; after lock"),
        ("lock_with_timeout", "; second pass"),
    ] {
        line_in(name, func, barrier);
    }
    // The lock itself waits for another threadgroup: the only finding.
    let lock = line_in(
        name,
        "lock_with_timeout",
        "@air.atomic.global.cmpxchg.weak.i32(",
    );
    assert_eq!(
        rule_lines(&v),
        vec![("cross-threadgroup-spin-wait".to_string(), lock)]
    );
    snapshot(name);
}

// ---- dynamic-private-array ----

/// (function, alloca, GEP with the dynamic index, index, index class).
const PRIVATE_ARRAYS: [(&str, &str, &str, &str, &str); 3] = [
    (
        "private_histogram",
        "%counts = alloca",
        "%bin = getelementptr",
        "%13",
        // `in[i]` at a loop counter no thread id reaches, in a read-only
        // buffer: the same for every thread (but data, so still dynamic).
        "uniform",
    ),
    (
        "tail_fill",
        "%thread_x = alloca",
        "%10 = getelementptr",
        "%9",
        "mixed",
    ),
    (
        "field_array",
        "%s = alloca",
        "%5 = getelementptr",
        "%4",
        "varying",
    ),
];

fn assert_private_arrays(name: &str) -> Value {
    let v = json(name);
    let want: Vec<(String, u64)> = PRIVATE_ARRAYS
        .iter()
        .map(|(f, a, ..)| ("dynamic-private-array".to_string(), line_in(name, f, a)))
        .collect();
    assert_eq!(rule_lines(&v), want);
    for (func, alloca, gep, index, class) in PRIVATE_ARRAYS {
        let f = at(&v, line_in(name, func, alloca));
        assert_eq!(f["severity"], "warning");
        let e = &f["evidence"];
        assert_eq!(e["gep_line"], line_in(name, func, gep), "{func}: {f}");
        assert_eq!(e["index"], index, "{func}: {f}");
        assert_eq!(e["index_class"], class, "{func}: {f}");
        assert!(message(f).contains("30%"), "{f}");
    }
    // The silent ones are there, dynamic GEPs included.
    line_in(name, "unrolled_reads", "%inter = alloca");
    line_in(name, "fc_offset", "%sram = alloca");
    line_in(name, "struct_fields", "%s = alloca");
    v
}

#[test]
fn dynamic_private_array_typed() {
    let name = "dynamic_private_array.ll";
    let v = assert_private_arrays(name);
    assert_eq!(v["files"][0]["module"]["pointers"], "typed");
    let f = at(&v, line_in(name, "private_histogram", "%counts = alloca"));
    assert!(message(f).contains("(from `in[*]`)"), "{f}");
    assert!(message(f).contains("inside a loop (depth 1)"), "{f}");
    snapshot(name);
}

#[test]
fn dynamic_private_array_opaque_twin_agrees() {
    let typed = assert_private_arrays("dynamic_private_array.ll");
    let opaque = assert_private_arrays("dynamic_private_array_opaque.ll");
    assert_eq!(opaque["files"][0]["module"]["pointers"], "opaque");
    let facts = |v: &Value| -> Vec<(Value, Value, Value, Value)> {
        findings(v)
            .iter()
            .map(|f| {
                let e = &f["evidence"];
                (
                    f["function"].clone(),
                    e["type"].clone(),
                    e["index"].clone(),
                    e["index_class"].clone(),
                )
            })
            .collect()
    };
    assert_eq!(facts(&typed), facts(&opaque));
    snapshot("dynamic_private_array_opaque.ll");
}

/// Keccak's `(x + 4) % 5` and other counters wrapped by a constant unroll to
/// constants when their loop's trip count is constant; the same wrapping in
/// a loop bounded at run time is a dynamic index.
#[test]
fn dynamic_private_array_wrapped_counters() {
    let name = "dynamic_private_array_wrapped.ll";
    let v = json(name);
    let want: Vec<(String, u64)> = ["ring_runtime", "mask_runtime"]
        .iter()
        .map(|f| {
            let line = line_in(name, f, "%acc = alloca");
            ("dynamic-private-array".to_string(), line)
        })
        .collect();
    assert_eq!(rule_lines(&v), want);
    for func in ["ring_runtime", "mask_runtime"] {
        let f = at(&v, line_in(name, func, "%acc = alloca"));
        assert_eq!(f["evidence"]["index"], "%idx", "{f}");
        let gep = line_in(name, func, "i64 0, i64 %idx");
        assert_eq!(f["evidence"]["gep_line"], gep, "{f}");
    }
    // The silent ones index by wrapped counters too.
    line_in(name, "keccak_theta", "urem i32 %10, 5");
    line_in(name, "pairs", "xor i32 %i, 1");
    line_in(name, "pairs", "udiv i32 %i, 2");
}

/// A folder under the system's temporary directory holding `air-scan.toml`
/// with `config` and copies of the fixtures `names`; removed by the caller.
fn project_with(tag: &str, config: &str, names: &[&str]) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("air-scan-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("air-scan.toml"), config).unwrap();
    for name in names {
        let from = format!("{}/{DIR}/{name}", env!("CARGO_MANIFEST_DIR"));
        std::fs::copy(from, dir.join(name)).unwrap();
    }
    dir
}

/// MLX's gemv barriers (lanes or SIMD-groups that skip them keep running
/// and meet no other barrier) are silent by default and reported under
/// `strict = true`; threads that return at once are never reported.
#[test]
fn barrier_strict_mode_reports_threads_that_keep_running() {
    let name = "barrier_keeps_running.ll";
    assert!(findings(&json(name)).is_empty());
    let dir = project_with(
        "strict",
        "[rules.barrier-in-divergent-flow]\nstrict = true\n",
        &[name, "barrier_threads_leave.ll"],
    );
    let out = run(&["--format", "json", dir.to_str().unwrap()]);
    let v: Value = serde_json::from_slice(&out).unwrap();
    // The lock of barrier_threads_leave.ll's @lock_with_timeout is a
    // cross-threadgroup-spin-wait in either mode; only barriers count here.
    let barriers: Vec<&Value> = findings(&v)
        .iter()
        .filter(|f| f["rule"] == "barrier-in-divergent-flow")
        .collect();
    let got: Vec<(String, String, u64, String)> = barriers
        .iter()
        .map(|f| {
            let file = f["path"].as_str().unwrap().rsplit('/').next().unwrap();
            (
                file.to_string(),
                f["function"].as_str().unwrap().to_string(),
                f["ir"]["line"].as_u64().unwrap(),
                f["evidence"]["skipping"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    let keeps = |file: &str, func: &str, needle: &str| {
        let line = line_in(file, func, needle);
        (
            file.to_string(),
            func.to_string(),
            line,
            "keeps_running".to_string(),
        )
    };
    // @loop_then_return runs a loop from f(gid) to f(gid) + chunk: its exit
    // test is thread-varying, but its trip count is the same for every
    // thread, so strict mode leaves it out too.
    let mut got = got;
    got.sort();
    let want = vec![
        keeps(name, "lane_zero_reduce", "; lane zero"),
        keeps(name, "guarded_loop", "; in the loop"),
    ];
    let mut want = want;
    want.sort();
    assert_eq!(got, want);
    for f in barriers {
        assert!(message(f).contains("keep running the kernel"), "{f}");
        assert_eq!(f["severity"], "error");
    }
    // A bad key is an error naming the file, not a silent default.
    std::fs::write(
        dir.join("air-scan.toml"),
        "[rules.barrier-in-divergent-flow]\nstrikt = true\n",
    )
    .unwrap();
    let bad = air_scan().arg(&dir).output().unwrap();
    assert_eq!(bad.status.code(), Some(2));
    let err = String::from_utf8_lossy(&bad.stderr);
    assert!(
        err.contains("air-scan.toml") && err.contains("strikt"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Each file runs the rules with the options of the `air-scan.toml` nearest
/// above it, as its `[metal]` flags are: one scan of two projects (or of a
/// folder holding them) runs each with its own, and a file deeper down
/// overrides one above. A bad file deeper down fails only what it governs.
#[test]
fn each_file_takes_the_rule_options_of_its_nearest_project_file() {
    let name = "barrier_keeps_running.ll";
    let strict = "[rules.barrier-in-divergent-flow]\nstrict = true\n";
    let top = project_with("projects", "# no [rules]\n", &[]);
    let strict_dir = top.join("strict");
    let plain_dir = top.join("plain");
    let inner_dir = strict_dir.join("inner");
    let fixture = format!("{}/{DIR}/{name}", env!("CARGO_MANIFEST_DIR"));
    for (dir, config) in [
        (&strict_dir, strict),
        (
            &plain_dir,
            "[rules.barrier-in-divergent-flow]\nstrict = false\n",
        ),
        (&inner_dir, "[rules]\n"),
    ] {
        std::fs::create_dir_all(dir).unwrap();
        std::fs::write(dir.join("air-scan.toml"), config).unwrap();
        std::fs::copy(&fixture, dir.join(name)).unwrap();
    }
    std::fs::copy(&fixture, top.join(name)).unwrap();
    // Which files have barrier findings, by their folder.
    let barrier_files = |args: &[&str]| -> Vec<String> {
        let out = run(&[&["--format", "json"], args].concat());
        let v: Value = serde_json::from_slice(&out).unwrap();
        let mut files: Vec<String> = findings(&v)
            .iter()
            .filter(|f| f["rule"] == "barrier-in-divergent-flow")
            .map(|f| {
                let path = std::path::Path::new(f["path"].as_str().unwrap());
                let dir = path.parent().unwrap().file_name().unwrap();
                dir.to_string_lossy().into_owned()
            })
            .collect();
        files.dedup();
        files
    };
    let (s, p) = (strict_dir.to_str().unwrap(), plain_dir.to_str().unwrap());
    assert_eq!(barrier_files(&[top.to_str().unwrap()]), ["strict"]);
    assert_eq!(barrier_files(&[s, p]), ["strict"]);
    assert_eq!(barrier_files(&[p, &format!("{s}/{name}")]), ["strict"]);
    assert!(barrier_files(&[inner_dir.to_str().unwrap()]).is_empty());
    // A bad file deeper down fails its own files only, naming itself.
    std::fs::write(
        inner_dir.join("air-scan.toml"),
        "[rules.barrier-in-divergent-flow]\nstrikt = true\n",
    )
    .unwrap();
    let out = air_scan()
        .args(["--format", "json", top.to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "a file that failed");
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    let failed: Vec<&Value> = v["files"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["status"] == "error")
        .collect();
    assert_eq!(failed.len(), 1, "{failed:?}");
    let error = failed[0]["error"].as_str().unwrap();
    assert!(
        failed[0]["path"].as_str().unwrap().contains("inner")
            && error.contains("air-scan.toml")
            && error.contains("strikt"),
        "{error}"
    );
    let _ = std::fs::remove_dir_all(&top);
}

/// Loops from `f(gid)` to `f(gid) + n` (effort's bucketMulWild) run as many
/// times on every thread: no finding in either mode. Loops whose trip count
/// does depend on the thread, and a counter compared after its loop, are
/// reported in both.
#[test]
fn barrier_in_loop_of_uniform_trip_count() {
    let name = "barrier_uniform_trip.ll";
    let want: Vec<(String, u64)> = [
        ("up_to_gid", "; gid trips"),
        ("from_gid_to_n", "; n - gid trips"),
        ("varying_step", "; varying stride"),
        ("counter_after_loop", "; found inside"),
    ]
    .iter()
    .map(|(func, needle)| {
        (
            "barrier-in-divergent-flow".to_string(),
            line_in(name, func, needle),
        )
    })
    .collect();
    for (func, needle) in [
        ("chunk_rotated", "; rotated step"),
        ("chunk_top_tested", "; top-tested step"),
        ("chunk_widened", "; widened step"),
    ] {
        line_in(name, func, needle);
    }
    let default = json(name);
    assert_eq!(rule_lines(&default), want);
    for f in findings(&default) {
        assert_eq!(f["evidence"]["skipping"], "meets_barrier", "{f}");
    }
    let dir = project_with(
        "uniform-trip",
        "[rules.barrier-in-divergent-flow]\nstrict = true\n",
        &[name],
    );
    let out = run(&["--format", "json", dir.to_str().unwrap()]);
    let strict: Value = serde_json::from_slice(&out).unwrap();
    assert_eq!(rule_lines(&strict), want);
    let _ = std::fs::remove_dir_all(&dir);
    snapshot(name);
}

// ---- double-precision ----

#[test]
fn double_precision_arithmetic_and_conversions() {
    let name = "double_precision.ll";
    let v = json(name);
    let sites = [
        ("scale_in_double", "fpext float %6 to double", "fpext"),
        ("scale_in_double", "fmul double", "fmul"),
        ("scale_in_double", "fptrunc double %8", "fptrunc"),
        ("index_to_double", "sitofp i32 %4", "sitofp"),
        ("index_to_double", "uitofp i32 %2", "uitofp"),
        ("index_to_double", "fdiv double", "fdiv"),
        ("index_to_double", "fcmp olt double", "fcmp"),
        ("index_to_double", "fptosi double", "fptosi"),
        ("fma_double", "@llvm.fma.f64(double %6", "call"),
        ("fma_double", "fptrunc double %7", "fptrunc"),
    ];
    let want: Vec<(String, u64)> = sites
        .iter()
        .map(|(f, n, _)| ("double-precision".to_string(), line_in(name, f, n)))
        .collect();
    assert_eq!(rule_lines(&v), want);
    for (func, needle, op) in sites {
        let f = at(&v, line_in(name, func, needle));
        assert_eq!(f["evidence"]["opcode"], op, "{f}");
        assert_eq!(f["severity"], "warning");
        assert_eq!(f["category"], "portability");
    }
    let call = at(&v, line_in(name, "fma_double", "@llvm.fma.f64(double %6"));
    assert_eq!(call["evidence"]["callee"], "llvm.fma.f64");
    // Loads and stores of double, and half and float math, are silent.
    line_in(name, "moves_only", "load double");
    line_in(name, "moves_only", "fpext half");
    snapshot(name);
}

// ---- byte-arithmetic ----

#[test]
fn byte_arithmetic_on_i8_only() {
    let name = "byte_arithmetic.ll";
    let v = json(name);
    let sites = [
        ("uchar_blend", "mul <4 x i8>"),
        ("uchar_blend", "add <4 x i8>"),
        ("uchar_blend", "sub i8"),
        ("uchar_div", "udiv i8"),
        ("uchar_div", "urem i8"),
    ];
    let want: Vec<(String, u64)> = sites
        .iter()
        .map(|(f, n)| ("byte-arithmetic".to_string(), line_in(name, f, n)))
        .collect();
    assert_eq!(rule_lines(&v), want);
    for (func, needle) in sites {
        let f = at(&v, line_in(name, func, needle));
        assert_eq!(f["severity"], "note");
        assert!(message(f).starts_with(&format!("`{needle}`")), "{f}");
    }
    for needle in ["shl i8", "lshr i8", "and i8", "or i8"] {
        line_in(name, "pack_nibbles", needle);
    }
    // The pattern matches these i8 operations; the hook drops them as the
    // compiler's (no i8 load, argument or store reaches them).
    for needle in ["add i8 %c, -49", "mul i8 %n, 3", "add i8 %k, 1"] {
        line_in(name, "compiler_bytes", needle);
    }
    snapshot(name);
}

// ---- precise-math ----

#[test]
fn precise_math_without_fast_math() {
    let name = "precise_math.ll";
    let v = json(name);
    let sites = [
        ("@air.sin.f32(float %6)", "air.sin.f32", "sin"),
        ("@air.cos.f32(float %6)", "air.cos.f32", "cos"),
        ("@air.pow.f32(float %6", "air.pow.f32", "pow"),
        ("@air.exp.v4f32(<4 x float> %13)", "air.exp.v4f32", "exp"),
    ];
    let want: Vec<(String, u64)> = sites
        .iter()
        .map(|(n, ..)| ("precise-math".to_string(), line_in(name, "wave", n)))
        .collect();
    assert_eq!(rule_lines(&v), want);
    for (needle, callee, function) in sites {
        let f = at(&v, line_in(name, "wave", needle));
        let e = &f["evidence"];
        assert_eq!(e["callee"], callee);
        assert_eq!(e["function"], function);
        assert_eq!(e["fast_form"], format!("air.fast_{}", &callee[4..]));
        assert!(
            message(f).contains(&format!("metal::fast::{function}")),
            "{f}"
        );
        assert_eq!(
            message(f).contains("24.4"),
            function != "pow" && function != "exp"
        );
    }
    for needle in [
        "@air.exp2.f32(",
        "@air.rsqrt.f32(",
        "@air.sin.f16(",
        "@air.fast_cos.f32(",
    ] {
        line_in(name, "cheap_forms", needle);
    }
    snapshot(name);
}

#[test]
fn precise_math_in_fast_math_module_is_silent() {
    let name = "precise_math_fast.ll";
    let v = json(name);
    line_in(name, "wave", "@air.sin.f32(float %6)");
    assert_eq!(rule_lines(&v), vec![]);
    snapshot(name);
}

// ---- device-atomic-contention ----

#[test]
fn device_atomic_contention() {
    let name = "device_atomic_contention.ll";
    let v = json(name);
    // (function, instruction, memory, append counter, loop depth)
    let sites = [
        (
            "append_in_loop",
            "@air.atomic.global.add.u.i32(",
            "dispatchCount",
            true,
            1,
        ),
        ("rmw_in_loop", "atomicrmw fadd", "result", false, 1),
        (
            "once_per_thread",
            "@air.atomic.global.add.f32(",
            "result",
            false,
            0,
        ),
        (
            "few_bins",
            "@air.atomic.global.add.u.i32(",
            "bins",
            false,
            0,
        ),
    ];
    let want: Vec<(String, u64)> = sites
        .iter()
        .map(|(f, n, ..)| ("device-atomic-contention".to_string(), line_in(name, f, n)))
        .collect();
    let contention: Vec<(String, u64)> = rule_lines(&v)
        .into_iter()
        .filter(|(r, _)| r == "device-atomic-contention")
        .collect();
    assert_eq!(contention, want);
    // The poll waits on the atomic: cross-threadgroup-spin-wait, the only other.
    let poll = line_in(name, "load_in_loop", "@air.atomic.global.load.i32(");
    assert_eq!(rule_lines(&v).len(), want.len() + 1);
    assert_eq!(at(&v, poll)["rule"], "cross-threadgroup-spin-wait");
    for (func, needle, memory, append, depth) in sites {
        let f = at(&v, line_in(name, func, needle));
        let e = &f["evidence"];
        assert_eq!(e["memory"], memory, "{f}");
        assert_eq!(e["append_counter"], append, "{f}");
        assert_eq!(f["loop_depth"], depth, "{f}");
        let help = f["help"].as_str().unwrap();
        if append {
            assert_eq!(f["severity"], "note", "{f}");
            assert!(help.contains("simd_prefix_exclusive_sum"), "{f}");
        } else {
            assert_eq!(f["severity"], "warning", "{f}");
            assert!(message(f).contains("same device address"), "{f}");
            assert!(help.contains("simd_sum"), "{f}");
        }
    }
    // The silent shapes are where the header says.
    for (func, needle) in [
        ("scatter_in_loop", "@air.atomic.global.add.f32("),
        ("threadgroup_in_loop", "@air.atomic.local.add.u.i32("),
        ("load_in_loop", "@air.atomic.global.load.i32("),
        ("hash_scatter", "@air.atomic.global.add.u.i32("),
        ("reduce_then_one", "@air.atomic.global.add.f32("),
        ("guarded_only", "@air.atomic.global.add.f32("),
        ("histogram_flush", "@air.atomic.global.add.u.i32("),
    ] {
        line_in(name, func, needle);
    }
    snapshot(name);
}

#[test]
fn device_atomic_in_a_helper_fires_in_the_helper() {
    let name = "device_atomic_in_helper.ll";
    let v = json(name);
    let line = line_in(name, "bump", "@air.atomic.global.add.u.i32(");
    assert_eq!(
        rule_lines(&v),
        vec![("device-atomic-contention".to_string(), line)]
    );
    let f = at(&v, line);
    assert_eq!(f["function"], "bump", "{f}");
    assert_eq!(
        f["kernels"],
        serde_json::json!(["helper_in_loop", "helper_two_deep", "helper_once"]),
        "{f}"
    );
    assert_eq!(f["evidence"]["memory"], "counter", "{f}");
    line_in(name, "helper_in_loop", "; call in loop");
    line_in(name, "local_helper_in_loop", "; call local");
    line_in(name, "load_helper_in_loop", "; call load");
    snapshot(name);
}

// ---- per-thread-constant-read ----

#[test]
fn per_thread_constant_read_fires_on_buffers_only() {
    let name = "per_thread_constant_read.ll";
    let v = json(name);
    let line = line_in(name, "life", "%cell = load i32, i32 addrspace(2)*");
    assert_eq!(
        rule_lines(&v),
        vec![("per-thread-constant-read".to_string(), line)]
    );
    let f = at(&v, line);
    assert_eq!(f["severity"], "warning", "{f}");
    assert_eq!(f["evidence"]["buffer"], "v0", "{f}");
    assert_eq!(f["evidence"]["index"], "thread_position_in_grid", "{f}");
    assert_eq!(f["loop_depth"], 1, "{f}");
    assert!(message(f).contains("device const"), "{f}");
    for (func, needle) in [
        ("params_only", "%dim = load i32, i32 addrspace(2)*"),
        ("lut", "%v = load float, float addrspace(2)*"),
        ("device_per_thread", "%v = load i32, i32 addrspace(1)*"),
    ] {
        line_in(name, func, needle);
    }
    snapshot(name);
}

// ---- float-atomic-cas-loop ----

#[test]
fn float_atomic_cas_loop() {
    let name = "float_atomic_cas_loop.ll";
    let v = json(name);
    let sites = [
        (
            "float_add_cas",
            "@air.atomic.global.cmpxchg.weak.i32(",
            "air.atomic.global.cmpxchg.weak.i32",
        ),
        ("float_max_cmpxchg", "= cmpxchg i32", "cmpxchg"),
    ];
    let want: Vec<(String, u64)> = sites
        .iter()
        .map(|(f, n, _)| ("float-atomic-cas-loop".to_string(), line_in(name, f, n)))
        .collect();
    let float: Vec<(String, u64)> = rule_lines(&v)
        .into_iter()
        .filter(|(r, _)| r == "float-atomic-cas-loop")
        .collect();
    assert_eq!(float, want);
    // Metal FlashAttention's lock waits for another threadgroup's value:
    // cross-threadgroup-spin-wait's, the only other finding.
    let lock = line_in(name, "spin_lock", "@air.atomic.global.cmpxchg.weak.i32(");
    assert_eq!(rule_lines(&v).len(), want.len() + 1);
    assert_eq!(at(&v, lock)["rule"], "cross-threadgroup-spin-wait");
    for (func, needle, op) in sites {
        let f = at(&v, line_in(name, func, needle));
        assert_eq!(f["evidence"]["operation"], op, "{f}");
        assert_eq!(f["evidence"]["addrspace"], 1, "{f}");
        assert!(
            f["help"]
                .as_str()
                .unwrap()
                .contains("atomic_fetch_add_explicit"),
            "{f}"
        );
    }
    for func in ["int_max_cas", "float_add_once"] {
        line_in(name, func, "@air.atomic.global.cmpxchg.weak.i32(");
    }
    snapshot(name);
}

// ---- indirect-call ----

#[test]
fn indirect_call_through_function_table() {
    let name = "indirect_call.ll";
    let v = json(name);
    let uniform = line_in(name, "gemm_activation", "call void %7(");
    let varying = line_in(name, "per_element_op", "call void %9(");
    assert_eq!(
        rule_lines(&v),
        vec![
            ("indirect-call".to_string(), uniform),
            ("indirect-call".to_string(), varying)
        ]
    );
    for (line, divergent) in [(uniform, false), (varying, true)] {
        let f = at(&v, line);
        let e = &f["evidence"];
        assert_eq!(e["source"], "visible_function_table");
        assert_eq!(e["table"], "table");
        assert_eq!(e["divergent"], divergent);
        assert_eq!(f["severity"], "note");
        assert_eq!(message(f).contains("differs per thread"), divergent, "{f}");
    }
    line_in(name, "direct_calls", "call void @relu(");
    line_in(name, "direct_calls", "call void bitcast (");
    snapshot(name);
}

// ---- cross-threadgroup-spin-wait ----

#[test]
fn cross_threadgroup_spin_wait() {
    let name = "cross_threadgroup_spin_wait.ll";
    let v = json(name);
    let sites = [
        (
            "flag_wait",
            "@air.atomic.global.cmpxchg.weak.i32(",
            "air.atomic.global.cmpxchg",
            true,
        ),
        (
            "ready_bits_wait",
            "%v0 = call",
            "air.atomic.global.load",
            true,
        ),
        ("unbounded_wait", "load atomic", "load atomic", false),
        (
            "xchg_lock",
            "@air.atomic.global.xchg",
            "air.atomic.global.xchg",
            false,
        ),
        // The exit tests a phi of constants the atomic's branch picks.
        (
            "done_flag_wait",
            "%v = call",
            "air.atomic.global.load",
            false,
        ),
    ];
    let spins: Vec<(String, u64)> = rule_lines(&v)
        .into_iter()
        .filter(|(r, _)| r == "cross-threadgroup-spin-wait")
        .collect();
    let want: Vec<(String, u64)> = sites
        .iter()
        .map(|(f, n, _, _)| {
            (
                "cross-threadgroup-spin-wait".to_string(),
                line_in(name, f, n),
            )
        })
        .collect();
    assert_eq!(spins, want);
    for (func, needle, op, bounded) in sites {
        let f = at(&v, line_in(name, func, needle));
        let e = &f["evidence"];
        assert_eq!(f["severity"], "warning", "{f}");
        assert_eq!(f["category"], "correctness", "{f}");
        assert_eq!(e["operation"], op, "{f}");
        assert_eq!(e["bounded"], bounded, "{f}");
        assert_eq!(message(f).contains("try limit"), bounded, "{f}");
        assert!(message(f).contains("forward progress"), "{f}");
    }
    let lock = at(
        &v,
        line_in(name, "flag_wait", "@air.atomic.global.cmpxchg.weak.i32("),
    );
    assert_eq!(lock["evidence"]["memory"], "locks");
    assert_eq!(
        lock["evidence"]["exit_line"],
        line_in(name, "flag_wait", "br i1 %set")
    );
    assert_eq!(
        lock["evidence"]["loop_line"],
        line_in(name, "flag_wait", "%tries = phi")
    );
    // The wait on partial results ends in the outer loop's check block.
    let bits = at(&v, line_in(name, "ready_bits_wait", "%v0 = call"));
    assert_eq!(
        bits["evidence"]["exit_line"],
        line_in(name, "ready_bits_wait", "br i1 %all")
    );
    // The flag's wait ends where the phi the atomic picked is tested.
    let flag = at(&v, line_in(name, "done_flag_wait", "%v = call"));
    assert_eq!(
        flag["evidence"]["exit_line"],
        line_in(name, "done_flag_wait", "br i1 %done")
    );
    // The retry loop is float-atomic-cas-loop's, the only other finding.
    let cas = line_in(
        name,
        "float_add_cas",
        "@air.atomic.global.cmpxchg.weak.i32(",
    );
    assert_eq!(at(&v, cas)["rule"], "float-atomic-cas-loop");
    assert_eq!(rule_lines(&v).len(), sites.len() + 1);
    for (func, needle) in [
        ("cas_load_inside", "= cmpxchg"),
        ("threadgroup_wait", "@air.atomic.local.load.i32("),
        ("exit_not_atomic", "@air.atomic.global.load.i32("),
        ("work_queue", "@air.atomic.global.add.u.i32("),
        ("picked_but_counted", "@air.atomic.global.load.i32("),
    ] {
        line_in(name, func, needle);
    }
    snapshot(name);
}

// ---- function-constant-branch ----

#[test]
fn function_constant_branch() {
    let name = "function_constant_branch.ll";
    let v = json(name);
    let ray = line_in(name, "ray_march", "br i1 %off");
    let tone = line_in(name, "tonemap", "br i1 %skip");
    let mode = line_in(name, "mode_switch", "switch i32 %mode");
    let both = line_in(name, "combined", "br i1 %both");
    let ordered = line_in(name, "ordered_mode", "br i1 %fine");
    let branches: Vec<(String, u64)> = rule_lines(&v)
        .into_iter()
        .filter(|(r, _)| r == "function-constant-branch")
        .collect();
    assert_eq!(
        branches,
        [ray, tone, mode, both, ordered]
            .map(|l| ("function-constant-branch".to_string(), l))
            .to_vec()
    );
    // `flags[gid]` is per-thread-constant-read's, the only other finding.
    let flag = line_in(name, "per_thread", "%f = load i8");
    assert_eq!(rule_lines(&v).len(), 6);
    assert_eq!(at(&v, flag)["rule"], "per-thread-constant-read");
    for (line, switch, kind, depth) in [
        (ray, "u.adaptive", "bool", 1),
        (tone, "enabled", "bool", 0),
        (mode, "u.mode", "enum", 0),
        (both, "u.adaptive", "bool", 1),
        (ordered, "u.mode", "enum", 1),
    ] {
        let f = at(&v, line);
        let e = &f["evidence"];
        assert_eq!(f["severity"], "note", "{f}");
        assert_eq!(e["switch"], switch, "{f}");
        assert_eq!(e["kind"], kind, "{f}");
        assert_eq!(e["loop_depth"], depth, "{f}");
        assert!(message(f).contains(switch), "{f}");
        assert!(message(f).contains("[[function_constant]]"), "{f}");
    }
    assert_eq!(at(&v, tone)["evidence"]["region_instructions"], 18);
    assert_eq!(
        at(&v, mode)["evidence"]["compared_to"],
        serde_json::json!([0, 1, 2])
    );
    // `u.mode > 1`: an ordered test against a constant is a switch too.
    assert_eq!(
        at(&v, ordered)["evidence"]["compared_to"],
        serde_json::json!([1])
    );
    for (func, needle) in [
        ("tiny", "br i1 %on"),
        ("trip_count", "br i1 %none"),
        ("per_thread", "br i1 %off"),
        ("fc", "br i1 %off"),
        ("per_iteration", "br i1 %off"),
        ("early_out", "br i1 %off"),
        // The guard `n > 0` is ordered against a constant, but the latch
        // compares `n` with the counter; `k < 4` guards `data[k]`.
        ("ordered_bound", "br i1 %any"),
        ("ordered_index", "br i1 %inside"),
    ] {
        line_in(name, func, needle);
    }
    snapshot(name);
}

/// Every fixture in testdata/rules has a test here, and reads cleanly.
#[test]
fn every_fixture_is_covered() {
    let covered = [
        "barrier_divergent.ll",
        "barrier_in_helper.ll",
        "barrier_keeps_running.ll",
        "barrier_threads_leave.ll",
        "barrier_uniform.ll",
        "barrier_uniform_trip.ll",
        "byte_arithmetic.ll",
        "cross_threadgroup_spin_wait.ll",
        "device_atomic_contention.ll",
        "device_atomic_in_helper.ll",
        "divide_args_field_opaque.ll",
        "divide_args_field_typed.ll",
        "divide_compile_time.ll",
        "divide_cost.ll",
        "divide_device_uniform.ll",
        "divide_helpers.ll",
        "divide_texture_size.ll",
        "divide_uniform_args.ll",
        "divide_varying.ll",
        "divide_varying_indexed_memory.ll",
        "double_precision.ll",
        "dynamic_private_array.ll",
        "dynamic_private_array_opaque.ll",
        "dynamic_private_array_wrapped.ll",
        "float_atomic_cas_loop.ll",
        "function_constant_branch.ll",
        "fused_shift_buggy_opaque.ll",
        "fused_shift_buggy_typed.ll",
        "fused_shift_family_m7_k2.ll",
        "fused_shift_h9.ll",
        "fused_shift_t4_unconditional.ll",
        "fused_shift_working.ll",
        "indirect_call.ll",
        "per_thread_constant_read.ll",
        "precise_math.ll",
        "precise_math_fast.ll",
    ];
    let dir = format!("{}/{DIR}", env!("CARGO_MANIFEST_DIR"));
    let mut found: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".ll"))
        .collect();
    found.sort();
    assert_eq!(found, covered);
    for name in covered {
        let text = std::fs::read_to_string(format!("{dir}/{name}")).unwrap();
        assert!(text.starts_with("; "), "{name} must open with its comments");
        assert!(
            text.contains("MUST"),
            "{name} must say what it must trigger"
        );
        assert!(text.contains("target triple = \"air64-apple-macosx15.0.0\""));
        json(name);
    }
}
