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
#[derive(Debug, Default)]
pub struct DefUse<'a> {
    /// Slot + 1 (0: none) of the local numbered `%i`.
    numbered: Vec<u32>,
    /// Slot of every other local name.
    named: FxHashMap<&'a str, u32>,
    /// The definition (slot + 1, 0: none or not a local) of operand `j` of
    /// instruction `i` is `operand_defs[operand_starts[i] + j]`.
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
fn number(name: &str, limit: usize) -> Option<usize> {
    let b = name.as_bytes();
    if b.is_empty() || b.len() > 9 || (b.len() > 1 && b[0] == b'0') {
        return None;
    }
    let mut n = 0usize;
    for &c in b {
        if !c.is_ascii_digit() {
            return None;
        }
        n = n * 10 + (c - b'0') as usize;
    }
    (n < limit).then_some(n)
}

impl<'a> DefUse<'a> {
    pub fn build(function: &Function<'a>, body: &Body<'a>) -> Self {
        let params = function.params.len();
        let n = body.instructions.len();
        // LLVM numbers parameters, blocks and instructions in one sequence.
        let limit = params + n + body.blocks.len() + 64;
        let mut du = DefUse {
            params,
            ..Default::default()
        };
        // One walk over the instructions gathers names, operand counts and
        // opcodes (which later analyses read here, not from the large
        // instruction structs).
        let mut total = 0;
        du.opcodes.reserve(n);
        let names = function
            .params
            .iter()
            .map(|p| p.name)
            .chain(body.instructions.iter().map(|i| {
                total += i.operands.len();
                du.opcodes.push(i.opcode);
                i.result
            }));
        // A name defined twice keeps its last definition, as a map would.
        let (mut numbered, mut named) = (Vec::new(), FxHashMap::default());
        for (slot, name) in names.enumerate() {
            let Some(name) = name else { continue };
            match number(name, limit) {
                Some(k) => {
                    if numbered.len() <= k {
                        numbered.resize(k + 1, 0);
                    }
                    numbered[k] = slot as u32 + 1;
                }
                None => {
                    named.insert(name, slot as u32);
                }
            }
        }
        (du.numbered, du.named) = (numbered, named);
        du.operand_starts.reserve(n + 1);
        du.operand_defs.reserve(total);
        for inst in &body.instructions {
            du.operand_starts.push(du.operand_defs.len() as u32);
            for op in inst.operands.iter() {
                let d = match op.value {
                    Value::Local(name) => du.slot(name).map_or(0, |s| s + 1),
                    _ => 0,
                };
                du.operand_defs.push(d);
            }
        }
        du.operand_starts.push(du.operand_defs.len() as u32);
        let mut block_of = vec![0u32; n];
        for (b, block) in body.blocks.iter().enumerate() {
            for i in block.instructions.clone() {
                if let Some(slot) = block_of.get_mut(i) {
                    *slot = b as u32;
                }
            }
        }
        du.block_of = block_of;
        du
    }

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
        let a = *self.operand_starts.get(i)? as usize;
        let b = *self.operand_starts.get(i + 1)? as usize;
        if a + j >= b {
            return None;
        }
        let d = *self.operand_defs.get(a + j)?;
        d.checked_sub(1).map(|s| self.def_at(s))
    }

    /// The definitions of instruction `i`'s operands, encoded: pass each
    /// to `decode`. Empty for an index out of range.
    pub fn operand_row(&self, i: usize) -> &[u32] {
        match (self.operand_starts.get(i), self.operand_starts.get(i + 1)) {
            (Some(&a), Some(&b)) => self.operand_defs.get(a as usize..b as usize).unwrap_or(&[]),
            _ => &[],
        }
    }

    /// The opcode of each instruction, in order.
    pub fn opcodes(&self) -> &[Opcode] {
        &self.opcodes
    }

    /// The length of all rows together: the function's operand count.
    pub fn operand_row_total(&self) -> usize {
        self.operand_defs.len()
    }

    /// An entry of `operand_row`: the operand's definition, if it has one.
    #[inline]
    pub fn decode(&self, d: u32) -> Option<Def> {
        d.checked_sub(1).map(|s| self.def_at(s))
    }

    /// Counts each value's users, then places them (compressed rows).
    fn users_by_value(&self) -> Users {
        let values = self.params + self.block_of.len();
        let mut starts = vec![0u32; values + 1];
        for &d in &self.operand_defs {
            if let Some(c) = starts.get_mut(d as usize).filter(|_| d != 0) {
                *c += 1;
            }
        }
        for v in 0..values {
            starts[v + 1] += starts[v];
        }
        let mut fill = starts.clone();
        let mut users = vec![0u32; starts[values] as usize];
        for (i, w) in self.operand_starts.windows(2).enumerate() {
            for &d in self
                .operand_defs
                .get(w[0] as usize..w[1] as usize)
                .unwrap_or(&[])
            {
                if let Some(f) = d.checked_sub(1).and_then(|v| fill.get_mut(v as usize)) {
                    if let Some(u) = users.get_mut(*f as usize) {
                        *u = i as u32;
                    }
                    *f += 1;
                }
            }
        }
        Users { starts, users }
    }

    /// Instructions that use `def`, in order; one that uses the value
    /// twice appears twice.
    pub fn users(&self, def: Def) -> impl Iterator<Item = usize> + '_ {
        let v = match def {
            Def::Param(p) => p,
            Def::Inst(i) => self.params + i,
        };
        let rows = self.rows.get_or_init(|| self.users_by_value());
        let (a, b) = match (rows.starts.get(v), rows.starts.get(v + 1)) {
            (Some(a), Some(b)) => (*a as usize, *b as usize),
            _ => (0, 0),
        };
        rows.users
            .get(a..b)
            .unwrap_or(&[])
            .iter()
            .map(|u| *u as usize)
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
