//! `.air` and `.metallib` inputs (issue 6): the native metallib reader
//! against the real files of ../shared/corpus and against containers built
//! here, damaged input, finding llvm-dis, its failures (missing, too old,
//! hung, runaway), and disassembly of every binary of the corpus.
//!
//! Tests that need the corpus or an llvm-dis print "SKIPPED: ..." and pass
//! when it is absent, and fail under CI (`common::missing`), which installs
//! llvm-19 so that they run there.
//! Bitcode for the corpus-free tests is made at test time with the llvm-as
//! beside the llvm-dis found, from testdata/binary/scale.ll.

mod common;

use air_scan::compile::llvm_dis::{self, LlvmDis, SearchPlaces};
use air_scan::compile::metallib::{FunctionKind, Metallib};
use air_scan::compile::{self, BinaryInput, disassemble, disassemble_each, find_llvm_dis};
use air_scan::ir::{air::air_info, read_module};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

// ---------------------------------------------------------------- helpers

fn corpus_dir() -> Option<PathBuf> {
    common::shared("corpus", "a corpus test of .air and .metallib inputs")
}

/// Files under `dir` whose name ends with `.ext`, sorted; folders named
/// `*.metallib.extracted` are skipped unless `extracted`.
fn files(dir: &Path, ext: &str, extracted: bool) -> Vec<PathBuf> {
    fn walk(dir: &Path, ext: &str, extracted: bool, out: &mut Vec<PathBuf>) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                if extracted || !p.to_string_lossy().ends_with(".extracted") {
                    walk(&p, ext, extracted, out);
                }
            } else if p.extension().is_some_and(|x| x == ext) {
                out.push(p);
            }
        }
    }
    let mut out = Vec::new();
    walk(dir, ext, extracted, &mut out);
    out.sort();
    out
}

fn major_version(tool: &Path) -> Option<u32> {
    LlvmDis::new(tool.to_path_buf())
        .version()?
        .split('.')
        .next()?
        .parse()
        .ok()
}

/// The newest llvm-dis installed: it reads every file of the corpus, where
/// the one a scan picks first (`llvm-dis` on PATH) may be too old.
fn newest_llvm_dis() -> Option<(PathBuf, u32)> {
    let found = SearchPlaces::from_env()
        .candidates()
        .into_iter()
        .filter_map(|p| Some((major_version(&p)?, p)))
        .max_by_key(|(v, _)| *v)
        .map(|(v, p)| (p, v));
    if found.is_none() {
        common::missing(
            "a test of llvm-dis",
            "no llvm-dis on this machine (install llvm-19 or newer)",
        );
    }
    found
}

/// The llvm-as of the same installation as `dis`.
fn llvm_as_beside(dis: &Path) -> Option<PathBuf> {
    let name = dis.file_name()?.to_str()?.replace("llvm-dis", "llvm-as");
    let p = dis.with_file_name(name);
    if p.is_file() {
        Some(p)
    } else {
        common::missing(
            "a test of bitcode inputs",
            &format!("no llvm-as beside {}", dis.display()),
        );
        None
    }
}

/// Assembles testdata/binary/scale.ll into bitcode.
fn assemble_scale(llvm_as: &Path, dir: &Path) -> Vec<u8> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/binary/scale.ll");
    let out = dir.join("scale.bc");
    let st = std::process::Command::new(llvm_as)
        .arg(&src)
        .arg("-o")
        .arg(&out)
        .status()
        .unwrap();
    assert!(
        st.success(),
        "{} failed on {}",
        llvm_as.display(),
        src.display()
    );
    std::fs::read(out).unwrap()
}

/// The newest llvm-dis, a temporary folder, and testdata/binary/scale.ll
/// assembled there into an `.air` file's bytes; `None` (having said why)
/// without an llvm-dis and the llvm-as beside it.
fn scale_air() -> Option<(PathBuf, tempfile::TempDir, Vec<u8>)> {
    let (dis, _) = newest_llvm_dis()?;
    let llvm_as = llvm_as_beside(&dis)?;
    let tmp = tempfile::tempdir().unwrap();
    let air = assemble_scale(&llvm_as, tmp.path());
    Some((dis, tmp, air))
}

/// Puts raw bitcode in Apple's wrapper, padded to 16 bytes like Xcode's
/// `.air` files.
fn wrap(raw: &[u8]) -> Vec<u8> {
    let mut v = Vec::new();
    for w in [0x0B17_C0DEu32, 0, 20, raw.len() as u32, 0xFFFF_FFFF] {
        v.extend_from_slice(&w.to_le_bytes());
    }
    v.extend_from_slice(raw);
    while v.len() % 16 != 0 {
        v.push(0);
    }
    v
}

