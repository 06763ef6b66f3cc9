//! Matching a pattern's `[match]` against one function. Work per rule is
//! linear in the function: every instruction is tried once, and a chain
//! step visits a bounded number of users.

use super::pattern::{ChainStep, Match, OperandMatch, ScalarSet};
use super::{FunctionContext, RuleHook};
use crate::analysis::defuse::Def;
use crate::analysis::divergence::{
    Divergence, Skipping, divergent_deciders, reaches_block, returns_at_once, skipping_meets_target,
};
use crate::ir::{Instruction, Opcode, Type, TypeId, TypeTable, Value};

/// Hops a chain step may take through `through` opcodes.
const MAX_HOPS: usize = 8;
/// Users a chain step may visit before giving up.
const MAX_VISITS: usize = 256;

/// A match: the instruction, the instructions each chain step ended at,
/// and where it sits.
#[derive(Debug, Clone)]
pub struct Matched {
    pub inst: usize,
    pub chain: Vec<usize>,
    /// For `in_divergent_block`: the thread-varying branch that decides
    /// whether the match runs.
    pub divergent_branch: Option<DivergentBranch>,
    /// For a call that matches through helpers (`through_helpers`): the
    /// function named in `calls` it reaches first (an index into
    /// `Module::functions`).
    pub reached: Option<usize>,
}

impl Matched {
    /// Loop nesting depth of the match (0 outside loops). Asked only by
    /// `in_loop`, by hooks that need it and for a finding: loops are built
    /// on first use, so a function whose matches its hooks all reject
    /// without asking builds none.
    pub fn loop_depth(&self, ctx: &FunctionContext<'_, '_>) -> u32 {
        ctx.cf.loops().depth(ctx.du.block_of(self.inst))
    }
}

/// A thread-varying branch that decides whether a match runs, and where the
/// threads it sends past the match go.
#[derive(Debug, Clone, Copy)]
pub struct DivergentBranch {
    /// The block the branch ends.
    pub block: usize,
    pub skipping: Skipping,
}

/// `in_divergent_block` for one function: the linear first cut
/// (`Divergence`), then for each candidate the closer look of
/// `skipping_meets_target` at every divergent branch that decides it, within
/// one budget per function so the work stays linear in its size.
struct DivergenceCheck {
    coarse: Divergence,
    targets: Vec<bool>,
    budget: usize,
    /// The pattern's `divergent_strict`.
    strict: bool,
}

impl DivergenceCheck {
    /// `candidates`: the instructions of the pattern's opcodes or calls.
    fn new(candidates: &[u32], ctx: &FunctionContext<'_, '_>, strict: bool) -> Self {
        // The question is about the blocks holding an instruction of the
        // pattern's opcodes or calls.
        let mut targets = vec![false; ctx.cf.cfg.len()];
        for &i in candidates {
            if let Some(t) = targets.get_mut(ctx.du.block_of(i as usize)) {
                *t = true;
            }
        }
        let coarse = Divergence::compute(ctx.body, ctx.du, ctx.cf, ctx.prov, &targets, strict);
        let size = ctx.cf.cfg.len() + ctx.cf.cfg.edge_count();
        DivergenceCheck {
            coarse,
            targets,
            budget: size.saturating_mul(32).saturating_add(4096),
            strict,
        }
    }

    fn check(&mut self, ctx: &FunctionContext<'_, '_>, block: usize) -> Option<DivergentBranch> {
        let first = self.coarse.cause(block)?;
        let unknown = DivergentBranch {
            block: first,
            skipping: Skipping::Unknown,
        };
        let Some(deciders) =
            divergent_deciders(ctx.body, ctx.du, ctx.cf, ctx.prov, block, &mut self.budget)
        else {
            return Some(unknown);
        };
        for (a, toward) in deciders {
            let skipping = skipping_meets_target(
                ctx.body,
                ctx.du,
                &ctx.module.types,
                ctx.cf,
                a,
                toward,
                block,
                &self.targets,
                &mut self.budget,
            );
            if skipping != Skipping::Finish {
                return Some(DivergentBranch { block: a, skipping });
            }
            // Strict: threads that finish still count while they run on,
            // unless their detour can lead them to this barrier after all
            // (thread 0 spinning on a lock before it).
            let keep_running = |s: usize, budget: &mut usize| {
                s != block
                    && s != toward
                    && !ctx.cf.postdom().dominates(toward, s)
                    && !returns_at_once(ctx.body, ctx.cf, s)
                    && !reaches_block(ctx.cf, s, block, budget)
            };
            if self.strict
                && ctx
                    .cf
                    .cfg
                    .succs(a)
                    .iter()
                    .any(|&s| keep_running(s, &mut self.budget))
            {
                return Some(DivergentBranch {
                    block: a,
                    skipping: Skipping::KeepRunning,
                });
            }
        }
        None
    }
}

