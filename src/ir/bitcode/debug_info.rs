//! Debug-info records of a METADATA_BLOCK, by LLVM's layouts
//! (`MetadataLoader.cpp`), into named fields as `AsmWriter` prints them.
//! Only the kinds Apple's compilers write are read; others are refused.

use super::Error;
use super::bitstream::Reader;
use super::metadata::{Field, Md};
use super::module::bad;

fn get(ops: &[u64], i: usize) -> u64 {
    ops.get(i).copied().unwrap_or(0)
}

fn md(ops: &[u64], i: usize) -> Field {
    Field::Md(get(ops, i))
}

fn s(ops: &[u64], i: usize) -> Field {
    Field::Str(get(ops, i))
}

fn num(v: u64) -> Field {
    Field::Text(v.to_string())
}

fn text(t: &str) -> Field {
    Field::Text(t.to_string())
}

fn tag(v: u64) -> Field {
    let name = match v {
        0x01 => "DW_TAG_array_type",
        0x02 => "DW_TAG_class_type",
        0x04 => "DW_TAG_enumeration_type",
        0x05 => "DW_TAG_formal_parameter",
        0x08 => "DW_TAG_imported_declaration",
        0x0d => "DW_TAG_member",
        0x0f => "DW_TAG_pointer_type",
        0x10 => "DW_TAG_reference_type",
        0x13 => "DW_TAG_structure_type",
        0x15 => "DW_TAG_subroutine_type",
        0x16 => "DW_TAG_typedef",
        0x17 => "DW_TAG_union_type",
        0x1c => "DW_TAG_inheritance",
        0x1f => "DW_TAG_ptr_to_member_type",
        0x24 => "DW_TAG_base_type",
        0x26 => "DW_TAG_const_type",
        0x2f => "DW_TAG_template_type_parameter",
        0x30 => "DW_TAG_template_value_parameter",
        0x34 => "DW_TAG_variable",
        0x35 => "DW_TAG_volatile_type",
        0x37 => "DW_TAG_restrict_type",
        0x3a => "DW_TAG_imported_module",
        0x42 => "DW_TAG_rvalue_reference_type",
        0x3b => "DW_TAG_unspecified_type",
        _ => return num(v),
    };
    text(name)
}

fn encoding(v: u64) -> Field {
    let name = match v {
        0x01 => "DW_ATE_address",
        0x02 => "DW_ATE_boolean",
        0x04 => "DW_ATE_float",
        0x05 => "DW_ATE_signed",
        0x06 => "DW_ATE_signed_char",
        0x07 => "DW_ATE_unsigned",
        0x08 => "DW_ATE_unsigned_char",
        0x10 => "DW_ATE_UTF",
        _ => return num(v),
    };
    text(name)
}