/// Builds a metallib laid out as the corpus's are (header, function list,
/// an empty header extension, one public and one private metadata group
/// per function, then the bitcode of each function padded to 16 bytes).
fn build_metallib(funcs: &[(&str, u8, &[u8])]) -> Vec<u8> {
    let tag = |out: &mut Vec<u8>, name: &[u8; 4], content: &[u8]| {
        out.extend_from_slice(name);
        out.extend_from_slice(&(content.len() as u16).to_le_bytes());
        out.extend_from_slice(content);
    };
    let (mut groups, mut public, mut private, mut bitcode) = (vec![], vec![], vec![], vec![]);
    for (name, kind, module) in funcs {
        let mut padded = module.to_vec();
        while padded.len() % 16 != 0 {
            padded.push(0);
        }
        let mut t = Vec::new();
        let mut cname = name.as_bytes().to_vec();
        cname.push(0);
        tag(&mut t, b"NAME", &cname);
        tag(&mut t, b"TYPE", &[*kind]);
        tag(&mut t, b"HASH", &[0xAB; 32]);
        tag(&mut t, b"MDSZ", &(padded.len() as u64).to_le_bytes());
        let mut offt = Vec::new();
        for o in [public.len(), private.len(), bitcode.len()] {
            offt.extend_from_slice(&(o as u64).to_le_bytes());
        }
        tag(&mut t, b"OFFT", &offt);
        tag(&mut t, b"VERS", &[2, 0, 7, 0, 3, 0, 2, 0]);
        t.extend_from_slice(b"ENDT");
        groups.extend_from_slice(&(t.len() as u32 + 4).to_le_bytes());
        groups.extend_from_slice(&t);
        for md in [&mut public, &mut private] {
            md.extend_from_slice(&8u32.to_le_bytes());
            md.extend_from_slice(b"ENDT");
        }
        bitcode.extend_from_slice(&padded);
    }
    let list_off = 0x58u64;
    let ext_off = list_off + 4 + groups.len() as u64;
    let pub_off = ext_off + 4;
    let priv_off = pub_off + public.len() as u64;
    let bc_off = priv_off + private.len() as u64;
    let size = bc_off + bitcode.len() as u64;
    let mut f = Vec::new();
    f.extend_from_slice(b"MTLB");
    f.extend_from_slice(&[0x01, 0x80, 2, 0, 8, 0, 0x00, 0x81, 15, 0, 0, 0]);
    for v in [
        size,
        list_off,
        groups.len() as u64,
        pub_off,
        public.len() as u64,
        priv_off,
        private.len() as u64,
        bc_off,
        bitcode.len() as u64,
    ] {
        f.extend_from_slice(&v.to_le_bytes());
    }
    f.extend_from_slice(&(funcs.len() as u32).to_le_bytes());
    f.extend_from_slice(&groups);
    f.extend_from_slice(b"ENDT");
    f.extend_from_slice(&public);
    f.extend_from_slice(&private);
    f.extend_from_slice(&bitcode);
    assert_eq!(f.len() as u64, size);
    f
}

/// A small synthetic metallib whose "bitcode" is only a wrapper around
/// some bytes: enough for the container tests, which never run llvm-dis.
fn fake_metallib() -> Vec<u8> {
    let a = wrap(b"BC\xC0\xDE0123456789");
    let b = wrap(b"BC\xC0\xDEabcdefghijklmnopqrstuvwxyz");
    build_metallib(&[("first", 2, &a), ("second_fn", 0, &b)])
}

// ------------------------------------------------ the container, natively

/// Every metallib of the corpus: the function list matches the
/// `NNNNN_<name>.air` files cut out of it, byte for byte.
#[test]
fn corpus_metallibs_match_their_extracted_air_files() {
    let Some(dir) = corpus_dir() else { return };
    let libs = files(&dir, "metallib", false);
    assert!(
        libs.len() >= 19,
        "expected the whole corpus, found {}",
        libs.len()
    );
    let mut total = 0;
    for lib in &libs {
        let data = std::fs::read(lib).unwrap();
        let m = Metallib::parse(&data).unwrap_or_else(|e| panic!("{}: {e}", lib.display()));
        assert_eq!(m.header.file_size, data.len() as u64, "{}", lib.display());
        let extracted = PathBuf::from(format!("{}.extracted", lib.display()));
        let airs: Vec<PathBuf> = files(&extracted, "air", true);
        let names: Vec<String> = airs
            .iter()
            .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
            .collect();
        let ours: Vec<String> = m
            .functions
            .iter()
            .map(|f| format!("{:05}_{}.air", f.index, f.name))
            .collect();
        assert_eq!(ours, names, "{}", lib.display());
        let section = m.header.bitcode;
        for (f, air) in m.functions.iter().zip(&airs) {
            assert_eq!(f.bitcode.len() as u64, f.bitcode_size);
            assert!(f.bitcode_offset >= section.offset);
            assert!(f.bitcode_offset + f.bitcode_size <= section.end());
            assert!(f.hash.is_some() && f.air_version.is_some() && f.kind.is_some());
            let want = std::fs::read(air).unwrap();
            assert!(
                f.module() == want.as_slice(),
                "{}: function {} differs from {}",
                lib.display(),
                f.name,
                air.display()
            );
            // The container pads each module with zeros to 16 bytes.
            assert!(f.bitcode.len() - f.module().len() < 16);
            assert!(f.bitcode[f.module().len()..].iter().all(|&b| b == 0));
        }
        total += m.functions.len();
    }
    assert!(
        total >= 520,
        "only {total} functions in the corpus's metallibs"
    );
}

/// The header fields of one known file, to pin the layout down.
#[test]
fn corpus_metallib_header_fields() {
    let Some(dir) = corpus_dir() else { return };
    let path = dir.join("RosaStack__rosemetal/examples/hello/Shaders.metallib");
    let data = std::fs::read(&path).unwrap();
    let m = Metallib::parse(&data).unwrap();
    let h = &m.header;
    assert_eq!(h.target_platform, 0x8001);
    assert_eq!(h.file_version, (2, 8));
    assert_eq!(h.library_type, 0);
    assert_eq!(h.target_os, 0x81);
    assert_eq!(h.os_version, (15, 0));
    assert_eq!(h.file_size, 90216);
    assert_eq!(
        (h.function_list.offset, h.function_list.size),
        (0x58, 0x140)
    );
    assert_eq!(
        (h.public_metadata.offset, h.public_metadata.size),
        (0x1e2, 0x10)
    );
    assert_eq!(
        (h.private_metadata.offset, h.private_metadata.size),
        (0x1f2, 0x34)
    );
    assert_eq!((h.bitcode.offset, h.bitcode.size), (0x226, 0x18f0));
    let f = &m.functions;
    assert_eq!(f.len(), 2);
    assert_eq!(
        (f[0].name.as_str(), f[0].kind),
        ("vertex_shader", Some(FunctionKind::Vertex))
    );
    assert_eq!(
        (f[1].name.as_str(), f[1].kind),
        ("fragment_shader", Some(FunctionKind::Fragment))
    );
    assert_eq!(
        (f[1].bitcode_offset, f[1].bitcode_size),
        (0x226 + 0xd00, 0xbf0)
    );
    assert_eq!(
        (f[1].public_metadata_offset, f[1].private_metadata_offset),
        (8, 0x1a)
    );
    assert_eq!(f[0].air_version, Some((2, 7)));
    assert_eq!(f[0].language_version, Some((3, 2)));
    assert!(f[0].source_offset.is_some());
}

