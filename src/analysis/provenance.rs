//! Value provenance: for any value, where it can come from.
//!
//! The lattice is a set of sources (literal, function constant, uniform,
//! thread-varying builtin, device or threadgroup memory, unknown) plus the
//! names of the roots (an argument, a field of an argument buffer such as
//! `args.ne12`, a builtin, a function constant). Joining is set union, so
//! a value computed from a uniform and a literal stays uniform, and one that
//! also touches a thread id becomes varying.
//!
//! Provenance passes through arithmetic, casts, select, phi, vector and
//! aggregate operations, loads from private memory (the stores into an
//! alloca), and calls into the module's own functions (a parameter takes the
//! join of what every call site passes: see `ModuleContext`).
//!
//! The walk is iterative and memoized: linear in the function's size, with
//! no recursion that deep IR could overflow.

use super::defuse::{Def, DefUse};
use super::layout;
use crate::ir::air::{AirInfo, Argument, ArgumentKind};
use crate::ir::{
    Body, Function, Global, Instruction, Module, Opcode, Operand, Type, TypeId, TypeTable, Value,
};
use rustc_hash::FxHashMap;
use serde::Serialize;
use std::cell::{Cell, RefCell};
use std::collections::VecDeque;

/// Where a value may come from, as a bit set.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Sources(pub u16);

impl Sources {
    pub const LITERAL: Sources = Sources(1);
    pub const FUNCTION_CONSTANT: Sources = Sources(1 << 1);
    /// Same for every thread of a dispatch but unknown when the pipeline is
    /// built: `constant` buffers, by-value arguments, threadgroup-uniform builtins.
    pub const UNIFORM: Sources = Sources(1 << 2);
    pub const VARYING_BUILTIN: Sources = Sources(1 << 3);
    pub const DEVICE_MEMORY: Sources = Sources(1 << 4);
    pub const THREADGROUP_MEMORY: Sources = Sources(1 << 5);
    pub const UNKNOWN: Sources = Sources(1 << 6);
    /// The result of an atomic read-modify-write: it differs per thread even
    /// at one address (each thread sees the value before its own update).
    pub const ATOMIC_RESULT: Sources = Sources(1 << 7);
    /// Device memory read at an address no thread-varying value reaches,
    /// from a buffer the function does not write (kolinko's `device const
    /// uint& rowsCount`): the same value for every thread. Counts as uniform
    /// unless something varying joins it.
    pub const DEVICE_UNIFORM: Sources = Sources(1 << 8);
    /// What makes an address differ between threads: a load's address
    /// reached by any of these is not thread-invariant.
    pub const NOT_THREAD_INVARIANT: Sources = Sources(
        Self::VARYING_BUILTIN.0
            | Self::DEVICE_MEMORY.0
            | Self::THREADGROUP_MEMORY.0
            | Self::ATOMIC_RESULT.0
            | Self::UNKNOWN.0,
    );
    const VARYING: u16 = Self::VARYING_BUILTIN.0
        | Self::DEVICE_MEMORY.0
        | Self::THREADGROUP_MEMORY.0
        | Self::ATOMIC_RESULT.0;

    pub fn contains(self, o: Sources) -> bool {
        self.0 & o.0 != 0
    }
}

/// The class a rule asks about, from the sources: what a value depends on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Class {
    /// A constant in the IR.
    Literal,
    /// A `[[function_constant]]`, fixed when the pipeline is built.
    FunctionConstant,
    /// The same for every thread of a dispatch.
    Uniform,
    /// Differs from thread to thread.
    Varying,
    /// Both uniform and thread-varying sources.
    Mixed,
    /// Not known.
    Unknown,
}

impl Class {
    pub fn name(self) -> &'static str {
        match self {
            Class::Literal => "literal",
            Class::FunctionConstant => "function_constant",
            Class::Uniform => "uniform",
            Class::Varying => "varying",
            Class::Mixed => "mixed",
            Class::Unknown => "unknown",
        }
    }

    pub fn from_name(s: &str) -> Option<Class> {
        Some(match s {
            "literal" => Class::Literal,
            "function_constant" => Class::FunctionConstant,
            "uniform" => Class::Uniform,
            "varying" => Class::Varying,
            "mixed" => Class::Mixed,
            "unknown" => Class::Unknown,
            _ => return None,
        })
    }
}

/// What a value's origin is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum OriginKind {
    /// A kernel argument (a by-value scalar or a whole `constant` buffer).
    Argument,
    /// A field of an argument buffer, named `arg.field`.
    Field,
    /// A value the hardware provides (a thread id, a grid size).
    Builtin,
    /// A `[[function_constant]]`.
    FunctionConstant,
    /// Device or threadgroup memory, named by the buffer or variable.
    Memory,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct Origin {
    pub kind: OriginKind,
    pub name: String,
}

/// A kernel argument: (entry point index in `AirInfo`, argument index).
pub type ArgRef = (u32, u32);

thread_local! {
    /// Origins are interned so `Provenance` is `Copy`: the analysis clones
    /// provenance at every value, and strings there showed in profiles.
    /// Per thread, because a file is analyzed on one thread; it only grows
    /// by distinct names (arguments, fields, builtins).
    /// Every origin by id - 1, and the ids by kind and name (one map per
    /// kind, so a lookup borrows the name instead of building an `Origin`).
    static ORIGINS: std::cell::RefCell<OriginTable> = Default::default();
}

type OriginTable = (Vec<Origin>, [FxHashMap<String, u32>; ORIGIN_KINDS]);

const ORIGIN_KINDS: usize = OriginKind::Memory as usize + 1;

fn intern(kind: OriginKind, name: &str) -> u32 {
    ORIGINS.with(|t| {
        let mut t = t.borrow_mut();
        if let Some(id) = t.1[kind as usize].get(name) {
            return *id;
        }
        let id = t.0.len() as u32 + 1;
        t.0.push(Origin {
            kind,
            name: name.to_string(),
        });
        t.1[kind as usize].insert(name.to_string(), id);
        id
    })
}

/// The origin named like `id`'s, of kind `kind`, interned, without copying
/// the name unless it is new. 0 for an unknown id.
fn intern_as(kind: OriginKind, id: u32) -> u32 {
    ORIGINS.with(|t| {
        let mut t = t.borrow_mut();
        let Some(o) = id.checked_sub(1).and_then(|i| t.0.get(i as usize)) else {
            return 0;
        };
        if o.kind == kind {
            return id;
        }
        if let Some(found) = t.1[kind as usize].get(&o.name) {
            return *found;
        }
        let name = o.name.clone();
        let new = t.0.len() as u32 + 1;
        t.0.push(Origin {
            kind,
            name: name.clone(),
        });
        t.1[kind as usize].insert(name, new);
        new
    })
}

fn origin(id: u32) -> Option<Origin> {
    ORIGINS.with(|t| t.borrow().0.get(id.checked_sub(1)? as usize).cloned())
}

const MAX_ORIGINS: usize = 4;
// `add_origins` is unrolled over four slots.
const _: () = assert!(MAX_ORIGINS == 4);

#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Provenance {
    pub sources: Sources,
    /// Interned named roots (0 = none), at most `MAX_ORIGINS`, in the order met.
    origins: [u32; MAX_ORIGINS],
    /// For a pointer into a kernel argument's buffer: which argument, so
    /// loads through it can be named by field.
    pub arg: Option<ArgRef>,
}

impl Provenance {
    pub fn of(sources: Sources) -> Self {
        Provenance {
            sources,
            origins: [0; MAX_ORIGINS],
            arg: None,
        }
    }

    pub fn named(sources: Sources, kind: OriginKind, name: &str) -> Self {
        let mut origins = [0; MAX_ORIGINS];
        origins[0] = intern(kind, name);
        Provenance {
            sources,
            origins,
            arg: None,
        }
    }