/// The instructions of one function by opcode, and its direct calls, found
/// once so that each rule visits only its candidates instead of every
/// instruction. Its buffers come from `Scratch` and go back to it
/// (`recycle`).
pub struct Candidates {
    /// Instructions of opcode `o` are `by_opcode[starts[o]..starts[o + 1]]`
    /// (an array: two fewer allocations per function).
    starts: [u32; OPCODES + 1],
    by_opcode: Vec<u32>,
    /// Each distinct direct callee, with its calls:
    /// `calls[callees[k].1..callees[k + 1].1]` (a last entry closes the rows),
    /// so a callee is matched once per function, not once per call. The
    /// callee is its index in `Module::functions` (as `CallGraph::index_of`
    /// finds it, so patterns look it up in a table: `callee_table`), or
    /// `u32::MAX` for a name the module does not declare (read from the
    /// row's first call).
    callees: Vec<(u32, u32)>,
    calls: Vec<u32>,
}

const OPCODES: usize = Opcode::Other as usize + 1;

impl Candidates {
    /// `opcodes`: those of `body`'s instructions (`DefUse::opcodes`), so
    /// only the calls among the (large) instructions are read. The buffers
    /// are `scratch`'s, for `recycle` to give back.
    pub fn new(
        body: &crate::ir::Body<'_>,
        opcodes: &[Opcode],
        graph: &crate::analysis::callgraph::CallGraph<'_>,
        scratch: &mut Scratch,
    ) -> Self {
        // Instructions by opcode: a counting sort, every buffer at its final
        // size (growing them, and a map of callees, cost more than the sort).
        let mut starts = [0u32; OPCODES + 1];
        for &o in opcodes {
            starts[o as usize + 1] += 1;
        }
        for o in 0..OPCODES {
            starts[o + 1] += starts[o];
        }
        let mut by_opcode = std::mem::take(&mut scratch.by_opcode);
        by_opcode.clear();
        by_opcode.resize(opcodes.len(), 0);
        let mut fill = starts;
        for (i, &o) in opcodes.iter().enumerate() {
            let f = &mut fill[o as usize];
            by_opcode[*f as usize] = i as u32;
            *f += 1;
        }
        // Direct calls, grouped by callee in order of first call: by the
        // callee's index, through `group` (group + 1 of each function, 0
        // for none yet, cleared again below), or for an undeclared name
        // (rare) by a search of the few such names.
        let all_calls = &by_opcode
            [starts[Opcode::Call as usize] as usize..starts[Opcode::Call as usize + 1] as usize];
        let group = &mut scratch.callee_group;
        if group.len() < graph.named.len() {
            group.resize(graph.named.len(), 0);
        }
        let mut undeclared: Vec<(&str, u32)> = Vec::new();
        let mut callees = std::mem::take(&mut scratch.callees);
        callees.clear();
        // (callee group, instruction) of each direct call.
        let direct = &mut scratch.direct;
        direct.clear();
        for &i in all_calls {
            let Some(c) = body
                .instructions
                .get(i as usize)
                .and_then(|x| x.callee_name())
            else {
                continue;
            };
            let g = match graph
                .index_of
                .get(c)
                .and_then(|&f| Some((f, group.get_mut(f)?)))
            {
                Some((f, g)) => {
                    if *g == 0 {
                        callees.push((f as u32, 0));
                        *g = callees.len() as u32;
                    }
                    *g - 1
                }
                None => match undeclared.iter().find(|(name, _)| *name == c) {
                    Some(&(_, g)) => g,
                    None => {
                        callees.push((u32::MAX, 0));
                        undeclared.push((c, callees.len() as u32 - 1));
                        callees.len() as u32 - 1
                    }
                },
            };
            callees[g as usize].1 += 1;
            direct.push((g, i));
        }
        for &(f, _) in &callees {
            if let Some(g) = group.get_mut(f as usize) {
                *g = 0;
            }
        }
        // Counts to row starts, then each call into its row, in order.
        let mut at = 0;
        for c in &mut callees {
            (c.1, at) = (at, at + c.1);
        }
        callees.push((u32::MAX, at));
        let fill = &mut scratch.fill;
        fill.clear();
        fill.extend(callees.iter().map(|c| c.1));
        let mut calls = std::mem::take(&mut scratch.calls);
        calls.clear();
        calls.resize(direct.len(), 0);
        for &(g, i) in direct.iter() {
            calls[fill[g as usize] as usize] = i;
            fill[g as usize] += 1;
        }
        Candidates {
            starts,
            by_opcode,
            callees,
            calls,
        }
    }