#[test]
fn built_metallib_reads_back() {
    let data = fake_metallib();
    let m = Metallib::parse(&data).unwrap();
    assert_eq!(m.functions.len(), 2);
    let (a, b) = (&m.functions[0], &m.functions[1]);
    assert_eq!(
        (a.name.as_str(), a.kind),
        ("first", Some(FunctionKind::Kernel))
    );
    assert_eq!(
        (b.name.as_str(), b.kind),
        ("second_fn", Some(FunctionKind::Vertex))
    );
    assert_eq!(a.hash, Some([0xAB; 32]));
    assert_eq!(a.bitcode.len(), 48);
    assert_eq!(a.module().len(), 20 + 14);
    assert_eq!(
        llvm_dis::strip_wrapper(b.module()).unwrap(),
        b"BC\xC0\xDEabcdefghijklmnopqrstuvwxyz"
    );
}

fn must_fail(data: &[u8], words: &[&str], offset: u64) {
    match Metallib::parse(data) {
        Ok(m) => panic!("accepted: {:?}", m.header),
        Err(e) => {
            let text = e.to_string();
            for w in words {
                assert!(text.contains(w), "{text:?} lacks {w:?}");
            }
            assert_eq!(e.offset, offset, "{text}");
            assert!(text.contains(&format!("at byte {offset}")), "{text}");
        }
    }
}

fn put_u64(data: &mut [u8], at: usize, v: u64) {
    data[at..at + 8].copy_from_slice(&v.to_le_bytes());
}

fn put_u32(data: &mut [u8], at: usize, v: u32) {
    data[at..at + 4].copy_from_slice(&v.to_le_bytes());
}

/// Each way a container can be damaged gives its own message and offset.
#[test]
fn damaged_metallibs_say_what_and_where() {
    let good = fake_metallib();
    must_fail(b"", &["not a metallib"], 0);
    must_fail(b"\x7fELF....", &["not a metallib", "7f 45 4c 46"], 0);
    must_fail(&good[..40], &["truncated metallib header"], 40);
    must_fail(
        &good[..good.len() - 1],
        &["truncated metallib", "header says"],
        0x10,
    );

    let mut d = good.clone();
    put_u64(&mut d, 0x48, u64::MAX); // bitcode offset
    must_fail(&d, &["bitcode section", "does not fit"], 0x48);
    let mut d = good.clone();
    put_u64(&mut d, 0x20, u64::MAX - 2); // function list size: overflow
    must_fail(&d, &["function list", "does not fit"], 0x18);

    let mut d = good.clone();
    put_u32(&mut d, 0x58, u32::MAX); // function count
    must_fail(&d, &["claims 4294967295 functions"], 0x58);

    let mut d = good.clone();
    put_u32(&mut d, 0x5c, 3); // first group size
    must_fail(&d, &["function 0", "too small"], 0x5c);
    let mut d = good.clone();
    put_u32(&mut d, 0x5c, 0xFFFF); // first group size
    must_fail(
        &d,
        &["function 0", "runs past the end of the function list"],
        0x5c,
    );

    // NAME's size made to cover the whole group.
    let mut d = good.clone();
    d[0x64..0x66].copy_from_slice(&0x4000u16.to_le_bytes());
    must_fail(
        &d,
        &[
            "function 0's tag NAME",
            "runs past the end of its tag group",
        ],
        0x60,
    );

    // NAME renamed: the function has no name.
    let mut d = good.clone();
    d[0x60..0x64].copy_from_slice(b"XXXX");
    must_fail(&d, &["function 0 has no NAME tag"], 0x5c);

    // ENDT of the first group renamed: the tags run into the next group.
    let m = Metallib::parse(&good).unwrap();
    let second = m.functions[1].entry_offset as usize;
    let mut d = good.clone();
    d[second - 4..second].copy_from_slice(b"ZZZZ");
    must_fail(&d, &["function 0", "ZZZZ"], (second - 4) as u64);

    // The first function's bitcode size made larger than the section.
    let mut d = good.clone();
    let mdsz = find(&d, b"MDSZ") + 6;
    put_u64(&mut d, mdsz, 1 << 40);
    let offt = find(&d, b"OFFT");
    must_fail(
        &d,
        &["function 0 (`first`)'s bitcode", "bitcode section"],
        offt as u64,
    );

    // MDSZ renamed: no bitcode size.
    let mut d = good.clone();
    let at = find(&d, b"MDSZ");
    d[at..at + 4].copy_from_slice(b"MDSY");
    must_fail(&d, &["function 0 (`first`) has no MDSZ"], 0x5c);

    // VERS renamed to HASH: a second HASH, of 8 bytes (the last one counts).
    let mut d = good.clone();
    let at = find(&d, b"VERS");
    d[at..at + 4].copy_from_slice(b"HASH");
    must_fail(
        &d,
        &["`first`)'s HASH tag holds 8 bytes, expected 32"],
        at as u64,
    );
}

fn find(hay: &[u8], needle: &[u8]) -> usize {
    hay.windows(needle.len()).position(|w| w == needle).unwrap()
}

/// Truncations and byte flips of real and built metallibs: always a result,
/// never a panic; truncations are always refused.
#[test]
fn truncated_and_flipped_metallibs_never_panic() {
    let mut samples = vec![("built".to_string(), fake_metallib())];
    if let Some(dir) = corpus_dir() {
        for rel in [
            "RosaStack__rosemetal/examples/hello/Shaders.metallib",
            "EricLBuehler__mistral.rs/default.metallib",
        ] {
            samples.push((rel.to_string(), std::fs::read(dir.join(rel)).unwrap()));
        }
    }
    let start = Instant::now();
    let mut seed = 0x2545_F491_4F6C_DD1Du64;
    let mut rand = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let mut runs = 0;
    for (name, data) in &samples {
        Metallib::parse(data).unwrap_or_else(|e| panic!("{name}: {e}"));
        // Every length through the header and function list, then a sample.
        let dense = data.len().min(0x900);
        let lengths = (0..dense).chain((dense..data.len()).step_by(97));
        for len in lengths {
            let e = Metallib::parse(&data[..len]).expect_err("a truncated file was accepted");
            assert!(e.to_string().contains("at byte"), "{e}");
            runs += 1;
        }
        // Every byte of the header and function list, three ways.
        for at in 0..dense {
            for x in [0xFF, 0x01, 0x80] {
                let mut d = data.clone();
                d[at] ^= x;
                if let Err(e) = Metallib::parse(&d) {
                    assert!(e.to_string().contains("at byte"), "{e}");
                }
                runs += 1;
            }
        }
        // Random bytes anywhere, several at a time.
        for _ in 0..3000 {
            let mut d = data.clone();
            for _ in 0..1 + rand() % 4 {
                let at = (rand() % d.len() as u64) as usize;
                d[at] = rand() as u8;
            }
            if let Ok(m) = Metallib::parse(&d) {
                for f in &m.functions {
                    assert!(f.module().len() <= f.bitcode.len());
                }
            }
            runs += 1;
        }
    }
    eprintln!("{runs} damaged metallibs parsed in {:?}", start.elapsed());
}