    #[inline]
    pub fn join(&mut self, other: &Provenance) {
        // Nothing yet: the join is `other` (the common case, a first operand).
        if self.sources.0 == 0 && self.origins[0] == 0 {
            *self = *other;
            return;
        }
        let was_empty = self.sources.0 == 0;
        self.sources.0 |= other.sources.0;
        // Mostly literals (no names) or the same names again.
        if other.origins[0] != 0 && other.origins != self.origins {
            self.add_origins(&other.origins);
        }
        if !was_empty && self.arg != other.arg {
            self.arg = None;
        } else if was_empty {
            self.arg = other.arg;
        }
    }

    #[inline(never)]
    fn add_origins(&mut self, other: &[u32; MAX_ORIGINS]) {
        // Origins fill their slots from the first, so the named ones are a
        // prefix. Unrolled over the four slots: this runs at many joins.
        let s = &mut self.origins;
        for &o in other {
            if o == 0 {
                break;
            }
            if s[0] == o || s[1] == o || s[2] == o || s[3] == o {
                continue;
            }
            if s[0] == 0 {
                s[0] = o;
            } else if s[1] == 0 {
                s[1] = o;
            } else if s[2] == 0 {
                s[2] = o;
            } else if s[3] == 0 {
                s[3] = o;
            }
        }
    }

    /// Whether a threadgroup's position may reach this value (or too many
    /// roots were met to tell): uniform within a threadgroup, not across
    /// the dispatch, so device memory it indexes is no single value.
    pub fn varies_by_threadgroup(&self) -> bool {
        self.origins[MAX_ORIGINS - 1] != 0
            || self
                .origins()
                .any(|o| o.kind == OriginKind::Builtin && o.name == "threadgroup_position_in_grid")
    }

    /// The named roots, in the order met.
    pub fn origins(&self) -> impl Iterator<Item = Origin> + '_ {
        self.origins.iter().filter_map(|id| origin(*id))
    }

    pub fn class(&self) -> Class {
        let s = self.sources.0;
        let varying = s & Sources::VARYING != 0;
        // A device value read at a thread-invariant address is uniform only
        // on its own: joined with a varying value it adds nothing (`Mixed`
        // stays "a uniform and a per-thread source").
        let uniform =
            s & Sources::UNIFORM.0 != 0 || (!varying && s & Sources::DEVICE_UNIFORM.0 != 0);
        if varying && uniform {
            Class::Mixed
        } else if varying {
            Class::Varying
        } else if s & Sources::UNKNOWN.0 != 0 || s == 0 {
            Class::Unknown
        } else if uniform {
            Class::Uniform
        } else if s & Sources::FUNCTION_CONSTANT.0 != 0 {
            Class::FunctionConstant
        } else {
            Class::Literal
        }
    }

    /// The first origin of the kinds that decide the class, for messages.
    pub fn main_origin(&self) -> Option<Origin> {
        let wanted: &[OriginKind] = match self.class() {
            Class::Uniform => &[
                OriginKind::Field,
                OriginKind::Argument,
                OriginKind::Builtin,
                OriginKind::Memory,
            ],
            Class::FunctionConstant => &[OriginKind::FunctionConstant],
            Class::Varying | Class::Mixed => {
                &[OriginKind::Builtin, OriginKind::Memory, OriginKind::Field]
            }
            _ => return None,
        };
        self.first_of_kinds(wanted)
    }

    /// The first origin of kind `kind`.
    pub fn origin_of(&self, kind: OriginKind) -> Option<Origin> {
        self.first_of_kinds(&[kind])
    }

    /// The first origin of the first of `kinds` that has one, looked at in
    /// the table: only that origin is copied (copying every origin to
    /// choose one cost most of a divide finding's description).
    fn first_of_kinds(&self, kinds: &[OriginKind]) -> Option<Origin> {
        ORIGINS.with(|t| {
            let t = t.borrow();
            let of = |id: u32| t.0.get(id.checked_sub(1)? as usize);
            kinds
                .iter()
                .find_map(|k| {
                    self.origins
                        .iter()
                        .filter_map(|&id| of(id))
                        .find(|o| o.kind == *k)
                })
                .cloned()
        })
    }
}

/// Builtins that are the same for every thread of a threadgroup.
pub fn is_threadgroup_uniform_builtin(name: &str) -> bool {
    matches!(
        name,
        "threadgroup_position_in_grid"
            | "threadgroups_per_grid"
            | "threads_per_threadgroup"
            | "threads_per_simdgroup"
            | "simdgroups_per_threadgroup"
            | "quadgroups_per_threadgroup"
            | "threads_per_grid"
            | "dispatch_threads_per_threadgroup"
            | "dispatch_simdgroups_per_threadgroup"
            | "dispatch_quadgroups_per_threadgroup"
            | "grid_origin"
            | "grid_size"
            | "amplification_count"
    )
}

/// Facts about the module that every function's provenance needs.
/// It borrows only the text, not the module, so bodies can be parsed (which
/// needs the module mutably) while it lives.
pub struct ModuleContext<'a> {
    pub air: AirInfo<'a>,
    /// Function-constant name of each global that holds one: the
    /// `air.fc_initializer` globals and the globals `air.static_init`
    /// constructors copy them into.
    pub function_constant_globals: FxHashMap<&'a str, String>,
    /// Entry point index of each function that is one.
    pub entry_of: FxHashMap<&'a str, usize>,
    /// Field layouts by MSL type name, to name fields inside helpers.
    pub fields_by_type: FxHashMap<&'a str, ArgRef>,
    /// The module's functions and globals by name (the first of a name,
    /// as `Module::function` and `Module::global` find), so a call or a
    /// load from a global costs no scan of the module.
    functions: FxHashMap<&'a str, usize>,
    globals: FxHashMap<&'a str, usize>,
    /// `layout::gep_offset` (offset, exact) by source type and constant
    /// indices: loads from one argument struct repeat the same few GEPs in
    /// every function, and each layout walks the struct's fields.
    gep_offsets: RefCell<FxHashMap<GepKey, Option<(u64, bool)>>>,
    /// The sizes those layouts need, by type, for the next GEP of the same
    /// structs with other indices.
    sizes: RefCell<layout::Sizes>,
}

/// A GEP as `layout::gep_offset` sees it: the source type and each index's
/// constant value (`None`: not a constant), for up to four indices.
type GepKey = (TypeId, [Option<i64>; 4], u8);

impl<'a> ModuleContext<'a> {
    pub fn new(air: AirInfo<'a>, module: &Module<'a>) -> Self {
        let mut ctx = ModuleContext {
            air,
            function_constant_globals: FxHashMap::default(),
            entry_of: FxHashMap::default(),
            fields_by_type: FxHashMap::default(),
            functions: FxHashMap::default(),
            globals: FxHashMap::default(),
            gep_offsets: Default::default(),
            sizes: Default::default(),
        };
        ctx.functions.reserve(module.functions.len());
        ctx.globals.reserve(module.globals.len());
        for (i, f) in module.functions.iter().enumerate() {
            ctx.functions.entry(f.name).or_insert(i);
        }
        for (i, g) in module.globals.iter().enumerate() {
            ctx.globals.entry(g.name).or_insert(i);
        }
        for fc in &ctx.air.function_constants {
            let name = fc
                .name
                .map(str::to_string)
                .unwrap_or_else(|| demangle_fc(fc.global));
            ctx.function_constant_globals.insert(fc.global, name);
        }
        for (i, ep) in ctx.air.entry_points.iter().enumerate() {
            ctx.entry_of.insert(ep.name, i);
            for arg in &ep.arguments {
                if let (Some(t), false) = (arg.type_name, arg.struct_fields.is_empty()) {
                    ctx.fields_by_type.entry(t).or_insert((i as u32, arg.index));
                }
            }
        }
        ctx
    }