    /// Gives the buffers back to `scratch` for the next function.
    pub fn recycle(self, scratch: &mut Scratch) {
        scratch.by_opcode = self.by_opcode;
        scratch.callees = self.callees;
        scratch.calls = self.calls;
    }

    fn of(&self, o: Opcode) -> &[u32] {
        let o = o as usize;
        &self.by_opcode[self.starts[o] as usize..self.starts[o + 1] as usize]
    }

    /// The instructions `m`'s opcodes or calls name (or, through `table`,
    /// calls that reach one of them), in order.
    fn for_match(
        &self,
        m: &Match,
        body: &crate::ir::Body<'_>,
        table: Option<&[bool]>,
        out: &mut Vec<u32>,
        marks: &mut Vec<u64>,
    ) {
        out.clear();
        if m.opcode_set.len() != m.opcodes.len() {
            out.extend(
                body.instructions
                    .iter()
                    .enumerate()
                    .filter(|(_, inst)| opcode_matches(m, inst))
                    .map(|(i, _)| i as u32),
            );
            return;
        }
        // Each list is in order; more than one non-empty list needs a merge.
        let mut lists = 0;
        for &o in &m.opcode_set {
            let of = self.of(o);
            if !of.is_empty() {
                lists += 1;
                out.extend_from_slice(of);
            }
        }
        if let Some(table) = table {
            for w in self.callees.windows(2) {
                let ((f, a), (_, b)) = (w[0], w[1]);
                // A name the module does not declare reaches nothing.
                let named = match table.get(f as usize) {
                    Some(&t) => t,
                    None => self
                        .calls
                        .get(a as usize)
                        .and_then(|&i| body.instructions.get(i as usize)?.callee_name())
                        .is_some_and(|name| calls_match(m, name)),
                };
                if named {
                    lists += 1;
                    out.extend_from_slice(&self.calls[a as usize..b as usize]);
                }
            }
        }
        if lists > 1 {
            // Sorted and deduplicated through a bit per instruction: linear,
            // where a sort of the lists cost more than the rest together.
            marks.clear();
            let words = out.iter().max().map_or(0, |&i| i as usize / 64 + 1);
            marks.resize(words, 0);
            for &i in out.iter() {
                marks[i as usize / 64] |= 1 << (i % 64);
            }
            out.clear();
            for (w, &word) in marks.iter().enumerate() {
                let mut bits = word;
                while bits != 0 {
                    out.push((w * 64) as u32 + bits.trailing_zeros());
                    bits &= bits - 1;
                }
            }
        }
    }
}

/// For a pattern with `calls`, whether each function of the module is a
/// callee it names or (`through_helpers`) one that reaches such a callee:
/// made once per module and pattern, so each function's callees are looked
/// up by index, not matched by name again (`Candidates::callees`).
fn callee_table(m: &Match, ctx: &FunctionContext<'_, '_>) -> std::rc::Rc<[bool]> {
    let make = || {
        // Each name matched once, for both questions.
        let named: Vec<bool> = ctx
            .module
            .functions
            .iter()
            .map(|function| calls_match(m, function.name))
            .collect();
        let reach = (m.through_helpers == Some(true)).then(|| {
            ctx.graph
                .reaching_by_index(&m.calls, |t| named.get(t) == Some(&true))
        });
        let reaches = |f: usize| reach.as_ref().is_some_and(|r| r.get(f) == Some(&true));
        named
            .iter()
            .enumerate()
            .map(|(f, &named)| named || reaches(f))
            .collect()
    };
    // Kept by the pattern's id, not its names: comparing them on every
    // function cost more than the matching. A pattern `Pattern::parse` did
    // not give one has its table made each time.
    match m.table_id {
        0 => make(),
        id => ctx.graph.table(id, make),
    }
}

/// Buffers `matches_into` reuses from one rule and function to the next.
/// The caller keeps one per thread across functions and modules (the scan
/// in its `ModuleReuse`): allocating and growing its buffers for every
/// function cost more than filling them. Without it and
/// `dynamic_private_array`'s buffers a whole scan executes 1.8% more
/// instructions (callgrind).
#[derive(Default)]
pub struct Scratch {
    /// `Candidates`' buffers, and its grouping of calls by callee.
    by_opcode: Vec<u32>,
    callees: Vec<(u32, u32)>,
    calls: Vec<u32>,
    callee_group: Vec<u32>,
    direct: Vec<(u32, u32)>,
    fill: Vec<u32>,
    /// For the caller: the matches of one rule.
    pub matched: Vec<Matched>,
    candidates: Vec<u32>,
    marks: Vec<u64>,
    frontier: Vec<(usize, usize)>,
    /// The ends of the chain step at each depth.
    ends: Vec<Vec<usize>>,
}

