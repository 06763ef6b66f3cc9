//! The AIR facts a report shows (entry points with their arguments,
//! function constants) as JSON text, written by hand field by field in the
//! order and layout serde gives them, at the depth the JSON report writes
//! them, so that writing the report is a copy.
//!
//! Why by hand: through serde each field cost ~200 instructions, and a
//! large module's entry points were a twentieth of a whole scan. Debug
//! builds (tests, fuzzing) compare every text with serde's.

use crate::compact_json::{CompactJson, Pretty};
use crate::ir;
use rustc_hash::FxHashMap;
use serde::Serialize;

/// An entry point as the report shows it: its JSON, kept as text (a
/// `serde_json::Value` per argument cost ~6 KB a kernel, and a large
/// module has thousands) laid out as the JSON report writes it, so that
/// writing it is a copy (re-indenting compact text was a twentieth of a
/// whole scan), plus the two facts summaries need. It is made once the
/// module is gone, past the scan's peak of memory.
#[derive(Debug, Clone, Serialize)]
#[serde(transparent)]
pub struct EntryJson {
    json: CompactJson,
    #[serde(skip)]
    pub name: String,
    #[serde(skip)]
    pub stage: &'static str,
}

impl EntryJson {
    pub fn of<'r, 'a>(
        ep: &'r ir::air::EntryPoint<'a>,
        written: &mut ArgumentTexts<'r, 'a>,
    ) -> Self {
        let depth = super::json::ENTRY_POINT_DEPTH;
        let json = CompactJson::laid_out_by(depth, |p| write_entry_point(p, ep, written));
        // The fields by hand, as serde writes them (derived in `ir::air`).
        #[cfg(debug_assertions)]
        json.assert_as_serde(ep, depth, ep.name);
        EntryJson {
            json,
            name: ep.name.to_string(),
            stage: ep.stage,
        }
    }

    /// The entry point's JSON, parsed (for the text report).
    pub fn value(&self) -> serde_json::Value {
        self.json.value()
    }
}

/// An entry point's JSON, as serde writes `ir::air::EntryPoint` (its fields
/// in order, the same skipped when empty), written by hand: through serde
/// it cost ~200 instructions a field, a twentieth of a whole scan.
fn write_entry_point<'r, 'a>(
    p: &mut Pretty<'_>,
    ep: &'r ir::air::EntryPoint<'a>,
    written: &mut ArgumentTexts<'r, 'a>,
) {
    p.open(b'{');
    p.key("name");
    p.str(ep.name);
    p.key("stage");
    p.str(ep.stage);
    p.key("arguments");
    p.open(b'[');
    for a in &ep.arguments {
        p.element();
        written.write(p, a);
    }
    p.close(b']');
    if !ep.properties.is_empty() {
        p.key("properties");
        p.open(b'[');
        for &(name, value) in &ep.properties {
            p.element();
            p.open(b'[');
            p.element();
            p.str(name);
            p.element();
            p.i64(value);
            p.close(b']');
        }
        p.close(b']');
    }
    p.close(b'}');
}

/// A function constant's JSON with its keys sorted, as a `Value` has them
/// (as reports always had them), laid out where the JSON report writes it.
pub fn function_constant_json(fc: &ir::air::FunctionConstant<'_>) -> CompactJson {
    let depth = super::json::FUNCTION_CONSTANT_DEPTH;
    let json = CompactJson::laid_out_by(depth, |p| {
        p.open(b'{');
        p.key("global");
        p.str(fc.global);
        p.key("index");
        p.opt_u64(fc.index.map(u64::from));
        for (key, v) in [("name", fc.name), ("type_name", fc.type_name)] {
            p.key(key);
            match v {
                Some(v) => p.str(v),
                None => p.null(),
            }
        }
        p.close(b'}');
    });
    // Keys sorted, as a `Value` object has them.
    #[cfg(debug_assertions)]
    json.assert_as_serde(
        &serde_json::to_value(fc).unwrap_or_default(),
        depth,
        fc.global,
    );
    json
}

/// The text of each distinct argument written so far (all at the same
/// depth): a library's template instantiations repeat the same argument
/// descriptions from kernel to kernel, and a copy costs a fraction of
/// writing one again. Found by the description the argument was read from
/// (`Argument::description`), else by its fields: hashing every
/// argument's fields cost half as much as writing it.
#[derive(Default)]
pub struct ArgumentTexts<'r, 'a> {
    seen: FxHashMap<SameArgument<'r, 'a>, std::ops::Range<usize>>,
    /// By `Argument::description`.
    described: Vec<Option<std::ops::Range<usize>>>,
    text: Vec<u8>,
}

