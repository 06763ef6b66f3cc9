//! Def-use chains of one function: where each local is defined, which
//! instructions use it, and which block each instruction sits in.

use crate::ir::{Body, Function, Opcode, Value};
use rustc_hash::FxHashMap;

/// Where a local value comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Def {
    /// The function's parameter at this position.
    Param(usize),
    /// The instruction at this index of `Body::instructions`.
    Inst(usize),
}

/// Names are resolved once, when the chains are built: LLVM numbers most
/// locals (`%12`), so a number indexes a table and only the other names are
/// hashed; each operand's definition is kept too, so consumers that know
/// where an operand sits (`operand`) look nothing up at all. Users are
/// stored flat (compressed rows): one allocation per function instead of one
/// per value, which showed in profiles.
///
/// An operand's code (`operand_row`) says what it is without touching the
/// instruction: 0 a constant or global, `1..=slots()` the value in slot
/// `code - 1` (parameters first, then instructions), then `undefined()`,
/// `empty()` and `compound()` (see there).
#[derive(Debug)]
pub struct DefUse<'a> {
    /// Slot + 1 (0: none) of the local numbered `%i`, for every number
    /// below the limit (a larger one is a name).
    numbered: Vec<u32>,
    /// Slot of every other local name.
    named: FxHashMap<&'a str, u32>,
    /// The code of operand `j` of instruction `i` is
    /// `operand_defs[operand_starts[i] + j]`.
    operand_starts: Vec<u32>,
    operand_defs: Vec<u32>,
    /// Users of value `v` are `users[starts[v]..starts[v + 1]]`, where
    /// parameters come first, then instructions (a value's slot). Made on
    /// first use: most functions never ask (only some rules and source
    /// mapping do).
    rows: std::cell::OnceCell<Users>,
    params: usize,
    /// The block of each instruction.
    block_of: Vec<u32>,
    /// The opcode of each instruction.
    opcodes: Vec<Opcode>,
}

#[derive(Debug, Default)]
struct Users {
    starts: Vec<u32>,
    users: Vec<u32>,
}

/// `%12` is numbered 12; `%012` or `%x` are names. Numbers past `limit`
/// are names too, so a hostile `%4000000000` costs no table.
#[inline(always)]
pub(crate) fn number(name: &str, limit: usize) -> Option<usize> {
    // Every operand and result is parsed: the short forms, nearly all,
    // without a loop.
    let n = match *name.as_bytes() {
        [a] => digit(a)?,
        [a, b] if a != b'0' => digit(a)? * 10 + digit(b)?,
        [a, b, c] if a != b'0' => (digit(a)? * 10 + digit(b)?) * 10 + digit(c)?,
        [a, b, c, d] if a != b'0' => {
            ((digit(a)? * 10 + digit(b)?) * 10 + digit(c)?) * 10 + digit(d)?
        }
        ref b => {
            if b.is_empty() || b.len() > 9 || b[0] == b'0' {
                return None;
            }
            let mut n = 0usize;
            for &c in b {
                n = n * 10 + digit(c)?;
            }
            n
        }
    };
    (n < limit).then_some(n)
}

/// Records that `name` is the value in `slot`: in `numbered` (whose length
/// is the limit of `number`) or, for another name, in `named`. A name
/// defined twice keeps its last definition, as a map would. Inlined: it
/// runs for every parameter and instruction result.
#[inline(always)]
fn define<'a>(
    numbered: &mut [u32],
    named: &mut FxHashMap<&'a str, u32>,
    name: &'a str,
    slot: usize,
) {
    match number(name, numbered.len()) {
        Some(k) => numbered[k] = slot as u32 + 1,
        None => {
            named.insert(name, slot as u32);
        }
    }
}

#[inline(always)]
fn digit(c: u8) -> Option<usize> {
    let d = c.wrapping_sub(b'0');
    (d <= 9).then_some(d as usize)
}

impl<'a> DefUse<'a> {
    pub fn build(function: &Function<'a>, body: &Body<'a>) -> Self {
        let params = function.params.len();
        let n = body.instructions.len();
        // LLVM numbers parameters, blocks and instructions in one sequence.
        let limit = params + n + body.blocks.len() + 64;
        // One table entry for every number below the limit, made at once.
        let mut numbered = vec![0; limit];
        let mut named = FxHashMap::default();
        for (slot, p) in function.params.iter().enumerate() {
            if let Some(name) = p.name {
                define(&mut numbered, &mut named, name, slot);
            }
        }
        // The opcodes, which later analyses read here, not from the large
        // instruction structs; then the names.
        let mut opcodes = Vec::with_capacity(n);
        opcodes.extend(body.instructions.iter().map(|i| i.opcode));
        for (i, inst) in body.instructions.iter().enumerate() {
            if let Some(name) = inst.result {
                define(&mut numbered, &mut named, name, params + i);
            }
        }
        let mut du = DefUse {
            numbered,
            named,
            operand_starts: Vec::new(),
            operand_defs: Vec::new(),
            rows: Default::default(),
            params,
            block_of: Vec::new(),
            opcodes,
        };
        du.code_operands(body);
        du.block_of.resize(n, 0);
        for (b, block) in body.blocks.iter().enumerate() {
            let r = &block.instructions;
            if let Some(s) = du.block_of.get_mut(r.start.min(n)..r.end.min(n)) {
                s.fill(b as u32);
            }
        }
        du
    }