    /// Records `dst = src` copies made by `air.static_init` constructors.
    pub fn note_static_init(&mut self, function: &Function<'a>, body: &Body<'a>) {
        if function.section != Some("air.static_init") {
            return;
        }
        let mut local_fc: FxHashMap<&'a str, String> = FxHashMap::default();
        for inst in &body.instructions {
            let fc_of = |v: &Value<'a>, local: &FxHashMap<&'a str, String>| match v {
                Value::Local(n) => local.get(n).cloned(),
                Value::Global(g) => self.function_constant_globals.get(g).cloned(),
                _ => None,
            };
            match inst.opcode {
                Opcode::Load | Opcode::Call => {
                    let from = match inst.opcode {
                        Opcode::Load => inst
                            .operands
                            .first()
                            .and_then(|p| global_root(&p.value))
                            .and_then(|g| self.function_constant_globals.get(g).cloned()),
                        _ => inst
                            .call_args()
                            .iter()
                            .find_map(|a| fc_of(&a.value, &local_fc)),
                    };
                    if let (Some(r), Some(name)) = (inst.result, from) {
                        local_fc.insert(r, name);
                    }
                }
                Opcode::Store => {
                    let (Some(v), Some(p)) = (inst.operands.first(), inst.operands.get(1)) else {
                        continue;
                    };
                    if let (Some(name), Some(dst)) =
                        (fc_of(&v.value, &local_fc), global_root(&p.value))
                    {
                        self.function_constant_globals.insert(dst, name);
                    }
                }
                // Arithmetic on function constants and literals (Metal
                // FlashAttention's `C_sram_offset` is computed from several)
                // is known when the pipeline is built too.
                _ => {
                    let Some(r) = inst.result else { continue };
                    let mut name = None;
                    let known = inst
                        .operands
                        .iter()
                        .all(|o| match fc_of(&o.value, &local_fc) {
                            Some(n) => {
                                name.get_or_insert(n);
                                true
                            }
                            None => !matches!(o.value, Value::Local(_) | Value::Global(_)),
                        });
                    if let (true, Some(n)) = (known, name) {
                        local_fc.insert(r, n);
                    }
                }
            }
        }
    }

    /// Whether the function named `name` (the first of that name) is
    /// defined in `module`, the module this context was made for.
    pub fn is_defined(&self, module: &Module<'a>, name: &str) -> bool {
        self.functions
            .get(name)
            .and_then(|&i| module.functions.get(i))
            .is_some_and(|f| f.is_definition)
    }

    /// The global named `name` in `module`, the module this context was made for.
    pub fn global<'m>(&self, module: &'m Module<'a>, name: &str) -> Option<&'m Global<'a>> {
        module.globals.get(*self.globals.get(name)?)
    }

    /// `layout::gep_offset` of a GEP with source type `ty` and index
    /// operands `indices`, as (offset, exact), remembered for the module.
    fn gep_offset(
        &self,
        types: &TypeTable<'_>,
        ty: TypeId,
        indices: &[Operand<'_>],
    ) -> Option<(u64, bool)> {
        // The same constants as `gep_offset` reads.
        let constant = |v: &Value<'_>| match v {
            Value::Int(v) => Some(*v),
            Value::ZeroInitializer | Value::Null => Some(0),
            _ => None,
        };
        let key = (indices.len() <= 4).then(|| {
            let mut c = [None; 4];
            for (slot, o) in c.iter_mut().zip(indices) {
                *slot = constant(&o.value);
            }
            (ty, c, indices.len() as u8)
        });
        if let Some(found) = key.and_then(|k| self.gep_offsets.borrow().get(&k).copied()) {
            return found;
        }
        let values: Vec<&Value<'_>> = indices.iter().map(|o| &o.value).collect();
        let r = layout::gep_offset(types, &mut self.sizes.borrow_mut(), ty, &values)
            .map(|g| (g.offset, g.exact));
        if let Some(k) = key {
            self.gep_offsets.borrow_mut().insert(k, r);
        }
        r
    }

    /// The argument description behind an `ArgRef`.
    pub fn argument(&self, r: ArgRef) -> Option<&Argument<'a>> {
        self.air
            .entry_points
            .get(r.0 as usize)?
            .arguments
            .iter()
            .find(|a| a.index == r.1)
    }
}

/// `_Z7align_Q.MTL_FC_INIT_200_b` gives `align_Q`: the Itanium length-prefixed name.
pub fn demangle_fc(global: &str) -> String {
    let base = global.split(".MTL_FC_INIT_").next().unwrap_or(global);
    let rest = base.strip_prefix("_Z").unwrap_or(base);
    let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
    match digits.parse::<usize>() {
        Ok(n) => rest
            .get(digits.len()..digits.len() + n)
            .unwrap_or(base)
            .to_string(),
        Err(_) => base.to_string(),
    }
}

/// The MSL method an `air.get_<what>_texture…` query stands for:
/// `get_width`, `get_height`, `get_depth`, `get_array_size`,
/// `get_num_mip_levels`, `get_num_samples`.
fn texture_query(callee: &str) -> Option<&'static str> {
    let rest = callee.strip_prefix("air.")?;
    let known = [
        "get_width",
        "get_height",
        "get_depth",
        "get_array_size",
        "get_num_mip_levels",
        "get_num_samples",
    ];
    // By prefixes, not a search for `_texture`: every call asks, and building
    // a substring searcher per call cost 0.5% of a scan (no query ends in `_`,
    // so `_texture` right after one is its first occurrence).
    known.into_iter().find(|q| {
        rest.strip_prefix(q)
            .and_then(|r| r.strip_prefix("_texture"))
            .is_some_and(|kind| !kind.is_empty())
    })
}

/// The global a pointer value names, looking through constant casts and GEPs.
fn global_root<'a>(v: &Value<'a>) -> Option<&'a str> {
    let mut v = v;
    for _ in 0..16 {
        match v {
            Value::Global(g) => return Some(g),
            Value::Expr(e) if e.opcode.is_cast() || e.opcode == Opcode::GetElementPtr => {
                v = &e.operands.first()?.value;
            }
            _ => return None,
        }
    }
    None
}

/// Whether an instruction's provenance is the join of its operands'.
#[inline(always)]
fn is_join(opcode: Opcode) -> bool {
    !matches!(
        opcode,
        Opcode::Load
            | Opcode::Alloca
            | Opcode::Call
            | Opcode::AtomicRmw
            | Opcode::CmpXchg
            | Opcode::Other
            | Opcode::LandingPad
            | Opcode::VAArg
    )
}

/// Walk states of an instruction.
const NEW: u8 = 0;
const PENDING: u8 = 1;
const DONE: u8 = 2;

/// The root a pointer is derived from, through GEPs and casts. A global
/// is kept as where its name sits (instruction, operand), so the type
/// holds no borrow and its buffers can be reused across functions.
#[derive(Clone, Copy)]
enum PtrRoot {
    Param(u32),
    Global(u32, u32),
    Alloca(u32),
    Unknown,
}

/// A load's address: its root and the GEPs on the way (`geps[start..end]`),
/// and what the root gives, once known (sources 0: not yet). That part
/// depends only on the root and the GEPs, which never change, so a load
/// recomputed in a cycle does not name its field again.
struct LoadRoot {
    inst: u32,
    root: PtrRoot,
    start: u32,
    end: u32,
    from_root: Cell<Provenance>,
}

