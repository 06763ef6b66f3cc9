//! Interned IR types.
//!
//! Both pointer eras land in one representation: a typed `float addrspace(1)*`
//! and an opaque `ptr addrspace(1)` are both `Type::Ptr { addrspace: 1 }`; the
//! typed era's pointee is kept on the side for tools that want it, but nothing
//! downstream may depend on it, because the opaque twin of a module has none.

use rustc_hash::FxHashMap as HashMap;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct TypeId(pub u32);

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Type<'a> {
    Void,
    Int(u32),
    Half,
    BFloat,
    Float,
    Double,
    /// x86_fp80, fp128, ppc_fp128: kept by name.
    OtherFloat(&'a str),
    Label,
    Metadata,
    Token,
    /// A pointer; `pointee` is `Some` only in the typed-pointer era.
    Ptr {
        addrspace: u32,
        pointee: Option<TypeId>,
    },
    Vector {
        len: u64,
        elem: TypeId,
        scalable: bool,
    },
    Array {
        len: u64,
        elem: TypeId,
    },
    Struct {
        fields: Vec<TypeId>,
        packed: bool,
    },
    /// `%name`: a reference to a named struct type of the module.
    Named(&'a str),
    Function {
        ret: TypeId,
        params: Vec<TypeId>,
        vararg: bool,
    },
    /// `opaque` (a named struct's body) or `target("...")`: no layout known.
    Opaque(&'a str),
}

/// All the types of one module, each stored once.
#[derive(Debug)]
pub struct TypeTable<'a> {
    types: Vec<Type<'a>>,
    index: HashMap<Type<'a>, TypeId>,
    named_bodies: HashMap<&'a str, TypeId>,
    /// `ptr addrspace(N)` for the address spaces AIR uses, to skip hashing.
    opaque_ptrs: [TypeId; 8],
    /// Typed pointers `T addrspace(N)*` for those address spaces, indexed
    /// by the pointee's id (`VOID` when not interned yet): typed-pointer IR
    /// names one on nearly every line, and hashing them was ~3% of reading.
    /// Without both caches a whole scan executes 1.6% (typed-12MB) / 1.3%
    /// (the corpus module) more instructions (callgrind).
    typed_ptrs: Vec<[TypeId; 8]>,
    /// The named struct type last asked for: typed-pointer IR names the
    /// same one two or three times a line (`getelementptr %T, %T* %p`).
    last_named: Option<(&'a str, TypeId)>,
    /// Vectors and arrays lately interned, by length and element
    /// (`sequence`). Without this and `last_named` a whole scan executes
    /// 1.04% (typed-12MB) / 0.61% (the corpus module) more instructions
    /// (callgrind): a few lines, kept.
    sequences: [Sequence; 16],
}

/// A `sequences` slot: vector or array, length, element, id (`VOID` when
/// empty).
type Sequence = (bool, u64, TypeId, TypeId);

impl Default for TypeTable<'_> {
    fn default() -> Self {
        Self::new()
    }
}

impl<'a> TypeTable<'a> {
    /// True when some type is a typed pointer (`float addrspace(1)*`): the
    /// module is of the typed-pointer era.
    pub fn has_typed_pointer(&self) -> bool {
        self.types.iter().any(|t| {
            matches!(
                t,
                Type::Ptr {
                    pointee: Some(_),
                    ..
                }
            )
        })
    }

    pub const VOID: TypeId = TypeId(0);
    pub const I1: TypeId = TypeId(1);
    pub const I8: TypeId = TypeId(2);
    pub const I16: TypeId = TypeId(3);
    pub const I32: TypeId = TypeId(4);
    pub const I64: TypeId = TypeId(5);
    pub const HALF: TypeId = TypeId(6);
    pub const FLOAT: TypeId = TypeId(7);
    pub const DOUBLE: TypeId = TypeId(8);
    pub const LABEL: TypeId = TypeId(9);
    pub const METADATA: TypeId = TypeId(10);
    pub const PTR: TypeId = TypeId(11);

    pub fn new() -> Self {
        // Room for a typical module's types: growing from empty rehashed
        // the table several times per module, ~2% of reading the corpus.
        let mut t = TypeTable {
            types: Vec::with_capacity(64),
            index: HashMap::with_capacity_and_hasher(64, Default::default()),
            named_bodies: HashMap::default(),
            opaque_ptrs: [Self::VOID; 8],
            typed_ptrs: Vec::new(),
            last_named: None,
            sequences: [(false, 0, Self::VOID, Self::VOID); 16],
        };
        for ty in [
            Type::Void,
            Type::Int(1),
            Type::Int(8),
            Type::Int(16),
            Type::Int(32),
            Type::Int(64),
            Type::Half,
            Type::Float,
            Type::Double,
            Type::Label,
            Type::Metadata,
            Type::Ptr {
                addrspace: 0,
                pointee: None,
            },
        ] {
            t.intern(ty);
        }
        t
    }

    pub fn intern(&mut self, ty: Type<'a>) -> TypeId {
        if let Some(id) = self.index.get(&ty) {
            return *id;
        }
        let id = TypeId(self.types.len() as u32);
        self.types.push(ty.clone());
        self.index.insert(ty, id);
        id
    }

    /// The interned id of `<len x elem>` (`vector`, not scalable) or
    /// `[len x elem]`, found in a small cache first: a body names the
    /// same few on many lines, and hashing each cost ~100 instructions.
    pub fn sequence(&mut self, vector: bool, len: u64, elem: TypeId) -> TypeId {
        let slot = (len as usize)
            .wrapping_mul(7)
            .wrapping_add(elem.0 as usize * 2 + usize::from(vector))
            % 16;
        if let Some(&(v, l, e, id)) = self.sequences.get(slot)
            && id != Self::VOID
            && (v, l, e) == (vector, len, elem)
        {
            return id;
        }
        let id = self.intern(match vector {
            true => Type::Vector {
                len,
                elem,
                scalable: false,
            },
            false => Type::Array { len, elem },
        });
        if let Some(cached) = self.sequences.get_mut(slot) {
            *cached = (vector, len, elem, id);
        }
        id
    }

    /// The interned id of `%name`.
    pub fn named(&mut self, name: &'a str) -> TypeId {
        if let Some((last, id)) = self.last_named
            && last == name
        {
            return id;
        }
        let id = self.intern(Type::Named(name));
        self.last_named = Some((name, id));
        id
    }

    /// The interned id of `iN`, with a fast path for the common widths.
    pub fn int(&mut self, bits: u32) -> TypeId {
        match bits {
            1 => Self::I1,
            8 => Self::I8,
            16 => Self::I16,
            32 => Self::I32,
            64 => Self::I64,
            _ => self.intern(Type::Int(bits)),
        }
    }

    pub fn ptr(&mut self, addrspace: u32, pointee: Option<TypeId>) -> TypeId {
        let a = addrspace as usize;
        if a >= self.opaque_ptrs.len() {
            return self.intern(Type::Ptr { addrspace, pointee });
        }
        let cached = match pointee {
            None => self.opaque_ptrs[a],
            Some(p) => self
                .typed_ptrs
                .get(p.0 as usize)
                .map_or(Self::VOID, |slots| slots[a]),
        };
        if cached != Self::VOID {
            return cached;
        }
        let id = self.intern(Type::Ptr { addrspace, pointee });
        self.set_ptr_slot(a, pointee, id);
        id
    }

    /// Caches pointer type `id` for `ptr`; `a` is below 8.
    #[cold]
    fn set_ptr_slot(&mut self, a: usize, pointee: Option<TypeId>, id: TypeId) {
        match pointee {
            None => self.opaque_ptrs[a] = id,
            Some(p) => {
                let p = p.0 as usize;
                if p >= self.typed_ptrs.len() {
                    self.typed_ptrs.resize(p + 1, [Self::VOID; 8]);
                }
                self.typed_ptrs[p][a] = id;
            }
        }
    }

    /// `iN` from the digits after `i`: `None` unless 0 < N <= 2^23 (the
    /// digits may have leading zeros, as `str::parse` takes them).
    pub fn int_from_digits(&mut self, digits: &[u8]) -> Option<TypeId> {
        match digits {
            b"32" => return Some(Self::I32),
            b"64" => return Some(Self::I64),
            b"8" => return Some(Self::I8),
            b"1" => return Some(Self::I1),
            b"16" => return Some(Self::I16),
            _ => {}
        }
        let mut bits: u32 = 0;
        for &d in digits {
            if !d.is_ascii_digit() {
                return None;
            }
            bits = bits * 10 + u32::from(d - b'0');
            if bits > (1 << 23) {
                return None;
            }
        }
        if bits == 0 {
            return None;
        }
        Some(self.int(bits))
    }

    /// Records the body of named struct `%name`.
    pub fn set_named_body(&mut self, name: &'a str, body: TypeId) {
        self.named_bodies.insert(name, body);
    }

    /// Follows a `%name` reference to its body (other types are returned as is).
    pub fn resolve(&self, id: TypeId) -> TypeId {
        match self.get(id) {
            Type::Named(n) => self.named_bodies.get(n).copied().unwrap_or(id),
            _ => id,
        }
    }

    /// The type at `index` inside an aggregate (struct field, array or vector element).
    pub fn member(&self, id: TypeId, index: u64) -> Option<TypeId> {
        match self.get(self.resolve(id)) {
            Type::Struct { fields, .. } => fields.get(index as usize).copied(),
            Type::Array { elem, .. } | Type::Vector { elem, .. } => Some(*elem),
            _ => None,
        }
    }

    pub fn get(&self, id: TypeId) -> &Type<'a> {
        self.types.get(id.0 as usize).unwrap_or(&Type::Void)
    }

    pub fn len(&self) -> usize {
        self.types.len()
    }

    pub fn is_empty(&self) -> bool {
        self.types.is_empty()
    }

    /// Element type of a vector or array, or the type itself for a scalar.
    pub fn scalar_of(&self, id: TypeId) -> TypeId {
        match self.get(id) {
            Type::Vector { elem, .. } | Type::Array { elem, .. } => *elem,
            _ => id,
        }
    }

    /// Bit width of an integer type or of a vector of integers.
    pub fn int_bits(&self, id: TypeId) -> Option<u32> {
        match self.get(self.scalar_of(id)) {
            Type::Int(b) => Some(*b),
            _ => None,
        }
    }

    pub fn is_vector(&self, id: TypeId) -> bool {
        matches!(self.get(id), Type::Vector { .. })
    }

    pub fn addrspace(&self, id: TypeId) -> Option<u32> {
        match self.get(self.scalar_of(id)) {
            Type::Ptr { addrspace, .. } => Some(*addrspace),
            _ => None,
        }
    }

    /// The type as LLVM prints it in the opaque-pointer era, so that both
    /// eras of the same module print the same.
    pub fn display(&self, id: TypeId) -> String {
        let mut out = String::new();
        self.write(id, &mut out, 0);
        out
    }

    fn write(&self, id: TypeId, out: &mut String, depth: u32) {
        use std::fmt::Write;
        if depth > 64 {
            out.push_str("...");
            return;
        }
        match self.get(id) {
            Type::Void => out.push_str("void"),
            Type::Int(b) => {
                let _ = write!(out, "i{b}");
            }
            Type::Half => out.push_str("half"),
            Type::BFloat => out.push_str("bfloat"),
            Type::Float => out.push_str("float"),
            Type::Double => out.push_str("double"),
            Type::OtherFloat(s) | Type::Opaque(s) => out.push_str(s),
            Type::Label => out.push_str("label"),
            Type::Metadata => out.push_str("metadata"),
            Type::Token => out.push_str("token"),
            Type::Ptr { addrspace: 0, .. } => out.push_str("ptr"),
            Type::Ptr { addrspace, .. } => {
                let _ = write!(out, "ptr addrspace({addrspace})");
            }
            Type::Vector {
                len,
                elem,
                scalable,
            } => {
                out.push('<');
                if *scalable {
                    out.push_str("vscale x ");
                }
                let _ = write!(out, "{len} x ");
                self.write(*elem, out, depth + 1);
                out.push('>');
            }
            Type::Array { len, elem } => {
                let _ = write!(out, "[{len} x ");
                self.write(*elem, out, depth + 1);
                out.push(']');
            }
            Type::Struct { fields, packed } => {
                out.push_str(if *packed { "<{ " } else { "{ " });
                for (i, f) in fields.iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    self.write(*f, out, depth + 1);
                }
                out.push_str(if *packed { " }>" } else { " }" });
            }
            Type::Named(n) => {
                out.push('%');
                out.push_str(n);
            }
            Type::Function {
                ret,
                params,
                vararg,
            } => {
                self.write(*ret, out, depth + 1);
                out.push_str(" (");
                for (i, p) in params.iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    self.write(*p, out, depth + 1);
                }
                if *vararg {
                    out.push_str(if params.is_empty() { "..." } else { ", ..." });
                }
                out.push(')');
            }
        }
    }
}