impl<'r, 'a> ArgumentTexts<'r, 'a> {
    fn write(&mut self, p: &mut Pretty<'_>, a: &'r ir::air::Argument<'a>) {
        let description = a.description.map(|d| d as usize);
        let known = match description.and_then(|d| self.described.get(d).cloned()?) {
            Some(range) => Some(range),
            None => self.seen.get(&SameArgument(a)).cloned(),
        };
        let range = match known.and_then(|r| Some((self.text.get(r.clone())?, r))) {
            Some((text, range)) => {
                p.copy(text);
                range
            }
            None => {
                let start = p.mark();
                write_argument(p, a);
                let from = self.text.len();
                self.text.extend_from_slice(p.since(start));
                let range = from..self.text.len();
                self.seen.insert(SameArgument(a), range.clone());
                range
            }
        };
        if let Some(d) = description {
            if self.described.len() <= d {
                self.described.resize(d + 1, None);
            }
            if let Some(slot) = self.described.get_mut(d) {
                *slot = Some(range);
            }
        }
    }
}

/// An argument compared and hashed by every field its JSON shows.
struct SameArgument<'r, 'a>(&'r ir::air::Argument<'a>);

impl PartialEq for SameArgument<'_, '_> {
    fn eq(&self, other: &Self) -> bool {
        let (a, b) = (self.0, other.0);
        a.index == b.index
            && a.kind == b.kind
            && a.air_kind == b.air_kind
            && a.builtin == b.builtin
            && a.location_index == b.location_index
            && a.address_space == b.address_space
            && a.access == b.access
            && a.name == b.name
            && a.type_name == b.type_name
            && a.type_size == b.type_size
            && a.buffer_size == b.buffer_size
            && a.function_constant == b.function_constant
            && a.struct_fields == b.struct_fields
            && a.unused == b.unused
    }
}

impl Eq for SameArgument<'_, '_> {}

impl std::hash::Hash for SameArgument<'_, '_> {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        let a = self.0;
        (a.index, a.kind as u8, a.air_kind, a.builtin).hash(h);
        (a.location_index, a.address_space, a.access, a.name).hash(h);
        (a.type_name, a.type_size, a.buffer_size, a.function_constant).hash(h);
        for f in &a.struct_fields {
            (f.offset, f.size, f.count, f.type_name, f.name).hash(h);
        }
        (a.struct_fields.len(), a.unused).hash(h);
    }
}

/// One `ir::air::Argument`, as serde writes it.
fn write_argument(p: &mut Pretty<'_>, a: &ir::air::Argument<'_>) {
    use ir::air::ArgumentKind;
    let kind = match a.kind {
        ArgumentKind::Buffer => "buffer",
        ArgumentKind::Texture => "texture",
        ArgumentKind::Sampler => "sampler",
        ArgumentKind::Builtin => "builtin",
        ArgumentKind::StageIn => "stage_in",
        ArgumentKind::Output => "output",
        ArgumentKind::VisibleFunctionTable => "visible_function_table",
        ArgumentKind::Other => "other",
    };
    p.open(b'{');
    p.key("index");
    p.u64(a.index.into());
    p.key("kind");
    p.str(kind);
    p.key("air_kind");
    p.str(a.air_kind);
    if let Some(v) = a.builtin {
        p.key("builtin");
        p.str(v);
    }
    // Field by field, each key a constant the compiler copies inline.
    if let Some(v) = a.location_index {
        p.key("location_index");
        p.u64(v.into());
    }
    if let Some(v) = a.address_space {
        p.key("address_space");
        p.u64(v.into());
    }
    if let Some(v) = a.access {
        p.key("access");
        p.str(v);
    }
    if let Some(v) = a.name {
        p.key("name");
        p.str(v);
    }
    if let Some(v) = a.type_name {
        p.key("type_name");
        p.str(v);
    }
    if let Some(v) = a.type_size {
        p.key("type_size");
        p.u64(v.into());
    }
    if let Some(v) = a.buffer_size {
        p.key("buffer_size");
        p.u64(v.into());
    }
    if let Some(v) = a.function_constant {
        p.key("function_constant");
        p.str(v);
    }
    if !a.struct_fields.is_empty() {
        p.key("struct_fields");
        p.open(b'[');
        for f in &a.struct_fields {
            p.element();
            p.open(b'{');
            p.key("offset");
            p.u64(f.offset.into());
            p.key("size");
            p.u64(f.size.into());
            p.key("count");
            p.u64(f.count.into());
            p.key("type_name");
            p.str(f.type_name);
            p.key("name");
            p.str(f.name);
            p.close(b'}');
        }
        p.close(b']');
    }
    if a.unused {
        p.key("unused");
        p.bool(true);
    }
    p.close(b'}');
}