/// Per-function working buffers, kept per thread between functions: the
/// allocator showed in profiles of large modules.
#[derive(Default)]
struct Scratch {
    state: Vec<u8>,
    /// `load_of[i]` indexes `loads`, or is `u32::MAX` for other instructions.
    load_of: Vec<u32>,
    loads: Vec<LoadRoot>,
    geps: Vec<u32>,
    /// For each parameter, whether the function writes memory through it
    /// (a store, an atomic, or a call that is given a pointer into it).
    written: Vec<Cell<bool>>,
    /// Calls given arguments, whose part of `written` is added at the first
    /// question (`writes_through`), and whether it has been.
    calls: Vec<u32>,
    calls_marked: Cell<bool>,
    /// (alloca, store into it), in instruction order for each alloca.
    stores: Vec<(u32, u32)>,
    stack: Vec<u32>,
    incomplete: Vec<u32>,
    /// `settle_cycles`: (i, a load depending on i beyond its operands),
    /// by i then load, and the worklist.
    extra: Vec<(u32, u32)>,
    queued: Vec<bool>,
    work: VecDeque<u32>,
}

thread_local! {
    /// The walk's buffers, and below the value table of the last dropped
    /// `FunctionProvenance`, reused by the thread's next function: without
    /// them a whole scan executes 1.3% / 1.2% more instructions (callgrind,
    /// typed-12MB / the corpus module).
    static SCRATCH: Cell<Scratch> = Cell::default();
    /// The value table of the last dropped `FunctionProvenance`.
    static SPARE_VALUES: Cell<Vec<Provenance>> = const { Cell::new(Vec::new()) };
}

static EMPTY: Provenance = Provenance {
    sources: Sources(0),
    origins: [0; MAX_ORIGINS],
    arg: None,
};

/// Provenance of every value of one function.
pub struct FunctionProvenance {
    params: Vec<Provenance>,
    /// Indexed by `DefUse` operand codes: the literal (code 0), the
    /// parameters, the instructions, then an undefined local (unknown), a
    /// label or metadata (nothing) and a compound constant (never read:
    /// it is computed from the operand). So an operand's provenance is one
    /// load.
    values: Vec<Provenance>,
    /// Where the instructions start in `values`.
    first_inst: usize,
    insts: usize,
}

impl Drop for FunctionProvenance {
    fn drop(&mut self) {
        let mut v = std::mem::take(&mut self.values);
        v.clear();
        let _ = SPARE_VALUES.try_with(|s| {
            let old = s.take();
            s.set(if old.capacity() > v.capacity() {
                old
            } else {
                v
            });
        });
    }
}

impl FunctionProvenance {
    /// Computes the provenance of every value `body` defines, with the
    /// parameters' provenance given (from AIR metadata for an entry point,
    /// from the call sites for a helper).
    pub fn compute<'a>(
        ctx: &ModuleContext<'a>,
        module: &Module<'a>,
        function: &Function<'a>,
        body: &Body<'a>,
        du: &DefUse<'a>,
        params: Vec<Provenance>,
    ) -> Self {
        let n = du.opcodes().len().min(body.instructions.len());
        let np = du.params();
        let mut values = SPARE_VALUES.try_with(Cell::take).unwrap_or_default();
        values.reserve(du.slots() + 4);
        values.push(Provenance::of(Sources::LITERAL));
        values.extend((0..np).map(|k| {
            params
                .get(k)
                .copied()
                .unwrap_or_else(|| Provenance::of(Sources::UNKNOWN))
        }));
        values.resize(1 + du.slots(), Provenance::default());
        values.push(Provenance::of(Sources::UNKNOWN));
        values.push(Provenance::default());
        values.push(Provenance::default());
        let mut walker = Walker {
            ctx,
            module,
            function,
            body,
            du,
            n,
            first_inst: 1 + np,
            compound: du.compound(),
            values,
            s: SCRATCH.try_with(Cell::take).unwrap_or_default(),
        };
        walker.prepare();
        walker.walk();
        let Walker {
            values,
            s: mut scratch,
            ..
        } = walker;
        // Nothing borrowed may stay behind; the buffers keep their room.
        scratch.loads.clear();
        let _ = SCRATCH.try_with(|c| c.set(scratch));
        FunctionProvenance {
            params,
            values,
            first_inst: 1 + np,
            insts: n,
        }
    }

    pub fn param(&self, i: usize) -> Provenance {
        self.params
            .get(i)
            .cloned()
            .unwrap_or_else(|| Provenance::of(Sources::UNKNOWN))
    }

    /// The provenance of instruction `i`'s result (empty for an instruction
    /// without one: see `Walker::walk`).
    pub fn inst(&self, i: usize) -> &Provenance {
        if i < self.insts {
            self.values.get(self.first_inst + i).unwrap_or(&EMPTY)
        } else {
            &EMPTY
        }
    }

    /// Provenance of an operand value.
    pub fn value(&self, du: &DefUse<'_>, v: &Value<'_>) -> Provenance {
        value_prov(&self.values, self.first_inst, du, v, 0)
    }

    /// Provenance of operand `j` of instruction `i` of `body`: the same as
    /// `value` of that operand, without looking its name up.
    pub fn operand(&self, body: &Body<'_>, du: &DefUse<'_>, i: usize, j: usize) -> Provenance {
        match du.operand_row(i).get(j) {
            Some(&d) if d != du.compound() => *self.values.get(d as usize).unwrap_or(&EMPTY),
            Some(_) => match body.instructions.get(i).and_then(|x| x.operands.get(j)) {
                Some(op) => self.value(du, &op.value),
                None => Provenance::of(Sources::UNKNOWN),
            },
            None => Provenance::of(Sources::UNKNOWN),
        }
    }
}

/// Provenance of a value, by name for a local: `values` as in
/// `FunctionProvenance`, whose instructions start at `first_inst`.
fn value_prov(
    values: &[Provenance],
    first_inst: usize,
    du: &DefUse<'_>,
    v: &Value<'_>,
    depth: u32,
) -> Provenance {
    match v {
        Value::Local(name) => match du.def(name) {
            Some(Def::Param(p)) => values
                .get(1 + p)
                .copied()
                .unwrap_or_else(|| Provenance::of(Sources::UNKNOWN)),
            Some(Def::Inst(i)) => values.get(first_inst + i).copied().unwrap_or_default(),
            None => Provenance::of(Sources::UNKNOWN),
        },
        Value::Expr(e) if depth < 16 => {
            let mut p = Provenance::default();
            for op in &e.operands {
                p.join(&value_prov(values, first_inst, du, &op.value, depth + 1));
            }
            if p.sources.0 == 0 {
                Provenance::of(Sources::LITERAL)
            } else {
                p
            }
        }
        Value::Aggregate(a) if depth < 16 => {
            let mut p = Provenance::of(Sources::LITERAL);
            for op in &a.elements {
                // Joining a literal (or nothing) into a literal without an
                // argument changes nothing: only values that may hold a
                // local are walked (vector constants are long).
                if let Value::Local(_) | Value::Expr(_) | Value::Aggregate(_) | Value::Splat(_) =
                    op.value
                {
                    p.join(&value_prov(values, first_inst, du, &op.value, depth + 1));
                }
            }
            p
        }
        Value::Splat(op) if depth < 16 => value_prov(values, first_inst, du, &op.value, depth + 1),
        Value::Label(_) | Value::Metadata(_) => Provenance::default(),
        _ => Provenance::of(Sources::LITERAL),
    }
}

struct Walker<'w, 'a> {
    ctx: &'w ModuleContext<'a>,
    module: &'w Module<'a>,
    function: &'w Function<'a>,
    body: &'w Body<'a>,
    du: &'w DefUse<'a>,
    /// Instructions walked.
    n: usize,
    first_inst: usize,
    /// `du.compound()`.
    compound: u32,
    /// As in `FunctionProvenance`.
    values: Vec<Provenance>,
    s: Scratch,
}