/// The matches of `m` in `ctx`'s function, in `out` (cleared first), with
/// `scratch`'s buffers reused; `hook`, the rule's, may turn candidates away
/// early (`RuleHook::may_describe`).
pub fn matches_into(
    m: &Match,
    ctx: &FunctionContext<'_, '_>,
    index: &Candidates,
    hook: Option<&dyn RuleHook>,
    scratch: &mut Scratch,
    out: &mut Vec<Matched>,
) {
    out.clear();
    if m.fast_math.is_some_and(|want| want != ctx.air.fast_math()) {
        return;
    }
    let mut candidates = std::mem::take(&mut scratch.candidates);
    let helpers = m.through_helpers == Some(true) && !m.calls.is_empty();
    let table = (!m.calls.is_empty()).then(|| callee_table(m, ctx));
    index.for_match(
        m,
        ctx.body,
        table.as_deref(),
        &mut candidates,
        &mut scratch.marks,
    );
    // Computed only for the patterns that ask, once per function, and only
    // when the function holds a candidate (most hold no barrier).
    let mut divergence: Option<DivergenceCheck> = None;
    for &i in &candidates {
        let i = i as usize;
        let Some(inst) = ctx.body.instructions.get(i) else {
            continue;
        };
        if !m.int_bits.is_empty() && !int_bits_match(&m.int_bits, ctx, inst) {
            continue;
        }
        if !m.types.is_empty() && !types_match(m, ctx, inst) {
            continue;
        }
        if !m.allocates.is_empty() && !allocates_match(&m.allocates, ctx, inst) {
            continue;
        }
        if m.indirect_call
            .is_some_and(|want| want != is_indirect_call(inst))
        {
            continue;
        }
        let block = ctx.du.block_of(i);
        // Every check is pure, so their order changes no result, only the
        // work: the cheap ones on the instruction come first, the ones that
        // build an analysis (users for a chain, control dependence, loops)
        // last; a chain usually fails at its first step, before the
        // post-dominators `in_conditional` needs are built. A hook that wants to know whether a match is conditional
        // asks `ctx.cf.control_deps()`; filling a field for every match made
        // post-dominators of most functions for nothing. The divergence
        // check alone has a budget per function: it must see the same
        // candidates in the same order, those that pass the checks above
        // and `in_conditional`, so for its patterns `in_conditional` stays
        // in front of it.
        let conditional = || ctx.cf.control_deps().is_conditional(block);
        let mut divergent_branch = None;
        if let Some(want) = m.in_divergent_block {
            if m.in_conditional.is_some_and(|want| want != conditional()) {
                continue;
            }
            divergent_branch = divergence
                .get_or_insert_with(|| DivergenceCheck::new(&candidates, ctx, m.divergent_strict))
                .check(ctx, block);
            if want != divergent_branch.is_some() {
                continue;
            }
        }
        // After the divergence check, whose budget must see the same
        // candidates whatever the hook.
        if hook.is_some_and(|h| !h.may_describe(ctx, i)) {
            continue;
        }
        // Operand conditions are about the named call's own operands; a call
        // that reaches one only through helpers passes other arguments.
        let through_helper = helpers && !opcode_matches(m, inst);
        if !through_helper && !m.operand.iter().all(|o| operand_matches(o, ctx, i, inst)) {
            continue;
        }
        let Some(chain) = chain_from(ctx, i, &m.chain, scratch) else {
            continue;
        };
        let reached = if through_helper {
            let helper = inst.callee_name().and_then(|c| ctx.graph.index_of.get(c));
            helper.and_then(|&h| ctx.graph.first_named(ctx.module, h, |n| calls_match(m, n)))
        } else {
            None
        };
        let matched = Matched {
            inst: i,
            chain,
            divergent_branch,
            reached,
        };
        if !through_helper && !m.operand.iter().all(|o| family_matches(o, ctx, &matched)) {
            continue;
        }
        if m.in_divergent_block.is_none()
            && m.in_conditional.is_some_and(|want| want != conditional())
        {
            continue;
        }
        // Loops are built on first use: only for a match that survives
        // every other filter.
        if m.in_loop
            .is_some_and(|want| want != (ctx.cf.loops().depth(block) > 0))
        {
            continue;
        }
        out.push(matched);
    }
    scratch.candidates = candidates;
}

