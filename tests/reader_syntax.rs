//! The IR reader on small hand-written fixtures (testdata/reader/*.ll), one
//! syntax or AIR convention at a time. Each fixture's leading comments say
//! where its shape comes from and what it must (and must not) produce; these
//! tests hold the reader to that, with assertions on the model.
//!
//! Tests marked `#[ignore = "reader bug: ..."]` state what the reader should
//! do and currently does not; `cargo test -- --ignored` runs them.

use air_scan::ir::air::{ArgumentKind, EntryPoint, StructField, air_info};
use air_scan::ir::metadata::{DILocation, MetaNode, MetaOperand, unescape};
use air_scan::ir::{
    Aggregate, AggregateKind, Body, ConstExpr, Diagnostic, Flags, Instruction, Module, Opcode,
    Operand, Severity, Type, TypeId, TypeTable, Value, read_module,
};

const DATALAYOUT: &str = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-f32:32:32-f64:64:64-v16:16:16-v24:32:32-v32:32:32-v48:64:64-v64:64:64-v96:128:128-v128:128:128-v192:256:256-v256:256:256-v512:512:512-v1024:1024:1024-n8:16:32";

// ---- helpers ----

/// The text of `testdata/reader/<name>`, or of `tests/inputs/reader/<name>`
/// for the inputs broken on purpose (kept out of testdata/, which the
/// README's first command scans), leaked so the module can borrow it for
/// the whole test.
fn fixture(name: &str) -> &'static str {
    let root = env!("CARGO_MANIFEST_DIR");
    let broken = format!("{root}/tests/inputs/reader/{name}");
    let path = if std::path::Path::new(&broken).is_file() {
        broken
    } else {
        format!("{root}/testdata/reader/{name}")
    };
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("reading {path}: {e}"));
    Box::leak(text.into_boxed_str())
}

fn read(name: &str) -> Module<'static> {
    read_module(fixture(name))
}

fn body(m: &mut Module<'static>, name: &str) -> (Body<'static>, Vec<Diagnostic>) {
    let i = m
        .functions
        .iter()
        .position(|f| f.name == name)
        .unwrap_or_else(|| panic!("no function @{name}"));
    m.body(i)
}

/// The body of `@name`, which must read without any diagnostic.
fn clean_body(m: &mut Module<'static>, name: &str) -> Body<'static> {
    let (b, d) = body(m, name);
    assert!(d.is_empty(), "@{name}: {d:?}");
    b
}

/// The module's diagnostics and those of every body.
fn all_diagnostics(m: &mut Module<'static>) -> Vec<Diagnostic> {
    let mut out = m.diagnostics.clone();
    for i in 0..m.functions.len() {
        out.extend(m.body(i).1);
    }
    out
}

fn errors(d: &[Diagnostic]) -> Vec<&Diagnostic> {
    d.iter().filter(|d| d.severity == Severity::Error).collect()
}

/// The instruction whose result is `%result`.
fn inst<'b>(b: &'b Body<'static>, result: &str) -> &'b Instruction<'static> {
    b.instructions
        .iter()
        .find(|i| i.result == Some(result))
        .unwrap_or_else(|| panic!("no instruction %{result}"))
}

/// The instruction on file line `line`.
fn at_line<'b>(b: &'b Body<'static>, line: u32) -> &'b Instruction<'static> {
    b.instructions
        .iter()
        .find(|i| i.line == line)
        .unwrap_or_else(|| panic!("no instruction on line {line}"))
}

fn opcodes(b: &Body<'_>) -> Vec<Opcode> {
    b.instructions.iter().map(|i| i.opcode).collect()
}

fn lines(b: &Body<'_>) -> Vec<u32> {
    b.instructions.iter().map(|i| i.line).collect()
}

fn disp(m: &Module<'_>, id: TypeId) -> String {
    m.types.display(id)
}

fn agg<'v, 'a>(v: &'v Value<'a>) -> &'v Aggregate<'a> {
    match v {
        Value::Aggregate(a) => a,
        other => panic!("expected an aggregate, found {other:?}"),
    }
}

fn expr<'v, 'a>(v: &'v Value<'a>) -> &'v ConstExpr<'a> {
    match v {
        Value::Expr(e) => e,
        other => panic!("expected a constant expression, found {other:?}"),
    }
}

fn op(ty: TypeId, value: Value<'static>) -> Operand<'static> {
    Operand { ty, value }
}

fn local(name: &str) -> Value<'_> {
    Value::Local(name)
}

fn flags(list: &[Flags]) -> Flags {
    let mut f = Flags::default();
    for x in list {
        f.insert(*x);
    }
    f
}

/// The pointee a typed-era pointer type names (`None` for opaque `ptr`).
fn pointee(m: &Module<'_>, id: TypeId) -> Option<TypeId> {
    match m.types.get(id) {
        Type::Ptr { pointee, .. } => *pointee,
        other => panic!("expected a pointer type, found {other:?}"),
    }
}

// ---- 1. header ----

#[test]
fn header_of_a_typed_module() {
    let m = read("header_globals_typed.ll");
    assert!(m.diagnostics.is_empty(), "{:?}", m.diagnostics);
    assert_eq!(m.first_line, 1);
    assert_eq!(m.module_id, Some("reader/header_globals_typed.air"));
    assert_eq!(m.source_filename, Some("steel_attention_small"));
    assert_eq!(m.target_triple, Some("air64-apple-macosx15.0.0"));
    assert_eq!(m.datalayout, Some(DATALAYOUT));
}

#[test]
fn header_with_the_v27_triple() {
    let m = read("instructions.ll");
    assert!(m.diagnostics.is_empty(), "{:?}", m.diagnostics);
    assert_eq!(m.target_triple, Some("air64_v27-apple-macosx15.0.0"));
    assert_eq!(m.source_filename, Some("reader_instructions"));
    assert_eq!(m.datalayout, Some(DATALAYOUT));
    // The file opens with provenance comments, not `; ModuleID = ...`.
    assert_eq!(m.module_id, None);
}

// ---- 2. named struct types ----

#[test]
fn named_struct_types_quoted_packed_and_opaque() {
    let mut m = read("header_globals_typed.ll");
    let names: Vec<_> = m.struct_types.iter().map(|s| s.name).collect();
    assert_eq!(
        names,
        [
            "struct.mlx::steel::AttnParams",
            "struct.mlx::steel::AttnMaskParams",
            "struct._simdgroup_event_t",
            "struct.metal::simdgroup_event",
            "struct.PackedHeader",
        ]
    );
    let struct_lines: Vec<_> = m.struct_types.iter().map(|s| s.line).collect();
    assert_eq!(struct_lines, [20, 21, 22, 23, 24]);

    // %"struct.mlx::steel::AttnParams" = type { i32, i32, float, [3 x i64] }
    let attn = m.struct_types[0].body.expect("AttnParams has a body");
    let arr = match m.types.get(attn) {
        Type::Struct { fields, packed } => {
            assert!(!packed);
            assert_eq!(fields.len(), 4);
            assert_eq!(
                &fields[..3],
                &[TypeTable::I32, TypeTable::I32, TypeTable::FLOAT]
            );
            fields[3]
        }
        other => panic!("{other:?}"),
    };
    assert_eq!(
        m.types.get(arr),
        &Type::Array {
            len: 3,
            elem: TypeTable::I64
        }
    );
    assert_eq!(disp(&m, attn), "{ i32, i32, float, [3 x i64] }");

    // `type opaque`: no body.
    assert_eq!(m.struct_types[2].body, None);

    // { %struct._simdgroup_event_t* }: a typed pointer to the opaque struct.
    let event = m.struct_types[3].body.unwrap();
    let field = m.types.member(event, 0).unwrap();
    assert_eq!(m.types.addrspace(field), Some(0));
    let target = pointee(&m, field).expect("typed-era pointee");
    assert_eq!(
        m.types.get(target),
        &Type::Named("struct._simdgroup_event_t")
    );

    // <{ i8, i32, half }>
    let packed = m.struct_types[4].body.unwrap();
    assert_eq!(
        m.types.get(packed),
        &Type::Struct {
            fields: vec![TypeTable::I8, TypeTable::I32, TypeTable::HALF],
            packed: true
        }
    );
    assert_eq!(disp(&m, packed), "<{ i8, i32, half }>");

    // A use of the quoted name resolves to its body.
    let f = m.function("attention").unwrap();
    let p1 = f.params[1].ty;
    assert_eq!(m.types.addrspace(p1), Some(2));
    let named = pointee(&m, p1).unwrap();
    assert_eq!(
        m.types.get(named),
        &Type::Named("struct.mlx::steel::AttnParams")
    );
    assert_eq!(m.types.resolve(named), attn);
    let b = clean_body(&mut m, "attention");
    let gep = inst(&b, "5");
    assert_eq!(gep.elem_ty, Some(named));
    assert_eq!(m.types.member(named, 2), Some(TypeTable::FLOAT));
    assert_eq!(gep.operands.len(), 3);
    assert_eq!(gep.operands[2], op(TypeTable::I32, Value::Int(2)));
}

// ---- 3. globals ----

#[test]
fn globals_linkage_address_space_and_section() {
    let m = read("header_globals_typed.ll");
    assert_eq!(m.globals.len(), 13);

    let fc = m.global("_Z7align_Q.MTL_FC_INIT_200_b").unwrap();
    assert_eq!(fc.linkage, Some("internal"));
    assert_eq!(fc.addrspace, 2);
    assert!(fc.is_constant);
    assert!(fc.externally_initialized);
    assert_eq!(fc.section, Some("air.fc_initializer"));
    assert_eq!(fc.ty, TypeTable::I8);
    assert_eq!(fc.initializer, Some(Value::Undef));
    assert_eq!(fc.line, 28);

    let pred = m.global("__metal_implicit_fc_pred_0.2").unwrap();
    assert_eq!((pred.addrspace, pred.is_constant), (2, false));
    assert!(!pred.externally_initialized);
    assert_eq!(pred.section, None);
    assert_eq!(pred.initializer, Some(Value::Int(0)));
    assert_eq!(pred.line, 26);

    let smem = m.global("_ZZ9attentionE6Q_smem").unwrap();
    assert_eq!(smem.addrspace, 3);
    assert_eq!(disp(&m, smem.ty), "[64 x half]");
    assert_eq!(smem.initializer, Some(Value::Undef));

    let ext = m.global("ext_counter").unwrap();
    assert_eq!(ext.linkage, Some("external"));
    assert_eq!((ext.addrspace, ext.ty), (1, TypeTable::I32));
    assert_eq!(ext.initializer, None);

    let s = m.global(".str").unwrap();
    assert_eq!(s.linkage, Some("private"));
    assert_eq!(disp(&m, s.ty), "[6 x i8]");
    assert_eq!(s.initializer, Some(Value::CString("steel\\00")));

    let ctors = m.global("llvm.global_ctors").unwrap();
    assert_eq!(ctors.linkage, Some("appending"));
    assert_eq!((ctors.addrspace, ctors.is_constant), (0, false));

    let used = m.global("llvm.compiler.used").unwrap();
    assert_eq!(used.section, Some("llvm.metadata"));
    assert_eq!(used.line, 38);
}