#[test]
fn air_wrapper_is_read_and_stripped() {
    let raw = b"BC\xC0\xDEpayload".to_vec();
    let wrapped = wrap(&raw);
    let w = llvm_dis::read_wrapper(&wrapped).unwrap().unwrap();
    assert_eq!(
        (w.version, w.offset, w.size, w.cpu_type),
        (0, 20, 11, 0xFFFF_FFFF)
    );
    assert_eq!(llvm_dis::strip_wrapper(&wrapped).unwrap(), raw.as_slice());
    assert_eq!(llvm_dis::strip_wrapper(&raw).unwrap(), raw.as_slice());
    assert_eq!(llvm_dis::read_wrapper(&raw).unwrap(), None);

    let e = llvm_dis::strip_wrapper(&wrapped[..12]).unwrap_err();
    assert!(e.contains("truncated bitcode wrapper"), "{e}");
    let mut big = wrapped.clone();
    big[12..16].copy_from_slice(&u32::MAX.to_le_bytes());
    let e = llvm_dis::strip_wrapper(&big).unwrap_err();
    assert!(e.contains("bad bitcode wrapper"), "{e}");
    let e = llvm_dis::strip_wrapper(b"MTLB....").unwrap_err();
    assert!(e.contains("not LLVM bitcode"), "{e}");

    if let Some(dir) = corpus_dir() {
        for air in files(&dir, "air", true)
            .iter()
            .filter(|p| p.metadata().unwrap().len() > 0)
        {
            let data = std::fs::read(air).unwrap();
            let raw =
                llvm_dis::strip_wrapper(&data).unwrap_or_else(|e| panic!("{}: {e}", air.display()));
            assert!(raw.starts_with(b"BC\xC0\xDE"));
        }
    }
}

#[test]
fn binary_inputs_are_known_by_extension() {
    assert_eq!(
        BinaryInput::from_path(Path::new("a/b.AIR")),
        Some(BinaryInput::Air(PathBuf::from("a/b.AIR")))
    );
    assert!(matches!(
        BinaryInput::from_path(Path::new("mlx.metallib")),
        Some(BinaryInput::Metallib(_))
    ));
    assert_eq!(BinaryInput::from_path(Path::new("k.ll")), None);
    assert_eq!(BinaryInput::from_path(Path::new("metallib")), None);
    // Raw LLVM bitcode, as `clang -c -emit-llvm` names it, is an `.air`.
    assert_eq!(
        BinaryInput::from_path(Path::new("k.bc")),
        Some(BinaryInput::Air(PathBuf::from("k.bc")))
    );
    assert_eq!(compile::BINARY_EXTENSIONS, &["air", "bc", "metallib"]);
}

// ------------------------------------------------------- finding llvm-dis

#[test]
fn missing_llvm_dis_is_a_clear_error() {
    let e = llvm_dis::find_in(None, &SearchPlaces::default()).unwrap_err();
    assert!(e.contains("no llvm-dis found"), "{e}");
    assert!(
        e.contains("llvm-dis-22") && e.contains("--llvm-dis PATH"),
        "{e}"
    );
    assert!(e.contains("apt-get install llvm-19"), "{e}");

    let e = find_llvm_dis(Some(Path::new("/nonexistent/llvm-dis"))).unwrap_err();
    assert_eq!(e, "--llvm-dis /nonexistent/llvm-dis: no such file");
    let e = find_llvm_dis(Some(Path::new("llvm-dis-no-such-version"))).unwrap_err();
    assert_eq!(e, "--llvm-dis llvm-dis-no-such-version: not found on PATH");
    let e = find_llvm_dis(Some(Path::new(env!("CARGO_MANIFEST_DIR")))).unwrap_err();
    assert!(e.ends_with("not an executable file"), "{e}");

    // The whole path: the scan's call fails before reading anything.
    let tmp = tempfile::tempdir().unwrap();
    let air = tmp.path().join("k.air");
    std::fs::write(&air, wrap(b"BC\xC0\xDE")).unwrap();
    let e = disassemble(&air, Some(Path::new("/nonexistent/llvm-dis"))).unwrap_err();
    assert!(e.contains("/nonexistent/llvm-dis"), "{e}");
}

#[test]
fn search_order_prefers_newest_then_plain() {
    let tmp = tempfile::tempdir().unwrap();
    let bin = tmp.path().join("bin");
    let lib = tmp.path().join("lib");
    std::fs::create_dir_all(&bin).unwrap();
    std::fs::create_dir_all(lib.join("llvm-20/bin")).unwrap();
    let make = |p: &Path| {
        std::fs::write(p, "#!/bin/sh\n").unwrap();
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(p, std::fs::Permissions::from_mode(0o755)).unwrap();
        }
    };
    make(&bin.join("llvm-dis-15"));
    make(&bin.join("llvm-dis-21"));
    make(&lib.join("llvm-20/bin/llvm-dis"));
    let places = SearchPlaces {
        path_dirs: vec![bin.clone()],
        versioned_roots: vec![lib.clone()],
        fallback_dirs: vec![],
    };
    assert_eq!(
        places.candidates(),
        vec![
            bin.join("llvm-dis-21"),
            lib.join("llvm-20/bin/llvm-dis"),
            bin.join("llvm-dis-15")
        ]
    );
    // A plain llvm-dis (often an old LLVM) comes after every versioned one.
    make(&bin.join("llvm-dis"));
    assert_eq!(
        llvm_dis::find_in(None, &places).unwrap(),
        bin.join("llvm-dis-21")
    );
    assert_eq!(places.candidates().last(), Some(&bin.join("llvm-dis")));
    // A bare name given with --llvm-dis is looked up on PATH.
    assert_eq!(
        llvm_dis::find_in(Some(Path::new("llvm-dis-15")), &places).unwrap(),
        bin.join("llvm-dis-15")
    );
}