fn opcode_matches(m: &Match, inst: &Instruction<'_>) -> bool {
    (if m.opcode_set.len() == m.opcodes.len() {
        m.opcode_set.contains(&inst.opcode)
    } else {
        m.opcodes.iter().any(|o| o == inst.opcode.name())
    }) || (inst.opcode == Opcode::Call && inst.callee_name().is_some_and(|c| calls_match(m, c)))
}

/// A `calls` entry against a callee name: exact, or with one `*` standing
/// for any text.
pub fn name_matches(pattern: &str, name: &str) -> bool {
    name_matches_at(pattern, pattern.find('*'), name)
}

/// `name_matches` with the position of the pattern's `*` known.
fn name_matches_at(pattern: &str, star: Option<usize>, name: &str) -> bool {
    match star {
        Some(k) => {
            let (pre, post) = (&pattern[..k], &pattern[k + 1..]);
            // One byte past the common `air.` first: it rejects most names
            // before the comparisons proper.
            let (p, n) = (pre.as_bytes(), name.as_bytes());
            (p.len() <= 4 || n.get(4) == p.get(4))
                && name.len() >= pre.len() + post.len()
                && name.starts_with(pre)
                && name.ends_with(post)
        }
        None => pattern == name,
    }
}

/// Whether `name` is one of `m.calls`.
fn calls_match(m: &Match, name: &str) -> bool {
    if m.call_stars.len() != m.calls.len() {
        // A `Match` not made by `Pattern::parse`.
        return m.calls.iter().any(|x| name_matches(x, name));
    }
    m.calls
        .iter()
        .zip(&m.call_stars)
        .any(|(x, &star)| name_matches_at(x, star, name))
}

/// The name `types` uses for a scalar type (the element of a vector).
pub fn scalar_name(types: &TypeTable<'_>, ty: TypeId) -> Option<String> {
    Some(match types.get(types.scalar_of(ty)) {
        Type::Half => "half".into(),
        Type::BFloat => "bfloat".into(),
        Type::Float => "float".into(),
        Type::Double => "double".into(),
        Type::Int(b) => format!("i{b}"),
        _ => return None,
    })
}

/// Whether `scalar_name(ty)` is one of `names`, without making the name:
/// `types` asks this of every operand of many instructions.
pub fn scalar_is(types: &TypeTable<'_>, ty: TypeId, names: &[String]) -> bool {
    let want = |n: &str| names.iter().any(|x| x == n);
    match types.get(types.scalar_of(ty)) {
        Type::Half => want("half"),
        Type::BFloat => want("bfloat"),
        Type::Float => want("float"),
        Type::Double => want("double"),
        // `i{b}` exactly: digits without a sign or leading zeros.
        Type::Int(b) => names.iter().any(|x| {
            x.strip_prefix('i').is_some_and(|d| {
                let canonical = !d.starts_with('+') && (d.len() == 1 || !d.starts_with('0'));
                canonical && d.parse::<u32>() == Ok(*b)
            })
        }),
        _ => false,
    }
}

/// Whether the scalar of `ty` is in `set`: `scalar_is` on parsed names.
#[inline(always)]
fn scalar_in(types: &TypeTable<'_>, ty: TypeId, set: &ScalarSet) -> bool {
    match types.get(types.scalar_of(ty)) {
        Type::Half => set.half,
        Type::BFloat => set.bfloat,
        Type::Float => set.float,
        Type::Double => set.double,
        Type::Int(b) => set.ints.contains(b),
        _ => false,
    }
}

/// The result or an operand (a call's callee aside) has one of `m.types`.
fn types_match(m: &Match, ctx: &FunctionContext<'_, '_>, inst: &Instruction<'_>) -> bool {
    let types = &ctx.module.types;
    let is = |ty: TypeId| match &m.type_set {
        Some(set) => scalar_in(types, ty, set),
        // A `Match` not made by `Pattern::parse`.
        None => scalar_is(types, ty, &m.types),
    };
    let operands = match inst.opcode {
        Opcode::Call => inst.call_args(),
        _ => &inst.operands,
    };
    is(inst.ty) || operands.iter().any(|o| is(o.ty))
}

/// The kind of type an `alloca` allocates: array, struct, vector or scalar.
fn allocates_match(
    kinds: &[String],
    ctx: &FunctionContext<'_, '_>,
    inst: &Instruction<'_>,
) -> bool {
    if inst.opcode != Opcode::Alloca {
        return false;
    }
    let Some(ty) = inst.elem_ty else {
        return false;
    };
    let types = &ctx.module.types;
    let kind = match types.get(types.resolve(ty)) {
        Type::Array { .. } => "array",
        Type::Struct { .. } => "struct",
        Type::Vector { .. } => "vector",
        _ => "scalar",
    };
    kinds.iter().any(|k| k == kind)
}