impl<'a> Walker<'_, 'a> {
    /// Finds every load's address root and the stores into each alloca, once.
    #[inline(never)]
    fn prepare(&mut self) {
        let du = self.du;
        let n = self.n;
        let s = &mut self.s;
        s.state.clear();
        s.state.resize(n, NEW);
        s.load_of.clear();
        s.load_of.resize(n, u32::MAX);
        s.loads.clear();
        s.geps.clear();
        s.stores.clear();
        s.written.clear();
        s.written.resize(du.params(), Cell::new(false));
        s.calls.clear();
        s.calls_marked.set(false);
        // Opcodes and operand rows from DefUse: only loads and stores are
        // looked at, and the instructions themselves only for globals.
        for (i, &opcode) in du.opcodes()[..n].iter().enumerate() {
            match opcode {
                Opcode::Load if !du.operand_row(i).is_empty() => {
                    let start = s.geps.len() as u32;
                    let root = pointer_root(self.body, du, i, 0, &mut s.geps);
                    s.load_of[i] = s.loads.len() as u32;
                    s.loads.push(LoadRoot {
                        inst: i as u32,
                        root,
                        start,
                        end: s.geps.len() as u32,
                        from_root: Cell::default(),
                    });
                }
                Opcode::Store if du.operand_row(i).len() >= 2 => {
                    let mark = s.geps.len();
                    let root = pointer_root(self.body, du, i, 1, &mut s.geps);
                    s.geps.truncate(mark);
                    match root {
                        PtrRoot::Alloca(a) => s.stores.push((a, i as u32)),
                        PtrRoot::Param(k) => mark_written(&s.written, k),
                        _ => {}
                    }
                }
                Opcode::AtomicRmw | Opcode::CmpXchg => {
                    let mark_at = s.geps.len();
                    if let PtrRoot::Param(k) = pointer_root(self.body, du, i, 0, &mut s.geps) {
                        mark_written(&s.written, k);
                    }
                    s.geps.truncate(mark_at);
                }
                // Only looked at when a load asks (`writes_through`): the
                // callee-name tests cost more than the questions (typed-12MB).
                Opcode::Call if du.operand_row(i).len() >= 2 => s.calls.push(i as u32),
                _ => {}
            }
        }
        // Stable: each alloca's stores stay in instruction order.
        s.stores.sort_by_key(|s| s.0);
    }

    /// What instruction `i`'s provenance depends on, in a fixed order: its
    /// operands, then for a load the GEP indices on the way to its root and
    /// the values stored into its alloca. From the operand rows alone.
    #[inline]
    fn for_each_dep(&self, i: usize, mut f: impl FnMut(u32)) {
        let (first, n) = (self.first_inst, self.n);
        // An operand code names instruction `code - first` when that is below n.
        let mut local = |row: &[u32]| {
            for &d in row {
                let k = (d as usize).wrapping_sub(first);
                if k < n {
                    f(k as u32);
                }
            }
        };
        local(self.du.operand_row(i));
        self.load_deps(i, local);
    }

    /// The dependences of a load beyond its operands (see `for_each_dep`),
    /// as rows of operand codes.
    #[inline]
    fn load_deps(&self, i: usize, mut f: impl FnMut(&[u32])) {
        let Some(l) = self.load(i) else { return };
        for &g in self.gep_slice(l) {
            f(self.du.operand_row(g as usize).get(1..).unwrap_or(&[]));
        }
        if let PtrRoot::Alloca(a) = l.root {
            for &(_, st) in self.stores_into(a) {
                f(self.du.operand_row(st as usize).get(..1).unwrap_or(&[]));
            }
        }
    }

    /// Whether every dependence of instruction `i` (operand codes `row`)
    /// comes before it, so is done when the walk in order reaches `i`.
    #[inline(always)]
    fn ready(&self, i: usize, row: &[u32]) -> bool {
        // Code d names an instruction in i..n when d - (first + i) < n - i.
        let (base, span) = (self.first_inst + i, self.n - i);
        let before = |row: &[u32]| row.iter().all(|&d| (d as usize).wrapping_sub(base) >= span);
        if !before(row) {
            return false;
        }
        let mut all = true;
        if self.s.load_of[i] != u32::MAX {
            self.load_deps(i, |r| all &= before(r));
        }
        all
    }

    fn load(&self, i: usize) -> Option<&LoadRoot> {
        self.s.loads.get(*self.s.load_of.get(i)? as usize)
    }

    fn gep_slice(&self, l: &LoadRoot) -> &[u32] {
        self.s
            .geps
            .get(l.start as usize..l.end as usize)
            .unwrap_or(&[])
    }

    fn stores_into(&self, alloca: u32) -> &[(u32, u32)] {
        // One search: an alloca's few stores follow where they start.
        let lo = self.s.stores.partition_point(|s| s.0 < alloca);
        let rest = &self.s.stores[lo..];
        &rest[..rest.iter().take_while(|s| s.0 == alloca).count()]
    }

    /// Every instruction in order: one whose dependences all come before
    /// it (in SSA order nearly all) is computed at once, any other by `run`.
    #[inline(never)]
    fn walk(&mut self) {
        let mut stack = std::mem::take(&mut self.s.stack);
        let mut incomplete = std::mem::take(&mut self.s.incomplete);
        stack.clear();
        incomplete.clear();
        let du = self.du;
        let (starts, codes, opcodes) = (du.operand_starts(), du.operand_codes(), du.opcodes());
        let n = self
            .n
            .min(opcodes.len())
            .min(starts.len().saturating_sub(1));
        for i in 0..n {
            if self.s.state[i] != NEW {
                // Computed by an earlier `run`.
                continue;
            }
            let (a, b) = (starts[i] as usize, starts[i + 1] as usize);
            let row = codes.get(a..b).unwrap_or(&[]);
            // A store, branch or call of a void function defines no value,
            // so nothing reads its provenance: once its dependences are done
            // it needs none (a fifth of the instructions). One that is not
            // ready still goes to `run`, so the walk enters every cycle where
            // it did.
            let opcode = opcodes[i];
            let no_value = (matches!(opcode, Opcode::Store | Opcode::Call)
                || opcode.is_terminator())
                && self
                    .body
                    .instructions
                    .get(i)
                    .is_some_and(|x| x.result.is_none());
            let p = if no_value {
                self.ready(i, row).then(Provenance::default)
            } else if is_join(opcode) {
                self.join_if_ready(i, row)
            } else if self.ready(i, row) {
                Some(self.compute_other(i))
            } else {
                None
            };
            match p {
                Some(p) => {
                    self.values[self.first_inst + i] = p;
                    self.s.state[i] = DONE;
                }
                None => self.run(i, &mut stack, &mut incomplete),
            }
        }
        if !incomplete.is_empty() {
            self.settle_cycles(&incomplete);
        }
        self.s.stack = stack;
        self.s.incomplete = incomplete;
    }

    /// The join of operand codes `row` of instruction `i`, unless one is
    /// `i` or a later instruction (then the walk must go depth first).
    #[inline(always)]
    fn join_if_ready(&self, i: usize, row: &[u32]) -> Option<Provenance> {
        // Code d names an instruction in i..n when d - (first + i) < n - i.
        let (base, span) = (self.first_inst + i, self.n - i);
        let mut p = Provenance::default();
        for (j, &d) in row.iter().enumerate() {
            if (d as usize).wrapping_sub(base) < span {
                return None;
            }
            if d == self.compound {
                p.join(&self.code(i, j, d));
            } else {
                p.join(self.values.get(d as usize).unwrap_or(&EMPTY));
            }
        }
        Some(p)
    }

    /// Iterative post-order: an instruction is computed once the
    /// instructions it depends on are; a dependency still pending (a cycle
    /// through a phi) contributes nothing.
    /// `incomplete` collects the instructions computed while a dependency
    /// was still pending, for `settle_cycles`.
    #[inline(never)]
    fn run(&mut self, root: usize, stack: &mut Vec<u32>, incomplete: &mut Vec<u32>) {
        stack.clear();
        stack.push(root as u32);
        while let Some(&i) = stack.last() {
            let i = i as usize;
            match self.s.state[i] {
                DONE => {
                    stack.pop();
                }
                NEW => {
                    self.s.state[i] = PENDING;
                    let state = &self.s.state;
                    self.for_each_dep(i, |d| match state.get(d as usize) {
                        Some(&NEW) => stack.push(d),
                        Some(&PENDING) if d as usize != i => incomplete.push(i as u32),
                        _ => {}
                    });
                }
                _ => {
                    self.values[self.first_inst + i] = self.compute(i);
                    self.s.state[i] = DONE;
                    stack.pop();
                }
            }
        }
    }

    /// Finishes what a cycle left out: in `for (i = lid; i < n; i += 32)`
    /// the walk computes `i + 32` before the phi it feeds, so the thread id
    /// the phi starts from was missing downstream. A worklist recomputes the
    /// instructions computed too early and, whenever one grows, those that
    /// depend on it. Provenance only grows (a union of a few bits and at most
    /// four names), so each instruction changes a bounded number of times;
    /// the budget bounds it anyway.
    #[inline(never)]
    fn settle_cycles(&mut self, incomplete: &[u32]) {
        let n = self.n;
        // Who depends on i: its users by operand (the def-use rows, which
        // rules ask for in these functions anyway), and the few loads it
        // reaches as a GEP index or a value stored into their alloca. Both
        // made at the first growth: in some functions nothing grows.
        let mut extra = std::mem::take(&mut self.s.extra);
        extra.clear();
        let mut extra_made = false;
        let mut queued = std::mem::take(&mut self.s.queued);
        queued.clear();
        queued.resize(n, false);
        let mut work = std::mem::take(&mut self.s.work);
        work.clear();
        for &i in incomplete {
            if !queued[i as usize] {
                queued[i as usize] = true;
                work.push_back(i);
            }
        }
        let mut budget = n.saturating_mul(16).saturating_add(1024);
        while let Some(i) = work.pop_front() {
            let i = i as usize;
            queued[i] = false;
            budget = match budget.checked_sub(1) {
                Some(b) => b,
                None => break,
            };
            let old = self.values[self.first_inst + i];
            let mut grown = old;
            grown.join(&self.compute(i));
            if grown == old {
                continue;
            }
            self.values[self.first_inst + i] = grown;
            if !extra_made {
                extra_made = true;
                self.loads_by_dep(&mut extra);
            }
            // Both rows ascend: merged, the users are pushed in order.
            let mut a = self.du.users_row(Def::Inst(i));
            // One search: i's few entries follow where its row starts.
            let lo = extra.partition_point(|e| (e.0 as usize) < i);
            let mut b = &extra[lo..];
            let len = b.iter().take_while(|e| e.0 as usize == i).count();
            b = &b[..len];
            loop {
                let u = match (a.first(), b.first()) {
                    (Some(&x), Some(&(_, y))) if x <= y => {
                        a = &a[1..];
                        x
                    }
                    (_, Some(&(_, y))) => {
                        b = &b[1..];
                        y
                    }
                    (Some(&x), None) => {
                        a = &a[1..];
                        x
                    }
                    (None, None) => break,
                };
                if let Some(q) = queued.get_mut(u as usize).filter(|q| !**q) {
                    *q = true;
                    work.push_back(u);
                }
            }
        }
        self.s.extra = extra;
        self.s.queued = queued;
        self.s.work = work;
    }

    /// (i, load) for each load that depends on instruction i beyond its
    /// operands (see `load_deps`), by i, then in instruction order.
    fn loads_by_dep(&self, extra: &mut Vec<(u32, u32)>) {
        let (first, n) = (self.first_inst, self.n);
        for l in &self.s.loads {
            self.load_deps(l.inst as usize, |row| {
                for &d in row {
                    let k = (d as usize).wrapping_sub(first);
                    if k < n {
                        extra.push((k as u32, l.inst));
                    }
                }
            });
        }
        // Stable: each row stays in instruction order.
        extra.sort_by_key(|e| e.0);
    }

    /// Provenance of the operand with code `d`, operand `j` of instruction `i`.
    #[inline]
    fn code(&self, i: usize, j: usize, d: u32) -> Provenance {
        if d == self.compound {
            return match self
                .body
                .instructions
                .get(i)
                .and_then(|x| x.operands.get(j))
            {
                Some(op) => value_prov(&self.values, self.first_inst, self.du, &op.value, 0),
                None => Provenance::of(Sources::UNKNOWN),
            };
        }
        *self.values.get(d as usize).unwrap_or(&EMPTY)
    }

    fn operand(&self, i: usize, j: usize) -> Provenance {
        match self.du.operand_row(i).get(j) {
            Some(&d) => self.code(i, j, d),
            None => Provenance::of(Sources::UNKNOWN),
        }
    }

    /// Inlined where the walk stores it: most instructions are arithmetic,
    /// GEPs and phis, the join of their operands.
    #[inline(always)]
    fn compute(&self, i: usize) -> Provenance {
        self.compute_row(i, self.du.operand_row(i))
    }

    /// `compute` with instruction `i`'s operand codes at hand.
    #[inline(always)]
    fn compute_row(&self, i: usize, row: &[u32]) -> Provenance {
        match self.du.opcodes().get(i) {
            Some(&opcode) if is_join(opcode) => {
                let mut p = Provenance::default();
                for (j, &d) in row.iter().enumerate() {
                    if d == self.compound {
                        p.join(&self.code(i, j, d));
                    } else {
                        p.join(self.values.get(d as usize).unwrap_or(&EMPTY));
                    }
                }
                p
            }
            _ => self.compute_other(i),
        }
    }

    #[inline(never)]
    fn compute_other(&self, i: usize) -> Provenance {
        let Some(&opcode) = self.du.opcodes().get(i) else {
            return Provenance::of(Sources::UNKNOWN);
        };
        match opcode {
            Opcode::Load => self.load_value(i),
            Opcode::Alloca => Provenance::of(Sources::LITERAL),
            Opcode::Call => self.call(i),
            Opcode::AtomicRmw | Opcode::CmpXchg => {
                Provenance::of(Sources(Sources::DEVICE_MEMORY.0 | Sources::ATOMIC_RESULT.0))
            }
            Opcode::Other | Opcode::LandingPad | Opcode::VAArg => Provenance::of(Sources::UNKNOWN),
            _ => {
                let mut p = Provenance::default();
                for (j, &d) in self.du.operand_row(i).iter().enumerate() {
                    p.join(&self.code(i, j, d));
                }
                p
            }
        }
    }

    fn call(&self, i: usize) -> Provenance {
        let Some(inst) = self.body.instructions.get(i) else {
            return Provenance::of(Sources::UNKNOWN);
        };
        let Some(callee) = inst.callee_name() else {
            return Provenance::of(Sources::UNKNOWN);
        };
        if callee.starts_with("air.atomic") {
            // A plain atomic load reads one value for all threads at one
            // address; the read-modify-writes return per-thread values.
            let rmw = !callee.contains(".load.") && !callee.contains(".store.");
            return Provenance::of(if rmw {
                Sources(Sources::DEVICE_MEMORY.0 | Sources::ATOMIC_RESULT.0)
            } else {
                Sources::DEVICE_MEMORY
            });
        }
        let mut p = Provenance::default();
        let row = self.du.operand_row(i);
        for (j, &d) in row.iter().enumerate().take(inst.call_args().len()) {
            p.join(&self.code(i, j, d));
        }
        // `air.get_width_texture_2d(tex, …)` and its kin: named as the MSL
        // wrote it, `tex.get_width()`, not as the texture argument.
        if let Some(query) = texture_query(callee) {
            if let Some(tex) = p.origin_of(OriginKind::Argument) {
                let sources = p.sources;
                return Provenance::named(
                    sources,
                    OriginKind::Argument,
                    &format!("{}.{query}()", tex.name),
                );
            }
        }
        let known = callee.starts_with("air.")
            || callee.starts_with("llvm.")
            || self.ctx.is_defined(self.module, callee);
        if !known {
            p.join(&Provenance::of(Sources::UNKNOWN));
        }
        if p.sources.0 == 0 {
            p = Provenance::of(Sources::LITERAL);
        }
        p
    }

    fn load_value(&self, i: usize) -> Provenance {
        let Some(l) = self.load(i) else {
            return Provenance::of(Sources::UNKNOWN);
        };
        let geps = self.gep_slice(l);
        // What the address depends on beyond its root: a thread-varying index
        // makes the loaded value varying even from a uniform buffer.
        let mut index = Provenance::default();
        for &g in geps {
            let g = g as usize;
            for (j, &d) in self.du.operand_row(g).iter().enumerate().skip(1) {
                let p = self.code(g, j, d);
                if p.class() != Class::Literal {
                    index.join(&p);
                }
            }
        }
        let mut p = match l.root {
            PtrRoot::Param(_) | PtrRoot::Global(..) if l.from_root.get().sources.0 != 0 => {
                l.from_root.get()
            }
            PtrRoot::Param(k) => {
                let p = self.load_from_param(k as usize, i, geps);
                l.from_root.set(p);
                p
            }
            PtrRoot::Global(at, j) => {
                let p = self
                    .body
                    .instructions
                    .get(at as usize)
                    .and_then(|x| x.operands.get(j as usize))
                    .and_then(|op| global_root(&op.value))
                    .map_or(Provenance::of(Sources::UNKNOWN), |g| {
                        self.load_from_global(g)
                    });
                l.from_root.set(p);
                p
            }
            PtrRoot::Alloca(a) => {
                let mut p = Provenance::default();
                for &(_, s) in self.stores_into(a) {
                    p.join(&self.operand(s as usize, 0));
                }
                if p.sources.0 == 0 {
                    Provenance::of(Sources::UNKNOWN)
                } else {
                    p
                }
            }
            PtrRoot::Unknown => Provenance::of(Sources::UNKNOWN),
        };
        // Device memory every thread reads at one address, from a buffer
        // this function never writes: the same value for all of them.
        if let PtrRoot::Param(k) = l.root {
            // A helper's pointer parameter carries what its callers index
            // the buffer by (`&buf[tid]`).
            let pointer = self
                .values
                .get(1 + k as usize)
                .map_or(Sources::UNKNOWN, |p| p.sources);
            if p.sources == Sources::DEVICE_MEMORY
                && !index.sources.contains(Sources::NOT_THREAD_INVARIANT)
                && !pointer.contains(Sources::NOT_THREAD_INVARIANT)
                && !index.varies_by_threadgroup()
                && !self.writes_through(k)
            {
                return self.device_uniform(&p, geps, index);
            }
        }
        // The index decides which element, not what the value is: keep
        // its sources (a thread-varying index makes the value varying) but
        // not its names, so the finding names the memory.
        if index.sources.0 != 0 {
            p.join(&Provenance::of(index.sources));
        }
        p
    }

    /// Whether the function may write memory through parameter `k`. The
    /// calls' part is added at the first question: a call given a pointer
    /// may write through it, except the reads and math of `air.` and
    /// `llvm.` (atomics aside).
    fn writes_through(&self, k: u32) -> bool {
        if !self.s.calls_marked.replace(true) {
            let mut geps = Vec::new();
            for &i in &self.s.calls {
                let i = i as usize;
                let callee = self.body.instructions.get(i).and_then(|x| x.callee_name());
                let pure = callee.is_some_and(|c| {
                    (c.starts_with("air.") && !c.starts_with("air.atomic") && !c.contains("store"))
                        || (c.starts_with("llvm.") && !c.starts_with("llvm.mem"))
                });
                let args = self.du.operand_row(i).len().saturating_sub(1);
                for j in (0..args).filter(|_| !pure) {
                    geps.clear();
                    if let PtrRoot::Param(k) = pointer_root(self.body, self.du, i, j, &mut geps) {
                        mark_written(&self.s.written, k);
                    }
                }
            }
        }
        self.s.written.get(k as usize).is_none_or(Cell::get)
    }

    /// A device load at a thread-invariant address (`memory`: what the
    /// buffer gives), named by its buffer and element (`rowsCount`,
    /// `bsScalar[0]`, `v[*]` for an index that varies by iteration only).
    #[inline(never)]
    fn device_uniform(&self, memory: &Provenance, geps: &[u32], index: Provenance) -> Provenance {
        let buffer = memory
            .origin_of(OriginKind::Memory)
            .map_or_else(|| "device memory".to_string(), |o| o.name);
        let mut p = Provenance::named(
            Sources::DEVICE_UNIFORM,
            OriginKind::Memory,
            &(buffer + &self.element_of(geps)),
        );
        p.join(&Provenance::of(index.sources));
        p
    }

    fn load_from_global(&self, g: &'a str) -> Provenance {
        if let Some(name) = self.ctx.function_constant_globals.get(g) {
            return Provenance::named(
                Sources::FUNCTION_CONSTANT,
                OriginKind::FunctionConstant,
                name,
            );
        }
        match self.ctx.global(self.module, g) {
            Some(gl) if gl.addrspace == 3 => {
                Provenance::named(Sources::THREADGROUP_MEMORY, OriginKind::Memory, g)
            }
            Some(gl) if gl.is_constant && !matches!(gl.initializer, None | Some(Value::Undef)) => {
                Provenance::of(Sources::LITERAL)
            }
            Some(gl) if gl.addrspace == 1 => {
                Provenance::named(Sources::DEVICE_MEMORY, OriginKind::Memory, g)
            }
            _ => Provenance::of(Sources::UNKNOWN),
        }
    }

    fn load_from_param(&self, k: usize, i: usize, geps: &[u32]) -> Provenance {
        let Some(inst) = self.body.instructions.get(i) else {
            return Provenance::of(Sources::UNKNOWN);
        };
        let addrspace = self
            .function
            .params
            .get(k)
            .and_then(|p| self.module.types.addrspace(p.ty))
            .unwrap_or(0);
        let param = self
            .values
            .get(1 + k)
            .copied()
            .unwrap_or_else(|| Provenance::of(Sources::UNKNOWN));
        // Memory named by the parameter's first origin (interned by id, as
        // every load from a buffer asks).
        let memory = |sources: Sources| {
            let id = intern_as(OriginKind::Memory, param.origins[0]);
            if id == 0 {
                return Provenance::named(sources, OriginKind::Memory, &format!("argument {k}"));
            }
            let mut p = Provenance::of(sources);
            p.origins[0] = id;
            p
        };
        match addrspace {
            2 => {
                let name = self.field_name(&param, inst, geps).or_else(|| {
                    let arg = param.origin_of(OriginKind::Argument)?.name;
                    Some(arg + &self.element_of(geps))
                });
                let name = name.unwrap_or_else(|| format!("argument {k}"));
                let kind = if name.contains('.') {
                    OriginKind::Field
                } else {
                    OriginKind::Argument
                };
                Provenance::named(Sources::UNIFORM, kind, &name)
            }
            1 => memory(Sources::DEVICE_MEMORY),
            3 => memory(Sources::THREADGROUP_MEMORY),
            _ => Provenance::of(Sources::UNKNOWN),
        }
    }

    /// Which element of an array argument the GEPs `geps` reach: `""` for
    /// the argument itself, `[N]` for one constant index, `[*]` for an
    /// index known only at run time (MLX's `shape[i]` in a loop over
    /// dimensions).
    fn element_of(&self, geps: &[u32]) -> String {
        let mut constant = None;
        for g in geps {
            let Some(gep) = self.body.instructions.get(*g as usize) else {
                return "[*]".into();
            };
            for index in gep.operands.get(1..).unwrap_or(&[]) {
                match index.value {
                    Value::Int(0) => {}
                    Value::Int(n) if constant.is_none() => constant = Some(n),
                    _ => return "[*]".into(),
                }
            }
        }
        constant.map_or_else(String::new, |n| format!("[{n}]"))
    }

    /// `arg.field` for a load from a `constant` struct argument, from the
    /// GEP's byte offset or, failing that, the TBAA access offset.
    fn field_name(
        &self,
        param: &Provenance,
        inst: &Instruction<'a>,
        geps: &[u32],
    ) -> Option<String> {
        let types = &self.module.types;
        // The argument: known from the parameter, or by the struct's MSL type name.
        let arg_ref = param.arg.or_else(|| {
            let gep = self.body.instructions.get(*geps.last()? as usize)?;
            let Type::Named(n) = types.get(gep.elem_ty?) else {
                return None;
            };
            let msl = n.trim_start_matches("struct.").trim_start_matches("class.");
            let msl = msl
                .rsplit_once('.')
                .filter(|(_, d)| d.chars().all(|c| c.is_ascii_digit()))
                .map_or(msl, |(b, _)| b);
            self.ctx.fields_by_type.get(msl).copied()
        })?;
        let arg = self.ctx.argument(arg_ref)?;
        let arg_name = arg.name.unwrap_or("arg");
        let mut offset: Option<u64> = Some(0);
        let mut exact = true;
        for g in geps.iter().rev() {
            let gi = self.body.instructions.get(*g as usize)?;
            let Some(o) = offset else { break };
            offset = match gi.elem_ty.and_then(|t| {
                self.ctx
                    .gep_offset(types, t, gi.operands.get(1..).unwrap_or(&[]))
            }) {
                Some((g, e)) => {
                    exact &= e;
                    Some(o + g)
                }
                None => None,
            };
        }
        let offset = offset.or_else(|| self.tbaa_offset(inst))?;
        let field = arg.field_at(offset)?;
        let mut name = format!("{arg_name}.{}", field.name);
        if field.count > 1 && field.size > 0 {
            if exact {
                let i = (offset - field.offset as u64) / field.size as u64;
                name.push_str(&format!("[{i}]"));
            } else {
                // Indexed by a runtime value.
                name.push_str("[*]");
            }
        }
        Some(name)
    }

    /// The offset in a struct-path TBAA tag `!{!base, !access, i64 offset}`.
    fn tbaa_offset(&self, inst: &Instruction<'a>) -> Option<u64> {
        let tag = self.module.metadata.tuple(inst.attachment("tbaa")?)?;
        let offset = tag.get(2)?.as_int()?;
        u64::try_from(offset).ok()
    }
}

