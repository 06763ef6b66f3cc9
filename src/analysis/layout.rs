//! Byte sizes and offsets of IR types under AIR's data layout, to turn a
//! `getelementptr` into the byte offset `air.struct_type_info` speaks in.
//!
//! AIR's layout (`v96:128:128`, `v192:256:256`, ...) rounds vectors up to a
//! power of two, so `<3 x float>` takes 16 bytes, as in MSL.

use crate::ir::{Type, TypeId, TypeTable, Value};

const MAX_DEPTH: u32 = 32;

/// Size and alignment in bytes, `None` for unsized or unknown types.
pub fn size_align(types: &TypeTable<'_>, ty: TypeId) -> Option<(u64, u64)> {
    size_align_at(types, ty, 0)
}

fn size_align_at(types: &TypeTable<'_>, ty: TypeId, depth: u32) -> Option<(u64, u64)> {
    if depth > MAX_DEPTH {
        return None;
    }
    // Checked: array lengths go up to 2^64-1.
    let pow2 = |bytes: u64| bytes.max(1).checked_next_power_of_two();
    Some(match types.get(types.resolve(ty)) {
        Type::Int(bits) => {
            let b = pow2((*bits as u64).div_ceil(8))?;
            (b, b)
        }
        Type::Half | Type::BFloat => (2, 2),
        Type::Float => (4, 4),
        Type::Double => (8, 8),
        Type::Ptr { .. } => (8, 8),
        Type::Vector { len, elem, .. } => {
            let (e, _) = size_align_at(types, *elem, depth + 1)?;
            let s = pow2(e.checked_mul(*len)?)?;
            (s, s)
        }
        Type::Array { len, elem } => {
            let (e, a) = size_align_at(types, *elem, depth + 1)?;
            (e.checked_mul(*len)?, a)
        }
        Type::Struct { fields, packed } => {
            let mut offset: u64 = 0;
            let mut align = 1;
            for f in fields {
                let (s, a) = size_align_at(types, *f, depth + 1)?;
                let a = if *packed { 1 } else { a };
                offset = offset.div_ceil(a).checked_mul(a)?.checked_add(s)?;
                align = align.max(a);
            }
            (offset.div_ceil(align).checked_mul(align)?, align)
        }
        _ => return None,
    })
}

/// Byte offset of struct field `index`.
pub fn field_offset(types: &TypeTable<'_>, ty: TypeId, index: u64) -> Option<u64> {
    field_offset_with(types, &mut Sizes::default(), ty, index)
}

/// `size_align` of each type asked, by `TypeId`: a GEP's offset needs the
/// size of its struct and of every field before the one it reaches, and a
/// module's loads ask about the same few argument structs again and again
/// (each a walk of all its fields, recursively, without it).
#[derive(Default)]
pub struct Sizes(Vec<Option<Option<(u64, u64)>>>);

impl Sizes {
    pub fn size_align(&mut self, types: &TypeTable<'_>, ty: TypeId) -> Option<(u64, u64)> {
        let k = ty.0 as usize;
        if let Some(Some(known)) = self.0.get(k) {
            return *known;
        }
        let r = size_align(types, ty);
        // Only the table's own ids are kept (it bounds the memo's length).
        if k < types.len() {
            if self.0.len() <= k {
                self.0.resize(k + 1, None);
            }
            self.0[k] = Some(r);
        }
        r
    }
}

/// `field_offset` with the fields' sizes from `sizes`.
fn field_offset_with(
    types: &TypeTable<'_>,
    sizes: &mut Sizes,
    ty: TypeId,
    index: u64,
) -> Option<u64> {
    let Type::Struct { fields, packed } = types.get(types.resolve(ty)) else {
        return None;
    };
    let mut offset: u64 = 0;
    for (i, f) in fields.iter().enumerate() {
        let (s, a) = sizes.size_align(types, *f)?;
        let a = if *packed { 1 } else { a };
        offset = offset.div_ceil(a).checked_mul(a)?;
        if i as u64 == index {
            return Some(offset);
        }
        offset = offset.checked_add(s)?;
    }
    None
}

/// The byte offset a GEP with source element type `source` and `indices`
/// reaches. A non-constant array index counts as 0, so the offset still
/// lands in the right struct field; `exact` says whether that happened.
pub struct GepOffset {
    pub offset: u64,
    pub exact: bool,
}

pub fn gep_offset(
    types: &TypeTable<'_>,
    sizes: &mut Sizes,
    source: TypeId,
    indices: &[&Value<'_>],
) -> Option<GepOffset> {
    let mut exact = true;
    let mut offset: u64 = 0;
    let mut ty = source;
    for (n, idx) in indices.iter().enumerate() {
        let constant = match idx {
            Value::Int(v) => Some(*v),
            Value::ZeroInitializer | Value::Null => Some(0),
            _ => None,
        };
        if n == 0 {
            let (size, _) = sizes.size_align(types, ty)?;
            match constant {
                Some(c) => offset = offset.wrapping_add((c as u64).wrapping_mul(size)),
                None => exact = false,
            }
            continue;
        }
        match types.get(types.resolve(ty)) {
            Type::Struct { .. } => {
                let c = constant? as u64;
                offset = offset.wrapping_add(field_offset_with(types, sizes, ty, c)?);
                ty = types.member(ty, c)?;
            }
            Type::Array { elem, .. } | Type::Vector { elem, .. } => {
                let elem = *elem;
                let (size, _) = sizes.size_align(types, elem)?;
                match constant {
                    Some(c) => offset = offset.wrapping_add((c as u64).wrapping_mul(size)),
                    None => exact = false,
                }
                ty = elem;
            }
            _ => return None,
        }
    }
    Some(GepOffset { offset, exact })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::read_module;

    #[test]
    fn struct_offsets_follow_c_layout() {
        let m = read_module("%S = type { i32, i64, <3 x float>, [3 x i64], half }\n");
        let s = m.struct_types[0].body.unwrap();
        assert_eq!(field_offset(&m.types, s, 0), Some(0));
        assert_eq!(field_offset(&m.types, s, 1), Some(8));
        assert_eq!(field_offset(&m.types, s, 2), Some(16));
        assert_eq!(field_offset(&m.types, s, 3), Some(32));
        assert_eq!(field_offset(&m.types, s, 4), Some(56));
        assert_eq!(size_align(&m.types, s), Some((64, 16)));
    }
}
