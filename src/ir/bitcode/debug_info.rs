//! Debug-info records of a METADATA_BLOCK, by LLVM's layouts
//! (`MetadataLoader.cpp`), into named fields as LLVM 14's `AsmWriter`
//! prints them: its order, the fields it leaves out (zeros, nulls, empty
//! strings, defaults) and the DWARF names it knows (its `Dwarf.def`:
//! what it does not name stays a number). Only the kinds Apple's
//! compilers write are read; others are refused.

use super::Error;
use super::bitstream::Reader;
use super::metadata::{Field, Md};
use super::module::bad;

fn get(ops: &[u64], i: usize) -> u64 {
    ops.get(i).copied().unwrap_or(0)
}

/// A node's fields in the order `AsmWriter` prints them (LLVM 14's
/// `MDFieldPrinter`), each left out where it leaves it out: a zero number
/// (`ShouldSkipZero`), a null node (`ShouldSkipNull`: [`Field::Md`]), an
/// empty string (`ShouldSkipEmpty`: [`Field::Str`], checked when printed).
#[derive(Default)]
struct Fields(Vec<(&'static str, Field)>);

impl Fields {
    fn push(&mut self, name: &'static str, f: Field) {
        self.0.push((name, f));
    }

    /// `printInt`: a number, left out when zero.
    fn int(&mut self, name: &'static str, v: u64) {
        if v != 0 {
            self.push(name, Field::Uint(v));
        }
    }

    /// `printInt(..., ShouldSkipZero = false)`.
    fn int_always(&mut self, name: &'static str, v: u64) {
        self.push(name, Field::Uint(v));
    }

    /// `printMetadata`: left out when null.
    fn md(&mut self, name: &'static str, ops: &[u64], i: usize) {
        self.push(name, Field::Md(get(ops, i)));
    }

    /// `printMetadata(..., ShouldSkipNull = false)`: `null` printed.
    fn md_or_null(&mut self, name: &'static str, ops: &[u64], i: usize) {
        self.push(name, Field::MdOrNull(get(ops, i)));
    }

    /// `printString`: left out when null or empty.
    fn str(&mut self, name: &'static str, ops: &[u64], i: usize) {
        self.push(name, Field::Str(get(ops, i)));
    }

    /// `printString(..., ShouldSkipEmpty = false)`: `""` when null.
    fn str_always(&mut self, name: &'static str, ops: &[u64], i: usize) {
        self.push(name, Field::StrAlways(get(ops, i)));
    }

    /// `printBool`: left out when it is `default`, if there is one.
    fn bool(&mut self, name: &'static str, v: bool, default: Option<bool>) {
        if default != Some(v) {
            self.push(name, Field::Word(if v { "true" } else { "false" }));
        }
    }

    /// `printDwarfEnum`: left out when zero, its DWARF name if LLVM 14
    /// has one, else the number.
    fn dwarf(&mut self, name: &'static str, v: u64, names: fn(u64) -> Option<&'static str>) {
        if v != 0 {
            self.push(name, dwarf_name(v, names));
        }
    }

    /// `printTag`: always, by name or number.
    fn tag(&mut self, v: u64) {
        self.push("tag", dwarf_name(v, tag_name));
    }

    fn done(self, distinct: bool, kind: &'static str) -> Md {
        Md::Special {
            distinct,
            kind,
            fields: self.0,
        }
    }
}

fn dwarf_name(v: u64, names: fn(u64) -> Option<&'static str>) -> Field {
    match names(v) {
        Some(name) => Field::Word(name),
        None => Field::Uint(v),
    }
}

/// `v`'s name: `standard[v]`, else the one `others` pairs with it; none
/// for an empty one.
fn by_number(
    v: u64,
    standard: &[&'static str],
    others: &[(u64, &'static str)],
) -> Option<&'static str> {
    let name = match usize::try_from(v).ok().and_then(|i| standard.get(i)) {
        Some(name) => name,
        None => others.iter().find(|(k, _)| *k == v).map_or("", |(_, n)| n),
    };
    (!name.is_empty()).then_some(name)
}

/// `dwarf::TagString` of LLVM 14 (its `Dwarf.def`).
fn tag_name(v: u64) -> Option<&'static str> {
    const STANDARD: [&str; 0x4c] = [
        "",
        "DW_TAG_array_type",
        "DW_TAG_class_type",
        "DW_TAG_entry_point",
        "DW_TAG_enumeration_type",
        "DW_TAG_formal_parameter",
        "",
        "",
        "DW_TAG_imported_declaration",
        "",
        "DW_TAG_label",
        "DW_TAG_lexical_block",
        "",
        "DW_TAG_member",
        "",
        "DW_TAG_pointer_type",
        "DW_TAG_reference_type",
        "DW_TAG_compile_unit",
        "DW_TAG_string_type",
        "DW_TAG_structure_type",
        "",
        "DW_TAG_subroutine_type",
        "DW_TAG_typedef",
        "DW_TAG_union_type",
        "DW_TAG_unspecified_parameters",
        "DW_TAG_variant",
        "DW_TAG_common_block",
        "DW_TAG_common_inclusion",
        "DW_TAG_inheritance",
        "DW_TAG_inlined_subroutine",
        "DW_TAG_module",
        "DW_TAG_ptr_to_member_type",
        "DW_TAG_set_type",
        "DW_TAG_subrange_type",
        "DW_TAG_with_stmt",
        "DW_TAG_access_declaration",
        "DW_TAG_base_type",
        "DW_TAG_catch_block",
        "DW_TAG_const_type",
        "DW_TAG_constant",
        "DW_TAG_enumerator",
        "DW_TAG_file_type",
        "DW_TAG_friend",
        "DW_TAG_namelist",
        "DW_TAG_namelist_item",
        "DW_TAG_packed_type",
        "DW_TAG_subprogram",
        "DW_TAG_template_type_parameter",
        "DW_TAG_template_value_parameter",
        "DW_TAG_thrown_type",
        "DW_TAG_try_block",
        "DW_TAG_variant_part",
        "DW_TAG_variable",
        "DW_TAG_volatile_type",
        "DW_TAG_dwarf_procedure",
        "DW_TAG_restrict_type",
        "DW_TAG_interface_type",
        "DW_TAG_namespace",
        "DW_TAG_imported_module",
        "DW_TAG_unspecified_type",
        "DW_TAG_partial_unit",
        "DW_TAG_imported_unit",
        "",
        "DW_TAG_condition",
        "DW_TAG_shared_type",
        "DW_TAG_type_unit",
        "DW_TAG_rvalue_reference_type",
        "DW_TAG_template_alias",
        "DW_TAG_coarray_type",
        "DW_TAG_generic_subrange",
        "DW_TAG_dynamic_type",
        "DW_TAG_atomic_type",
        "DW_TAG_call_site",
        "DW_TAG_call_site_parameter",
        "DW_TAG_skeleton_unit",
        "DW_TAG_immutable_type",
    ];
    const VENDOR: &[(u64, &str)] = &[
        (0x4081, "DW_TAG_MIPS_loop"),
        (0x4101, "DW_TAG_format_label"),
        (0x4102, "DW_TAG_function_template"),
        (0x4103, "DW_TAG_class_template"),
        (0x4104, "DW_TAG_GNU_BINCL"),
        (0x4105, "DW_TAG_GNU_EINCL"),
        (0x4106, "DW_TAG_GNU_template_template_param"),
        (0x4107, "DW_TAG_GNU_template_parameter_pack"),
        (0x4108, "DW_TAG_GNU_formal_parameter_pack"),
        (0x4109, "DW_TAG_GNU_call_site"),
        (0x410a, "DW_TAG_GNU_call_site_parameter"),
        (0x4200, "DW_TAG_APPLE_property"),
        (0x4201, "DW_TAG_SUN_function_template"),
        (0x4202, "DW_TAG_SUN_class_template"),
        (0x4203, "DW_TAG_SUN_struct_template"),
        (0x4204, "DW_TAG_SUN_union_template"),
        (0x4205, "DW_TAG_SUN_indirect_inheritance"),
        (0x4206, "DW_TAG_SUN_codeflags"),
        (0x4207, "DW_TAG_SUN_memop_info"),
        (0x4208, "DW_TAG_SUN_omp_child_func"),
        (0x4209, "DW_TAG_SUN_rtti_descriptor"),
        (0x420a, "DW_TAG_SUN_dtor_info"),
        (0x420b, "DW_TAG_SUN_dtor"),
        (0x420c, "DW_TAG_SUN_f90_interface"),
        (0x420d, "DW_TAG_SUN_fortran_vax_structure"),
        (0x42ff, "DW_TAG_SUN_hi"),
        (0x5101, "DW_TAG_ALTIUM_circ_type"),
        (0x5102, "DW_TAG_ALTIUM_mwa_circ_type"),
        (0x5103, "DW_TAG_ALTIUM_rev_carry_type"),
        (0x5111, "DW_TAG_ALTIUM_rom"),
        (0x6000, "DW_TAG_LLVM_annotation"),
        (0x8004, "DW_TAG_GHS_namespace"),
        (0x8005, "DW_TAG_GHS_using_namespace"),
        (0x8006, "DW_TAG_GHS_using_declaration"),
        (0x8007, "DW_TAG_GHS_template_templ_param"),
        (0x8765, "DW_TAG_UPC_shared_type"),
        (0x8766, "DW_TAG_UPC_strict_type"),
        (0x8767, "DW_TAG_UPC_relaxed"),
        (0xa000, "DW_TAG_PGI_kanji_type"),
        (0xa020, "DW_TAG_PGI_interface_block"),
        (0xb000, "DW_TAG_BORLAND_property"),
        (0xb001, "DW_TAG_BORLAND_Delphi_string"),
        (0xb002, "DW_TAG_BORLAND_Delphi_dynamic_array"),
        (0xb003, "DW_TAG_BORLAND_Delphi_set"),
        (0xb004, "DW_TAG_BORLAND_Delphi_variant"),
    ];
    by_number(v, &STANDARD, VENDOR)
}

/// `dwarf::LanguageString` of LLVM 14: DWARF 5's languages up to
/// `DW_LANG_BLISS` and three vendors'. Later ones (Kotlin, Zig, C17, ...)
/// are numbers to it.
pub fn language_name(v: u64) -> Option<&'static str> {
    const STANDARD: [&str; 0x26] = [
        "",
        "DW_LANG_C89",
        "DW_LANG_C",
        "DW_LANG_Ada83",
        "DW_LANG_C_plus_plus",
        "DW_LANG_Cobol74",
        "DW_LANG_Cobol85",
        "DW_LANG_Fortran77",
        "DW_LANG_Fortran90",
        "DW_LANG_Pascal83",
        "DW_LANG_Modula2",
        "DW_LANG_Java",
        "DW_LANG_C99",
        "DW_LANG_Ada95",
        "DW_LANG_Fortran95",
        "DW_LANG_PLI",
        "DW_LANG_ObjC",
        "DW_LANG_ObjC_plus_plus",
        "DW_LANG_UPC",
        "DW_LANG_D",
        "DW_LANG_Python",
        "DW_LANG_OpenCL",
        "DW_LANG_Go",
        "DW_LANG_Modula3",
        "DW_LANG_Haskell",
        "DW_LANG_C_plus_plus_03",
        "DW_LANG_C_plus_plus_11",
        "DW_LANG_OCaml",
        "DW_LANG_Rust",
        "DW_LANG_C11",
        "DW_LANG_Swift",
        "DW_LANG_Julia",
        "DW_LANG_Dylan",
        "DW_LANG_C_plus_plus_14",
        "DW_LANG_Fortran03",
        "DW_LANG_Fortran08",
        "DW_LANG_RenderScript",
        "DW_LANG_BLISS",
    ];
    const VENDOR: &[(u64, &str)] = &[
        (0x8001, "DW_LANG_Mips_Assembler"),
        (0x8e57, "DW_LANG_GOOGLE_RenderScript"),
        (0xb000, "DW_LANG_BORLAND_Delphi"),
    ];
    by_number(v, &STANDARD, VENDOR)
}

/// `dwarf::AttributeEncodingString` of LLVM 14.
fn encoding_name(v: u64) -> Option<&'static str> {
    const STANDARD: [&str; 0x13] = [
        "",
        "DW_ATE_address",
        "DW_ATE_boolean",
        "DW_ATE_complex_float",
        "DW_ATE_float",
        "DW_ATE_signed",
        "DW_ATE_signed_char",
        "DW_ATE_unsigned",
        "DW_ATE_unsigned_char",
        "DW_ATE_imaginary_float",
        "DW_ATE_packed_decimal",
        "DW_ATE_numeric_string",
        "DW_ATE_edited",
        "DW_ATE_signed_fixed",
        "DW_ATE_unsigned_fixed",
        "DW_ATE_decimal_float",
        "DW_ATE_UTF",
        "DW_ATE_UCS",
        "DW_ATE_ASCII",
    ];
    const VENDOR: &[(u64, &str)] = &[
        (0x81, "DW_ATE_HP_complex_float"),
        (0x82, "DW_ATE_HP_float128"),
        (0x83, "DW_ATE_HP_complex_float128"),
        (0x84, "DW_ATE_HP_floathpintel"),
        (0x85, "DW_ATE_HP_imaginary_float90"),
        (0x86, "DW_ATE_HP_imaginary_float128"),
    ];
    by_number(v, &STANDARD, VENDOR)
}

/// `dwarf::ConventionString` of LLVM 14.
fn convention_name(v: u64) -> Option<&'static str> {
    const NAMES: &[(u64, &str)] = &[
        (0x01, "DW_CC_normal"),
        (0x02, "DW_CC_program"),
        (0x03, "DW_CC_nocall"),
        (0x04, "DW_CC_pass_by_reference"),
        (0x05, "DW_CC_pass_by_value"),
        (0x40, "DW_CC_GNU_renesas_sh"),
        (0x41, "DW_CC_GNU_borland_fastcall_i386"),
        (0xb0, "DW_CC_BORLAND_safecall"),
        (0xb1, "DW_CC_BORLAND_stdcall"),
        (0xb2, "DW_CC_BORLAND_pascal"),
        (0xb3, "DW_CC_BORLAND_msfastcall"),
        (0xb4, "DW_CC_BORLAND_msreturn"),
        (0xb5, "DW_CC_BORLAND_thiscall"),
        (0xb6, "DW_CC_BORLAND_fastcall"),
        (0xc0, "DW_CC_LLVM_vectorcall"),
        (0xc1, "DW_CC_LLVM_Win64"),
        (0xc2, "DW_CC_LLVM_X86_64SysV"),
        (0xc3, "DW_CC_LLVM_AAPCS"),
        (0xc4, "DW_CC_LLVM_AAPCS_VFP"),
        (0xc5, "DW_CC_LLVM_IntelOclBicc"),
        (0xc6, "DW_CC_LLVM_SpirFunction"),
        (0xc7, "DW_CC_LLVM_OpenCLKernel"),
        (0xc8, "DW_CC_LLVM_Swift"),
        (0xc9, "DW_CC_LLVM_PreserveMost"),
        (0xca, "DW_CC_LLVM_PreserveAll"),
        (0xcb, "DW_CC_LLVM_X86RegCall"),
        (0xff, "DW_CC_GDB_IBM_OpenCL"),
    ];
    by_number(v, &[], NAMES)
}

