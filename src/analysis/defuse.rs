//! Def-use chains of one function: where each local is defined, which
//! instructions use it, and which block each instruction sits in.

use crate::ir::{Body, Function, Value};
use rustc_hash::FxHashMap;

/// Where a local value comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Def {
    /// The function's parameter at this position.
    Param(usize),
    /// The instruction at this index of `Body::instructions`.
    Inst(usize),
}

/// Users are stored flat (compressed rows): one allocation per function
/// instead of one per value, which showed in profiles.
#[derive(Debug, Default)]
pub struct DefUse<'a> {
    defs: FxHashMap<&'a str, Def>,
    /// Users of value `v` are `users[starts[v]..starts[v + 1]]`, where
    /// parameters come first, then instructions.
    starts: Vec<u32>,
    users: Vec<u32>,
    params: usize,
    /// The block of each instruction.
    block_of: Vec<u32>,
}

impl<'a> DefUse<'a> {
    pub fn build(function: &Function<'a>, body: &Body<'a>) -> Self {
        let params = function.params.len();
        let n = body.instructions.len();
        let mut defs = FxHashMap::default();
        defs.reserve(params + n);
        for (i, p) in function.params.iter().enumerate() {
            if let Some(name) = p.name {
                defs.insert(name, Def::Param(i));
            }
        }
        for (i, inst) in body.instructions.iter().enumerate() {
            if let Some(name) = inst.result {
                defs.insert(name, Def::Inst(i));
            }
        }
        let mut block_of = vec![0u32; n];
        for (b, block) in body.blocks.iter().enumerate() {
            for i in block.instructions.clone() {
                if let Some(slot) = block_of.get_mut(i) {
                    *slot = b as u32;
                }
            }
        }
        let slot = |d: Def| match d {
            Def::Param(p) => p,
            Def::Inst(i) => params + i,
        };
        // Two passes: count each value's users, then place them.
        let each_use = |f: &mut dyn FnMut(usize, usize)| {
            for (i, inst) in body.instructions.iter().enumerate() {
                for op in &inst.operands {
                    if let Value::Local(name) = op.value
                        && let Some(d) = defs.get(name)
                    {
                        f(slot(*d), i);
                    }
                }
            }
        };
        let mut starts = vec![0u32; params + n + 1];
        each_use(&mut |v, _| starts[v + 1] += 1);
        for v in 0..params + n {
            starts[v + 1] += starts[v];
        }
        let mut fill = starts.clone();
        let mut users = vec![0u32; starts[params + n] as usize];
        each_use(&mut |v, i| {
            users[fill[v] as usize] = i as u32;
            fill[v] += 1;
        });
        DefUse {
            defs,
            starts,
            users,
            params,
            block_of,
        }
    }

    pub fn def(&self, name: &str) -> Option<Def> {
        self.defs.get(name).copied()
    }

    /// The definition of an operand value, when it is a local.
    pub fn def_of(&self, value: &Value<'_>) -> Option<Def> {
        match value {
            Value::Local(name) => self.def(name),
            _ => None,
        }
    }

    /// Instructions that use `def`, in order; one that uses the value
    /// twice appears twice.
    pub fn users(&self, def: Def) -> impl Iterator<Item = usize> + '_ {
        let v = match def {
            Def::Param(p) => p,
            Def::Inst(i) => self.params + i,
        };
        let (a, b) = match (self.starts.get(v), self.starts.get(v + 1)) {
            (Some(a), Some(b)) => (*a as usize, *b as usize),
            _ => (0, 0),
        };
        self.users
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
    }
}
