//! The bitcode's type table (TYPE_BLOCK_ID_NEW), printed as LLVM prints
//! types in the typed-pointer era (`float addrspace(1)*`).

use rustc_hash::FxHashMap;

/// Index into [`Types`].
pub type TypeId = u32;

/// Deepest nesting of anonymous types accepted (named structs restart the
/// count: they print by name). LLVM's own types nest a handful deep.
pub const MAX_TYPE_DEPTH: u32 = 64;

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Ty {
    Void,
    Half,
    BFloat,
    Float,
    Double,
    X86Fp80,
    Fp128,
    PpcFp128,
    Label,
    Metadata,
    Token,
    X86Mmx,
    Int(u32),
    /// Typed (`pointee`) or opaque (`None`) pointer.
    Ptr {
        pointee: Option<TypeId>,
        addrspace: u32,
    },
    Array(u64, TypeId),
    Vector {
        len: u32,
        elem: TypeId,
        scalable: bool,
    },
    Struct {
        /// `None` for a literal struct; `Some("")` for an identified struct
        /// without a name (printed `%N`).
        name: Option<String>,
        packed: bool,
        elems: Vec<TypeId>,
        opaque: bool,
    },
    Function {
        vararg: bool,
        ret: TypeId,
        params: Vec<TypeId>,
    },
}

#[derive(Debug, Default)]
pub struct Types {
    pub list: Vec<Ty>,
    depth: Vec<u32>,
    pointers: FxHashMap<(TypeId, u32), TypeId>,
    /// Print names of identified structs without a name: their `%N`.
    unnamed: FxHashMap<TypeId, u32>,
    placeholders: usize,
    /// [`Types::find_int`]'s answers: a type, once in the list, never
    /// changes (placeholder structs are replaced, see `push_at`), so the first
    /// `iN` stays the first. Searching the list each time was ~2% of a
    /// scan of mlx.metallib (every `br i1` and compare asks).
    ints: FxHashMap<u32, TypeId>,
}

impl Types {
    /// Empties the table, keeping its vectors' room.
    pub fn clear(&mut self) {
        self.list.clear();
        self.depth.clear();
        self.pointers.clear();
        self.unnamed.clear();
        self.placeholders = 0;
        self.ints.clear();
    }

    pub fn get(&self, id: TypeId) -> Option<&Ty> {
        self.list.get(id as usize)
    }

    pub fn len(&self) -> usize {
        self.list.len()
    }

    pub fn is_empty(&self) -> bool {
        self.list.is_empty()
    }

    /// Makes room for a type referred to before it is defined: only an
    /// identified struct may be (LLVM's rule too). Slots up to `id` are
    /// held by placeholders that [`Types::push`] replaces in order.
    pub fn forward(&mut self, id: TypeId, limit: usize) -> Result<(), String> {
        if id as usize >= limit {
            return Err(format!("type {id} out of range (the table has {limit})"));
        }
        while self.list.len() <= id as usize {
            self.placeholders += 1;
            self.list.push(Ty::Struct {
                name: Some(String::new()),
                packed: false,
                elems: Vec::new(),
                opaque: true,
            });
            self.depth.push(1);
        }
        Ok(())
    }

    /// Adds the next type of the table (`defined` so far); `Err` with a
    /// reason when it refers to types not yet defined (other than
    /// identified structs) or nests too deep.
    pub fn push_at(&mut self, defined: usize, ty: Ty) -> Result<TypeId, String> {
        if defined < self.list.len() {
            let is_struct = matches!(ty, Ty::Struct { name: Some(_), .. });
            if !is_struct {
                return Err(format!(
                    "type {defined} was used as a struct before it was defined"
                ));
            }
            self.list[defined] = ty;
            // Only a hostile second table replaces anything but a
            // placeholder; forget answers that may point at it.
            self.ints.clear();
            return Ok(defined as TypeId);
        }
        self.push(ty)
    }

    /// Adds a type; `Err` with a reason when it refers to types not yet
    /// defined or nests too deep.
    pub fn push(&mut self, ty: Ty) -> Result<TypeId, String> {
        let depth = self.depth_of(&ty)?;
        let id = self.list.len() as TypeId;
        if let Ty::Ptr {
            pointee: Some(p),
            addrspace,
        } = ty
        {
            self.pointers.entry((p, addrspace)).or_insert(id);
        }
        if matches!(&ty, Ty::Struct { name: Some(n), .. } if n.is_empty()) {
            let n = self.unnamed.len() as u32;
            self.unnamed.insert(id, n);
        }
        self.list.push(ty);
        self.depth.push(depth);
        Ok(id)
    }