/// `printDIFlags`: left out when zero; as `DINode::splitFlags` splits
/// them (the access and inheritance groups by value, then
/// `DIFlagIndirectVirtualBase`, then each bit), any bits LLVM 14 does not
/// name last as one number.
fn di_flags(f: &mut Fields, mut v: u64) {
    const BITS: &[(u64, &str)] = &[
        (1 << 2, "DIFlagFwdDecl"),
        (1 << 3, "DIFlagAppleBlock"),
        (1 << 4, "DIFlagReservedBit4"),
        (1 << 5, "DIFlagVirtual"),
        (1 << 6, "DIFlagArtificial"),
        (1 << 7, "DIFlagExplicit"),
        (1 << 8, "DIFlagPrototyped"),
        (1 << 9, "DIFlagObjcClassComplete"),
        (1 << 10, "DIFlagObjectPointer"),
        (1 << 11, "DIFlagVector"),
        (1 << 12, "DIFlagStaticMember"),
        (1 << 13, "DIFlagLValueReference"),
        (1 << 14, "DIFlagRValueReference"),
        (1 << 15, "DIFlagExportSymbols"),
        (1 << 18, "DIFlagIntroducedVirtual"),
        (1 << 19, "DIFlagBitField"),
        (1 << 20, "DIFlagNoReturn"),
        (1 << 22, "DIFlagTypePassByValue"),
        (1 << 23, "DIFlagTypePassByReference"),
        (1 << 24, "DIFlagEnumClass"),
        (1 << 25, "DIFlagThunk"),
        (1 << 26, "DIFlagNonTrivial"),
        (1 << 27, "DIFlagBigEndian"),
        (1 << 28, "DIFlagLittleEndian"),
        (1 << 29, "DIFlagAllCallsDescribed"),
    ];
    if v == 0 {
        return;
    }
    let mut parts = Vec::new();
    let access = ["", "DIFlagPrivate", "DIFlagProtected", "DIFlagPublic"];
    let inheritance = [
        "",
        "DIFlagSingleInheritance",
        "DIFlagMultipleInheritance",
        "DIFlagVirtualInheritance",
    ];
    for (shift, names) in [(0, access), (16, inheritance)] {
        let group = (v >> shift) & 3;
        if group != 0 {
            parts.push(names[group as usize]);
            v &= !(3 << shift);
        }
    }
    const INDIRECT_VIRTUAL_BASE: u64 = (1 << 2) | (1 << 5);
    if v & INDIRECT_VIRTUAL_BASE == INDIRECT_VIRTUAL_BASE {
        parts.push("DIFlagIndirectVirtualBase");
        v &= !INDIRECT_VIRTUAL_BASE;
    }
    f.push("flags", split_flags(parts, v, BITS));
}