#[test]
fn global_initializers_are_kept_as_trees() {
    let m = read("header_globals_typed.ll");
    let init = |name: &str| m.global(name).unwrap().initializer.as_ref().unwrap();

    // [float 1.0, float 0x3FE6..., float -0.25, float 0.0]
    let table = agg(init("_ZL5table"));
    assert_eq!(table.kind, AggregateKind::Array);
    let values: Vec<_> = table.elements.iter().map(|e| e.value.clone()).collect();
    assert_eq!(
        values,
        [
            Value::Float("1.000000e+00"),
            Value::Float("0x3FE6D6D6E0000000"),
            Value::Float("-2.500000e-01"),
            Value::Float("0.000000e+00"),
        ]
    );
    assert!(table.elements.iter().all(|e| e.ty == TypeTable::FLOAT));

    // getelementptr inbounds ([4 x float], [4 x float] addrspace(2)* @_ZL5table, i64 0, i64 1)
    let second = m.global("_ZL6second").unwrap();
    assert_eq!(m.types.addrspace(second.ty), Some(2));
    assert_eq!(pointee(&m, second.ty), Some(TypeTable::FLOAT));
    let gep = expr(init("_ZL6second"));
    assert_eq!(gep.opcode, Opcode::GetElementPtr);
    assert_eq!(gep.flags, Flags::INBOUNDS);
    assert_eq!(disp(&m, gep.ty.unwrap()), "[4 x float]");
    assert_eq!(gep.operands.len(), 3);
    assert_eq!(gep.operands[0].value, Value::Global("_ZL5table"));
    assert_eq!(m.types.addrspace(gep.operands[0].ty), Some(2));
    assert_eq!(gep.operands[1], op(TypeTable::I64, Value::Int(0)));
    assert_eq!(gep.operands[2], op(TypeTable::I64, Value::Int(1)));

    // zeroinitializer of a quoted named struct
    let none = m.global("_ZL4none").unwrap();
    assert_eq!(
        m.types.get(none.ty),
        &Type::Named("struct.mlx::steel::AttnMaskParams")
    );
    assert_eq!(none.initializer, Some(Value::ZeroInitializer));

    // <{ i8 1, i32 2, half 0xH3C00 }>
    let header = agg(init("_ZL6header"));
    assert_eq!(header.kind, AggregateKind::PackedStruct);
    assert_eq!(
        header.elements,
        [
            op(TypeTable::I8, Value::Int(1)),
            op(TypeTable::I32, Value::Int(2)),
            op(TypeTable::HALF, Value::Float("0xH3C00")),
        ]
    );

    // [<2 x float> <...>, <2 x float> <...>]
    let position = agg(init("_ZL8position"));
    assert_eq!(position.kind, AggregateKind::Array);
    assert_eq!(position.elements.len(), 2);
    let v1 = agg(&position.elements[1].value);
    assert_eq!(v1.kind, AggregateKind::Vector);
    assert_eq!(
        v1.elements,
        [
            op(TypeTable::FLOAT, Value::Float("5.000000e-01")),
            op(TypeTable::FLOAT, Value::Float("5.000000e-01")),
        ]
    );

    // [{ i32, void ()*, i8* } { i32 65535, void ()* @ctor, i8* null }]
    let ctors = agg(init("llvm.global_ctors"));
    assert_eq!(ctors.elements.len(), 1);
    let entry = agg(&ctors.elements[0].value);
    assert_eq!(entry.kind, AggregateKind::Struct);
    let entry_values: Vec<_> = entry.elements.iter().map(|e| e.value.clone()).collect();
    assert_eq!(
        entry_values,
        [
            Value::Int(65535),
            Value::Global("_GLOBAL__sub_I_steel_attention.metal"),
            Value::Null,
        ]
    );
    let fn_ty = pointee(&m, entry.elements[1].ty).unwrap();
    assert_eq!(
        m.types.get(fn_ty),
        &Type::Function {
            ret: TypeTable::VOID,
            params: vec![],
            vararg: false
        }
    );

    // [i8* addrspacecast (i8 addrspace(2)* @__metal_implicit_fc_pred_0.2 to i8*)]
    let used = agg(init("llvm.compiler.used"));
    let cast = expr(&used.elements[0].value);
    assert_eq!(cast.opcode, Opcode::AddrSpaceCast);
    let to = cast.ty.unwrap();
    assert_eq!(m.types.addrspace(to), Some(0));
    assert_eq!(pointee(&m, to), Some(TypeTable::I8));
    assert_eq!(cast.operands.len(), 1);
    assert_eq!(
        cast.operands[0].value,
        Value::Global("__metal_implicit_fc_pred_0.2")
    );
    assert_eq!(m.types.addrspace(cast.operands[0].ty), Some(2));
}

// ---- 4. functions ----

#[test]
fn function_declarations_and_definitions_typed() {
    let mut m = read("header_globals_typed.ll");
    assert_eq!(m.functions.len(), 3);

    let decl = m
        .function("air.normalize_function_constant_predicate.i8")
        .unwrap();
    assert!(!decl.is_definition);
    assert_eq!(decl.body_range, None);
    assert_eq!(decl.return_type, TypeTable::I8);
    assert_eq!(decl.params.len(), 1);
    assert_eq!(
        (decl.params[0].ty, decl.params[0].name),
        (TypeTable::I8, None)
    );
    // (Its `attributes` text: see declaration_attribute_text_ends_with_its_line.)
    assert_eq!(decl.line, 41);

    let init = m.function("_GLOBAL__sub_I_steel_attention.metal").unwrap();
    assert!(init.is_definition);
    assert_eq!(init.linkage, Some("internal"));
    assert_eq!(init.return_type, TypeTable::VOID);
    assert!(init.params.is_empty());
    assert_eq!(init.section, Some("air.static_init"));
    assert_eq!(init.attributes, "#1 section \"air.static_init\"");
    assert_eq!(init.line, 44);

    let k = m.function("attention").unwrap();
    assert_eq!(k.linkage, Some("weak_odr"));
    assert_eq!(k.attributes, "local_unnamed_addr #1");
    assert_eq!(k.line, 53);
    let names: Vec<_> = k.params.iter().map(|p| p.name).collect();
    assert_eq!(names, [Some("0"), Some("1"), Some("2"), Some("3")]);
    let attrs: Vec<_> = k.params.iter().map(|p| p.attributes).collect();
    assert_eq!(
        attrs,
        [
            "noundef \"air-buffer-no-alias\"",
            "noundef \"air-buffer-no-alias\"",
            "nocapture readonly align 4 dereferenceable(4)",
            "noundef",
        ]
    );
    let spaces: Vec<_> = k.params.iter().map(|p| m.types.addrspace(p.ty)).collect();
    assert_eq!(spaces, [Some(1), Some(2), Some(2), None]);
    assert_eq!(pointee(&m, k.params[0].ty), Some(TypeTable::HALF));
    assert_eq!(disp(&m, k.params[3].ty), "<3 x i32>");

    // The static initializer's body: loads of the MTL_FC_INIT global.
    let b = clean_body(&mut m, "_GLOBAL__sub_I_steel_attention.metal");
    assert_eq!(lines(&b), [45, 46, 47, 48, 49]);
    let load = inst(&b, "1");
    assert_eq!(
        load.operands[0].value,
        Value::Global("_Z7align_Q.MTL_FC_INIT_200_b")
    );
    assert_eq!(m.types.addrspace(load.operands[0].ty), Some(2));
    assert_eq!(load.attachment("tbaa"), Some(5));
    assert_eq!(load.attachment("range"), Some(9));
    let call = inst(&b, "2");
    assert_eq!(call.flags, Flags::TAIL);
    assert_eq!(
        call.callee_name(),
        Some("air.normalize_function_constant_predicate.i8")
    );
    assert_eq!(call.call_args(), [op(TypeTable::I8, local("1"))]);
}

#[test]
fn declaration_attribute_text_ends_with_its_line() {
    let m = read("header_globals_typed.ll");
    let decl = m
        .function("air.normalize_function_constant_predicate.i8")
        .unwrap();
    assert_eq!(decl.attributes, "local_unnamed_addr #0");
}

#[test]
fn function_parameters_in_the_opaque_era() {
    let m = read("instructions.ll");
    let attrs = |f: &str| -> Vec<&str> {
        m.function(f)
            .unwrap()
            .params
            .iter()
            .map(|p| p.attributes)
            .collect()
    };
    assert_eq!(
        attrs("numbered"),
        [
            "noundef \"air-buffer-no-alias\"",
            "noundef readonly align 4 dereferenceable(4) \"air-buffer-no-alias\"",
            "noundef",
        ]
    );
    assert_eq!(
        attrs("atomics"),
        ["noundef captures(none) \"air-buffer-no-alias\"", "noundef"]
    );
    assert_eq!(
        attrs("calls"),
        [
            "noundef",
            "noundef",
            "noundef range(i32 0, 1024)",
            "noundef"
        ]
    );
    assert_eq!(
        attrs("llvm.memcpy.p1.p3.i64"),
        [
            "noalias writeonly captures(none)",
            "noalias readonly captures(none)",
            "",
            "immarg",
        ]
    );
    let calls = m.function("calls").unwrap();
    let names: Vec<_> = calls.params.iter().map(|p| p.name).collect();
    assert_eq!(names, [Some("p"), Some("lds"), Some("x"), Some("v")]);
    assert_eq!(calls.return_type, TypeTable::FLOAT);
    let spaces: Vec<_> = calls
        .params
        .iter()
        .map(|p| m.types.addrspace(p.ty))
        .collect();
    assert_eq!(spaces, [Some(1), Some(3), None, None]);
    assert_eq!(pointee(&m, calls.params[0].ty), None);

    let memcpy = m.function("llvm.memcpy.p1.p3.i64").unwrap();
    assert!(!memcpy.is_definition);
    assert!(memcpy.params.iter().all(|p| p.name.is_none()));
    assert_eq!(memcpy.attributes, "#4");

    let scratch = m.global("_ZZ6reduceE7scratch").unwrap();
    assert_eq!((scratch.addrspace, scratch.line), (3, 20));
    assert_eq!(m.struct_types.len(), 1);
    assert_eq!(disp(&m, m.struct_types[0].body.unwrap()), "{ float, i32 }");
}

#[test]
fn attribute_groups_keep_their_text() {
    let m = read("instructions.ll");
    let ids: Vec<_> = m.attribute_groups.iter().map(|g| g.id).collect();
    assert_eq!(ids, ["0", "1", "2", "3", "4"]);
    assert_eq!(
        m.attribute_groups[0].text,
        "mustprogress nofree nounwind willreturn memory(argmem: readwrite) \"approx-func-fp-math\"=\"true\" \"frame-pointer\"=\"all\""
    );
    assert_eq!(
        m.attribute_groups[2].text,
        "mustprogress nofree nosync nounwind willreturn memory(none)"
    );
    assert_eq!(m.attribute_groups[1].text, "nounwind");
}

// ---- 5. blocks ----