// ---------------------------------------- llvm-dis misbehaving (stand-ins)

#[cfg(unix)]
fn script(dir: &Path, name: &str, body: &str) -> PathBuf {
    use std::os::unix::fs::PermissionsExt;
    let p = dir.join(name);
    std::fs::write(&p, format!("#!/bin/sh\n{body}\n")).unwrap();
    std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o755)).unwrap();
    p
}

#[cfg(unix)]
#[test]
fn stand_in_llvm_dis_hung_runaway_and_failing() {
    let tmp = tempfile::tempdir().unwrap();
    let bc = wrap(b"BC\xC0\xDE");

    // Hung: stopped at the timeout.
    let mut hung = LlvmDis::new(script(tmp.path(), "hung", "exec sleep 30"));
    hung.timeout = Duration::from_millis(300);
    let t = Instant::now();
    let e = hung.disassemble(&bc, "k.air").unwrap_err();
    assert!(
        t.elapsed() < Duration::from_secs(5),
        "took {:?}",
        t.elapsed()
    );
    assert!(
        e.starts_with("k.air: ") && e.contains("did not finish within 0.3 s"),
        "{e}"
    );

    // Runaway: stopped at the output cap.
    let mut runaway = LlvmDis::new(script(tmp.path(), "runaway", "exec yes define"));
    runaway.max_output = 1 << 20;
    let e = runaway.disassemble(&bc, "k.air").unwrap_err();
    assert!(e.contains("printed more than 1048576 bytes"), "{e}");

    // Reads its stdin and answers like llvm-dis.
    let echo = LlvmDis::new(script(
        tmp.path(),
        "echo",
        "cat >/dev/null; printf \"; ModuleID = '<stdin>'\\nsource_filename = \\\"k\\\"\\n\"",
    ));
    let text = echo
        .disassemble(&vec![0u8; 1 << 20], "lib.metallib:k")
        .unwrap();
    assert_eq!(
        text,
        "; ModuleID = 'lib.metallib:k'\nsource_filename = \"k\"\n"
    );

    // An old LLVM refusing new bitcode: the message says so.
    let old = LlvmDis::new(script(
        tmp.path(),
        "old",
        "case \"$1\" in --version) echo 'LLVM (http://llvm.org/):'; \
         echo '  LLVM version 14.0.6'; exit 0;; esac\n\
         cat >/dev/null\n\
         echo \"llvm-dis: error: Invalid value (Producer: 'LLVM22.1.8' Reader: 'LLVM 14.0.6')\" >&2\n\
         exit 1",
    ));
    let e = old.disassemble(&bc, "new.air").unwrap_err();
    assert!(e.starts_with("new.air: llvm-dis failed"), "{e}");
    assert!(
        e.contains("(LLVM 14.0.6)") && e.contains("exit status 1"),
        "{e}"
    );
    assert!(e.contains("Producer: 'LLVM22.1.8'"), "{e}");
    assert!(
        e.contains("probably too old") && e.contains("LLVM 19 or later"),
        "{e}"
    );

    // A current LLVM failing: damaged bitcode, not age.
    let new = LlvmDis::new(script(
        tmp.path(),
        "new",
        "case \"$1\" in --version) echo '  LLVM version 99.1.0'; exit 0;; esac\n\
         cat >/dev/null; echo 'llvm-dis: error: Invalid record' >&2; exit 1",
    ));
    let e = new.disassemble(&bc, "bad.air").unwrap_err();
    assert!(
        e.contains("Invalid record") && e.contains("may be damaged"),
        "{e}"
    );
    assert!(!e.contains("too old"), "{e}");

    // Not bitcode at all, or empty: refused before llvm-dis runs.
    let never = LlvmDis::new(script(tmp.path(), "never", "exit 3"));
    let txt = tmp.path().join("k.air");
    std::fs::write(&txt, "define void @k() {\n").unwrap();
    let e = disassemble_each(&txt, &never).unwrap_err();
    assert!(
        e.contains("neither AIR bitcode") && e.contains("[64 65 66 69]"),
        "{e}"
    );
    std::fs::write(&txt, "").unwrap();
    let e = disassemble_each(&txt, &never).unwrap_err();
    assert!(e.contains("empty file"), "{e}");
    let lib = tmp.path().join("broken.metallib");
    std::fs::write(&lib, &fake_metallib()[..200]).unwrap();
    let e = disassemble_each(&lib, &never).unwrap_err();
    assert!(
        e.contains("broken.metallib: damaged metallib: truncated"),
        "{e}"
    );

    // One failing function fails that function only.
    let lib = tmp.path().join("two.metallib");
    std::fs::write(&lib, fake_metallib()).unwrap();
    let picky = LlvmDis::new(script(
        tmp.path(),
        "picky",
        "if grep -q abcdef; then echo 'error: Invalid record' >&2; exit 1; fi\n\
         printf \"; ModuleID = '<stdin>'\\n\"",
    ));
    let r = disassemble_each(&lib, &picky).unwrap();
    assert_eq!(r.len(), 2);
    assert_eq!(r[0].name, "two.metallib:first");
    assert_eq!(r[0].kind, Some("kernel"));
    assert_eq!(
        r[0].text.as_deref(),
        Ok("; ModuleID = 'two.metallib:first'\n")
    );
    let e = r[1].text.as_ref().unwrap_err();
    assert!(
        e.starts_with("two.metallib:second_fn: llvm-dis failed"),
        "{e}"
    );
}

