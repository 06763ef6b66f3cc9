//! Attribute kinds by their bitcode number (LLVM's `AttributeKindCodes`,
//! stable across releases: codes are only ever added).

/// The name LLVM prints for an enum (or type) attribute.
pub fn enum_name(id: u64) -> &'static str {
    const NAMES: &[&str] = &[
        "",
        "align",
        "alwaysinline",
        "byval",
        "inlinehint",
        "inreg",
        "minsize",
        "naked",
        "nest",
        "noalias",
        "nobuiltin",
        "nocapture",
        "noduplicate",
        "noimplicitfloat",
        "noinline",
        "nonlazybind",
        "noredzone",
        "noreturn",
        "nounwind",
        "optsize",
        "readnone",
        "readonly",
        "returned",
        "returns_twice",
        "signext",
        "alignstack",
        "ssp",
        "sspreq",
        "sspstrong",
        "sret",
        "sanitize_address",
        "sanitize_thread",
        "sanitize_memory",
        "uwtable",
        "zeroext",
        "builtin",
        "cold",
        "optnone",
        "inalloca",
        "nonnull",
        "jumptable",
        "dereferenceable",
        "dereferenceable_or_null",
        "convergent",
        "safestack",
        "argmemonly",
        "swiftself",
        "swifterror",
        "norecurse",
        "inaccessiblememonly",
        "inaccessiblemem_or_argmemonly",
        "allocsize",
        "writeonly",
        "speculatable",
        "strictfp",
        "sanitize_hwaddress",
        "nocf_check",
        "optforfuzzing",
        "shadowcallstack",
        "speculative_load_hardening",
        "immarg",
        "willreturn",
        "nofree",
        "nosync",
        "sanitize_memtag",
        "preallocated",
        "nomerge",
        "null_pointer_is_valid",
        "noundef",
        "byref",
        "mustprogress",
        "nocallback",
        "hot",
        "noprofile",
        "vscale_range",
        "swiftasync",
        "nosanitize_coverage",
        "elementtype",
        "disable_sanitizer_instrumentation",
        "nosanitize_bounds",
        "allocalign",
        "allocptr",
        "allockind",
        "presplitcoroutine",
        "fn_ret_thunk_extern",
        "skipprofile",
        "memory",
        "nofpclass",
        "optdebug",
        "writable",
        "coro_only_destroy_when_complete",
        "dead_on_unwind",
        "range",
        "sanitize_numerical_stability",
        "initializes",
        "hybrid_patchable",
        "sanitize_realtime",
        "sanitize_realtime_blocking",
        "coro_elide_safe",
        "noext",
        "no_divergence_source",
        "sanitize_type",
        "captures",
        "dead_on_return",
    ];
    NAMES
        .get(id as usize)
        .copied()
        .filter(|n| !n.is_empty())
        .unwrap_or("unknown_attribute")
}

/// An integer attribute as LLVM prints it: `align 16`, `dereferenceable(8)`.
pub fn int_attr(id: u64, value: u64) -> String {
    let name = enum_name(id);
    match name {
        "align" => format!("align {value}"),
        "alignstack" => format!("alignstack({value})"),
        "uwtable" => match value {
            1 => "uwtable(sync)".into(),
            _ => "uwtable".into(),
        },
        "memory" => memory(value),
        _ => format!("{name}({value})"),
    }
}

/// `memory(...)`: two bits per location (argmem, inaccessiblemem, other),
/// none/read/write/readwrite.
fn memory(value: u64) -> String {
    let access = |v: u64| match v & 3 {
        0 => "none",
        1 => "read",
        2 => "write",
        _ => "readwrite",
    };
    let (arg, inacc, other) = (value & 3, (value >> 2) & 3, (value >> 4) & 3);
    if arg == inacc && inacc == other {
        return format!("memory({})", access(other));
    }
    let mut parts = vec![access(other).to_string()];
    if arg != other {
        parts.push(format!("argmem: {}", access(arg)));
    }
    if inacc != other {
        parts.push(format!("inaccessiblemem: {}", access(inacc)));
    }
    format!("memory({})", parts.join(", "))
}