#[test]
fn blocks_unnamed_numbered_and_named() {
    let mut m = read("instructions.ll");

    let b = clean_body(&mut m, "numbered");
    let labels: Vec<_> = b.blocks.iter().map(|b| b.label).collect();
    assert_eq!(labels, [None, Some("7"), Some("20")]);
    let block_lines: Vec<_> = b.blocks.iter().map(|b| b.line).collect();
    // The unnamed entry block starts on the `define` line.
    assert_eq!(block_lines, [23, 29, 44]);
    let sizes: Vec<_> = (0..3).map(|i| b.block_instructions(i).len()).collect();
    assert_eq!(sizes, [4, 13, 1]);
    assert_eq!(b.block_instructions(1)[0].line, 30);
    assert_eq!(b.block_instructions(2)[0].opcode, Opcode::Ret);

    let b = clean_body(&mut m, "loops");
    let labels: Vec<_> = b.blocks.iter().map(|b| b.label.unwrap()).collect();
    assert_eq!(
        labels,
        ["entry", "for.body", "exit", "three", "sixteen", "store"]
    );
    let block_lines: Vec<_> = b.blocks.iter().map(|b| b.line).collect();
    assert_eq!(block_lines, [50, 54, 72, 83, 86, 89]);
    let sizes: Vec<_> = (0..6).map(|i| b.block_instructions(i).len()).collect();
    assert_eq!(sizes, [2, 16, 6, 1, 1, 5]);
    assert_eq!(b.instructions.len(), 31);
    assert_eq!(b.block_instructions(1)[0].result, Some("i"));
    assert_eq!(
        b.block_instructions(2).last().unwrap().opcode,
        Opcode::Switch
    );

    let b = clean_body(&mut m, "calls");
    assert_eq!(b.blocks.len(), 1);
    assert_eq!((b.blocks[0].label, b.blocks[0].line), (None, 123));
    assert_eq!(b.block_instructions(0).len(), 24);
}

// ---- 6. instructions ----

#[test]
fn instructions_of_a_numbered_kernel() {
    use Opcode::*;
    let mut m = read("instructions.ll");
    let b = clean_body(&mut m, "numbered");
    assert_eq!(
        opcodes(&b),
        [
            ExtractElement,
            Load,
            ICmp,
            Br,
            ZExt,
            GetElementPtr,
            Load,
            FMul,
            FAdd,
            FCmp,
            Select,
            FPTrunc,
            FAdd,
            FPExt,
            Call,
            Store,
            Br,
            Ret
        ]
    );
    assert_eq!(
        lines(&b),
        [
            24, 25, 26, 27, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 45
        ]
    );
    let v3i32 = m.function("numbered").unwrap().params[2].ty;

    let i = inst(&b, "4");
    assert_eq!(i.ty, TypeTable::I32);
    assert_eq!(
        i.operands,
        [op(v3i32, local("2")), op(TypeTable::I64, Value::Int(0))]
    );

    let i = inst(&b, "5");
    assert_eq!((i.ty, i.elem_ty), (TypeTable::I32, Some(TypeTable::I32)));
    assert_eq!(i.operands.len(), 1);
    assert_eq!(i.operands[0].value, local("1"));
    assert_eq!(m.types.addrspace(i.operands[0].ty), Some(2));
    assert_eq!(i.attachment("tbaa"), Some(10));
    assert_eq!(i.attachment("alias.scope"), Some(14));
    assert_eq!(i.attachment("noalias"), Some(17));
    assert_eq!(i.dbg, None);

    let i = inst(&b, "6");
    assert_eq!(i.flags, Flags::SAMESIGN);
    assert_eq!(i.predicate, Some("ult"));
    assert_eq!(i.ty, TypeTable::I1);
    assert_eq!(
        i.operands,
        [
            op(TypeTable::I32, local("4")),
            op(TypeTable::I32, local("5"))
        ]
    );

    let br = at_line(&b, 27);
    assert_eq!(br.result, None);
    assert_eq!(
        br.operands,
        [
            op(TypeTable::I1, local("6")),
            op(TypeTable::LABEL, Value::Label("7")),
            op(TypeTable::LABEL, Value::Label("20")),
        ]
    );

    let i = inst(&b, "8");
    assert_eq!(i.flags, Flags::NNEG);
    assert_eq!((i.ty, i.elem_ty), (TypeTable::I64, Some(TypeTable::I64)));
    assert_eq!(i.operands, [op(TypeTable::I32, local("4"))]);

    let i = inst(&b, "9");
    assert_eq!(i.flags, flags(&[Flags::INBOUNDS, Flags::NUW]));
    assert_eq!(i.elem_ty, Some(TypeTable::FLOAT));
    assert_eq!(m.types.addrspace(i.ty), Some(1));
    assert_eq!(i.operands.len(), 2);
    assert_eq!(m.types.addrspace(i.operands[0].ty), Some(1));
    assert_eq!(i.operands[1], op(TypeTable::I64, local("8")));

    let i = inst(&b, "11");
    assert_eq!(i.flags, Flags::FAST);
    assert_eq!(i.flags.names(), ["fast"]);
    assert_eq!(
        i.operands[1],
        op(TypeTable::FLOAT, Value::Float("0x3FF8000000000000"))
    );

    let i = inst(&b, "12");
    assert_eq!(i.flags, flags(&[Flags::NNAN, Flags::NINF]));
    assert_eq!(i.flags.names(), ["nnan", "ninf"]);
    assert_eq!(
        i.operands[1],
        op(TypeTable::FLOAT, Value::Float("-1.250000e-01"))
    );

    let i = inst(&b, "13");
    assert_eq!(
        (i.flags, i.predicate, i.ty),
        (Flags::FAST, Some("olt"), TypeTable::I1)
    );

    let i = inst(&b, "14");
    assert_eq!(i.ty, TypeTable::FLOAT);
    assert_eq!(
        i.operands,
        [
            op(TypeTable::I1, local("13")),
            op(TypeTable::FLOAT, Value::Float("0.000000e+00")),
            op(TypeTable::FLOAT, local("12")),
        ]
    );

    assert_eq!(inst(&b, "15").ty, TypeTable::HALF);
    let i = inst(&b, "16");
    assert_eq!(i.ty, TypeTable::HALF);
    assert_eq!(i.operands[1], op(TypeTable::HALF, Value::Float("0xH3C00")));

    let call = inst(&b, "18");
    assert_eq!(call.line, 40);
    assert_eq!(call.flags, flags(&[Flags::TAIL, Flags::FAST]));
    assert_eq!(call.ty, TypeTable::FLOAT);
    assert_eq!(call.callee_name(), Some("air.fast_exp2.f32"));
    assert_eq!(call.call_args(), [op(TypeTable::FLOAT, local("17"))]);

    let store = at_line(&b, 41);
    assert_eq!(
        (store.opcode, store.result, store.ty),
        (Store, None, TypeTable::VOID)
    );
    assert_eq!(store.operands.len(), 2);
    assert_eq!(store.operands[0], op(TypeTable::FLOAT, local("18")));
    assert_eq!(store.operands[1].value, local("9"));
    assert_eq!(store.attachment("tbaa"), Some(19));

    assert_eq!(
        at_line(&b, 42).operands,
        [op(TypeTable::LABEL, Value::Label("20"))]
    );
    assert!(at_line(&b, 45).operands.is_empty());
}

#[test]
fn instructions_of_a_loop_phi_vectors_and_switch() {
    let mut m = read("instructions.ll");
    let b = clean_body(&mut m, "loops");
    let v2i32 = inst(&b, "acc").ty;
    assert_eq!(disp(&m, v2i32), "<2 x i32>");

    let i = inst(&b, "i");
    assert_eq!((i.opcode, i.ty, i.line), (Opcode::Phi, TypeTable::I32, 55));
    assert_eq!(
        i.operands,
        [
            op(TypeTable::I32, Value::Int(0)),
            op(TypeTable::LABEL, Value::Label("entry")),
            op(TypeTable::I32, local("inc")),
            op(TypeTable::LABEL, Value::Label("for.body")),
        ]
    );
    assert_eq!(
        inst(&b, "acc").operands[0],
        op(v2i32, Value::ZeroInitializer)
    );

    assert_eq!(inst(&b, "lane").flags, Flags::default());
    assert_eq!(inst(&b, "hi").flags, Flags::DISJOINT);
    assert_eq!(inst(&b, "half").flags, Flags::EXACT);
    assert_eq!(inst(&b, "q").flags, Flags::EXACT);
    let mul = inst(&b, "m");
    assert_eq!(mul.flags, Flags::default());
    assert_eq!(mul.operands[1], op(TypeTable::I32, Value::Int(536870907)));
    assert_eq!(inst(&b, "s").flags, flags(&[Flags::NUW, Flags::NSW]));
    assert_eq!(inst(&b, "sh").flags, Flags::NUW);

    let i = inst(&b, "v");
    assert_eq!((i.opcode, i.ty), (Opcode::InsertElement, v2i32));
    assert_eq!(
        i.operands,
        [
            op(v2i32, Value::Poison),
            op(TypeTable::I32, local("sh")),
            op(TypeTable::I64, Value::Int(0)),
        ]
    );

    // <2 x i32> <i32 1, i32 2>
    let vec = agg(&inst(&b, "acc.next").operands[1].value);
    assert_eq!(vec.kind, AggregateKind::Vector);
    assert_eq!(
        vec.elements,
        [
            op(TypeTable::I32, Value::Int(1)),
            op(TypeTable::I32, Value::Int(2)),
        ]
    );
    // splat (i32 1)
    assert_eq!(
        inst(&b, "acc.x").operands[1],
        op(
            v2i32,
            Value::Splat(Box::new(op(TypeTable::I32, Value::Int(1))))
        )
    );

    let br = at_line(&b, 70);
    assert_eq!(br.operands.len(), 3);
    assert_eq!(br.attachment("llvm.loop"), Some(21));

    assert_eq!(inst(&b, "r").operands[0], op(v2i32, Value::Undef));
    assert_eq!(inst(&b, "w").ty, TypeTable::I64);
    let t = inst(&b, "t");
    assert_eq!(
        (t.opcode, t.flags, t.ty),
        (
            Opcode::Trunc,
            flags(&[Flags::NUW, Flags::NSW]),
            TypeTable::I32
        )
    );
    let fr = inst(&b, "sw");
    assert_eq!((fr.opcode, fr.ty), (Opcode::Freeze, TypeTable::I32));
    assert_eq!(fr.operands, [op(TypeTable::I32, local("t"))]);

    // A switch over four lines: condition, default, then value/label pairs.
    let sw = at_line(&b, 78);
    assert_eq!(sw.opcode, Opcode::Switch);
    assert_eq!(
        sw.operands,
        [
            op(TypeTable::I32, local("sw")),
            op(TypeTable::LABEL, Value::Label("store")),
            op(TypeTable::I32, Value::Int(3)),
            op(TypeTable::LABEL, Value::Label("three")),
            op(TypeTable::I32, Value::Int(16)),
            op(TypeTable::LABEL, Value::Label("sixteen")),
        ]
    );
    assert_eq!(at_line(&b, 84).opcode, Opcode::Br);

    let val = inst(&b, "val");
    assert_eq!(val.operands.len(), 6);
    assert_eq!(val.operands[4], op(TypeTable::I32, Value::Int(16)));
    let gep = inst(&b, "slot");
    assert_eq!(gep.flags, Flags::INBOUNDS);
    assert_eq!(gep.elem_ty, Some(TypeTable::I32));
}

