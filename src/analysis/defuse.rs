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

#[derive(Debug, Default)]
pub struct DefUse<'a> {
    defs: FxHashMap<&'a str, Def>,
    /// Users of each instruction's result, by instruction index.
    inst_users: Vec<Vec<usize>>,
    /// Users of each parameter.
    param_users: Vec<Vec<usize>>,
    /// The block of each instruction.
    block_of: Vec<usize>,
}

impl<'a> DefUse<'a> {
    pub fn build(function: &Function<'a>, body: &Body<'a>) -> Self {
        let mut du = DefUse {
            defs: FxHashMap::default(),
            inst_users: vec![Vec::new(); body.instructions.len()],
            param_users: vec![Vec::new(); function.params.len()],
            block_of: vec![0; body.instructions.len()],
        };
        for (i, p) in function.params.iter().enumerate() {
            if let Some(name) = p.name {
                du.defs.insert(name, Def::Param(i));
            }
        }
        for (b, block) in body.blocks.iter().enumerate() {
            for i in block.instructions.clone() {
                if let Some(slot) = du.block_of.get_mut(i) {
                    *slot = b;
                }
            }
        }
        for (i, inst) in body.instructions.iter().enumerate() {
            if let Some(name) = inst.result {
                du.defs.insert(name, Def::Inst(i));
            }
        }
        for (i, inst) in body.instructions.iter().enumerate() {
            for op in &inst.operands {
                if let Value::Local(name) = op.value {
                    match du.defs.get(name) {
                        Some(Def::Inst(d)) => du.inst_users[*d].push(i),
                        Some(Def::Param(p)) => du.param_users[*p].push(i),
                        None => {}
                    }
                }
            }
        }
        for users in du.inst_users.iter_mut().chain(du.param_users.iter_mut()) {
            users.dedup();
        }
        du
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

    pub fn users(&self, def: Def) -> &[usize] {
        match def {
            Def::Inst(i) => self.inst_users.get(i).map_or(&[], |v| v.as_slice()),
            Def::Param(p) => self.param_users.get(p).map_or(&[], |v| v.as_slice()),
        }
    }

    pub fn block_of(&self, inst: usize) -> usize {
        self.block_of.get(inst).copied().unwrap_or(0)
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
        assert_eq!(du.users(Def::Param(0)), &[0, 2]);
        assert_eq!(du.users(Def::Inst(0)), &[2]);
        assert_eq!(du.users(Def::Inst(2)), &[3]);
        assert_eq!(du.block_of(0), 0);
        assert_eq!(du.block_of(2), 1);
    }
}