fn mark_written(written: &[Cell<bool>], k: u32) {
    if let Some(w) = written.get(k as usize) {
        w.set(true);
    }
}

/// Walks operand `j` of instruction `i`, a pointer, back to its root,
/// pushing the GEPs it passes (outermost first) onto `geps`. By operand
/// codes and opcodes: only a global's name is read from the instruction.
fn pointer_root(
    body: &Body<'_>,
    du: &DefUse<'_>,
    i: usize,
    j: usize,
    geps: &mut Vec<u32>,
) -> PtrRoot {
    let (mut i, mut j) = (i, j);
    let opcodes = du.opcodes();
    let compound = du.compound();
    for _ in 0..64 {
        let Some(&d) = du.operand_row(i).get(j) else {
            break;
        };
        if d == 0 || d == compound {
            let global = body
                .instructions
                .get(i)
                .and_then(|x| x.operands.get(j))
                .and_then(|op| global_root(&op.value));
            return match global {
                Some(_) => PtrRoot::Global(i as u32, j as u32),
                None => PtrRoot::Unknown,
            };
        }
        match du.decode(d) {
            Some(Def::Param(p)) => return PtrRoot::Param(p as u32),
            Some(Def::Inst(k)) => {
                match opcodes.get(k) {
                    Some(Opcode::Alloca) => return PtrRoot::Alloca(k as u32),
                    Some(Opcode::GetElementPtr) => geps.push(k as u32),
                    Some(Opcode::BitCast | Opcode::AddrSpaceCast) => {}
                    _ => break,
                }
                if du.operand_row(k).is_empty() {
                    break;
                }
                (i, j) = (k, 0);
            }
            None => break,
        }
    }
    PtrRoot::Unknown
}