#[test]
fn instructions_atomics_aggregates_and_memory() {
    use Opcode::*;
    let mut m = read("instructions.ll");
    let b = clean_body(&mut m, "atomics");
    assert_eq!(
        opcodes(&b),
        [
            AtomicRmw,
            AtomicRmw,
            CmpXchg,
            ExtractValue,
            ExtractValue,
            Fence,
            InsertValue,
            InsertValue,
            ExtractValue,
            Alloca,
            GetElementPtr,
            Store,
            Load,
            Br,
            Unreachable,
            Ret
        ]
    );
    assert_eq!(
        lines(&b),
        [
            100, 101, 102, 103, 104, 105, 106, 107, 108, 109, 110, 111, 112, 113, 116, 119
        ]
    );

    let i = inst(&b, "old");
    assert_eq!(i.predicate, Some("add"));
    assert_eq!(i.flags, Flags::ATOMIC);
    assert_eq!(i.ty, TypeTable::I32);
    assert_eq!(i.operands.len(), 2);
    assert_eq!(m.types.addrspace(i.operands[0].ty), Some(1));
    assert_eq!(i.operands[1], op(TypeTable::I32, Value::Int(1)));

    let i = inst(&b, "fold");
    assert_eq!(i.predicate, Some("fadd"));
    assert_eq!(i.flags, flags(&[Flags::VOLATILE, Flags::ATOMIC]));
    assert_eq!(m.types.addrspace(i.operands[0].ty), Some(3));
    assert_eq!(
        i.operands[1],
        op(TypeTable::FLOAT, Value::Float("1.000000e+00"))
    );

    let i = inst(&b, "pair");
    assert_eq!(i.flags, flags(&[Flags::WEAK, Flags::ATOMIC]));
    assert_eq!(disp(&m, i.ty), "{ i32, i1 }");
    assert_eq!(i.operands.len(), 3);
    assert_eq!(i.operands[2], op(TypeTable::I32, Value::Int(0)));

    let prev = inst(&b, "prev");
    assert_eq!(
        (prev.indices.as_slice(), prev.ty),
        (&[0][..], TypeTable::I32)
    );
    let ok = inst(&b, "ok");
    assert_eq!((ok.indices.as_slice(), ok.ty), (&[1][..], TypeTable::I1));

    let fence = at_line(&b, 105);
    assert_eq!((fence.result, fence.flags), (None, Flags::ATOMIC));
    assert!(fence.operands.is_empty());

    let pair_ty = inst(&b, "agg").ty;
    assert_eq!(m.types.get(pair_ty), &Type::Named("struct.Pair"));
    let agg1 = inst(&b, "agg");
    assert_eq!(
        agg1.operands,
        [
            op(pair_ty, Value::Undef),
            op(TypeTable::FLOAT, Value::Float("2.000000e+00")),
        ]
    );
    assert_eq!(agg1.indices, [0]);
    assert_eq!(inst(&b, "agg2").indices, [1]);
    // extractvalue through the named struct's body
    assert_eq!(inst(&b, "f").ty, TypeTable::FLOAT);

    let a = inst(&b, "tmp");
    assert_eq!(disp(&m, a.elem_ty.unwrap()), "[4 x float]");
    assert_eq!(a.ty, TypeTable::PTR);
    assert!(a.operands.is_empty());
    let g = inst(&b, "tmp.i");
    assert_eq!((g.operands.len(), g.ty), (3, TypeTable::PTR));

    assert_eq!(at_line(&b, 111).flags, Flags::VOLATILE);
    let ld = inst(&b, "ld");
    assert_eq!((ld.flags, ld.ty), (Flags::ATOMIC, TypeTable::I32));
    assert_eq!(ld.attachment("range"), Some(23));

    let labels: Vec<_> = b.blocks.iter().map(|b| b.label).collect();
    assert_eq!(labels, [Some("entry"), Some("trap"), Some("done")]);
    assert_eq!(b.block_instructions(1)[0].opcode, Unreachable);
}

#[test]
fn instructions_calls_casts_and_arithmetic() {
    use Opcode::*;
    let mut m = read("instructions.ll");
    let b = clean_body(&mut m, "calls");
    assert_eq!(
        opcodes(&b),
        [
            Call,
            Call,
            ShuffleVector,
            BitCast,
            AddrSpaceCast,
            PtrToInt,
            IntToPtr,
            SIToFP,
            UIToFP,
            FPToSI,
            FPToUI,
            SDiv,
            SRem,
            URem,
            AShr,
            Sub,
            FNeg,
            FSub,
            FDiv,
            FRem,
            ICmp,
            Select,
            Call,
            Ret
        ]
    );
    assert_eq!(lines(&b), (124..=147).collect::<Vec<u32>>());
    let ptr1 = m.function("calls").unwrap().params[0].ty;

    // call with argument attributes (`noundef align 4`) and no tail marker
    let memcpy = at_line(&b, 124);
    assert_eq!(
        (memcpy.result, memcpy.flags, memcpy.ty),
        (None, Flags::default(), TypeTable::VOID)
    );
    assert_eq!(memcpy.callee_name(), Some("llvm.memcpy.p1.p3.i64"));
    let args = memcpy.call_args();
    assert_eq!(args.len(), 4);
    assert_eq!(args[0], op(ptr1, local("p")));
    assert_eq!(args[1].value, local("lds"));
    assert_eq!(m.types.addrspace(args[1].ty), Some(3));
    assert_eq!(args[2], op(TypeTable::I64, Value::Int(16)));
    assert_eq!(args[3], op(TypeTable::I1, Value::Bool(false)));

    let barrier = at_line(&b, 125);
    assert_eq!(barrier.flags, Flags::TAIL);
    assert_eq!(barrier.callee_name(), Some("air.wg.barrier"));
    assert_eq!(
        barrier.call_args(),
        [
            op(TypeTable::I32, Value::Int(2)),
            op(TypeTable::I32, Value::Int(1)),
        ]
    );

    let sh = inst(&b, "1");
    assert_eq!(disp(&m, sh.ty), "<2 x float>");
    assert_eq!(sh.operands.len(), 3);
    assert_eq!(sh.operands[1].value, Value::Poison);
    let mask = agg(&sh.operands[2].value);
    assert_eq!(disp(&m, sh.operands[2].ty), "<2 x i32>");
    assert_eq!(
        mask.elements,
        [
            op(TypeTable::I32, Value::Int(0)),
            op(TypeTable::I32, Value::Int(3)),
        ]
    );

    let bc = inst(&b, "2");
    assert_eq!((bc.ty, bc.elem_ty), (TypeTable::I64, Some(TypeTable::I64)));
    assert_eq!(disp(&m, bc.operands[0].ty), "<2 x float>");
    let asc = inst(&b, "3");
    assert_eq!(asc.ty, TypeTable::PTR);
    assert_eq!(m.types.addrspace(asc.operands[0].ty), Some(3));
    assert_eq!(inst(&b, "4").operands[0], op(ptr1, local("p")));
    assert_eq!(inst(&b, "5").ty, ptr1);
    assert_eq!(inst(&b, "6").ty, TypeTable::FLOAT);
    assert_eq!(inst(&b, "7").flags, Flags::NNEG);
    assert_eq!(inst(&b, "9").ty, TypeTable::I32);
    assert_eq!(
        inst(&b, "10").operands[1],
        op(TypeTable::I32, Value::Int(7))
    );
    assert_eq!(
        inst(&b, "11").operands[1],
        op(TypeTable::I32, Value::Int(-3))
    );
    assert_eq!(inst(&b, "14").flags, Flags::NSW);

    let neg = inst(&b, "15");
    assert_eq!((neg.flags, neg.ty), (Flags::FAST, TypeTable::FLOAT));
    assert_eq!(neg.operands, [op(TypeTable::FLOAT, local("6"))]);
    assert_eq!(inst(&b, "17").flags, Flags::ARCP);
    assert_eq!(inst(&b, "18").flags, Flags::default());

    let cmp = inst(&b, "19");
    assert_eq!(cmp.predicate, Some("ne"));
    assert_eq!(cmp.operands, [op(ptr1, local("5")), op(ptr1, Value::Null)]);

    let sel = inst(&b, "20");
    assert_eq!(sel.flags, Flags::FAST);
    assert_eq!(
        sel.operands[2],
        op(TypeTable::FLOAT, Value::Float("0x7FF8000000000000"))
    );

    let fmax = inst(&b, "21");
    assert_eq!(fmax.flags, flags(&[Flags::TAIL, Flags::FAST]));
    assert_eq!(fmax.callee_name(), Some("air.fast_fmax.f32"));
    assert_eq!(fmax.call_args().len(), 2);
    assert_eq!(
        at_line(&b, 147).operands,
        [op(TypeTable::FLOAT, local("21"))]
    );
}

// ---- 7. typed and opaque twins ----