/// `printDISPFlags`: always printed (none at all would read as the old
/// `isDefinition: true`), `0` when none; each bit by name (virtuality's
/// two values are single bits).
fn sp_flags(f: &mut Fields, v: u64) {
    const BITS: &[(u64, &str)] = &[
        (1, "DISPFlagVirtual"),
        (1 << 1, "DISPFlagPureVirtual"),
        (1 << 2, "DISPFlagLocalToUnit"),
        (1 << 3, "DISPFlagDefinition"),
        (1 << 4, "DISPFlagOptimized"),
        (1 << 5, "DISPFlagPure"),
        (1 << 6, "DISPFlagElemental"),
        (1 << 7, "DISPFlagRecursive"),
        (1 << 8, "DISPFlagMainSubprogram"),
        (1 << 9, "DISPFlagDeleted"),
        (1 << 11, "DISPFlagObjCDirect"),
    ];
    f.push("spFlags", split_flags(Vec::new(), v, BITS));
}

/// `parts`, then each of `bits` set in `v`, then what is left as a number
/// (also when nothing was named), joined by ` | `.
fn split_flags(mut parts: Vec<&'static str>, mut v: u64, bits: &[(u64, &'static str)]) -> Field {
    for &(bit, name) in bits {
        if v & bit != 0 {
            parts.push(name);
            v &= !bit;
        }
    }
    let mut text = parts.join(" | ");
    if v != 0 || parts.is_empty() {
        if !parts.is_empty() {
            text.push_str(" | ");
        }
        text.push_str(&v.to_string());
    }
    Field::Text(text)
}

