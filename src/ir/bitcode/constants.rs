//! CONSTANTS_BLOCK: each record but SETTYPE adds one value of the current
//! type to the value list (absolute value ids; forward references to later
//! constants are allowed and resolved by the printer, which looks values
//! up by id).

use super::Error;
use super::bitstream::Reader;
use super::module::{Const, Module, Value, bad};
use super::types::Ty;

/// Reads one constants block into `m.values` (in a body, its constants
/// follow its arguments).
pub fn block(m: &mut Module<'_>, r: &mut Reader<'_>) -> Result<(), Error> {
    let mut ops = r.ops();
    let mut ty = None;
    while let Some(rec) = r.next_record(&mut ops)? {
        if rec.code == 1 {
            ty = Some(m.type_id(r, ops.first().copied().unwrap_or(u64::MAX))?);
            continue;
        }
        let Some(t) = ty else {
            return Err(r.error("a constant before any SETTYPE"));
        };
        let id = |v: u64| u32::try_from(v).map_err(|_| bad(r, "constant"));
        let c = match rec.code {
            2 => Const::Null,
            3 => Const::Undef,
            26 => Const::Poison,
            4 => Const::Int(decode_signed(
                *ops.first().ok_or_else(|| bad(r, "integer"))?,
            )),
            5 => {
                if ops.is_empty() || ops.len() > 64 {
                    return Err(bad(r, "wide integer"));
                }
                Const::Wide(ops.iter().map(|&w| decode_signed(w) as u64).collect())
            }
            6 => Const::Float(*ops.first().ok_or_else(|| bad(r, "float"))?),
            7 => Const::Aggregate(ops.iter().map(|&v| id(v)).collect::<Result<_, _>>()?),
            8 | 9 => {
                let mut bytes: Vec<u8> = ops.iter().map(|&c| c as u8).collect();
                if rec.code == 9 {
                    bytes.push(0);
                }
                Const::Bytes(bytes)
            }
            22 => {
                let elem = m.types.scalar(match m.types.get(t) {
                    Some(Ty::Array(_, e)) => *e,
                    _ => t,
                });
                if matches!(m.types.get(elem), Some(Ty::Int(8)))
                    && matches!(m.types.get(t), Some(Ty::Array(..)))
                {
                    Const::Bytes(ops.iter().map(|&c| c as u8).collect())
                } else {
                    Const::Data(ops.clone())
                }
            }
            10 => {
                if ops.len() < 3 {
                    return Err(bad(r, "constant expression"));
                }
                Const::Binop {
                    op: ops[0] as u8,
                    lhs: id(ops[1])?,
                    rhs: id(ops[2])?,
                    flags: ops.get(3).copied().unwrap_or(0),
                }
            }
            11 => {
                // [opcode, operand type, operand]
                if ops.len() < 3 {
                    return Err(bad(r, "cast expression"));
                }
                Const::Cast {
                    op: ops[0] as u8,
                    value: id(ops[2])?,
                }
            }
            12 | 20 | 24 | 32 => gep(m, r, &ops, rec.code)?,
            13 => {
                if ops.len() < 3 {
                    return Err(bad(r, "select expression"));
                }
                Const::Select(id(ops[0])?, id(ops[1])?, id(ops[2])?)
            }
            14 => {
                // [vector type, vector, index type, index]
                if ops.len() < 4 {
                    return Err(bad(r, "extractelement expression"));
                }
                Const::ExtractElement(id(ops[1])?, id(ops[3])?)
            }
            15 => {
                if ops.len() < 4 {
                    return Err(bad(r, "insertelement expression"));
                }
                Const::InsertElement(id(ops[0])?, id(ops[1])?, id(ops[3])?)
            }
            16 => {
                if ops.len() < 3 {
                    return Err(bad(r, "shufflevector expression"));
                }
                Const::ShuffleVector(id(ops[0])?, id(ops[1])?, id(ops[2])?)
            }
            17 => {
                // [operand type, lhs, rhs, predicate]
                if ops.len() < 4 {
                    return Err(bad(r, "compare expression"));
                }
                Const::Cmp {
                    lhs: id(ops[1])?,
                    rhs: id(ops[2])?,
                    pred: ops[3] as u8,
                }
            }
            21 => Const::BlockAddress,
            25 => {
                if ops.len() < 2 {
                    return Err(bad(r, "unary expression"));
                }
                Const::Unop(ops[0] as u8, id(ops[1])?)
            }
            c => return Err(r.error(format!("constant code {c} is not read natively"))),
        };
        m.values.push(Value::Const(c));
        m.value_types.push(t);
    }
    r.give_back(ops);
    Ok(())
}

/// CE_GEP (and the inbounds and inrange forms): [pointee type?, flags?,
/// (type, value)...] by LLVM's rule: an odd count starts with the source
/// element type.
fn gep(m: &Module<'_>, r: &Reader<'_>, ops: &[u64], code: u32) -> Result<Const, Error> {
    let mut i = 0;
    let with_type = matches!(code, 24 | 32) || ops.len() % 2 == 1;
    let source = if with_type {
        i += 1;
        let ty = ops
            .first()
            .ok_or_else(|| bad(r, "getelementptr expression"))?;
        Some(m.type_id(r, *ty)?)
    } else {
        None
    };
    let inbounds = match code {
        20 => true,
        24 | 32 => {
            let flags = ops.get(i).copied().unwrap_or(0);
            i += 1;
            flags & 1 != 0
        }
        _ => false,
    };
    let mut values = Vec::new();
    while i + 1 < ops.len() {
        values.push(u32::try_from(ops[i + 1]).map_err(|_| bad(r, "getelementptr expression"))?);
        i += 2;
    }
    if i != ops.len() || values.is_empty() {
        return Err(bad(r, "getelementptr expression"));
    }
    // Without a stated source type, the base pointer's pointee.
    let source = match source {
        Some(s) => s,
        None => {
            let base_ty = m.type_id(r, ops[i - 2 * values.len()])?;
            m.types
                .pointee(base_ty)
                .ok_or_else(|| bad(r, "getelementptr expression"))?
        }
    };
    Ok(Const::Gep {
        inbounds,
        source,
        ops: values,
    })
}

/// LLVM's sign-rotated encoding: the low bit is the sign.
pub fn decode_signed(v: u64) -> i64 {
    if v & 1 == 0 {
        (v >> 1) as i64
    } else if v != 1 {
        -((v >> 1) as i64)
    } else {
        i64::MIN
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Found by the `bitcode` fuzz target: an inbounds CE_GEP record (code
    /// 24) with no operands indexed its missing type.
    #[test]
    fn a_gep_expression_without_operands_is_refused() {
        let m = Module::default();
        let r = Reader::new(&[], 40);
        for code in [12, 20, 24, 32] {
            let e = gep(&m, &r, &[], code).unwrap_err();
            assert!(e.message.contains("getelementptr"), "{code}: {e}");
        }
    }
}