#[test]
fn typed_and_opaque_twins_read_the_same() {
    let mut t = read("era_typed.ll");
    let mut o = read("era_opaque.ll");
    assert!(all_diagnostics(&mut t).is_empty());
    assert!(all_diagnostics(&mut o).is_empty());

    let (tf, of) = (
        t.function("scale_rows").unwrap().clone(),
        o.function("scale_rows").unwrap().clone(),
    );
    assert_eq!(tf.params.len(), 5);
    assert_eq!(tf.params.len(), of.params.len());
    for (a, b) in tf.params.iter().zip(&of.params) {
        assert_eq!(t.types.addrspace(a.ty), o.types.addrspace(b.ty));
        assert_eq!(disp(&t, a.ty), disp(&o, b.ty));
    }
    let spaces: Vec<_> = of.params.iter().map(|p| o.types.addrspace(p.ty)).collect();
    assert_eq!(spaces, [Some(1), Some(1), Some(2), Some(3), None]);
    // Only the typed era knows pointees.
    assert_eq!(pointee(&t, tf.params[0].ty), Some(TypeTable::FLOAT));
    assert_eq!(
        disp(&t, pointee(&t, tf.params[3].ty).unwrap()),
        "<2 x half>"
    );
    assert_eq!(pointee(&o, of.params[0].ty), None);

    let bt = clean_body(&mut t, "scale_rows");
    let bo = clean_body(&mut o, "scale_rows");
    assert_eq!(bt.instructions.len(), 17);
    assert_eq!(bt.instructions.len(), bo.instructions.len());
    let labels = |b: &Body<'static>| b.blocks.iter().map(|b| b.label).collect::<Vec<_>>();
    assert_eq!(labels(&bt), labels(&bo));
    for (a, b) in bt.instructions.iter().zip(&bo.instructions) {
        let at = format!("line {}", a.line);
        assert_eq!(a.line, b.line, "{at}");
        assert_eq!(a.opcode, b.opcode, "{at}");
        assert_eq!(a.result, b.result, "{at}");
        assert_eq!(disp(&t, a.ty), disp(&o, b.ty), "{at}");
        assert_eq!(
            a.elem_ty.map(|x| disp(&t, x)),
            b.elem_ty.map(|x| disp(&o, x)),
            "{at}"
        );
        assert_eq!(a.operands.len(), b.operands.len(), "{at}");
        for (x, y) in a.operands.iter().zip(&b.operands) {
            assert_eq!(t.types.addrspace(x.ty), o.types.addrspace(y.ty), "{at}");
            assert_eq!(disp(&t, x.ty), disp(&o, y.ty), "{at}");
        }
        assert_eq!(a.attachment("tbaa"), b.attachment("tbaa"), "{at}");
    }
    // Address spaces of the memory operations, in order.
    let mem_spaces = |m: &Module<'_>, b: &Body<'_>| -> Vec<Option<u32>> {
        b.instructions
            .iter()
            .filter_map(|i| match i.opcode {
                Opcode::Load | Opcode::GetElementPtr => Some(m.types.addrspace(i.operands[0].ty)),
                Opcode::Store => Some(m.types.addrspace(i.operands[1].ty)),
                _ => None,
            })
            .collect()
    };
    let spaces = mem_spaces(&t, &bt);
    assert_eq!(
        spaces,
        [
            Some(2),
            Some(1),
            Some(1),
            Some(1),
            Some(1),
            Some(3),
            Some(3)
        ]
    );
    assert_eq!(spaces, mem_spaces(&o, &bo));

    // Flags and values newer llvm-dis prints differently.
    assert_eq!(inst(&bt, "10").flags, Flags::INBOUNDS);
    assert_eq!(inst(&bo, "10").flags, flags(&[Flags::INBOUNDS, Flags::NUW]));
    assert_eq!(inst(&bt, "9").flags, Flags::default());
    assert_eq!(inst(&bo, "9").flags, Flags::NNEG);
    assert_eq!(inst(&bt, "12").operands[0].value, Value::Undef);
    assert_eq!(inst(&bo, "12").operands[0].value, Value::Poison);

    let tvec = agg(&inst(&bt, "14").operands[1].value);
    assert_eq!(tvec.elements.len(), 2);
    assert_eq!(
        inst(&bo, "14").operands[1].value,
        Value::Splat(Box::new(op(TypeTable::FLOAT, Value::Float("2.000000e+00"))))
    );
    let half_store_t = at_line(&bt, 32);
    let half_store_o = at_line(&bo, 32);
    assert_eq!(
        agg(&half_store_t.operands[0].value).elements,
        [
            op(TypeTable::HALF, Value::Float("0xHFBFF")),
            op(TypeTable::HALF, Value::Float("0xHFBFF")),
        ]
    );
    assert_eq!(
        half_store_o.operands[0].value,
        Value::Splat(Box::new(op(TypeTable::HALF, Value::Float("0xHFBFF"))))
    );
}

#[test]
fn opaque_twin_parses_newer_attribute_syntax() {
    let t = read("era_typed.ll");
    let o = read("era_opaque.ll");
    let tf = t.function("scale_rows").unwrap();
    let of = o.function("scale_rows").unwrap();
    assert_eq!(
        tf.params[0].attributes,
        "nocapture noundef readonly \"air-buffer-no-alias\""
    );
    assert_eq!(
        of.params[0].attributes,
        "noundef readonly captures(none) \"air-buffer-no-alias\""
    );
    assert_eq!(
        of.params[2].attributes,
        "noundef readonly captures(none) align 4 dereferenceable(4) \"air-buffer-no-alias\""
    );
    assert_eq!(of.params[4].attributes, "noundef range(i32 0, 1024)");
    assert_eq!(tf.params[4].attributes, "noundef");
    assert_eq!(of.attributes, "local_unnamed_addr #0");
    assert!(
        o.attribute_groups[0]
            .text
            .starts_with("convergent mustprogress nounwind willreturn memory(argmem: readwrite) ")
    );
    assert!(t.attribute_groups[0].text.starts_with("argmemonly "));
}

#[test]
fn typed_and_opaque_twins_describe_the_same_kernel() {
    let t = read("era_typed.ll");
    let o = read("era_opaque.ll");
    let (ti, oi) = (air_info(&t), air_info(&o));
    assert!(ti.diagnostics.is_empty() && oi.diagnostics.is_empty());
    assert_eq!(ti.entry_points.len(), 1);
    assert_eq!(oi.entry_points.len(), 1);
    let (tk, ok) = (&ti.entry_points[0], &oi.entry_points[0]);
    assert_eq!((tk.name, tk.stage), ("scale_rows", "kernel"));
    assert_eq!((ok.name, ok.stage), ("scale_rows", "kernel"));
    let summary = |e: &EntryPoint<'static>| {
        e.arguments
            .iter()
            .map(|a| {
                (
                    a.index,
                    a.kind,
                    a.location_index,
                    a.address_space,
                    a.access,
                    a.name,
                )
            })
            .collect::<Vec<_>>()
    };
    assert_eq!(summary(tk), summary(ok));
    assert_eq!(
        summary(ok),
        [
            (
                0,
                ArgumentKind::Buffer,
                Some(0),
                Some(1),
                Some("read"),
                Some("in")
            ),
            (
                1,
                ArgumentKind::Buffer,
                Some(1),
                Some(1),
                Some("write"),
                Some("out")
            ),
            (
                2,
                ArgumentKind::Buffer,
                Some(2),
                Some(2),
                Some("read"),
                Some("n")
            ),
            (
                3,
                ArgumentKind::Buffer,
                Some(0),
                Some(3),
                Some("read_write"),
                Some("scratch")
            ),
            (4, ArgumentKind::Builtin, None, None, None, Some("tid")),
        ]
    );
    // Each buffer's AIR address space is its parameter's.
    let f = o.function("scale_rows").unwrap();
    for a in &ok.arguments {
        if a.kind == ArgumentKind::Buffer {
            assert_eq!(
                o.types.addrspace(f.params[a.index as usize].ty),
                a.address_space
            );
        }
    }
    assert_eq!(ti.air_version.as_deref(), Some("2.6.0"));
    assert_eq!(oi.air_version.as_deref(), Some("2.7.0"));
    assert_eq!(ti.language_version.as_deref(), Some("Metal 3.1.0"));
}

// ---- 8. unknown attributes and keywords ----

#[test]
fn unknown_attributes_are_skipped_as_balanced_groups() {
    let mut m = read("unknown_attrs.ll");
    assert!(m.diagnostics.is_empty(), "{:?}", m.diagnostics);

    let g = m.global("counter").unwrap();
    assert_eq!(
        (g.linkage, g.addrspace, g.ty),
        (Some("internal"), 1, TypeTable::I32)
    );
    assert_eq!(g.initializer, Some(Value::Int(0)));

    let f = m.function("compute").unwrap();
    assert_eq!(f.params.len(), 3);
    assert_eq!(
        f.params[0].attributes,
        "noundef frobnicate(1, (2, 3)) captures(none) \"air-buffer-no-alias\""
    );
    assert_eq!(f.params[0].name, Some("0"));
    assert_eq!(m.types.addrspace(f.params[0].ty), Some(1));
    assert_eq!(f.params[2].ty, TypeTable::I32);
    assert_eq!(
        f.attributes,
        "local_unnamed_addr #0 frobnicate_fn quux(mode: fast, [1, 2])"
    );

    let h = m.function("helper").unwrap();
    assert_eq!(h.params[0].attributes, "frobnicate_decl(4)");
    assert_eq!(h.attributes, "local_unnamed_addr #1 frobnicate_decl_fn(5)");

    assert!(m.attribute_groups[0].text.contains(
        "memory(argmem: readwrite) frobnicate_group(1, (2, 3)) \"air-frobnicate\"=\"on\""
    ));
    assert_eq!(m.attribute_groups[1].text, "nounwind frobnicate_only");

    let (b, d) = body(&mut m, "compute");
    assert!(errors(&d).is_empty(), "{d:?}");
    // An unknown instruction is kept, with a warning on its line.
    assert_eq!(d.len(), 1, "{d:?}");
    assert_eq!((d[0].severity, d[0].line), (Severity::Warning, 22));
    assert!(d[0].message.contains("frobinst"), "{}", d[0].message);
    use Opcode::*;
    assert_eq!(
        opcodes(&b),
        [
            ZExt,
            GetElementPtr,
            Load,
            Call,
            Other,
            GetElementPtr,
            Store,
            Ret
        ]
    );
    assert_eq!(lines(&b), (18..=25).collect::<Vec<u32>>());
    let call = inst(&b, "7");
    assert_eq!(call.flags, Flags::TAIL);
    assert_eq!(call.ty, TypeTable::I8);
    assert_eq!(call.callee_name(), Some("helper"));
    assert_eq!(call.call_args(), [op(TypeTable::I8, local("6"))]);
    let other = inst(&b, "8");
    assert_eq!((other.opcode_text, other.operands.len()), ("frobinst", 0));
    assert_eq!(at_line(&b, 24).operands[0], op(TypeTable::I8, local("7")));
}

#[test]
fn unknown_inline_string_function_attribute() {
    let mut m = read("unknown_inline.ll");
    assert!(errors(&m.diagnostics).is_empty(), "{:?}", m.diagnostics);
    let f = m.function("string_attr").expect("@string_attr is read");
    assert_eq!(
        f.attributes,
        "local_unnamed_addr \"frobnicate-mode\"=\"fast\" \"no-builtins\""
    );
    assert_eq!(f.params.len(), 2);
    let b = clean_body(&mut m, "string_attr");
    assert_eq!(lines(&b), [14, 15, 16, 17, 18]);
}

#[test]
fn unknown_instruction_flag() {
    let mut m = read("unknown_inline.ll");
    let (b, d) = body(&mut m, "new_flag");
    assert!(errors(&d).is_empty(), "{d:?}");
    assert_eq!(lines(&b), [22, 23, 24, 25, 26]);
    let add = inst(&b, "3");
    assert_eq!(add.opcode, Opcode::Add);
    assert!(add.flags.contains(Flags::NSW));
    assert_eq!(
        add.operands,
        [
            op(TypeTable::I32, local("1")),
            op(TypeTable::I32, Value::Int(1)),
        ]
    );
}

// ---- 9. metal-objdump dumps ----