/// Provenance of an entry point's parameters, from its AIR description.
pub fn entry_params(
    ctx: &ModuleContext<'_>,
    module: &Module<'_>,
    entry: usize,
    function: &Function<'_>,
) -> Vec<Provenance> {
    let ep = ctx.air.entry_points.get(entry);
    function
        .params
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let arg = ep.and_then(|ep| ep.arguments.iter().find(|a| a.index as usize == i));
            let name = arg.and_then(|a| a.name).or(p.name).unwrap_or("?");
            let mut prov = match arg.map(|a| (a.kind, a.builtin)) {
                Some((ArgumentKind::Builtin, Some(b))) if is_threadgroup_uniform_builtin(b) => {
                    Provenance::named(Sources::UNIFORM, OriginKind::Builtin, b)
                }
                Some((ArgumentKind::Builtin, Some(b))) => {
                    Provenance::named(Sources::VARYING_BUILTIN, OriginKind::Builtin, b)
                }
                Some((ArgumentKind::StageIn, _)) => {
                    Provenance::named(Sources::VARYING_BUILTIN, OriginKind::Argument, name)
                }
                Some((ArgumentKind::Buffer, _)) => match module.types.addrspace(p.ty) {
                    Some(1) | Some(3) => {
                        Provenance::named(Sources::LITERAL, OriginKind::Memory, name)
                    }
                    _ => Provenance::named(Sources::UNIFORM, OriginKind::Argument, name),
                },
                // Textures, samplers, function tables, and by-value scalars.
                _ => Provenance::named(Sources::UNIFORM, OriginKind::Argument, name),
            };
            if arg.is_some_and(|a| a.kind == ArgumentKind::Buffer) {
                prov.arg = Some((entry as u32, i as u32));
            }
            prov
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn demangles_function_constant_names() {
        assert_eq!(demangle_fc("_Z7align_Q.MTL_FC_INIT_200_b"), "align_Q");
        assert_eq!(
            demangle_fc("_Z14FC_mul_mv_ne12.MTL_FC_INIT_600_s"),
            "FC_mul_mv_ne12"
        );
        assert_eq!(demangle_fc("plain"), "plain");
    }

    #[test]
    fn texture_queries_are_named_as_msl_methods() {
        assert_eq!(texture_query("air.get_width_texture_2d"), Some("get_width"));
        assert_eq!(
            texture_query("air.get_num_mip_levels_texture_cube"),
            Some("get_num_mip_levels")
        );
        assert_eq!(texture_query("air.get_read_sampler"), None);
        assert_eq!(texture_query("air.get_width"), None);
    }

    #[test]
    fn join_and_class() {
        let mut p = Provenance::of(Sources::LITERAL);
        assert_eq!(p.class(), Class::Literal);
        p.join(&Provenance::named(
            Sources::FUNCTION_CONSTANT,
            OriginKind::FunctionConstant,
            "n",
        ));
        assert_eq!(p.class(), Class::FunctionConstant);
        p.join(&Provenance::named(
            Sources::UNIFORM,
            OriginKind::Field,
            "args.ne12",
        ));
        assert_eq!(p.class(), Class::Uniform);
        assert_eq!(p.main_origin().unwrap().name, "args.ne12");
        let copy = p;
        assert_eq!(copy.origins().count(), 2);
        p.join(&Provenance::named(
            Sources::VARYING_BUILTIN,
            OriginKind::Builtin,
            "thread_position_in_grid",
        ));
        assert_eq!(p.class(), Class::Mixed);
        assert_eq!(Provenance::of(Sources::UNKNOWN).class(), Class::Unknown);
    }
}