/// DIFlags as `DIFlagA | DIFlagB`, with any unknown bits as a number.
fn di_flags(v: u64) -> Field {
    const FLAGS: &[(u64, &str)] = &[
        (3, "DIFlagPublic"),
        (1, "DIFlagPrivate"),
        (2, "DIFlagProtected"),
        (1 << 2, "DIFlagFwdDecl"),
        (1 << 3, "DIFlagAppleBlock"),
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
    flags(v, FLAGS)
}

fn sp_flags(v: u64) -> Field {
    const FLAGS: &[(u64, &str)] = &[
        (3, "DISPFlagPureVirtual"),
        (1, "DISPFlagVirtual"),
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
    flags(v, FLAGS)
}

fn flags(mut v: u64, table: &[(u64, &str)]) -> Field {
    let mut parts = Vec::new();
    for &(bits, name) in table {
        // The two-bit groups (access, virtuality) match whole.
        let mask = if bits == 3 || bits == 1 || bits == 2 {
            3
        } else {
            bits
        };
        if v & mask == bits {
            parts.push(name.to_string());
            v &= !mask;
        }
    }
    if v != 0 {
        parts.push(v.to_string());
    }
    Field::Text(parts.join(" | "))
}

fn special(distinct: bool, kind: &'static str, fields: Vec<(&'static str, Field)>) -> Md {
    Md::Special {
        distinct,
        kind,
        fields,
    }
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
    Ok(match code {
        7 => {
            // [distinct, line, column, scope, inlinedAt + 1, implicit]
            need(5, "DILocation")?;
            let mut f = vec![
                ("line", num(ops[1])),
                ("column", num(ops[2])),
                ("scope", Field::MdOrNull(ops[3].saturating_add(1))),
                ("inlinedAt", md(ops, 4)),
            ];
            if get(ops, 5) != 0 {
                f.push(("isImplicitCode", text("true")));
            }
            special(distinct, "DILocation", f)
        }
        13 => {
            // [distinct | version << 1, count, lower bound]
            need(3, "DISubrange")?;
            let f = match ops[0] >> 1 {
                0 => vec![
                    ("count", Field::Int(ops[1] as i64)),
                    (
                        "lowerBound",
                        Field::Int(super::constants::decode_signed(ops[2])),
                    ),
                ],
                1 => vec![
                    ("count", md(ops, 1)),
                    (
                        "lowerBound",
                        Field::Int(super::constants::decode_signed(ops[2])),
                    ),
                ],
                _ => vec![
                    ("count", md(ops, 1)),
                    ("lowerBound", md(ops, 2)),
                    ("upperBound", md(ops, 3)),
                    ("stride", md(ops, 4)),
                ],
            };
            special(distinct, "DISubrange", f)
        }
        14 => {
            need(3, "DIEnumerator")?;
            let unsigned = ops[0] & 2 != 0;
            let mut f = vec![
                ("name", s(ops, 2)),
                ("value", Field::Int(super::constants::decode_signed(ops[1]))),
            ];
            if unsigned {
                f.push(("isUnsigned", text("true")));
            }
            special(distinct, "DIEnumerator", f)
        }
        15 => {
            // [distinct, tag, name, size, align, encoding, flags?]
            need(6, "DIBasicType")?;
            let mut f = vec![("name", s(ops, 2)), ("size", num(ops[3]))];
            if ops[4] != 0 {
                f.push(("align", num(ops[4])));
            }
            f.push(("encoding", encoding(ops[5])));
            if get(ops, 6) != 0 {
                f.push(("flags", di_flags(ops[6])));
            }
            special(distinct, "DIBasicType", f)
        }
        16 => {
            // [distinct, filename, directory, checksum kind, checksum, source?]
            need(3, "DIFile")?;
            let mut f = vec![("filename", s(ops, 1)), ("directory", s(ops, 2))];
            if get(ops, 3) != 0 && get(ops, 4) != 0 {
                let kind = match ops[3] {
                    1 => "CSK_MD5",
                    2 => "CSK_SHA1",
                    _ => "CSK_SHA256",
                };
                f.push(("checksumkind", text(kind)));
                f.push(("checksum", s(ops, 4)));
            }
            if get(ops, 5) != 0 {
                f.push(("source", s(ops, 5)));
            }
            special(distinct, "DIFile", f)
        }
        17 => {
            // [distinct, tag, name, file, line, scope, base, size, align,
            //  offset, flags, extra, dwarf address space + 1, ...]
            need(12, "DIDerivedType")?;
            let mut f = vec![
                ("tag", tag(ops[1])),
                ("name", s(ops, 2)),
                ("scope", md(ops, 5)),
                ("file", md(ops, 3)),
                ("line", num(ops[4])),
                ("baseType", Field::MdOrNull(ops[6])),
                ("size", num(ops[7])),
                ("align", num(ops[8])),
                ("offset", num(ops[9])),
            ];
            if ops[10] != 0 {
                f.push(("flags", di_flags(ops[10])));
            }
            f.push(("extraData", md(ops, 11)));
            if get(ops, 12) != 0 {
                f.push(("dwarfAddressSpace", num(ops[12] - 1)));
            }
            special(distinct, "DIDerivedType", f)
        }
        18 => {
            need(16, "DICompositeType")?;
            let mut f = vec![
                ("tag", tag(ops[1])),
                ("name", s(ops, 2)),
                ("scope", md(ops, 5)),
                ("file", md(ops, 3)),
                ("line", num(ops[4])),
                ("baseType", md(ops, 6)),
                ("size", num(ops[7])),
                ("align", num(ops[8])),
                ("offset", num(ops[9])),
            ];
            if ops[10] != 0 {
                f.push(("flags", di_flags(ops[10])));
            }
            f.push(("elements", md(ops, 11)));
            if ops[12] != 0 {
                f.push(("runtimeLang", num(ops[12])));
            }
            f.push(("vtableHolder", md(ops, 13)));
            f.push(("templateParams", md(ops, 14)));
            f.push(("identifier", s(ops, 15)));
            special(distinct, "DICompositeType", f)
        }
        19 => {
            // [distinct | version, flags, types, cc?]
            need(3, "DISubroutineType")?;
            let mut f = Vec::new();
            if ops[1] != 0 {
                f.push(("flags", di_flags(ops[1])));
            }
            if get(ops, 3) != 0 {
                f.push(("cc", num(ops[3])));
            }
            f.push(("types", Field::MdOrNull(ops[2])));
            special(distinct, "DISubroutineType", f)
        }
        20 => {
            need(14, "DICompileUnit")?;
            let mut f = vec![
                ("language", num(ops[1])),
                ("file", md(ops, 2)),
                ("producer", s(ops, 3)),
                (
                    "isOptimized",
                    text(if ops[4] != 0 { "true" } else { "false" }),
                ),
                ("flags", s(ops, 5)),
                ("runtimeVersion", num(ops[6])),
                ("splitDebugFilename", s(ops, 7)),
                (
                    "emissionKind",
                    text(match ops[8] {
                        0 => "NoDebug",
                        1 => "FullDebug",
                        2 => "LineTablesOnly",
                        _ => "DebugDirectivesOnly",
                    }),
                ),
                ("enums", md(ops, 9)),
                ("retainedTypes", md(ops, 10)),
                ("globals", md(ops, 12)),
                ("imports", md(ops, 13)),
            ];
            if get(ops, 14) != 0 {
                f.push(("dwoId", num(ops[14])));
            }
            f.push(("macros", md(ops, 15)));
            if ops.len() > 18 && ops[18] != 0 {
                f.push((
                    "nameTableKind",
                    text(match ops[18] {
                        1 => "GNU",
                        2 => "None",
                        _ => "Apple",
                    }),
                ));
            }
            f.push(("sysroot", s(ops, 20)));
            f.push(("sdk", s(ops, 21)));
            special(true, "DICompileUnit", f)
        }
        21 => subprogram(r, ops)?,
        22 => {
            need(5, "DILexicalBlock")?;
            special(
                distinct,
                "DILexicalBlock",
                vec![
                    ("scope", Field::MdOrNull(ops[1])),
                    ("file", md(ops, 2)),
                    ("line", num(ops[3])),
                    ("column", num(ops[4])),
                ],
            )
        }
        23 => {
            need(4, "DILexicalBlockFile")?;
            special(
                distinct,
                "DILexicalBlockFile",
                vec![
                    ("scope", Field::MdOrNull(ops[1])),
                    ("file", md(ops, 2)),
                    ("discriminator", num(ops[3])),
                ],
            )
        }
        24 => {
            // [distinct | export << 1, scope, (file, name, line) | name]
            let name = match ops.len() {
                3 => 2,
                5 => 3,
                _ => return Err(bad(r, "DINamespace")),
            };
            let mut f = vec![("name", s(ops, name)), ("scope", Field::MdOrNull(ops[1]))];
            if ops[0] & 2 != 0 {
                f.push(("exportSymbols", text("true")));
            }
            special(distinct, "DINamespace", f)
        }
        25 => {
            need(3, "DITemplateTypeParameter")?;
            special(
                distinct,
                "DITemplateTypeParameter",
                vec![("name", s(ops, 1)), ("type", Field::MdOrNull(ops[2]))],
            )
        }
        26 => {
            need(5, "DITemplateValueParameter")?;
            let value = if ops.len() == 6 { 5 } else { 4 };
            special(
                distinct,
                "DITemplateValueParameter",
                vec![
                    ("tag", tag(ops[1])),
                    ("name", s(ops, 2)),
                    ("type", md(ops, 3)),
                    ("value", md(ops, value)),
                ],
            )
        }
        27 => {
            need(11, "DIGlobalVariable")?;
            special(
                distinct,
                "DIGlobalVariable",
                vec![
                    ("name", s(ops, 2)),
                    ("linkageName", s(ops, 3)),
                    ("scope", md(ops, 1)),
                    ("file", md(ops, 4)),
                    ("line", num(ops[5])),
                    ("type", md(ops, 6)),
                    ("isLocal", text(if ops[7] != 0 { "true" } else { "false" })),
                    (
                        "isDefinition",
                        text(if ops[8] != 0 { "true" } else { "false" }),
                    ),
                ],
            )
        }
        28 => {
            // [distinct | hasAlignment << 1, (tag), scope, name, file, line,
            //  type, arg, flags, align?]
            need(8, "DILocalVariable")?;
            let has_align = ops[0] & 2 != 0;
            let t = usize::from(!has_align && ops.len() > 8);
            need(8 + t, "DILocalVariable")?;
            let mut f = vec![
                ("name", s(ops, 2 + t)),
                ("scope", Field::MdOrNull(ops[1 + t])),
                ("file", md(ops, 3 + t)),
                ("line", num(ops[4 + t])),
                ("type", md(ops, 5 + t)),
            ];
            if ops[6 + t] != 0 {
                f.push(("arg", num(ops[6 + t])));
            }
            if ops[7 + t] != 0 {
                f.push(("flags", di_flags(ops[7 + t])));
            }
            if has_align && get(ops, 8) != 0 {
                f.push(("align", num(ops[8])));
            }
            special(distinct, "DILocalVariable", f)
        }
        29 => {
            let elements = expression(ops.get(1..).unwrap_or_default());
            let text = format!("!DIExpression({})", elements.join(", "));
            Md::Raw(if distinct {
                format!("distinct {text}")
            } else {
                text
            })
        }
        31 => {
            need(6, "DIImportedEntity")?;
            let mut f = vec![
                ("tag", tag(ops[1])),
                ("name", s(ops, 5)),
                ("scope", Field::MdOrNull(ops[2])),
                ("entity", md(ops, 3)),
            ];
            if ops.len() >= 7 {
                f.push(("file", md(ops, 6)));
                f.push(("line", num(ops[4])));
            }
            f.push(("elements", md(ops, 7)));
            special(distinct, "DIImportedEntity", f)
        }
        32 => {
            need(5, "DIModule")?;
            let o = if ops.len() >= 8 { 2 } else { 1 };
            let mut f = vec![
                ("scope", Field::MdOrNull(get(ops, o))),
                ("name", s(ops, o + 1)),
                ("configMacros", s(ops, o + 2)),
                ("includePath", s(ops, o + 3)),
                ("apinotes", s(ops, o + 4)),
            ];
            if o == 2 {
                f.insert(0, ("file", md(ops, 1)));
            }
            if get(ops, 7) != 0 {
                f.push(("line", num(ops[7])));
            }
            special(distinct, "DIModule", f)
        }
        37 => {
            need(3, "DIGlobalVariableExpression")?;
            special(
                distinct,
                "DIGlobalVariableExpression",
                vec![("var", md(ops, 1)), ("expr", md(ops, 2))],
            )
        }
        40 => {
            need(5, "DILabel")?;
            special(
                distinct,
                "DILabel",
                vec![
                    ("scope", Field::MdOrNull(ops[1])),
                    ("name", s(ops, 2)),
                    ("file", md(ops, 3)),
                    ("line", num(ops[4])),
                ],
            )
        }
        c => {
            return Err(r.error(format!("metadata record {c} is not read natively")));
        }
    })
}

fn subprogram(r: &Reader<'_>, ops: &[u64]) -> Result<Md, Error> {
    if ops.len() < 18 {
        return Err(bad(r, "DISubprogram"));
    }
    let has_sp_flags = ops[0] & 4 != 0;
    let has_unit = ops[0] & 2 != 0;
    let (flags, mut spflags) = if has_sp_flags {
        (ops[11], ops[9])
    } else {
        (ops[13], 0)
    };
    let (a, b) = if has_sp_flags {
        (0, 0)
    } else {
        (2, if ops.len() >= 19 { 3 } else { 2 })
    };
    if !has_sp_flags {
        // Old layout: local, definition, optimized, virtuality apart.
        spflags = (get(ops, 11) & 3)
            | if ops[7] != 0 { 4 } else { 0 }
            | if ops[8] != 0 { 8 } else { 0 }
            | if ops[14] != 0 { 16 } else { 0 };
    }
    let distinct = ops[0] & 1 != 0 || spflags & 8 != 0;
    let mut f = vec![
        ("name", s(ops, 2)),
        ("linkageName", s(ops, 3)),
        ("scope", md(ops, 1)),
        ("file", md(ops, 4)),
        ("line", num(ops[5])),
        ("type", md(ops, 6)),
        ("scopeLine", num(get(ops, 7 + a))),
        ("containingType", md(ops, 8 + a)),
    ];
    let virtual_index = get(ops, 10 + a);
    if virtual_index != 0 {
        f.push(("virtualIndex", num(virtual_index)));
    }
    if flags != 0 {
        f.push(("flags", di_flags(flags)));
    }
    if spflags != 0 {
        f.push(("spFlags", sp_flags(spflags)));
    }
    if has_unit {
        f.push(("unit", md(ops, 12 + b)));
    }
    f.push(("templateParams", md(ops, 13 + b)));
    f.push(("declaration", md(ops, 14 + b)));
    f.push(("retainedNodes", md(ops, 15 + b)));
    f.push(("thrownTypes", md(ops, 17 + b)));
    Ok(special(distinct, "DISubprogram", f))
}

/// DIExpression elements: operations by name, each followed by its
/// operands as numbers.
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
            if let Some(v) = elements.get(i + k) {
                out.push(v.to_string());
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