#[test]
fn metal_objdump_wrapper_is_cut_away_with_lines_kept() {
    let mut m = read("objdump_dump.ll");
    assert_eq!(m.first_line, 2);
    assert!(m.text.starts_with("; ModuleID = 'add_one.air'\n"));
    assert!(m.text.trim_end().ends_with("!11 = !{!\"Simple C++ TBAA\"}"));
    assert!(!m.text.contains("Disassembly of section __TEXT,__text:"));
    assert!(!m.text.contains("_agc.main"));
    assert!(all_diagnostics(&mut m).is_empty());
    assert_eq!(m.module_id, Some("add_one.air"));
    assert_eq!(m.source_filename, Some("add_one"));
    assert_eq!(m.target_triple, Some("air64-apple-macosx15.0.0"));
    assert_eq!(m.datalayout, Some(DATALAYOUT));

    // Nothing from the disassembly blocks (which hold a `define` line).
    let names: Vec<_> = m.functions.iter().map(|f| f.name).collect();
    assert_eq!(names, ["add_one"]);
    let f = m.function("add_one").unwrap();
    assert_eq!((f.line, f.body_line), (17, 17));
    let b = clean_body(&mut m, "add_one");
    assert_eq!(lines(&b), [18, 19, 20, 21, 22, 23]);
    assert_eq!(inst(&b, "6").line, 21);
    assert_eq!(inst(&b, "5").attachment("tbaa"), Some(8));

    assert_eq!(m.named("air.kernel").unwrap().line, 30);
    assert_eq!(m.metadata.entry(11).unwrap().line, 42);
    let info = air_info(&m);
    assert!(info.diagnostics.is_empty());
    assert_eq!(info.entry_points.len(), 1);
    assert_eq!(info.entry_points[0].name, "add_one");
    assert_eq!(info.entry_points[0].arguments.len(), 2);
    assert_eq!(info.air_version.as_deref(), Some("2.7.0"));
}

#[test]
fn dump_blocks_without_the_header_line_end_the_module() {
    // The same dump without its `0x... -- add_one:` line: the reader stops
    // at the first `Disassembly of section` line instead of reading the
    // blocks (which hold a `define` line) as IR.
    let text = fixture("objdump_dump.ll");
    let headless = &text[text.find('\n').unwrap() + 1..];
    let mut m = read_module(headless);
    assert_eq!(m.first_line, 1);
    assert!(all_diagnostics(&mut m).is_empty());
    assert!(m.text.trim_end().ends_with("!11 = !{!\"Simple C++ TBAA\"}"));
    let names: Vec<_> = m.functions.iter().map(|f| f.name).collect();
    assert_eq!(names, ["add_one"]);
    assert_eq!(air_info(&m).entry_points.len(), 1);
}

// ---- 10. AIR metadata ----

#[test]
fn air_kernel_arguments() {
    let mut m = read("air_metadata.ll");
    assert!(all_diagnostics(&mut m).is_empty());
    let info = air_info(&m);
    assert!(info.diagnostics.is_empty(), "{:?}", info.diagnostics);
    let eps: Vec<_> = info
        .entry_points
        .iter()
        .map(|e| (e.name, e.stage))
        .collect();
    assert_eq!(
        eps,
        [
            ("kernel_mul_mv_ext", "kernel"),
            ("vertex_main", "vertex"),
            ("fragment_main", "fragment"),
        ]
    );
    assert_eq!(info.kernels().count(), 1);
    let k = &info.entry_points[0];
    assert_eq!(k.properties, [("air.max_work_group_size", 256)]);
    assert_eq!(k.arguments.len(), 6);
    let idx: Vec<_> = k.arguments.iter().map(|a| a.index).collect();
    assert_eq!(idx, [0, 1, 2, 3, 4, 5]);

    // The constant buffer of ggml-style args, with its struct layout.
    let args = &k.arguments[0];
    assert_eq!(
        (args.kind, args.air_kind),
        (ArgumentKind::Buffer, "air.buffer")
    );
    assert_eq!(args.location_index, Some(0));
    assert_eq!(args.address_space, Some(2));
    assert_eq!(args.access, Some("read"));
    assert_eq!(args.name, Some("args"));
    assert_eq!(args.type_name, Some("ggml_metal_kargs_mul_mv_ext"));
    assert_eq!((args.type_size, args.buffer_size), (Some(32), Some(32)));
    assert_eq!(args.function_constant, None);
    let field = |offset, size, count, type_name, name| StructField {
        offset,
        size,
        count,
        type_name,
        name,
    };
    assert_eq!(
        args.struct_fields,
        [
            field(0, 4, 0, "int", "ne00"),
            field(4, 4, 0, "int", "ne01"),
            field(8, 8, 0, "ulong", "nb01"),
            field(16, 2, 0, "short", "ne12"),
            field(18, 2, 0, "short", "r2"),
            field(20, 4, 3, "int", "pad"),
        ]
    );
    assert_eq!(args.field_at(16).unwrap().name, "ne12");
    assert_eq!(args.field_at(17).unwrap().name, "ne12");
    assert_eq!(args.field_at(18).unwrap().name, "r2");
    assert_eq!(args.field_at(31).unwrap().name, "pad");
    assert_eq!(args.field_at(32), None);

    let src = &k.arguments[1];
    assert_eq!(
        (src.name, src.location_index, src.address_space, src.access),
        (Some("src0"), Some(1), Some(1), Some("read"))
    );
    assert_eq!(
        (src.type_name, src.type_size, src.buffer_size),
        (Some("float"), Some(4), None)
    );
    assert_eq!(k.arguments[2].access, Some("read_write"));

    // The argument that exists only when a function constant is true.
    let bias = &k.arguments[3];
    assert_eq!((bias.kind, bias.name), (ArgumentKind::Buffer, Some("bias")));
    assert_eq!(bias.function_constant, Some("align_Q"));
    assert_eq!(bias.location_index, Some(3));

    let tid = &k.arguments[4];
    assert_eq!(
        (tid.kind, tid.air_kind, tid.builtin),
        (
            ArgumentKind::Builtin,
            "air.thread_position_in_grid",
            Some("thread_position_in_grid")
        )
    );
    assert_eq!((tid.type_name, tid.name), (Some("uint3"), Some("tgpig")));
    assert_eq!((tid.location_index, tid.address_space), (None, None));
    let simd = &k.arguments[5];
    assert_eq!(simd.builtin, Some("threads_per_simdgroup"));
    assert_eq!(simd.name, Some("ntg"));

    // Buffer address spaces agree with the parameters' types.
    let f = m.function("kernel_mul_mv_ext").unwrap();
    for a in k
        .arguments
        .iter()
        .filter(|a| a.kind == ArgumentKind::Buffer)
    {
        assert_eq!(
            m.types.addrspace(f.params[a.index as usize].ty),
            a.address_space
        );
    }
}

#[test]
fn air_vertex_and_fragment_entries() {
    let m = read("air_metadata.ll");
    let info = air_info(&m);
    let v = &info.entry_points[1];
    assert_eq!(v.arguments.len(), 2);
    assert_eq!(
        (
            v.arguments[0].kind,
            v.arguments[0].builtin,
            v.arguments[0].name
        ),
        (ArgumentKind::Builtin, Some("vertex_id"), Some("vid"))
    );
    let pos = &v.arguments[1];
    assert_eq!(
        (pos.kind, pos.location_index, pos.address_space, pos.name),
        (ArgumentKind::Buffer, Some(0), Some(2), Some("positions"))
    );
    assert_eq!((pos.type_name, pos.type_size), (Some("float4"), Some(16)));

    let f = &info.entry_points[2];
    assert_eq!(f.arguments.len(), 1);
    let input = &f.arguments[0];
    assert_eq!(
        (input.kind, input.air_kind, input.name, input.type_name),
        (
            ArgumentKind::StageIn,
            "air.fragment_input",
            Some("position"),
            Some("float4")
        )
    );
    assert!(input.unused);
    assert!(!v.arguments[1].unused);
}

#[test]
fn air_function_constants_and_version_metadata() {
    let m = read("air_metadata.ll");
    let info = air_info(&m);
    let fcs: Vec<_> = info
        .function_constants
        .iter()
        .map(|fc| (fc.global, fc.name, fc.type_name, fc.index))
        .collect();
    assert_eq!(
        fcs,
        [
            // From air.fc_initializer globals, named by !air.function_constants.
            (
                "_Z7align_Q.MTL_FC_INIT_200_b",
                Some("align_Q"),
                Some("bool"),
                Some(200)
            ),
            (
                "_Z14FC_mul_mv_ne12.MTL_FC_INIT_600_s",
                Some("FC_mul_mv_ne12"),
                Some("short"),
                Some(600)
            ),
            // Only the global: the type is the name's suffix code.
            ("_Z9has_sinks.MTL_FC_INIT_302_b", None, Some("b"), Some(302)),
            // Only in !air.function_constants.
            ("_ZL5alpha", Some("alpha"), Some("float"), Some(20)),
        ]
    );
    let g = m.global("_Z14FC_mul_mv_ne12.MTL_FC_INIT_600_s").unwrap();
    assert_eq!((g.ty, g.addrspace), (TypeTable::I16, 2));

    assert_eq!(info.air_version.as_deref(), Some("2.7.0"));
    assert_eq!(info.language_version.as_deref(), Some("Metal 3.2.0"));
    assert_eq!(
        info.compile_options,
        [
            "air.compile.denorms_disable",
            "air.compile.fast_math_enable",
            "air.compile.framebuffer_fetch_enable",
        ]
    );
    assert!(info.fast_math());
    assert_eq!(
        info.llvm_ident,
        ["Apple metal version 32023.620 (metalfe-32023.620)"]
    );
    assert_eq!(
        m.named("air.function_constants").unwrap().nodes,
        [50, 51, 52]
    );
    assert_eq!(m.named("air.kernel").unwrap().nodes, [8]);
}

#[test]
fn air_function_constant_from_a_typed_module() {
    let m = read("header_globals_typed.ll");
    let info = air_info(&m);
    assert_eq!(info.function_constants.len(), 1);
    let fc = &info.function_constants[0];
    assert_eq!(
        (fc.global, fc.name, fc.type_name, fc.index),
        ("_Z7align_Q.MTL_FC_INIT_200_b", None, Some("b"), Some(200))
    );
    assert!(info.entry_points.is_empty());
    assert_eq!(info.air_version.as_deref(), Some("2.7.0"));
}

// ---- 11. debug info ----