    /// Each operand's code, once every name is known (a phi may use a
    /// value defined further down).
    #[inline(never)]
    fn code_operands(&mut self, body: &Body<'a>) {
        let n = body.instructions.len();
        let (undefined, empty, compound) = (self.undefined(), self.empty(), self.compound());
        let mut starts = std::mem::take(&mut self.operand_starts);
        let mut defs = std::mem::take(&mut self.operand_defs);
        starts.reserve(n + 1);
        // Most instructions have one to three operands.
        defs.reserve(2 * n);
        for inst in &body.instructions {
            starts.push(defs.len() as u32);
            // A loop of pushes, not `extend`: that was a call per
            // instruction, which cost more than its one to three operands.
            for op in inst.operands.iter() {
                defs.push(match op.value {
                    Value::Local(name) => self.slot(name).map_or(undefined, |s| s + 1),
                    Value::Expr(_) | Value::Aggregate(_) | Value::Splat(_) => compound,
                    Value::Label(_) | Value::Metadata(_) => empty,
                    _ => 0,
                });
            }
        }
        starts.push(defs.len() as u32);
        (self.operand_starts, self.operand_defs) = (starts, defs);
    }

    #[inline(always)]
    fn slot(&self, name: &str) -> Option<u32> {
        match number(name, self.numbered.len()) {
            Some(k) => self.numbered[k].checked_sub(1),
            None => self.named.get(name).copied(),
        }
    }

    fn def_at(&self, slot: u32) -> Def {
        let s = slot as usize;
        if s < self.params {
            Def::Param(s)
        } else {
            Def::Inst(s - self.params)
        }
    }

    pub fn def(&self, name: &str) -> Option<Def> {
        self.slot(name).map(|s| self.def_at(s))
    }

    /// The definition of an operand value, when it is a local.
    pub fn def_of(&self, value: &Value<'_>) -> Option<Def> {
        match value {
            Value::Local(name) => self.def(name),
            _ => None,
        }
    }

    /// The definition of operand `j` of instruction `i`, when it is a
    /// defined local: `def_of(&body.instructions[i].operands[j].value)`
    /// without the lookup.
    pub fn operand(&self, i: usize, j: usize) -> Option<Def> {
        self.decode(*self.operand_row(i).get(j)?)
    }

    /// The codes of instruction `i`'s operands (see `DefUse`): pass each
    /// to `decode` for its definition. Empty for an index out of range.
    #[inline]
    pub fn operand_row(&self, i: usize) -> &[u32] {
        match self.operand_starts.get(i..i.wrapping_add(2)) {
            Some(&[a, b]) => self.operand_defs.get(a as usize..b as usize).unwrap_or(&[]),
            _ => &[],
        }
    }

    /// Where each instruction's operand codes start in `operand_codes`,
    /// and (last) where they end: row i is `starts[i]..starts[i + 1]`.
    pub fn operand_starts(&self) -> &[u32] {
        &self.operand_starts
    }

    /// All operand codes, row after row.
    pub fn operand_codes(&self) -> &[u32] {
        &self.operand_defs
    }

    /// The opcode of each instruction, in order.
    pub fn opcodes(&self) -> &[Opcode] {
        &self.opcodes
    }

    /// The length of all rows together: the function's operand count.
    pub fn operand_row_total(&self) -> usize {
        self.operand_defs.len()
    }

    /// The number of parameters and instructions: codes `1..=slots()`
    /// are defined locals.
    #[inline]
    pub fn slots(&self) -> usize {
        self.params + self.opcodes.len()
    }

    /// The number of parameters: code `1 + k` is parameter `k`.
    #[inline]
    pub fn params(&self) -> usize {
        self.params
    }

    /// The code of a local that nothing in the function defines.
    #[inline]
    pub fn undefined(&self) -> u32 {
        self.slots() as u32 + 1
    }

    /// The code of a label or metadata operand.
    #[inline]
    pub fn empty(&self) -> u32 {
        self.slots() as u32 + 2
    }

    /// The code of a constant expression, aggregate or splat, which may
    /// hold locals: look at the operand itself.
    #[inline]
    pub fn compound(&self) -> u32 {
        self.slots() as u32 + 3
    }