/// A call whose callee is a value rather than a function named directly (or
/// through a constant cast of one, as typed-pointer IR writes it).
pub fn is_indirect_call(inst: &Instruction<'_>) -> bool {
    let Some(callee) = inst.callee() else {
        return false;
    };
    let mut v = &callee.value;
    for _ in 0..16 {
        match v {
            Value::Expr(e) if e.opcode.is_cast() => match e.operands.first() {
                Some(op) => v = &op.value,
                None => return false,
            },
            Value::Local(_) => return true,
            _ => return false,
        }
    }
    false
}

#[inline]
fn int_bits_match(bits: &[u32], ctx: &FunctionContext<'_, '_>, inst: &Instruction<'_>) -> bool {
    ctx.module
        .types
        .int_bits(inst.ty)
        .is_some_and(|b| bits.contains(&b))
}

fn constant_of(v: &Value<'_>) -> Option<i64> {
    match v {
        Value::Int(c) => Some(*c),
        Value::Splat(op) => constant_of(&op.value),
        _ => None,
    }
}

fn operand_matches(
    o: &OperandMatch,
    ctx: &FunctionContext<'_, '_>,
    i: usize,
    inst: &Instruction<'_>,
) -> bool {
    let Some(op) = inst.operands.get(o.index) else {
        return false;
    };
    let constant = constant_of(&op.value);
    if !o.constant.is_empty() && !constant.is_some_and(|c| o.constant.contains(&c)) {
        return false;
    }
    if let Some(family) = &o.family {
        // The family's test proper needs the chain; this necessary part
        // does not, and rejects nearly every constant before the chain is
        // followed.
        match constant {
            Some(c) if family != "fused-shift" || may_be_fused_shift(ctx, inst, c) => {}
            _ => return false,
        }
    }
    if o.not_constant && constant.is_some() {
        return false;
    }
    if !o.addrspace.is_empty()
        && !ctx
            .module
            .types
            .addrspace(op.ty)
            .is_some_and(|a| o.addrspace.contains(&a))
    {
        return false;
    }
    if !o.bitcast_from.is_empty() && !bitcast_from(ctx, &op.value, &o.bitcast_from) {
        return false;
    }
    if !o.provenance_set.is_empty() {
        let class = ctx.prov.operand(ctx.body, ctx.du, i, o.index).class();
        if !o.provenance_set.contains(&class) {
            return false;
        }
    }
    true
}

/// `v` is the result of a `bitcast` whose source has one of `names`.
fn bitcast_from(ctx: &FunctionContext<'_, '_>, v: &Value<'_>, names: &[String]) -> bool {
    let Some(Def::Inst(d)) = ctx.du.def_of(v) else {
        return false;
    };
    let Some(def) = ctx.body.instructions.get(d) else {
        return false;
    };
    def.opcode == Opcode::BitCast
        && def
            .operands
            .first()
            .and_then(|src| scalar_name(&ctx.module.types, src.ty))
            .is_some_and(|n| names.contains(&n))
}

/// A GEP with an index that is not a constant: a local value.
fn has_dynamic_index(inst: &Instruction<'_>) -> bool {
    inst.opcode == Opcode::GetElementPtr
        && inst
            .operands
            .iter()
            .skip(1)
            .any(|o| matches!(o.value, Value::Local(_)))
}

/// Follows each chain step from the previous step's instruction; returns
/// the instruction every step ended at, or `None` when a step finds none.
fn chain_from(
    ctx: &FunctionContext<'_, '_>,
    start: usize,
    steps: &[ChainStep],
    scratch: &mut Scratch,
) -> Option<Vec<usize>> {
    let mut chain = Vec::with_capacity(steps.len());
    chain_rest(ctx, start, steps, scratch, &mut chain).then_some(chain)
}

/// Depth first: the first end of a step whose rest of the chain completes.
/// `chain` holds the ends so far; false leaves it as it was.
fn chain_rest(
    ctx: &FunctionContext<'_, '_>,
    start: usize,
    steps: &[ChainStep],
    scratch: &mut Scratch,
    chain: &mut Vec<usize>,
) -> bool {
    let Some((step, rest)) = steps.split_first() else {
        return true;
    };
    let depth = chain.len();
    if scratch.ends.len() <= depth {
        scratch.ends.resize_with(depth + 1, Vec::new);
    }
    let mut ends = std::mem::take(&mut scratch.ends[depth]);
    step_ends(ctx, start, step, &mut scratch.frontier, &mut ends);
    let mut found = false;
    for &end in &ends {
        chain.push(end);
        if chain_rest(ctx, end, rest, scratch, chain) {
            found = true;
            break;
        }
        chain.pop();
    }
    scratch.ends[depth] = ends;
    found
}