/// One debug-info record as a node.
pub fn node(r: &Reader<'_>, code: u32, ops: &[u64]) -> Result<Md, Error> {
    let need = |n: usize, what: &str| {
        if ops.len() < n {
            Err(bad(r, what))
        } else {
            Ok(())
        }
    };
    let distinct = get(ops, 0) & 1 != 0;
    let mut f = Fields::default();
    let kind = match code {
        7 => {
            // [distinct, line, column, scope, inlinedAt + 1, implicit]
            need(5, "DILocation")?;
            f.int_always("line", ops[1]);
            f.int("column", ops[2]);
            f.push("scope", Field::MdOrNull(ops[3].saturating_add(1)));
            f.md("inlinedAt", ops, 4);
            f.bool("isImplicitCode", get(ops, 5) != 0, Some(false));
            "DILocation"
        }
        13 => {
            // [distinct | version << 1, count, lower bound, (upper bound,
            //  stride)]: version 0 holds both as numbers, 1 the count as
            //  a node, 2 all four.
            need(3, "DISubrange")?;
            let lower = Field::Int(super::constants::decode_signed(ops[2]));
            match ops[0] >> 1 {
                0 => {
                    f.push("count", Field::Int(ops[1] as i64));
                    f.push("lowerBound", lower);
                }
                1 => {
                    f.push("count", Field::Bound(ops[1]));
                    f.push("lowerBound", lower);
                }
                _ => {
                    for (i, name) in ["count", "lowerBound", "upperBound", "stride"]
                        .into_iter()
                        .enumerate()
                    {
                        f.push(name, Field::Bound(get(ops, i + 1)));
                    }
                }
            }
            "DISubrange"
        }
        14 => {
            // [distinct | unsigned << 1 | big << 2, value | bit width,
            //  name, words...]
            need(3, "DIEnumerator")?;
            let unsigned = ops[0] & 2 != 0;
            let value = if ops[0] & 4 != 0 {
                // A wide value: its words, each sign-rotated, low first.
                let word = |i| super::constants::decode_signed(get(ops, i)) as u64;
                let wide = (u128::from(word(4)) << 64) | u128::from(word(3));
                let bits = ops[1].clamp(1, 128) as u32;
                let wide = wide << (128 - bits);
                if unsigned {
                    (wide >> (128 - bits)).to_string()
                } else {
                    ((wide as i128) >> (128 - bits)).to_string()
                }
            } else {
                let v = super::constants::decode_signed(ops[1]);
                if unsigned {
                    (v as u64).to_string()
                } else {
                    v.to_string()
                }
            };
            f.str_always("name", ops, 2);
            f.push("value", Field::Text(value));
            f.bool("isUnsigned", unsigned, Some(false));
            "DIEnumerator"
        }
        15 => {
            // [distinct, tag, name, size, align, encoding, flags?]
            need(6, "DIBasicType")?;
            if ops[1] != 0x24 {
                f.tag(ops[1]);
            }
            f.str("name", ops, 2);
            f.int("size", ops[3]);
            f.int("align", ops[4]);
            f.dwarf("encoding", ops[5], encoding_name);
            di_flags(&mut f, get(ops, 6));
            "DIBasicType"
        }
        16 => {
            // [distinct, filename, directory, checksum kind, checksum,
            //  source?]: the file's names are printed even when empty.
            need(3, "DIFile")?;
            f.str_always("filename", ops, 1);
            f.str_always("directory", ops, 2);
            if get(ops, 3) != 0 && get(ops, 4) != 0 {
                let kind = match ops[3] {
                    1 => "CSK_MD5",
                    2 => "CSK_SHA1",
                    _ => "CSK_SHA256",
                };
                f.push("checksumkind", Field::Word(kind));
                f.str_always("checksum", ops, 4);
            }
            f.str("source", ops, 5);
            "DIFile"
        }
        17 => {
            // [distinct, tag, name, file, line, scope, base, size, align,
            //  offset, flags, extra, dwarf address space + 1,
            //  annotations]
            need(12, "DIDerivedType")?;
            type_fields(&mut f, ops, Field::MdOrNull(ops[6]));
            f.md("extraData", ops, 11);
            if get(ops, 12) != 0 {
                f.int_always("dwarfAddressSpace", ops[12] - 1);
            }
            f.md("annotations", ops, 13);
            "DIDerivedType"
        }
        18 => {
            // [distinct, tag, name, file, line, scope, base, size, align,
            //  offset, flags, elements, runtime language, vtable holder,
            //  template parameters, identifier, discriminator, data
            //  location, associated, allocated, rank, annotations]
            need(16, "DICompositeType")?;
            type_fields(&mut f, ops, Field::Md(ops[6]));
            f.md("elements", ops, 11);
            f.dwarf("runtimeLang", ops[12], language_name);
            f.md("vtableHolder", ops, 13);
            f.md("templateParams", ops, 14);
            f.str("identifier", ops, 15);
            f.md("discriminator", ops, 16);
            f.md("dataLocation", ops, 17);
            f.md("associated", ops, 18);
            f.md("allocated", ops, 19);
            f.push("rank", Field::Bound(get(ops, 20)));
            f.md("annotations", ops, 21);
            "DICompositeType"
        }
        19 => {
            // [distinct | version, flags, types, cc?]
            need(3, "DISubroutineType")?;
            di_flags(&mut f, ops[1]);
            f.dwarf("cc", get(ops, 3), convention_name);
            f.md_or_null("types", ops, 2);
            "DISubroutineType"
        }
        20 => {
            // [distinct, language, file, producer, optimized, flags,
            //  runtime version, split debug file, emission kind, enums,
            //  retained types, (subprograms), globals, imports, dwo id,
            //  macros, split debug inlining, profiling, name table kind,
            //  ranges base address, sysroot, sdk]
            need(14, "DICompileUnit")?;
            f.dwarf("language", ops[1], language_name);
            f.md_or_null("file", ops, 2);
            f.str("producer", ops, 3);
            f.bool("isOptimized", ops[4] != 0, None);
            f.str("flags", ops, 5);
            f.int_always("runtimeVersion", ops[6]);
            f.str("splitDebugFilename", ops, 7);
            let emission = match ops[8] {
                0 => "NoDebug",
                1 => "FullDebug",
                2 => "LineTablesOnly",
                _ => "DebugDirectivesOnly",
            };
            f.push("emissionKind", Field::Word(emission));
            f.md("enums", ops, 9);
            f.md("retainedTypes", ops, 10);
            f.md("globals", ops, 12);
            f.md("imports", ops, 13);
            f.md("macros", ops, 15);
            f.int("dwoId", get(ops, 14));
            f.bool("splitDebugInlining", ops.get(16) != Some(&0), Some(true));
            f.bool("debugInfoForProfiling", get(ops, 17) != 0, Some(false));
            let name_table = match get(ops, 18) {
                0 => None,
                1 => Some("GNU"),
                2 => Some("None"),
                _ => Some("Apple"),
            };
            if let Some(kind) = name_table {
                f.push("nameTableKind", Field::Word(kind));
            }
            f.bool("rangesBaseAddress", get(ops, 19) != 0, Some(false));
            f.str("sysroot", ops, 20);
            f.str("sdk", ops, 21);
            return Ok(f.done(true, "DICompileUnit"));
        }
        21 => return subprogram(r, ops),
        22 => {
            // [distinct, scope, file, line, column]
            need(5, "DILexicalBlock")?;
            f.md_or_null("scope", ops, 1);
            f.md("file", ops, 2);
            f.int("line", ops[3]);
            f.int("column", ops[4]);
            "DILexicalBlock"
        }
        23 => {
            // [distinct, scope, file, discriminator]
            need(4, "DILexicalBlockFile")?;
            f.md_or_null("scope", ops, 1);
            f.md("file", ops, 2);
            f.int_always("discriminator", ops[3]);
            "DILexicalBlockFile"
        }
        24 => {
            // [distinct | export << 1, scope, (file, name, line) | name]
            let name = match ops.len() {
                3 => 2,
                5 => 3,
                _ => return Err(bad(r, "DINamespace")),
            };
            f.str("name", ops, name);
            f.md_or_null("scope", ops, 1);
            f.bool("exportSymbols", ops[0] & 2 != 0, Some(false));
            "DINamespace"
        }
        25 => {
            // [distinct, name, type, defaulted?]
            need(3, "DITemplateTypeParameter")?;
            f.str("name", ops, 1);
            f.md_or_null("type", ops, 2);
            f.bool("defaulted", ops.len() == 4 && ops[3] != 0, Some(false));
            "DITemplateTypeParameter"
        }
        26 => {
            // [distinct, tag, name, type, (defaulted,) value]
            need(5, "DITemplateValueParameter")?;
            let (defaulted, value) = match ops.len() {
                6 => (ops[4] != 0, 5),
                _ => (false, 4),
            };
            if ops[1] != 0x30 {
                f.tag(ops[1]);
            }
            f.str("name", ops, 2);
            f.md("type", ops, 3);
            f.bool("defaulted", defaulted, Some(false));
            f.md_or_null("value", ops, value);
            "DITemplateValueParameter"
        }
        27 => {
            // [distinct | version << 1, scope, name, linkage name, file,
            //  line, type, local, definition, then in version 2
            //  declaration, template parameters, align, annotations;
            //  before, (expression,) declaration, align]
            need(11, "DIGlobalVariable")?;
            let version = ops[0] >> 1;
            f.str("name", ops, 2);
            f.str("linkageName", ops, 3);
            f.md_or_null("scope", ops, 1);
            f.md("file", ops, 4);
            f.int("line", ops[5]);
            f.md("type", ops, 6);
            f.bool("isLocal", ops[7] != 0, None);
            f.bool("isDefinition", ops[8] != 0, None);
            if version >= 2 {
                f.md("declaration", ops, 9);
                f.md("templateParams", ops, 10);
                f.int("align", get(ops, 11));
                f.md("annotations", ops, 12);
            } else {
                f.md("declaration", ops, 10);
                f.int("align", get(ops, 11));
            }
            "DIGlobalVariable"
        }
        28 => {
            // [distinct | hasAlignment << 1, (tag), scope, name, file, line,
            //  type, arg, flags, align?, annotations?]
            need(8, "DILocalVariable")?;
            let has_align = ops[0] & 2 != 0;
            let t = usize::from(!has_align && ops.len() > 8);
            need(8 + t, "DILocalVariable")?;
            f.str("name", ops, 2 + t);
            f.int("arg", ops[6 + t]);
            f.md_or_null("scope", ops, 1 + t);
            f.md("file", ops, 3 + t);
            f.int("line", ops[4 + t]);
            f.md("type", ops, 5 + t);
            di_flags(&mut f, ops[7 + t]);
            if has_align {
                f.int("align", get(ops, 8));
                f.md("annotations", ops, 9);
            }
            "DILocalVariable"
        }
        29 => {
            let elements = expression(ops.get(1..).unwrap_or_default());
            let text = format!("!DIExpression({})", elements.join(", "));
            return Ok(Md::Raw(if distinct {
                format!("distinct {text}")
            } else {
                text
            }));
        }
        31 => {
            // [distinct, tag, scope, entity, line, name, file?, elements?]
            need(6, "DIImportedEntity")?;
            f.tag(ops[1]);
            f.str("name", ops, 5);
            f.md_or_null("scope", ops, 2);
            f.md("entity", ops, 3);
            f.md("file", ops, 6);
            f.int("line", ops[4]);
            f.md("elements", ops, 7);
            "DIImportedEntity"
        }
        32 => {
            // [distinct, (file,) scope, name, config macros, include path,
            //  api notes, (line, is declaration)]
            need(5, "DIModule")?;
            let o = if ops.len() >= 8 { 2 } else { 1 };
            f.md_or_null("scope", ops, o);
            f.str("name", ops, o + 1);
            f.str("configMacros", ops, o + 2);
            f.str("includePath", ops, o + 3);
            f.str("apinotes", ops, o + 4);
            if o == 2 {
                f.md("file", ops, 1);
            }
            f.int("line", get(ops, 7));
            f.bool("isDecl", get(ops, 8) != 0, Some(false));
            "DIModule"
        }
        37 => {
            need(3, "DIGlobalVariableExpression")?;
            f.md("var", ops, 1);
            f.md("expr", ops, 2);
            "DIGlobalVariableExpression"
        }
        40 => {
            // [distinct, scope, name, file, line]
            need(5, "DILabel")?;
            f.md_or_null("scope", ops, 1);
            f.str("name", ops, 2);
            f.md("file", ops, 3);
            f.int("line", ops[4]);
            "DILabel"
        }
        c => {
            return Err(r.error(format!("metadata record {c} is not read natively")));
        }
    };
    Ok(f.done(distinct, kind))
}

