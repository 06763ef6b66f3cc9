//! Causes: the findings that are one problem to fix. A person acts on a
//! divide in one template, not on each of the dozens of kernels it was
//! instantiated into, nor on each form (`.ll`, `.opaque.ll`, `.air`, a
//! `.metallib`'s function) the same module arrives in.
//!
//! The key (docs/RULES.md, "Causes", has its measured effect):
//! - with an exact MSL location: the rule and that location (file, line,
//!   column). Two MSL locations are never one cause. The id takes the
//!   line's text, not its number, so it survives edits around it;
//! - otherwise: the rule, what the finding is about (`Evidence::subject`:
//!   the divisor), the instruction's shape (opcode, loop depth) and the
//!   function's *family*: its name with template arguments, parameter
//!   types and type or size tokens taken out (`family`), so that
//!   `gemv_float32_bm1_bn8` and `gemv_float16_bm1_bn8`, or two
//!   instantiations of `_Z10gemv_implI...`, are one. An approximate MSL
//!   location (a borrowed line) is added to that key.
//!
//! The file is not part of the key: the same cause in two files is one.

use super::{Finding, Fnv1a, hex16};
use std::fmt::Write;

/// The stable id of the cause a finding belongs to. `source_line` is, when
/// the MSL file is on disk, the line's text and how many lines before it in
/// its file have the same text: it stands for the line in the id, which so
/// survives lines moving around it (as GitHub's line hashes do); the line
/// number stands in when the file is not here. The file is named by its
/// folder and name: the same on every machine and checkout, and two files
/// of one name in two folders stay apart. `family` is
/// [`family`]`(&f.function)`, which a caller works out once for a
/// function's findings: of a long mangled name it costs more than the rest
/// of the id.
pub fn cause_id(
    f: &Finding,
    opcode: &str,
    source_line: Option<(&str, usize)>,
    family: &str,
) -> String {
    let mut key = Fnv1a::new();
    let _ = write!(key, "{}|", f.rule);
    let file_name = |path: &str| {
        let mut parts = path.rsplit('/');
        let name = parts.next().unwrap_or(path);
        match parts.next() {
            Some(folder) => format!("{folder}/{name}"),
            None => name.to_string(),
        }
    };
    let write_line = |key: &mut Fnv1a, s: &crate::source::SourceLocation| {
        let _ = match source_line {
            Some((text, nth)) => write!(key, "|{}|{}#{nth}", file_name(&s.path), text.trim()),
            None => write!(key, "|{}|{}", file_name(&s.path), s.line),
        };
    };
    match &f.source {
        Some(s) if !s.approximate => {
            let _ = write!(key, "msl|{}", s.column);
            write_line(&mut key, s);
        }
        approximate => {
            let _ = write!(
                key,
                "ir|{}|{}|{}|{}",
                f.evidence.subject().unwrap_or(""),
                opcode,
                f.loop_depth,
                family
            );
            if let Some(s) = approximate {
                write_line(&mut key, s);
            }
        }
    }
    hex16(key.0)
}

/// A function's name as its template family: an Itanium-mangled name's
/// base name (`_Z9gemv_implIfLi4EEvPKT_` → `gemv_impl`), then each
/// `_`-separated token that names a type or a size made generic
/// (`gemv_float32_bm1_bn8` → `gemv_T_bm#_bn#`).
pub fn family(function: &str) -> String {
    // MLX spells `bool` as `bool_` in names: the trailing `_` is no token.
    let base = mangled_base_name(function)
        .unwrap_or(function)
        .trim_end_matches('_');
    let mut out = String::with_capacity(base.len());
    for (i, token) in base.split('_').enumerate() {
        if i > 0 {
            out.push('_');
        }
        if is_type_token(token) {
            out.push('T');
        } else if let Some(prefix) = fused_type_prefix(token) {
            out.push_str(prefix);
            out.push('T');
        } else {
            // Digits stand for sizes: `bm1` → `bm#`, `32` → `#`.
            let mut in_digits = false;
            for c in token.chars() {
                if c.is_ascii_digit() {
                    if !in_digits {
                        out.push('#');
                    }
                    in_digits = true;
                } else {
                    out.push(c);
                    in_digits = false;
                }
            }
        }
    }
    out
}