/// The instructions one step can end at from `from`'s result, into `ends`.
fn step_ends(
    ctx: &FunctionContext<'_, '_>,
    from: usize,
    step: &ChainStep,
    frontier: &mut Vec<(usize, usize)>,
    ends: &mut Vec<usize>,
) {
    ends.clear();
    frontier.clear();
    frontier.push((from, 0usize));
    let mut visits = 0;
    while let Some((cur, hops)) = frontier.pop() {
        let Some(result) = ctx.body.instructions.get(cur).and_then(|i| i.result) else {
            continue;
        };
        for u in ctx.du.users(Def::Inst(cur)) {
            visits += 1;
            if visits > MAX_VISITS {
                return;
            }
            let Some(user) = ctx.body.instructions.get(u) else {
                continue;
            };
            let ends_here = step.to_set.contains(&user.opcode)
                && arrives_as(step, user, result)
                && (step.int_bits.is_empty() || int_bits_match(&step.int_bits, ctx, user))
                && (!step.dynamic_index || has_dynamic_index(user));
            if ends_here {
                if !ends.contains(&u) {
                    ends.push(u);
                }
            } else if hops < MAX_HOPS && step.through_set.contains(&user.opcode) {
                frontier.push((u, hops + 1));
            }
        }
    }
}

/// Whether `value` reaches `user` in the position the step asks for.
fn arrives_as(step: &ChainStep, user: &Instruction<'_>, value: &str) -> bool {
    // Compared by name: building a `Value` to compare cost more than the step.
    let at = |i: usize| {
        user.operands
            .get(i)
            .is_some_and(|o| matches!(o.value, Value::Local(n) if n == value))
    };
    match (step.operand, step.role.as_deref()) {
        (Some(i), _) => at(i),
        // A GEP index: any operand after the base pointer.
        (None, Some("index")) => (1..user.operands.len()).any(at),
        // The address of a memory access.
        (None, Some("address")) => match user.opcode {
            Opcode::Store => at(1),
            _ => at(0),
        },
        _ => true,
    }
}

/// The named constant families.
fn family_matches(o: &OperandMatch, ctx: &FunctionContext<'_, '_>, m: &Matched) -> bool {
    let Some(family) = &o.family else { return true };
    let Some(inst) = ctx.body.instructions.get(m.inst) else {
        return false;
    };
    let Some(c) = inst
        .operands
        .get(o.index)
        .and_then(|op| constant_of(&op.value))
    else {
        return false;
    };
    match family.as_str() {
        "fused-shift" => fused_shift(ctx, inst, c, m).is_some(),
        _ => false,
    }
}

/// Whether `fused_shift` could accept `c` for some shift amount: `c` lies
/// within 64 below a power of two that fits in the multiply's width.
fn may_be_fused_shift(ctx: &FunctionContext<'_, '_>, mul: &Instruction<'_>, c: i64) -> bool {
    let Some(bits) = ctx.module.types.int_bits(mul.ty) else {
        return false;
    };
    if !(2..=64).contains(&bits) {
        return false;
    }
    let mask: u64 = if bits == 64 {
        u64::MAX
    } else {
        (1u64 << bits) - 1
    };
    let c = (c as u64) & mask;
    (1..bits).any(|j| {
        (1u64 << j)
            .checked_sub(c)
            .is_some_and(|small| (1..=64).contains(&small))
    })
}

/// `C = 2^(bits-k) - m` for the shift amount `k` of the chain's `shl` and a
/// small `m`: the optimizer's fusion of `-m * x << k`. Returns (k, m).
pub fn fused_shift(
    ctx: &FunctionContext<'_, '_>,
    mul: &Instruction<'_>,
    c: i64,
    m: &Matched,
) -> Option<(u32, u32)> {
    let bits = ctx.module.types.int_bits(mul.ty)?;
    if !(2..=64).contains(&bits) {
        return None;
    }
    let shl = m
        .chain
        .iter()
        .filter_map(|&i| ctx.body.instructions.get(i))
        .find(|i| i.opcode == Opcode::Shl)?;
    let k = constant_of(&shl.operands.get(1)?.value)?;
    if k <= 0 || k as u32 >= bits {
        return None;
    }
    let mask: u64 = if bits == 64 {
        u64::MAX
    } else {
        (1u64 << bits) - 1
    };
    let c = (c as u64) & mask;
    let top = 1u64 << (bits - k as u32);
    let small = top.checked_sub(c)?;
    (1..=64)
        .contains(&small)
        .then_some((k as u32, small as u32))
}