/// What derived and composite types' records share: [distinct, tag,
/// name, file, line, scope, base type, size, align, offset, flags], the
/// base type printed as `base` says.
fn type_fields(f: &mut Fields, ops: &[u64], base: Field) {
    f.tag(ops[1]);
    f.str("name", ops, 2);
    f.md("scope", ops, 5);
    f.md("file", ops, 3);
    f.int("line", ops[4]);
    f.push("baseType", base);
    f.int("size", ops[7]);
    f.int("align", ops[8]);
    f.int("offset", ops[9]);
    di_flags(f, ops[10]);
}

fn subprogram(r: &Reader<'_>, ops: &[u64]) -> Result<Md, Error> {
    if ops.len() < 18 {
        return Err(bad(r, "DISubprogram"));
    }
    // As `MetadataLoader`: version 5 (sp flags) or the older layouts,
    // whose fields sit 2 (and 3 with a function or unit at 15) later.
    let has_sp_flags = ops[0] & 4 != 0;
    let has_unit = ops[0] & 2 != 0;
    let (a, b) = if has_sp_flags {
        (0, 0)
    } else {
        (2, if ops.len() >= 19 { 3 } else { 2 })
    };
    let (mut flags, mut spflags) = if has_sp_flags {
        (ops[11], ops[9])
    } else {
        (ops[13], 0)
    };
    // The old DIFlagMainSubprogram (bit 21) is an sp flag now.
    let old_main = flags & (1 << 21) != 0;
    flags &= !(1 << 21);
    if has_sp_flags {
        spflags |= if old_main { 1 << 8 } else { 0 };
    } else {
        // Old layout: local, definition, optimized, virtuality apart.
        spflags = (get(ops, 11) & 3)
            | if ops[7] != 0 { 4 } else { 0 }
            | if ops[8] != 0 { 8 } else { 0 }
            | if ops[14] != 0 { 16 } else { 0 }
            | if old_main { 1 << 8 } else { 0 };
    }
    let this_adjustment = match has_sp_flags || ops.len() >= 20 {
        true => get(ops, 16 + b),
        false => 0,
    };
    let thrown_types = has_sp_flags || ops.len() >= 21;
    let distinct = ops[0] & 1 != 0 || spflags & 8 != 0;
    let mut f = Fields::default();
    f.str("name", ops, 2);
    f.str("linkageName", ops, 3);
    f.md_or_null("scope", ops, 1);
    f.md("file", ops, 4);
    f.int("line", ops[5]);
    f.md("type", ops, 6);
    f.int("scopeLine", get(ops, 7 + a));
    f.md("containingType", ops, 8 + a);
    let virtual_index = get(ops, 10 + a);
    if spflags & 3 != 0 || virtual_index != 0 {
        f.int_always("virtualIndex", virtual_index);
    }
    // A signed 32-bit number.
    if this_adjustment != 0 {
        f.push(
            "thisAdjustment",
            Field::Int(i64::from(this_adjustment as i32)),
        );
    }
    di_flags(&mut f, flags);
    sp_flags(&mut f, spflags);
    if has_unit {
        f.md("unit", ops, 12 + b);
    }
    f.md("templateParams", ops, 13 + b);
    f.md("declaration", ops, 14 + b);
    f.md("retainedNodes", ops, 15 + b);
    if thrown_types {
        f.md("thrownTypes", ops, 17 + b);
    }
    if has_sp_flags && ops.len() >= 19 {
        f.md("annotations", ops, 18 + b);
    }
    Ok(f.done(distinct, "DISubprogram"))
}