    fn depth_of(&self, ty: &Ty) -> Result<u32, String> {
        if matches!(ty, Ty::Struct { name: Some(_), .. }) {
            return Ok(1);
        }
        let mut deepest = 0;
        let mut check = |t: TypeId| -> Result<(), String> {
            match self.depth.get(t as usize) {
                Some(&d) => {
                    deepest = deepest.max(d);
                    Ok(())
                }
                None => Err(format!("type {t} used before it is defined")),
            }
        };
        match ty {
            Ty::Ptr {
                pointee: Some(p), ..
            } => check(*p)?,
            Ty::Array(_, e) | Ty::Vector { elem: e, .. } => check(*e)?,
            Ty::Struct { elems, .. } => elems.iter().try_for_each(|&e| check(e))?,
            Ty::Function { ret, params, .. } => {
                check(*ret)?;
                params.iter().try_for_each(|&p| check(p))?
            }
            _ => {}
        }
        if deepest >= MAX_TYPE_DEPTH {
            return Err(format!("types nested more than {MAX_TYPE_DEPTH} deep"));
        }
        Ok(deepest + 1)
    }

    /// The pointer to `pointee` in `addrspace`, added when new.
    pub fn pointer_to(&mut self, pointee: TypeId, addrspace: u32) -> TypeId {
        if let Some(&id) = self.pointers.get(&(pointee, addrspace)) {
            return id;
        }
        let id = self.list.len() as TypeId;
        self.list.push(Ty::Ptr {
            pointee: Some(pointee),
            addrspace,
        });
        let d = self.depth.get(pointee as usize).copied().unwrap_or(0);
        self.depth.push(d.saturating_add(1));
        self.pointers.insert((pointee, addrspace), id);
        id
    }

    /// `<len x elem>`, added when new.
    pub fn vector_of(&mut self, len: u32, elem: TypeId) -> TypeId {
        let ty = Ty::Vector {
            len,
            elem,
            scalable: false,
        };
        if let Some(i) = self.list.iter().position(|t| *t == ty) {
            return i as TypeId;
        }
        let id = self.list.len() as TypeId;
        self.list.push(ty);
        let d = self.depth.get(elem as usize).copied().unwrap_or(0);
        self.depth.push(d.saturating_add(1));
        id
    }

    pub fn find_int(&mut self, width: u32) -> TypeId {
        if let Some(&id) = self.ints.get(&width) {
            return id;
        }
        let id = match self.list.iter().position(|t| *t == Ty::Int(width)) {
            Some(i) => i as TypeId,
            None => {
                self.list.push(Ty::Int(width));
                self.depth.push(1);
                (self.list.len() - 1) as TypeId
            }
        };
        self.ints.insert(width, id);
        id
    }

    pub fn is_fp(&self, id: TypeId) -> bool {
        match self.get(id) {
            Some(
                Ty::Half
                | Ty::BFloat
                | Ty::Float
                | Ty::Double
                | Ty::X86Fp80
                | Ty::Fp128
                | Ty::PpcFp128,
            ) => true,
            Some(Ty::Vector { elem, .. }) => self.is_fp(*elem),
            _ => false,
        }
    }

    /// The element type of a vector, the pointee of a typed pointer, or
    /// the type itself.
    pub fn scalar(&self, id: TypeId) -> TypeId {
        match self.get(id) {
            Some(Ty::Vector { elem, .. }) => *elem,
            _ => id,
        }
    }

    pub fn pointee(&self, id: TypeId) -> Option<TypeId> {
        match self.get(self.scalar(id)) {
            Some(Ty::Ptr { pointee, .. }) => *pointee,
            _ => None,
        }
    }

    pub fn addrspace(&self, id: TypeId) -> u32 {
        match self.get(self.scalar(id)) {
            Some(Ty::Ptr { addrspace, .. }) => *addrspace,
            _ => 0,
        }
    }

    /// The `index`th element type of a struct, array or vector.
    pub fn element(&self, agg: TypeId, index: u64) -> Option<TypeId> {
        match self.get(agg)? {
            Ty::Struct { elems, .. } => elems.get(usize::try_from(index).ok()?).copied(),
            Ty::Array(_, e) => Some(*e),
            Ty::Vector { elem, .. } => Some(*elem),
            _ => None,
        }
    }

    pub fn is_label(&self, id: TypeId) -> bool {
        matches!(self.get(id), Some(Ty::Label))
    }

    pub fn is_void(&self, id: TypeId) -> bool {
        matches!(self.get(id), Some(Ty::Void))
    }

    pub fn is_metadata(&self, id: TypeId) -> bool {
        matches!(self.get(id), Some(Ty::Metadata))
    }