#[cfg(test)]
mod tests {
    use super::name_matches;
    use crate::rules::Pattern;

    #[test]
    fn call_names_with_one_star() {
        assert!(name_matches("air.wg.barrier", "air.wg.barrier"));
        assert!(!name_matches("air.wg.barrier", "air.wg.barrier2"));
        assert!(name_matches(
            "air.atomic.global.add.*",
            "air.atomic.global.add.f32"
        ));
        assert!(!name_matches(
            "air.atomic.global.add.*",
            "air.atomic.local.add.f32"
        ));
        assert!(name_matches("air.sin.*f32", "air.sin.f32"));
        assert!(name_matches("air.sin.*f32", "air.sin.v4f32"));
        assert!(!name_matches("air.sin.*f32", "air.sin.f16"));
        assert!(!name_matches("air.sin.*f32", "air.sinh.f32"));
        // Prefix and suffix may not overlap.
        assert!(!name_matches("air.a*a.x", "air.a.x"));
    }

    /// `scalar_is` agrees with the type's name, and `scalar_in` (a parsed
    /// set) with `scalar_is`, name by name and for the whole list.
    #[test]
    fn scalar_is_and_scalar_in_agree_with_scalar_name() {
        use super::{scalar_in, scalar_is, scalar_name};
        use crate::ir::{Type, TypeTable};
        use crate::rules::pattern::ScalarSet;
        let mut t = TypeTable::new();
        let names: Vec<String> = [
            "i8", "i08", "i+8", "i", "i0", "half", "bfloat", "double", "i64", "float", "i1",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        for ty in [
            Type::Int(8),
            Type::Int(64),
            Type::Int(1),
            Type::Int(0),
            Type::Half,
            Type::BFloat,
            Type::Double,
            Type::Float,
            Type::Void,
        ] {
            let id = t.intern(ty);
            for n in &names {
                let one = std::slice::from_ref(n);
                let want = scalar_name(&t, id).is_some_and(|s| s == *n);
                assert_eq!(scalar_is(&t, id, one), want, "{n}");
                assert_eq!(scalar_in(&t, id, &ScalarSet::of(one)), want, "{n}");
            }
            assert_eq!(
                scalar_in(&t, id, &ScalarSet::of(&names)),
                scalar_is(&t, id, &names)
            );
        }
    }

    fn pattern(matcher: &str) -> Result<Pattern, String> {
        Pattern::parse(&format!(
            "id = \"X1\"\nname = \"x\"\nseverity = \"note\"\ncategory = \"performance\"\n\
             summary = \"s\"\nrationale = \"r\"\nfix = \"f\"\n[match]\n{matcher}\n"
        ))
    }

    #[test]
    fn new_conditions_are_checked() {
        assert!(pattern("opcodes = [\"fadd\"]\ntypes = [\"double\", \"i8\"]").is_ok());
        let e = pattern("opcodes = [\"fadd\"]\ntypes = [\"quad\"]").unwrap_err();
        assert!(e.contains("unknown type 'quad'"), "{e}");
        let e = pattern("opcodes = [\"alloca\"]\nallocates = [\"tuple\"]").unwrap_err();
        assert!(e.contains("unknown allocated kind"), "{e}");
        let e = pattern("calls = [\"air.*.*\"]").unwrap_err();
        assert!(e.contains("at most one `*`"), "{e}");
        let e = pattern("opcodes = [\"call\"]\nindirect_call = \"yes\"").unwrap_err();
        assert!(e.contains("indirect_call"), "{e}");
        let e = pattern("calls = [\"air.wg.barrier\"]\nin_divergent_block = true\n[[match.operand]]\nindex = 0\nbitcast_from = [\"fp8\"]")
            .unwrap_err();
        assert!(e.contains("unknown type 'fp8'"), "{e}");
        assert!(
            pattern("calls = [\"air.wg.barrier\"]\nin_divergent_block = true\nfast_math = false")
                .is_ok()
        );
        assert!(pattern("calls = [\"air.wg.barrier\"]\nthrough_helpers = true").is_ok());
        let e = pattern("opcodes = [\"call\"]\nthrough_helpers = true").unwrap_err();
        assert!(e.contains("`through_helpers` needs `calls`"), "{e}");
    }
}