/// Modules go to llvm-dis a batch at a time (one process for many), and a
/// batch that fails in any way is redone one module at a time, so each bad
/// module gets its own error. The stand-in writes `N.ll` beside each `N.bc`
/// argument, as llvm-dis does, and logs each run.
#[cfg(unix)]
#[test]
fn modules_are_disassembled_in_batches_and_a_failing_batch_one_by_one() {
    let tmp = tempfile::tempdir().unwrap();
    let log = tmp.path().join("runs.log");
    let tool = LlvmDis::new(script(
        tmp.path(),
        "batchy",
        &format!(
            "echo \"$#\" >> {log}\n\
             if [ \"$1\" = - ]; then\n\
               if grep -q bad; then echo 'error: Invalid record' >&2; exit 1; fi\n\
               printf \"; ModuleID = '<stdin>'\\nok\\n\"; exit 0\n\
             fi\n\
             for f in \"$@\"; do\n\
               if grep -q bad \"$f\"; then echo \"error: $f: Invalid record\" >&2; exit 1; fi\n\
               printf \"; ModuleID = '%s'\\nok\\n\" \"$f\" > \"${{f%.bc}}.ll\"\n\
             done",
            log = log.display()
        ),
    ));
    let runs = || std::fs::read_to_string(&log).unwrap_or_default();
    let names: Vec<String> = (0..5).map(|i| format!("m{i}.air")).collect();

    let good: Vec<(&[u8], &str)> = names.iter().map(|n| (&b"fine"[..], n.as_str())).collect();
    let texts = tool.disassemble_many(&good);
    assert_eq!(runs(), "5\n", "one run for the five modules");
    for (text, name) in texts.iter().zip(&names) {
        assert_eq!(
            text.as_deref(),
            Ok(format!("; ModuleID = '{name}'\nok\n").as_str())
        );
    }

    std::fs::remove_file(&log).unwrap();
    let mut mixed = good.clone();
    mixed[2].0 = b"bad";
    let texts = tool.disassemble_many(&mixed);
    // The batch (5 inputs), then each module alone (`- -o -`; the failure
    // also asks `--version` for its message).
    let runs = runs();
    let args: Vec<&str> = runs.lines().collect();
    assert_eq!(args[0], "5", "{runs}");
    assert_eq!(args.iter().filter(|a| **a == "3").count(), 5, "{runs}");
    for (i, text) in texts.iter().enumerate() {
        if i == 2 {
            let e = text.as_ref().unwrap_err();
            assert!(
                e.starts_with("m2.air: llvm-dis failed") && e.contains("Invalid record"),
                "{e}"
            );
        } else {
            assert_eq!(
                text.as_deref(),
                Ok(format!("; ModuleID = 'm{i}.air'\nok\n").as_str())
            );
        }
    }
}

// ------------------------------------------------ with a real llvm-dis

/// Bitcode made here with llvm-as, as an `.air` file and in a metallib
/// built here: both disassemble, name their modules, and read back as the
/// kernel they were made from.
#[test]
fn assembled_air_and_metallib_disassemble() {
    let Some((dis, tmp, air)) = scale_air() else {
        return;
    };
    // LLVM wraps the bitcode of Darwin triples (air64-apple-macosx...) as
    // Xcode does: llvm-as's output is already an `.air` file.
    assert!(air.starts_with(&llvm_dis::WRAPPER_MAGIC));
    let raw = llvm_dis::strip_wrapper(&air).unwrap().to_vec();

    let air_path = tmp.path().join("scale.air");
    std::fs::write(&air_path, &air).unwrap();
    let raw_path = tmp.path().join("scale_raw.air");
    std::fs::write(&raw_path, &raw).unwrap();
    let lib_path = tmp.path().join("lib.metallib");
    std::fs::write(
        &lib_path,
        build_metallib(&[("scale", 2, &air), ("scale_again", 2, &raw)]),
    )
    .unwrap();

    let one = disassemble(&air_path, Some(&dis)).unwrap();
    assert_eq!(one.len(), 1);
    assert_eq!(one[0].name, "scale.air");
    let raw_one = disassemble(&raw_path, Some(&dis)).unwrap();
    let lib = disassemble(&lib_path, Some(&dis)).unwrap();
    let names: Vec<&str> = lib.iter().map(|d| d.name.as_str()).collect();
    assert_eq!(names, ["lib.metallib:scale", "lib.metallib:scale_again"]);
    for d in one.iter().chain(&raw_one).chain(&lib) {
        let m = read_module(&d.text);
        assert_eq!(m.module_id, Some(d.name.as_str()));
        assert_eq!(m.source_filename, Some("scale"));
        let info = air_info(&m);
        let kernels: Vec<&str> = info.kernels().map(|k| k.name).collect();
        assert_eq!(kernels, ["scale"], "{}", d.name);
        assert_eq!(info.kernels().next().unwrap().arguments.len(), 4);
    }
    // Same module, same text, whatever the container.
    let body = |t: &str| t.split_once('\n').unwrap().1.to_string();
    assert_eq!(body(&one[0].text), body(&lib[0].text));
    assert_eq!(body(&raw_one[0].text), body(&lib[1].text));
}

/// A folder of `.air` files with `.ll` files between them: the `.air`
/// files are disassembled together, a broken one fails alone with
/// llvm-dis's message, and the reports keep the order the files were found
/// in, with one worker or two.
#[test]
fn a_folder_of_air_files_scans_in_order_with_a_broken_one() {
    let Some((dis, tmp, air)) = scale_air() else {
        return;
    };
    let dir = tmp.path().join("kernels");
    std::fs::create_dir(&dir).unwrap();
    let text = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/binary/scale.ll"),
    )
    .unwrap();
    for name in ["a.air", "c.air", "e.air"] {
        std::fs::write(dir.join(name), &air).unwrap();
    }
    std::fs::write(dir.join("b.ll"), &text).unwrap();
    // Raw bitcode cut in half: llvm-dis cannot read it.
    let raw = llvm_dis::strip_wrapper(&air).unwrap();
    std::fs::write(dir.join("d.air"), &raw[..raw.len() / 2]).unwrap();
    let rules = air_scan::rules::RuleSet::builtin();
    let mut config = air_scan::scan::ScanConfig::new(&rules);
    config.llvm_dis = Some(dis.clone());
    for jobs in [1, 2] {
        let files = air_scan::scan::scan_paths(std::slice::from_ref(&dir), jobs, &config);
        let got: Vec<(String, bool)> = files
            .iter()
            .map(|f| {
                let name = Path::new(&f.path)
                    .file_name()
                    .unwrap()
                    .to_string_lossy()
                    .into_owned();
                (name, f.status == air_scan::scan::Status::Ok)
            })
            .collect();
        let want = [
            ("a.air", true),
            ("b.ll", true),
            ("c.air", true),
            ("d.air", false),
            ("e.air", true),
        ];
        let want: Vec<(String, bool)> = want.iter().map(|(n, ok)| (n.to_string(), *ok)).collect();
        assert_eq!(got, want, "jobs {jobs}");
        let e = files[3].error.as_deref().unwrap_or("");
        assert!(e.starts_with("d.air: llvm-dis failed"), "{e}");
        for f in files
            .iter()
            .filter(|f| f.status == air_scan::scan::Status::Ok)
        {
            assert_eq!(f.kernels.len(), 1, "{}", f.path);
        }
    }
}