#[test]
fn debug_info_compile_units_files_and_subprograms() {
    let mut m = read("debug_info.ll");
    assert!(all_diagnostics(&mut m).is_empty());
    assert_eq!(m.named("llvm.dbg.cu").unwrap().nodes, [0, 5]);

    let MetaNode::CompileUnit(cu) = m.metadata.get(0).unwrap() else {
        panic!("!0 is not a DICompileUnit: {:?}", m.metadata.get(0));
    };
    assert_eq!(cu.language, "DW_LANG_Metal");
    assert_eq!(cu.file, Some(1));
    assert_eq!(
        cu.producer,
        Some("Apple metal version 32023.620 (metalfe-32023.620)")
    );
    assert!(cu.is_optimized);
    assert_eq!(cu.emission_kind, Some("FullDebug"));
    assert!(m.metadata.entry(0).unwrap().distinct);

    let MetaNode::CompileUnit(cu) = m.metadata.get(5).unwrap() else {
        panic!("!5 is not a DICompileUnit");
    };
    assert_eq!(cu.language, "DW_LANG_C_plus_plus_14");
    assert_eq!(
        (cu.file, cu.emission_kind),
        (Some(6), Some("LineTablesOnly"))
    );

    // DIFile with the source text from -frecord-sources.
    let file = m.metadata.file(1).unwrap();
    assert_eq!(
        (file.filename, file.directory),
        ("softmax.metal", "/Users/dev/shaders")
    );
    let source = file.source.expect("source: field");
    assert!(source.starts_with("#include <metal_stdlib>\\0Ausing namespace metal;\\0A"));
    let text = unescape(source);
    let src_lines: Vec<&str> = text.lines().collect();
    assert_eq!(src_lines.len(), 7);
    assert_eq!(src_lines[5], "    x[tid] = fast::exp2(x[tid]);");
    let helper = m.metadata.file(6).unwrap();
    assert_eq!(
        (helper.filename, helper.source),
        ("helpers/convert.metal", None)
    );
    assert_eq!(m.metadata.file(17).unwrap().directory, "");

    let MetaNode::Subprogram(sp) = m.metadata.get(10).unwrap() else {
        panic!("!10 is not a DISubprogram");
    };
    assert_eq!((sp.name, sp.linkage_name), (Some("softmax"), None));
    assert_eq!((sp.scope, sp.file, sp.unit), (Some(1), Some(1), Some(0)));
    assert_eq!((sp.line, sp.scope_line), (4, 5));
    let MetaNode::Subprogram(sp) = m.metadata.get(16).unwrap() else {
        panic!("!16 is not a DISubprogram");
    };
    assert_eq!(sp.linkage_name, Some("_ZN5metal4fast4exp2Ef"));
    assert_eq!((sp.line, sp.scope_line, sp.file), (2930, 2931, Some(17)));

    assert_eq!(m.function("softmax").unwrap().metadata, [("dbg", 10)]);
    assert_eq!(m.function("cojest").unwrap().metadata, [("dbg", 34)]);
    let (id, sp) = m.metadata.subprogram_of_scope(23).unwrap();
    assert_eq!((id, sp.name), (10, Some("softmax")));
    let (_, sp) = m.metadata.subprogram_of_scope(34).unwrap();
    assert_eq!(sp.unit, Some(5));
}

#[test]
fn debug_info_inlined_at_chain_innermost_first() {
    let m = read("debug_info.ll");
    let chain = m.metadata.inlined_chain(28);
    assert_eq!(
        chain,
        [
            DILocation {
                line: 2931,
                column: 10,
                scope: Some(24),
                inlined_at: Some(32)
            },
            DILocation {
                line: 2933,
                column: 5,
                scope: Some(16),
                inlined_at: Some(33)
            },
            DILocation {
                line: 6,
                column: 23,
                scope: Some(23),
                inlined_at: None
            },
        ]
    );
    assert!(m.metadata.entry(32).unwrap().distinct);
    assert_eq!(m.metadata.inlined_chain(26).len(), 1);
    assert_eq!(
        m.metadata.location(25),
        Some(DILocation {
            line: 0,
            column: 0,
            scope: Some(10),
            inlined_at: None
        })
    );
    let (_, inner) = m
        .metadata
        .subprogram_of_scope(chain[0].scope.unwrap())
        .unwrap();
    assert_eq!(inner.name, Some("__metal_exp2"));
}

#[test]
fn debug_info_other_nodes_are_generic() {
    let m = read("debug_info.ll");
    let specialized = |id: u32| match m.metadata.get(id).unwrap() {
        MetaNode::Specialized { kind, fields } => (*kind, fields.clone()),
        other => panic!("!{id} is not generic: {other:?}"),
    };
    assert_eq!(
        specialized(15),
        (
            "DIBasicType",
            vec![
                ("name", MetaOperand::FieldStr("float")),
                ("size", MetaOperand::Int(32)),
                ("encoding", MetaOperand::Word("DW_ATE_float")),
            ]
        )
    );
    let (kind, fields) = specialized(13);
    assert_eq!(kind, "DIDerivedType");
    assert_eq!(
        fields,
        [
            ("tag", MetaOperand::Word("DW_TAG_pointer_type")),
            ("baseType", MetaOperand::Ref(15)),
            ("size", MetaOperand::Int(64)),
            ("dwarfAddressSpace", MetaOperand::Int(1)),
        ]
    );
    let (kind, fields) = specialized(23);
    assert_eq!(kind, "DILexicalBlock");
    assert_eq!(fields[0], ("scope", MetaOperand::Ref(10)));
    let (kind, fields) = specialized(22);
    assert_eq!(kind, "DILocalVariable");
    assert_eq!(fields[0], ("name", MetaOperand::FieldStr("e")));
    assert_eq!(specialized(11).0, "DISubroutineType");

    // DIExpression, inline in a DIGlobalVariableExpression.
    let (kind, fields) = specialized(60);
    assert_eq!(kind, "DIGlobalVariableExpression");
    assert_eq!(fields[0], ("var", MetaOperand::Ref(61)));
    let empty = MetaNode::Specialized {
        kind: "DIExpression",
        fields: vec![],
    };
    assert_eq!(fields[1], ("expr", MetaOperand::Node(Box::new(empty))));
    let (_, fields) = specialized(62);
    let ops = MetaNode::Specialized {
        kind: "DIExpression",
        fields: vec![
            ("", MetaOperand::Word("DW_OP_constu")),
            ("", MetaOperand::Int(4)),
            ("", MetaOperand::Word("DW_OP_stack_value")),
        ],
    };
    assert_eq!(fields[1], ("expr", MetaOperand::Node(Box::new(ops))));
    assert_eq!(specialized(61).0, "DIGlobalVariable");
    assert_eq!(
        m.metadata.tuple(64).unwrap(),
        [MetaOperand::Ref(60), MetaOperand::Ref(62)]
    );
    assert_eq!(
        m.metadata.tuple(12).unwrap(),
        [
            MetaOperand::Null,
            MetaOperand::Ref(13),
            MetaOperand::Ref(14)
        ]
    );
    let g = m.global("_ZL5scale").unwrap();
    assert_eq!(g.initializer, Some(Value::Float("2.000000e+00")));
}

#[test]
fn debug_records_are_counted_not_instructions() {
    let mut m = read("debug_info.ll");
    let b = clean_body(&mut m, "softmax");
    assert_eq!(b.debug_records, 4);
    // Records sit on lines 26, 27, 32 and 37; no instruction is read there.
    assert_eq!(lines(&b), [28, 29, 30, 31, 33, 34, 38, 39, 42, 43, 44]);
    let dbg: Vec<_> = b.instructions.iter().map(|i| i.dbg).collect();
    assert_eq!(
        dbg,
        [
            Some(26),
            Some(26),
            Some(27),
            Some(28),
            Some(29),
            Some(29),
            Some(30),
            Some(30),
            Some(31),
            Some(31),
            Some(31)
        ]
    );
    let load = inst(&b, "4");
    assert_eq!(load.attachment("tbaa"), Some(50));
    assert_eq!(load.attachment("dbg"), Some(27));
    // The phi's `, !dbg` is an attachment, not an incoming pair.
    let phi = inst(&b, "6");
    assert_eq!(phi.operands.len(), 4);
    // Source lines of the instructions, through the metadata.
    let src: Vec<u32> = b
        .instructions
        .iter()
        .map(|i| m.metadata.location(i.dbg.unwrap()).unwrap().line)
        .collect();
    assert_eq!(src, [6, 6, 6, 2931, 6, 6, 6, 6, 7, 7, 7]);

    let b = clean_body(&mut m, "cojest");
    assert_eq!((b.debug_records, b.instructions.len()), (0, 1));
    assert_eq!(b.instructions[0].dbg, Some(36));
    assert_eq!(m.metadata.location(36).unwrap().line, 139);
}

#[test]
fn switch_with_dbg_after_the_closing_bracket() {
    let mut m = read("switch_dbg.ll");
    let (b, d) = body(&mut m, "pick");
    assert!(d.is_empty(), "{d:?}");
    let sw = at_line(&b, 15);
    assert_eq!(sw.opcode, Opcode::Switch);
    assert_eq!(sw.operands.len(), 6);
    assert_eq!(sw.dbg, Some(9));
    assert_eq!(b.blocks.len(), 4);
    assert_eq!(lines(&b), [15, 21, 22, 25, 26, 29]);
}

// ---- 12. recovery ----

#[test]
fn one_garbage_line_costs_one_instruction() {
    let mut m = read("recovery.ll");
    assert!(m.diagnostics.is_empty(), "{:?}", m.diagnostics);
    let names: Vec<_> = m.functions.iter().map(|f| f.name).collect();
    assert_eq!(names, ["buggy", "cut", "working"]);

    let (b, d) = body(&mut m, "buggy");
    assert_eq!(d.len(), 1, "{d:?}");
    assert_eq!((d[0].severity, d[0].line), (Severity::Error, 23));
    assert_eq!(
        lines(&b),
        [16, 17, 18, 19, 20, 21, 22, 24, 25, 26, 27, 28, 29]
    );
    assert!(b.instructions.iter().all(|i| i.result != Some("10")));
    let shl = inst(&b, "11");
    assert_eq!((shl.opcode, shl.line), (Opcode::Shl, 24));
    assert_eq!(shl.operands[0], op(TypeTable::I32, local("9")));
    assert_eq!(
        inst(&b, "8").operands[1],
        op(TypeTable::I32, Value::Int(536870907))
    );
    assert_eq!(inst(&b, "14").opcode, Opcode::Load);

    // The functions after it read clean.
    let b = clean_body(&mut m, "working");
    assert_eq!(lines(&b), (42..=48).collect::<Vec<u32>>());
    assert_eq!(
        inst(&b, "3").operands[1],
        op(TypeTable::I32, Value::Int(-5))
    );
    assert_eq!(m.named("llvm.ident").unwrap().nodes, [0]);
}

#[test]
fn an_instruction_cut_short_does_not_eat_the_next_line() {
    let mut m = read("recovery.ll");
    let (b, d) = body(&mut m, "cut");
    let errs = errors(&d);
    assert_eq!(errs.len(), 1, "{d:?}");
    assert_eq!(errs[0].line, 35);
    assert_eq!(lines(&b), [33, 34, 36, 37, 38]);
    let load = inst(&b, "6");
    assert_eq!((load.opcode, load.line), (Opcode::Load, 36));
    assert!(
        b.instructions
            .iter()
            .all(|i| i.operands.iter().all(|o| o.value != local("6")) || i.line > 36)
    );
}

// ---- 13. valid LLVM text in other layouts than LLVM's printer's ----

/// The module read from fixture `name`, which must read without any
/// diagnostic, its bodies included.
fn clean(name: &str) -> Module<'static> {
    let mut m = read(name);
    let d = all_diagnostics(&mut m);
    assert!(d.is_empty(), "{name}: {d:?}");
    m
}