/// The word before a type name fused onto it, as MLX names mask types
/// (`maskfloat16` → `mask`, `maskbool` → `mask`). Only sized type names
/// and `bool`/`half` count, so that words such as `print` keep their `int`.
fn fused_type_prefix(token: &str) -> Option<&str> {
    let letters = token.trim_end_matches(|c: char| c.is_ascii_digit());
    let sized = letters.len() < token.len();
    (1..letters.len()).find_map(|start| {
        let (prefix, suffix) = token.split_at(start);
        let fits = is_type_token(suffix)
            && (sized || matches!(suffix, "bool" | "half"))
            && prefix.len() >= 2
            && prefix.bytes().all(|b| b.is_ascii_alphabetic());
        fits.then_some(prefix)
    })
}

/// MSL and MLX type names as they appear in kernel names.
fn is_type_token(token: &str) -> bool {
    let letters = token.trim_end_matches(|c: char| c.is_ascii_digit());
    matches!(
        letters,
        "float"
            | "half"
            | "bfloat"
            | "bf"
            | "double"
            | "int"
            | "uint"
            | "short"
            | "ushort"
            | "char"
            | "uchar"
            | "long"
            | "ulong"
            | "bool"
            | "complex"
            | "f"
            | "i"
            | "u"
    ) && (letters.len() > 1 || letters.len() < token.len())
}

/// The unqualified name of an Itanium-mangled function (`_Z` then a length
/// and a name, or `N` and nested names, of which the last is taken).
fn mangled_base_name(name: &str) -> Option<&str> {
    let mut rest = name.strip_prefix("_Z")?;
    let nested = rest.starts_with('N');
    if nested {
        rest = &rest[1..];
        // CV and ref qualifiers of a member function.
        rest = rest.trim_start_matches(['r', 'V', 'K', 'R', 'O']);
    }
    let mut last = None;
    loop {
        let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
        if digits == 0 {
            break;
        }
        let len: usize = rest.get(..digits)?.parse().ok()?;
        let part = rest.get(digits..digits + len)?;
        last = Some(part);
        rest = &rest[digits + len..];
        if !nested {
            break;
        }
        // Template arguments of a nested part are skipped by stopping here:
        // the base name is what matters.
        if !rest.starts_with(|c: char| c.is_ascii_digit()) {
            break;
        }
    }
    last
}

#[cfg(test)]
mod tests {
    use super::family;

    #[test]
    fn instantiations_of_one_template_are_one_family() {
        // MLX kernels whose templates were inlined: type and size tokens.
        assert_eq!(
            family("gemv_float32_bm1_bn8_sm1_sn32_tm4_tn4_nc0_axpby0"),
            family("gemv_float16_bm1_bn8_sm1_sn32_tm4_tn4_nc0_axpby0")
        );
        assert_eq!(family("gemv_bfloat16_bm1_bn8"), "gemv_T_bm#_bn#");
        // Mangled helpers: the base name, without template arguments.
        assert_eq!(family("_Z9gemv_implIfLi4EEvPKT_"), "gemv_impl");
        assert_eq!(family("_Z9gemv_implIDhLi8EEvPKT_"), "gemv_impl");
        assert_eq!(family("_ZN3mlx5steel4gemmIfEEvv"), "gemm");
        // Names that differ otherwise stay apart.
        assert_ne!(family("softmax_float32"), family("layer_norm_float32"));
        // MLX fuses the mask type onto `mask`.
        assert_eq!(
            family("steel_attention_float16_bq32_maskfloat16"),
            family("steel_attention_bfloat16_bq32_maskbool_")
        );
        assert_eq!(family("sdpa_maskbfloat16"), "sdpa_maskT");
        assert_eq!(family("print_uint8"), "print_T");
        assert_eq!(family("sprint_x"), "sprint_x");
        assert_ne!(family("mask_float16"), family("masking_float16"));
        assert_ne!(family("copy_g_float32"), family("copy_v_float32"));
        // Words that merely start like a type are kept.
        assert_eq!(family("interp_factor"), "interp_factor");
        assert_eq!(family("f"), "f");
    }
}