/// Every `.air` and `.metallib` of the corpus opens and disassembles with
/// the newest llvm-dis installed. Iito's 382 functions: every 8th here
/// (checked against the `.ll` beside them), all in
/// `iito_metallib_matches_extracted_ll`. The one empty `.air` gives a clear
/// error.
#[test]
fn every_corpus_binary_disassembles() {
    let Some(dir) = corpus_dir() else { return };
    let Some((dis, major)) = newest_llvm_dis() else {
        return;
    };
    let tool = LlvmDis::new(dis.clone());
    let start = Instant::now();
    let mut inputs: Vec<PathBuf> = files(&dir, "air", false);
    inputs.extend(files(&dir, "metallib", false));
    assert!(
        inputs.len() >= 38,
        "expected the whole corpus, found {}",
        inputs.len()
    );
    let mut modules = 0;
    for path in &inputs {
        if path.metadata().unwrap().len() == 0 {
            let e = disassemble_each(path, &tool).unwrap_err();
            assert!(e.contains("empty file"), "{e}");
            continue;
        }
        if path.ends_with("Iito__spindll/mlx.metallib") {
            modules += check_iito(path, &iito_sample(path, &tool, 8), major);
            continue;
        }
        let results = disassemble_each(path, &tool).unwrap();
        assert!(!results.is_empty(), "{}", path.display());
        for r in results {
            let text = r.text.unwrap_or_else(|e| panic!("{e}"));
            let m = read_module(&text);
            assert_eq!(m.module_id, Some(r.name.as_str()));
            assert!(
                m.target_triple.is_some_and(|t| t.starts_with("air64")),
                "{}",
                r.name
            );
            assert!(!m.functions.is_empty(), "{}", r.name);
            modules += 1;
        }
    }
    eprintln!(
        "{} files, {modules} modules disassembled with {} (LLVM {major}) in {:?}",
        inputs.len(),
        dis.display(),
        start.elapsed()
    );
}