    /// An entry of `operand_row`: the operand's definition, if it has one.
    #[inline]
    pub fn decode(&self, d: u32) -> Option<Def> {
        match d.checked_sub(1) {
            Some(s) if (s as usize) < self.slots() => Some(self.def_at(s)),
            _ => None,
        }
    }

    /// Counts each value's users, then places them (compressed rows).
    fn users_by_value(&self) -> Users {
        let values = self.slots();
        let mut starts = vec![0; values + 2];
        // Counted two places to the right: after the prefix sums,
        // `starts[s + 1]` is where the row of slot s starts; filling moves
        // it to where that row ends, which is where row s + 1 starts.
        for &d in &self.operand_defs {
            let s = d.wrapping_sub(1) as usize;
            if s < values {
                starts[s + 2] += 1;
            }
        }
        for v in 1..values + 2 {
            starts[v] += starts[v - 1];
        }
        let mut users = vec![0; starts[values + 1] as usize];
        for (i, w) in self.operand_starts.windows(2).enumerate() {
            for &d in self
                .operand_defs
                .get(w[0] as usize..w[1] as usize)
                .unwrap_or(&[])
            {
                let s = d.wrapping_sub(1) as usize;
                if s < values {
                    let f = &mut starts[s + 1];
                    users[*f as usize] = i as u32;
                    *f += 1;
                }
            }
        }
        // The last entry (the total) is not a row start.
        starts.pop();
        Users { starts, users }
    }

    /// Instructions that use `def`, in order; one that uses the value
    /// twice appears twice.
    pub fn users(&self, def: Def) -> impl Iterator<Item = usize> + '_ {
        self.users_row(def).iter().map(|u| *u as usize)
    }

    /// `users` as a slice of instruction indices.
    pub fn users_row(&self, def: Def) -> &[u32] {
        let v = match def {
            Def::Param(p) => p,
            Def::Inst(i) => self.params + i,
        };
        let rows = self.rows.get_or_init(|| self.users_by_value());
        match rows.starts.get(v..v.wrapping_add(2)) {
            Some(&[a, b]) => rows.users.get(a as usize..b as usize).unwrap_or(&[]),
            _ => &[],
        }
    }

    pub fn block_of(&self, inst: usize) -> usize {
        self.block_of.get(inst).map_or(0, |b| *b as usize)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::read_module;

    #[test]
    fn finds_defs_users_and_blocks() {
        let text = "define i32 @f(i32 %a, i32 %b) {\n  %1 = add i32 %a, %b\n  br label %next\nnext:\n  %2 = mul i32 %1, %a\n  ret i32 %2\n}\n";
        let mut m = read_module(text);
        let (body, diags) = m.body(0);
        assert!(diags.is_empty(), "{diags:?}");
        let du = DefUse::build(&m.functions[0], &body);
        assert_eq!(du.def("a"), Some(Def::Param(0)));
        assert_eq!(du.def("2"), Some(Def::Inst(2)));
        let users = |d| du.users(d).collect::<Vec<_>>();
        assert_eq!(users(Def::Param(0)), [0, 2]);
        assert_eq!(users(Def::Inst(0)), [2]);
        assert_eq!(users(Def::Inst(2)), [3]);
        assert_eq!(du.block_of(0), 0);
        assert_eq!(du.block_of(2), 1);
        // `mul i32 %1, %a`: by position, as by name.
        assert_eq!(du.operand(2, 0), Some(Def::Inst(0)));
        assert_eq!(du.operand(2, 1), Some(Def::Param(0)));
        assert_eq!(du.operand(2, 2), None);
        assert_eq!(du.operand(1, 0), None);
    }

    #[test]
    fn numbers_and_names_do_not_mix() {
        // `%01` and `%x1` are names, `%1` a number; a redefinition wins.
        let text = "define i32 @f(i32 %01) {\n  %1 = add i32 %01, 1\n  %x1 = add i32 %1, 1\n  %1 = add i32 %x1, 1\n  %4000000000 = add i32 %1, 1\n  ret i32 %4000000000\n}\n";
        let mut m = read_module(text);
        let (body, _) = m.body(0);
        let du = DefUse::build(&m.functions[0], &body);
        assert_eq!(du.def("01"), Some(Def::Param(0)));
        assert_eq!(du.def("1"), Some(Def::Inst(2)));
        assert_eq!(du.def("x1"), Some(Def::Inst(1)));
        assert_eq!(du.def("4000000000"), Some(Def::Inst(3)));
        assert_eq!(du.operand(4, 0), Some(Def::Inst(3)));
        assert_eq!(du.def("2"), None);
        assert_eq!(du.def("99999"), None);
    }
}