#[test]
fn entities_and_instructions_split_over_lines() {
    let mut m = clean("split_lines.ll");
    let pair = &m.struct_types[0];
    assert_eq!((pair.name, pair.line), ("struct.Pair", 13));
    assert_eq!(disp(&m, pair.body.unwrap()), "{ float, i32 }");
    let g = m.global("g").unwrap();
    assert_eq!((g.line, g.addrspace, g.is_constant), (18, 2, true));
    assert_eq!(agg(g.initializer.as_ref().unwrap()).elements.len(), 2);

    let f = m.function("scale").unwrap();
    let names: Vec<_> = f.params.iter().map(|p| p.name).collect();
    assert_eq!(names, [Some("a"), Some("n"), Some("s")]);
    assert_eq!(f.params[0].attributes, "noundef \"air-buffer-no-alias\"");
    assert_eq!(f.attributes, "local_unnamed_addr #0");
    assert_eq!((f.line, f.body_line), (21, 26));
    let b = clean_body(&mut m, "scale");
    assert_eq!(lines(&b), [28, 31, 33, 35, 39, 41, 43, 46, 48]);
    let labels: Vec<_> = b.blocks.iter().map(|b| b.label).collect();
    assert_eq!(labels, [Some("entry"), Some("then"), Some("done")]);
    assert_eq!(inst(&b, "p").operands.len(), 2);
    assert_eq!(inst(&b, "c").predicate, Some("ult"));
    assert_eq!(inst(&b, "r").operands.len(), 3);
    let phi = inst(&b, "x");
    assert_eq!(phi.operands.len(), 4);
    assert_eq!(phi.operands[3].value, Value::Label("then"));
    let store = at_line(&b, 41);
    assert_eq!(store.operands[1].value, local("p"));
    assert_eq!(m.types.addrspace(store.operands[1].ty), Some(1));

    let mix = m.function("mix").unwrap();
    assert_eq!((mix.is_definition, mix.attributes), (false, "#1"));
    assert_eq!(m.attribute_groups.len(), 2);
}

#[test]
fn bodies_on_one_line_or_closed_on_an_instruction_line() {
    let mut m = clean("one_line_bodies.ll");
    let names: Vec<_> = m.functions.iter().map(|f| f.name).collect();
    assert_eq!(names, ["empty", "inc", "tail", "indented", "after"]);
    assert_eq!(opcodes(&clean_body(&mut m, "empty")), [Opcode::Ret]);
    let b = clean_body(&mut m, "inc");
    assert_eq!(opcodes(&b), [Opcode::Add, Opcode::Ret]);
    assert_eq!(lines(&b), [12, 12]);
    assert_eq!(b.blocks[0].label, Some("entry"));
    assert_eq!(
        b.instructions[1].operands[0],
        op(TypeTable::I32, local("y"))
    );
    assert_eq!(lines(&clean_body(&mut m, "tail")), [15]);
    let b = clean_body(&mut m, "indented");
    assert_eq!(opcodes(&b), [Opcode::Br, Opcode::Ret]);
    assert_eq!(b.blocks.len(), 2);
    assert_eq!(m.function("after").unwrap().line, 23);
    assert_eq!(lines(&clean_body(&mut m, "after")), [24]);
}

#[test]
fn declaration_with_an_attachment_before_its_type() {
    let m = clean("declare_attachments.ll");
    let g = m.function("g").unwrap();
    assert!(!g.is_definition);
    assert_eq!(g.return_type, TypeTable::VOID);
    assert_eq!(g.metadata, [("dbg", 3)]);
    assert_eq!(m.function("h").unwrap().params.len(), 1);
}

#[test]
fn globals_and_aliases_of_constant_expressions() {
    let m = clean("constexpr_globals.ll");
    assert_eq!(m.globals.len(), 13);
    let init = |name: &str| m.global(name).unwrap().initializer.as_ref().unwrap();
    let b = expr(init("b"));
    assert_eq!(b.opcode, Opcode::AddrSpaceCast);
    assert_eq!(b.operands[0].value, Value::Global("a"));
    assert_eq!(expr(init("c")).operands.len(), 3);
    let al = expr(init("al"));
    assert_eq!(al.opcode, Opcode::AddrSpaceCast);
    assert_eq!(expr(&al.operands[0].value).opcode, Opcode::GetElementPtr);
    assert_eq!(expr(init("d")).opcode, Opcode::PtrToInt);
    let s = agg(init("s"));
    let ops: Vec<_> = s.elements.iter().map(|e| expr(&e.value).opcode).collect();
    assert_eq!(ops, [Opcode::AddrSpaceCast, Opcode::PtrToInt]);
    assert_eq!(expr(init("r")).opcode, Opcode::GetElementPtr);

    let m = clean("constexpr_globals_typed.ll");
    assert_eq!(m.globals.len(), 4);
    let init = |name: &str| m.global(name).unwrap().initializer.as_ref().unwrap();
    let b = expr(init("b"));
    assert_eq!(b.opcode, Opcode::AddrSpaceCast);
    assert_eq!(expr(&b.operands[0].value).opcode, Opcode::GetElementPtr);
    assert_eq!(expr(init("c")).opcode, Opcode::BitCast);
    assert_eq!(expr(init("al")).operands[0].value, Value::Global("b"));
}

#[test]
fn function_pointer_types_in_ret_and_personality() {
    let mut m = clean("function_pointer_types.ll");
    let b = clean_body(&mut m, "getf");
    let ret = &b.instructions[0];
    assert_eq!(ret.opcode, Opcode::Ret);
    assert_eq!(ret.operands[0].value, Value::Global("sink"));
    let fn_ty = pointee(&m, ret.operands[0].ty).unwrap();
    assert_eq!(disp(&m, fn_ty), "void (i32)");
    let b = clean_body(&mut m, "q");
    assert_eq!(b.instructions[0].operands[0].value, Value::Null);
    assert_eq!(lines(&clean_body(&mut m, "p")), [17]);
    assert!(
        m.function("p")
            .unwrap()
            .attributes
            .starts_with("personality")
    );
}

#[test]
fn old_style_commented_block_labels() {
    let mut m = clean("old_style_labels.ll");
    let b = clean_body(&mut m, "f");
    let blocks: Vec<_> = b.blocks.iter().map(|b| (b.label, b.line)).collect();
    assert_eq!(blocks, [(None, 6), (Some("2"), 10), (Some("3"), 13)]);
    assert_eq!(b.blocks[2].instructions, 3..5);
    let cfg = air_scan::analysis::cfg::Cfg::build(&b);
    assert!(cfg.missing.is_empty(), "{:?}", cfg.missing);
    assert_eq!(cfg.exits, [2]);
}

#[test]
fn modules_without_functions_read_ok() {
    let rules = air_scan::rules::RuleSet::builtin();
    for name in [
        "no_functions_types.ll",
        "no_functions_comdat.ll",
        "no_functions_asm.ll",
        "no_functions_comments.ll",
    ] {
        let r = air_scan::scan::scan_text(name.into(), fixture(name), &rules);
        assert_eq!(
            r.status,
            air_scan::scan::Status::Ok,
            "{name}: {:?}",
            r.error
        );
        assert!(r.diagnostics.is_empty(), "{name}: {:?}", r.diagnostics);
        assert!(r.kernels.is_empty());
    }
    assert_eq!(clean("no_functions_types.ll").struct_types.len(), 2);
    // Text that is no IR at all is still said to be so.
    let r = air_scan::scan::scan_text("x.ll".into(), "hello world\n", &rules);
    assert_eq!(r.status, air_scan::scan::Status::Error);
}

#[test]
fn thinlto_summary_entries_are_skipped() {
    let mut m = clean("thinlto_summary.ll");
    assert_eq!(m.functions.len(), 1);
    assert_eq!(lines(&clean_body(&mut m, "f")), [10]);
}

#[test]
fn array_sizes_up_to_u64_max() {
    let m = clean("huge_array.ll");
    let g = m.global("g").unwrap();
    assert_eq!(
        m.types.get(g.ty),
        &Type::Array {
            len: u64::MAX,
            elem: TypeTable::I8
        }
    );
    let p = m.function("f").unwrap().params[0].ty;
    assert_eq!(pointee(&m, p), Some(g.ty));
}

#[test]
fn metal_objdump_library_dump_is_one_report_per_module() {
    let rules = air_scan::rules::RuleSet::builtin();
    let config = air_scan::scan::ScanConfig::new(&rules);
    let path = format!(
        "{}/testdata/reader/objdump_library.ll",
        env!("CARGO_MANIFEST_DIR")
    );
    let reports = air_scan::scan::scan_path(std::path::Path::new(&path), &config);
    let names: Vec<_> = reports.iter().map(|r| r.path.clone()).collect();
    assert_eq!(
        names,
        [format!("{path}:add_two"), format!("{path}:scale_two")]
    );
    for (r, kernel) in reports.iter().zip(["add_two", "scale_two"]) {
        assert_eq!(r.status, air_scan::scan::Status::Ok);
        assert_eq!(r.error_count(), 0, "{:?}", r.diagnostics);
        assert_eq!(r.kernels.len(), 1);
        assert_eq!(&*r.kernels[0].name, kernel);
    }
    assert!(reports[0].diagnostics.is_empty());
    let d = &reports[1].diagnostics;
    assert_eq!(d.len(), 1, "{d:?}");
    assert_eq!((d[0].severity, d[0].line), (Severity::Warning, 86));
    assert!(d[0].message.contains("REFLECTION_LIST"), "{}", d[0].message);

    // Lines true to the dump file.
    let text = fixture("objdump_library.ll");
    let dump = air_scan::ir::dump::split(text).unwrap();
    assert_eq!(dump.modules.len(), 2);
    let mut m = air_scan::ir::read_module_at(dump.modules[1].text, dump.modules[1].first_line);
    assert_eq!(dump.modules[1].first_line, 53);
    let f = m.function("scale_two").unwrap();
    assert_eq!(f.line, 59);
    let b = clean_body(&mut m, "scale_two");
    assert_eq!(lines(&b), (60..=65).collect::<Vec<u32>>());
    assert_eq!(inst(&b, "6").opcode, Opcode::FMul);
    // `read_module` on the whole dump reads the first module and says so.
    let m = read("objdump_library.ll");
    assert_eq!(m.first_line, 6);
    assert_eq!(m.function("add_two").unwrap().line, 25);
    assert_eq!(m.diagnostics.len(), 1);
    assert_eq!(m.diagnostics[0].severity, Severity::Warning);
}

#[test]
fn an_error_on_a_continuation_line_is_reported_there() {
    // Line 3 goes on with the instruction of line 2 and is wrong: the error
    // is on line 3, and the `ret` after it is read.
    let text = "define void @f(i32 %a) {\n  %x = add i32 %a,\n         i32 %a\n  ret void\n}\n";
    let mut m = read_module(text);
    let (b, d) = m.body(0);
    assert_eq!(d.len(), 1, "{d:?}");
    assert_eq!((d[0].severity, d[0].line), (Severity::Error, 3));
    assert_eq!(opcodes(&b), [Opcode::Ret]);
    assert_eq!(lines(&b), [4]);
}

/// A `DIArgList` of typed-pointer operands, as llvm-dis-14 (and the native
/// bitcode reader) print it: read as typed values, with the instructions
/// after it.
#[test]
fn a_diarglist_of_typed_pointers_reads() {
    let mut m = clean("diarglist_typed.ll");
    let (b, d) = body(&mut m, "f");
    assert!(d.is_empty(), "{d:?}");
    let opcodes: Vec<&str> = b.instructions.iter().map(|i| i.opcode_text).collect();
    assert_eq!(opcodes, ["zext", "call", "getelementptr", "ret"]);
}