/// DIExpression elements: operations by name, each followed by its
/// operands as numbers (`DW_OP_LLVM_convert`'s encoding by name).
fn expression(elements: &[u64]) -> Vec<String> {
    let mut out = Vec::new();
    let mut i = 0;
    while let Some(&op) = elements.get(i) {
        out.push(expr_op(op));
        let arity = match op {
            0x10 | 0x11 | 0x23 | 0x1002 | 0x1003 | 0x1005 => 1,
            0x1000 | 0x1001 => 2,
            _ => 0,
        };
        for k in 1..=arity {
            if let Some(&v) = elements.get(i + k) {
                match (op, k, encoding_name(v)) {
                    (0x1001, 2, Some(name)) => out.push(name.to_string()),
                    _ => out.push(v.to_string()),
                }
            }
        }
        i += 1 + arity;
    }
    out
}

fn expr_op(v: u64) -> String {
    match v {
        0x06 => "DW_OP_deref".into(),
        0x10 => "DW_OP_constu".into(),
        0x11 => "DW_OP_consts".into(),
        0x12 => "DW_OP_dup".into(),
        0x1a => "DW_OP_and".into(),
        0x1b => "DW_OP_div".into(),
        0x1c => "DW_OP_minus".into(),
        0x1d => "DW_OP_mod".into(),
        0x1e => "DW_OP_mul".into(),
        0x1f => "DW_OP_neg".into(),
        0x20 => "DW_OP_not".into(),
        0x21 => "DW_OP_or".into(),
        0x22 => "DW_OP_plus".into(),
        0x23 => "DW_OP_plus_uconst".into(),
        0x24 => "DW_OP_shl".into(),
        0x25 => "DW_OP_shr".into(),
        0x26 => "DW_OP_shra".into(),
        0x27 => "DW_OP_xor".into(),
        0x9f => "DW_OP_stack_value".into(),
        0x1000 => "DW_OP_LLVM_fragment".into(),
        0x1001 => "DW_OP_LLVM_convert".into(),
        0x1002 => "DW_OP_LLVM_tag_offset".into(),
        0x1003 => "DW_OP_LLVM_entry_value".into(),
        0x1004 => "DW_OP_LLVM_implicit_pointer".into(),
        0x1005 => "DW_OP_LLVM_arg".into(),
        _ => v.to_string(),
    }
}