    /// Identified structs in table order: `%name = type {...}` lines.
    pub fn identified(&self) -> impl Iterator<Item = TypeId> + '_ {
        self.list
            .iter()
            .enumerate()
            .filter(|(_, t)| matches!(t, Ty::Struct { name: Some(_), .. }))
            .map(|(i, _)| i as TypeId)
    }

    /// Writes a type as LLVM prints it.
    pub fn write(&self, out: &mut String, id: TypeId) {
        match self.get(id) {
            None => out.push_str("<bad type>"),
            Some(ty) => match ty {
                Ty::Void => out.push_str("void"),
                Ty::Half => out.push_str("half"),
                Ty::BFloat => out.push_str("bfloat"),
                Ty::Float => out.push_str("float"),
                Ty::Double => out.push_str("double"),
                Ty::X86Fp80 => out.push_str("x86_fp80"),
                Ty::Fp128 => out.push_str("fp128"),
                Ty::PpcFp128 => out.push_str("ppc_fp128"),
                Ty::Label => out.push_str("label"),
                Ty::Metadata => out.push_str("metadata"),
                Ty::Token => out.push_str("token"),
                Ty::X86Mmx => out.push_str("x86_mmx"),
                Ty::Int(w) => {
                    out.push('i');
                    super::print::push_int(out, *w);
                }
                Ty::Ptr { pointee, addrspace } => {
                    match pointee {
                        Some(p) => self.write(out, *p),
                        None => out.push_str("ptr"),
                    }
                    if *addrspace != 0 {
                        out.push_str(" addrspace(");
                        super::print::push_int(out, *addrspace);
                        out.push(')');
                    }
                    if pointee.is_some() {
                        out.push('*');
                    }
                }
                Ty::Array(n, e) => {
                    out.push('[');
                    super::print::push_int(out, *n);
                    out.push_str(" x ");
                    self.write(out, *e);
                    out.push(']');
                }
                Ty::Vector {
                    len,
                    elem,
                    scalable,
                } => {
                    out.push('<');
                    if *scalable {
                        out.push_str("vscale x ");
                    }
                    super::print::push_int(out, *len);
                    out.push_str(" x ");
                    self.write(out, *elem);
                    out.push('>');
                }
                Ty::Struct { name: Some(n), .. } => {
                    if n.is_empty() {
                        let k = self.unnamed.get(&id).copied().unwrap_or(0);
                        out.push('%');
                        super::print::push_int(out, k);
                    } else {
                        out.push('%');
                        super::print::write_name(out, n.as_bytes());
                    }
                }
                Ty::Struct { name: None, .. } => self.write_body(out, id),
                Ty::Function {
                    vararg,
                    ret,
                    params,
                } => {
                    self.write(out, *ret);
                    out.push_str(" (");
                    for (i, p) in params.iter().enumerate() {
                        if i > 0 {
                            out.push_str(", ");
                        }
                        self.write(out, *p);
                    }
                    if *vararg {
                        out.push_str(if params.is_empty() { "..." } else { ", ..." });
                    }
                    out.push(')');
                }
            },
        }
    }

    /// A struct's body: `{ i32, float }`, `<{ i8 }>` or `opaque`.
    pub fn write_body(&self, out: &mut String, id: TypeId) {
        let Some(Ty::Struct {
            packed,
            elems,
            opaque,
            ..
        }) = self.get(id)
        else {
            return self.write(out, id);
        };
        if *opaque {
            out.push_str("opaque");
            return;
        }
        if *packed {
            out.push('<');
        }
        if elems.is_empty() {
            out.push_str("{}");
        } else {
            out.push_str("{ ");
            for (i, e) in elems.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                self.write(out, *e);
            }
            out.push_str(" }");
        }
        if *packed {
            out.push('>');
        }
    }

    pub fn text(&self, id: TypeId) -> String {
        let mut s = String::new();
        self.write(&mut s, id);
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prints_typed_pointers_vectors_and_structs() {
        let mut t = Types::default();
        let f = t.push(Ty::Float).unwrap();
        let p = t
            .push(Ty::Ptr {
                pointee: Some(f),
                addrspace: 1,
            })
            .unwrap();
        let v = t.vector_of(4, f);
        let s = t
            .push(Ty::Struct {
                name: Some("struct.mlx::Params".into()),
                packed: false,
                elems: vec![f, v],
                opaque: false,
            })
            .unwrap();
        assert_eq!(t.text(p), "float addrspace(1)*");
        assert_eq!(t.text(v), "<4 x float>");
        assert_eq!(t.text(s), "%\"struct.mlx::Params\"");
        let mut body = String::new();
        t.write_body(&mut body, s);
        assert_eq!(body, "{ float, <4 x float> }");
        assert_eq!(t.pointer_to(f, 1), p);
        assert!(t.push(Ty::Array(2, 99)).is_err());
    }

    #[test]
    fn refuses_deep_nesting() {
        let mut t = Types::default();
        let mut id = t.push(Ty::Int(8)).unwrap();
        let mut refused = false;
        for _ in 0..100 {
            match t.push(Ty::Ptr {
                pointee: Some(id),
                addrspace: 0,
            }) {
                Ok(i) => id = i,
                Err(_) => {
                    refused = true;
                    break;
                }
            }
        }
        assert!(refused);
    }
}