/// Every `step`-th function of Iito's mlx.metallib, disassembled on a few
/// threads, as (index, function name, text).
fn iito_sample(path: &Path, tool: &LlvmDis, step: usize) -> Vec<(usize, String, String)> {
    let data = std::fs::read(path).unwrap();
    let lib = Metallib::parse(&data).unwrap();
    assert_eq!(lib.functions.len(), 382);
    let picked: Vec<_> = lib.functions.iter().step_by(step).collect();
    std::thread::scope(|s| {
        let handles: Vec<_> = picked
            .chunks(picked.len().div_ceil(4).max(1))
            .map(|chunk| {
                s.spawn(move || {
                    chunk
                        .iter()
                        .map(|f| {
                            let name = format!("mlx.metallib:{}", f.name);
                            let text = tool.disassemble(f.module(), &name);
                            (
                                f.index,
                                f.name.clone(),
                                text.unwrap_or_else(|e| panic!("{e}")),
                            )
                        })
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().unwrap())
            .collect()
    })
}

/// Checks Iito functions' text against the extracted `.ll` (llvm-dis-14's
/// text) or `.opaque.ll` (llvm-dis-22's) beside the metallib: same function
/// names (but for `llvm.*` intrinsics), same kernels, and when the same LLVM
/// made both, the same intrinsics and the same text but for the ModuleID
/// line. Returns how many it checked.
fn check_iito(path: &Path, texts: &[(usize, String, String)], major: u32) -> usize {
    let extracted = PathBuf::from(format!("{}.extracted", path.display()));
    let (suffix, same_llvm) = if major <= 14 {
        (".ll", major == 14)
    } else {
        (".opaque.ll", major == 22)
    };
    // LLVM versions upgrade intrinsics differently (LLVM 22 keeps an
    // `llvm.lifetime.start.i64` that 19 drops): those are compared only when
    // the same LLVM made both texts.
    let names = |m: &air_scan::ir::Module<'_>| -> Vec<String> {
        m.functions
            .iter()
            .filter(|f| same_llvm || !f.name.starts_with("llvm."))
            .map(|f| f.name.to_string())
            .collect()
    };
    let kernels = |m: &air_scan::ir::Module<'_>| -> Vec<String> {
        air_info(m).kernels().map(|k| k.name.to_string()).collect()
    };
    let body = |t: &str| t.split_once('\n').map(|(_, b)| b.to_string());
    let mut kernel_count = (0, 0);
    for (index, name, text) in texts {
        let stem = format!("{index:05}_{name}");
        let want_text = std::fs::read_to_string(extracted.join(format!("{stem}{suffix}"))).unwrap();
        let (got, want) = (read_module(text), read_module(&want_text));
        assert_eq!(got.module_id, Some(format!("mlx.metallib:{name}").as_str()));
        assert_eq!(names(&got), names(&want), "{stem}");
        assert_eq!(kernels(&got), kernels(&want), "{stem}");
        assert_eq!(kernels(&got), std::slice::from_ref(name), "{stem}");
        kernel_count.0 += kernels(&got).len();
        kernel_count.1 += kernels(&want).len();
        if same_llvm {
            assert!(
                body(text) == body(&want_text),
                "{stem}: text differs from {suffix}"
            );
        }
    }
    assert_eq!(kernel_count.0, kernel_count.1);
    texts.len()
}

/// All 382 functions of Iito's mlx.metallib, through the call a scan makes
/// (`disassemble` with the llvm-dis it finds), against the extracted `.ll`
/// files. ~8 s of llvm-dis on 2 cores.
#[test]
fn iito_metallib_matches_extracted_ll() {
    let Some(dir) = corpus_dir() else { return };
    let Some(dis) = common::llvm_dis("the Iito metallib test") else {
        return;
    };
    let major = major_version(&dis).unwrap();
    let path = dir.join("Iito__spindll/mlx.metallib");
    let start = Instant::now();
    let all = disassemble(&path, None).unwrap();
    let took = start.elapsed();
    assert_eq!(all.len(), 382);
    let texts: Vec<(usize, String, String)> = all
        .into_iter()
        .enumerate()
        .map(|(i, d)| {
            let name = d.name.strip_prefix("mlx.metallib:").unwrap().to_string();
            (i, name, d.text)
        })
        .collect();
    assert_eq!(check_iito(&path, &texts, major), 382);
    eprintln!(
        "382 Iito functions: disassembled with {} (LLVM {major}) in {took:?}, checked in {:?}",
        dis.display(),
        start.elapsed() - took
    );
}

/// llvm-dis-14 cannot read ziglana's vanity.air (Metal 32023.404): the
/// error says the LLVM is too old and names the newer llvm-dis installed.
#[test]
fn llvm_14_on_new_air_says_too_old() {
    let Some(dir) = corpus_dir() else { return };
    let Some(old) = SearchPlaces::from_env()
        .candidates()
        .into_iter()
        .find(|p| major_version(p) == Some(14))
    else {
        eprintln!("SKIPPED: no llvm-dis-14 on this machine");
        return;
    };
    let e = disassemble(&dir.join("ziglana__grincel/vanity.air"), Some(&old)).unwrap_err();
    assert!(e.starts_with("vanity.air: llvm-dis failed"), "{e}");
    assert!(
        e.contains("LLVM 14.") && e.contains("Invalid record"),
        "{e}"
    );
    assert!(
        e.contains("probably too old") && e.contains("LLVM 19 or later"),
        "{e}"
    );
    if let Some((newest, major)) = newest_llvm_dis().filter(|(_, m)| *m > 14) {
        let named = format!(
            "LLVM {major} is installed here: pass --llvm-dis {}",
            newest.display()
        );
        assert!(e.contains(&named), "{e}");
    }
}

/// A metallib on standard input (`cat lib.metallib | air-scan -`) gives the
/// same modules and findings as the file, named `-:function`.
#[test]
fn a_metallib_on_standard_input_scans_as_the_file() {
    let Some(dir) = corpus_dir() else { return };
    let lib = dir.join("Iito__spindll/mlx.metallib");
    let scan = |args: &[&str], stdin: Option<Vec<u8>>| -> serde_json::Value {
        let mut cmd = assert_cmd::Command::cargo_bin("air-scan").unwrap();
        cmd.args(["--format", "json", "--jobs", "1"]).args(args);
        if let Some(bytes) = stdin {
            cmd.write_stdin(bytes);
        }
        let out = cmd.output().unwrap();
        serde_json::from_slice(&out.stdout).unwrap()
    };
    let from_file = scan(&[lib.to_str().unwrap()], None);
    let from_stdin = scan(&["-"], Some(std::fs::read(&lib).unwrap()));
    let modules = |v: &serde_json::Value| -> Vec<String> {
        let files = v["files"].as_array().unwrap();
        files
            .iter()
            .map(|f| {
                let path = f["path"].as_str().unwrap();
                path.rsplit_once(':').unwrap().1.to_string()
            })
            .collect()
    };
    assert_eq!(modules(&from_stdin).len(), 382);
    assert_eq!(modules(&from_stdin), modules(&from_file));
    assert!(
        from_stdin["files"][0]["path"]
            .as_str()
            .unwrap()
            .starts_with("-:")
    );
    let fingerprints = |v: &serde_json::Value| -> Vec<String> {
        let findings = v["findings"].as_array().unwrap();
        findings
            .iter()
            .map(|f| format!("{} {}", f["rule"], f["fingerprint"]))
            .collect()
    };
    assert_eq!(fingerprints(&from_stdin), fingerprints(&from_file));
    assert!(!fingerprints(&from_file).is_empty());
}

/// A binary's findings quote the same IR as its llvm-dis-14 `.ll` twin: the
/// native printer numbers metadata as LLVM does, so every `.air` of the
/// corpus beside a `.ll` of the same name (the corpus's `.ll` files were
/// printed from those `.air` files by llvm-dis-14) has the twin's findings,
/// rule by rule, on the same IR lines with the same instruction text
/// (`!tbaa !N` and all). 22 files differed before 2026-11-28.
#[test]
fn an_air_files_findings_quote_its_ll_twin() {
    let Some(dir) = corpus_dir() else {
        return;
    };
    let out = common::air_scan()
        .args(["--format", "json", "--fail-on", "never"])
        .arg(&dir)
        .output()
        .unwrap();
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let mut by_path: std::collections::BTreeMap<String, Vec<(String, u64, String)>> =
        Default::default();
    for f in report["findings"].as_array().unwrap() {
        by_path
            .entry(f["path"].as_str().unwrap().to_string())
            .or_default()
            .push((
                f["rule"].as_str().unwrap().to_string(),
                f["ir"]["line"].as_u64().unwrap(),
                f["ir"]["instruction"]
                    .as_str()
                    .unwrap_or_default()
                    .to_string(),
            ));
    }
    let mut twins = 0;
    for (path, findings) in &by_path {
        let Some(stem) = path.strip_suffix(".air") else {
            continue;
        };
        let Some(twin) = by_path.get(&format!("{stem}.ll")) else {
            continue;
        };
        let (mut ours, mut theirs) = (findings.clone(), twin.clone());
        ours.sort();
        theirs.sort();
        assert_eq!(ours, theirs, "{path} against its .ll twin");
        twins += 1;
    }
    assert!(
        twins >= 200,
        "only {twins} .air files with findings have a .ll twin"
    );
    eprintln!("{twins} .air files quote their .ll twins' findings");
}
