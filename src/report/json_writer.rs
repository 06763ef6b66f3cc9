//! The report's JSON writer: serde_json's pretty bytes, written faster.
//!
//! Hand-written because serde_json's pretty `Formatter` costs a write per
//! fragment and a table look-up per byte of every string: it was a sixth of
//! a whole scan. `Json` is a serde serializer that appends to a `Vec` and
//! checks a string for bytes to escape a word at a time. Tests hold it to
//! serde_json's bytes.

use crate::ir::air::Shared;
use serde::ser::{self, Impossible, Serialize, Serializer};
use serde_json::ser::{CompactFormatter, Formatter};
use std::any::Any;
use std::fmt;
use std::io::{self, Write};
use std::sync::Arc;

/// `value` as pretty JSON (two-space indent, as `serde_json::to_writer_pretty`
/// lays it out).
pub fn to_writer_pretty<W: Write, T: Serialize + ?Sized>(out: W, value: &T) -> io::Result<()> {
    to_writer_pretty_at(out, 0, value)
}

/// `to_writer_pretty` for a value that stands `depth` levels deep in a
/// pretty document: its inner lines are indented to match, so the text can
/// be written where the value goes.
pub fn to_writer_pretty_at<W: Write, T: Serialize + ?Sized>(
    mut out: W,
    depth: usize,
    value: &T,
) -> io::Result<()> {
    PrettyWriter::default().write(&mut out, depth, value)
}

/// `to_writer_pretty_at` with its buffer kept from one value to the next.
#[derive(Default)]
pub struct PrettyWriter {
    buf: Vec<u8>,
    shared: SharedTexts,
}

/// The text of each [`Shared`] value laid out so far in one `write`, by
/// the value's address and depth. A library's template instances repeat
/// their arguments (typed-12MB: 7,074 written, 1,140 distinct); laying each
/// out once saves ~4% of a whole scan. Addresses are only compared within
/// one `write`, while every value written is borrowed and so alive, or
/// across writes for the values `held` keeps alive (`write_holding`).
#[derive(Default)]
struct SharedTexts {
    at: rustc_hash::FxHashMap<(usize, usize), std::ops::Range<usize>>,
    text: Vec<u8>,
    /// The values whose texts are kept from one write to the next, by
    /// address: held here, no other value can take their address.
    held: rustc_hash::FxHashMap<usize, Arc<dyn Any + Send + Sync>>,
    /// The keys of this write's values not held, dropped after it.
    passing: Vec<(usize, usize)>,
}

/// Texts and held values kept at most (bytes, values): past either, the
/// next write starts afresh (a library's distinct arguments are a few
/// hundred). At 1 MB of texts the mlx.metallib scan's peak was 0.9 MB
/// higher, for no fewer instructions.
const MAX_HELD_TEXT: usize = 256 << 10;
const MAX_HELD: usize = 4096;

impl SharedTexts {
    fn clear(&mut self) {
        self.at.clear();
        self.text.clear();
        self.held.clear();
        self.passing.clear();
    }
}

impl PrettyWriter {
    /// Writes `value`, laid out at `depth`, to `out` in writes of about
    /// `FLUSH_AT` bytes (one for a small value).
    pub fn write<W: Write + ?Sized, T: Serialize + ?Sized>(
        &mut self,
        out: &mut W,
        depth: usize,
        value: &T,
    ) -> io::Result<()> {
        self.shared.clear();
        self.write_keeping(out, depth, value)
    }

    /// Holds `value` so that `write_holding` keeps its text for the writes
    /// after: a library's modules repeat their arguments (mlx.metallib:
    /// 5,863 written in 382 reports, ~740 distinct), laid out once each
    /// instead of once per report.
    pub fn hold<T: Any + Send + Sync>(&mut self, value: &Arc<T>) {
        let address = Arc::as_ptr(value).cast::<()>() as usize;
        self.shared
            .held
            .entry(address)
            .or_insert_with(|| value.clone());
    }

    /// `write`, keeping the texts of the [`Shared`] values it lays out that
    /// `hold` was given (the others only for this write).
    pub fn write_holding<W: Write + ?Sized, T: Serialize + ?Sized>(
        &mut self,
        out: &mut W,
        depth: usize,
        value: &T,
    ) -> io::Result<()> {
        let shared = &mut self.shared;
        if shared.held.len() > MAX_HELD || shared.text.len() > MAX_HELD_TEXT {
            // Held values are let go with their texts, this write's too:
            // they are laid out again.
            shared.clear();
        }
        let written = self.write_keeping(out, depth, value);
        let shared = &mut self.shared;
        for key in shared.passing.drain(..) {
            shared.at.remove(&key);
        }
        written
    }

    /// Writes `value` with the shared texts as they are.
    fn write_keeping<W: Write + ?Sized, T: Serialize + ?Sized>(
        &mut self,
        out: &mut W,
        depth: usize,
        value: &T,
    ) -> io::Result<()> {
        self.buf.clear();
        let mut json = Json {
            out: &mut self.buf,
            sink: Some(&mut *out),
            depth,
            shared: &mut self.shared,
        };
        value.serialize(&mut json).map_err(|e| e.0)?;
        out.write_all(&self.buf)
    }
}

/// What the buffer may hold before it is handed to the writer: a large
/// module's report is tens of megabytes, never held whole.
const FLUSH_AT: usize = 32 << 10;

/// A serializer that appends serde_json's pretty bytes to `out` (as
/// `PrettyFormatter` lays them out, `depth` levels in), and hands them to
/// `sink`, if any, once they pass `FLUSH_AT`.
struct Json<'o, W: ?Sized> {
    out: &'o mut Vec<u8>,
    sink: Option<&'o mut W>,
    depth: usize,
    shared: &'o mut SharedTexts,
}

/// An error from the writer, or a value JSON cannot hold.
#[derive(Debug)]
pub struct Error(io::Error);

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

impl std::error::Error for Error {}

impl ser::Error for Error {
    fn custom<T: fmt::Display>(msg: T) -> Self {
        Error(io::Error::other(msg.to_string()))
    }
}

fn key_must_be_a_string() -> Error {
    ser::Error::custom("key must be a string")
}

/// Numbers as serde_json writes them (itoa, ryu), into a `Vec`, which
/// cannot fail.
fn number(out: &mut Vec<u8>, write: impl FnOnce(&mut Vec<u8>) -> io::Result<()>) {
    let _ = write(out);
}

impl<W: ?Sized + Write> Json<'_, W> {
    fn open(&mut self, bracket: u8) {
        self.out.push(bracket);
        self.depth += 1;
    }

    /// Closes a container; `empty` if nothing was written in it.
    fn close(&mut self, bracket: u8, empty: bool) {
        self.depth = self.depth.saturating_sub(1);
        if !empty {
            newline_and_indent_vec(self.out, self.depth);
        }
        self.out.push(bracket);
    }

    /// What goes before an element or a key.
    #[inline(always)]
    fn element(&mut self, first: bool) {
        separator(self.out, !first, self.depth);
    }

    #[inline(always)]
    fn colon(&mut self) {
        self.out.extend_from_slice(b": ");
    }

    /// Opens the `{"variant": ` around a variant's content.
    fn variant(&mut self, variant: &str) {
        self.open(b'{');
        self.element(true);
        write_string(self.out, variant);
        self.colon();
    }

    /// Writes a [`Shared`] value: its text from the first time it was
    /// written at this depth, else laid out now and kept.
    fn shared<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<(), Error> {
        let key = (std::ptr::from_ref(value).cast::<()>() as usize, self.depth);
        if let Some(range) = self.shared.at.get(&key) {
            let text = self.shared.text.get(range.clone()).unwrap_or_default();
            self.out.extend_from_slice(text);
            return self.flush();
        }
        let start = self.out.len();
        let sink = self.sink.take();
        value.serialize(&mut *self)?;
        self.sink = sink;
        let kept = self.shared.text.len();
        self.shared.text.extend_from_slice(&self.out[start..]);
        self.shared.at.insert(key, kept..self.shared.text.len());
        if !self.shared.held.contains_key(&key.0) {
            self.shared.passing.push(key);
        }
        self.flush()
    }

    fn flush(&mut self) -> Result<(), Error> {
        if self.out.len() >= FLUSH_AT
            && let Some(sink) = &mut self.sink
        {
            sink.write_all(self.out).map_err(Error)?;
            self.out.clear();
        }
        Ok(())
    }
}

/// An array or object being written.
struct Compound<'a, 'o, W: ?Sized> {
    json: &'a mut Json<'o, W>,
    /// No element written yet.
    first: bool,
    /// `]` or `}`.
    closer: u8,
    /// Inside a `{"variant": ...}`, closed with it.
    variant: bool,
}

impl<'a, 'o, W: ?Sized + Write> Compound<'a, 'o, W> {
    fn new(json: &'a mut Json<'o, W>, opener: u8, variant: bool) -> Self {
        json.open(opener);
        let closer = if opener == b'[' { b']' } else { b'}' };
        Compound {
            json,
            first: true,
            closer,
            variant,
        }
    }

    #[inline(always)]
    fn element<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<(), Error> {
        self.json.element(self.first);
        self.first = false;
        value.serialize(&mut *self.json)?;
        self.json.flush()
    }

    #[inline(always)]
    fn entry<T: ?Sized + Serialize>(&mut self, key: &str, value: &T) -> Result<(), Error> {
        self.json.element(self.first);
        self.first = false;
        write_string(self.json.out, key);
        self.json.colon();
        value.serialize(&mut *self.json)?;
        self.json.flush()
    }

    fn finish(self) -> Result<(), Error> {
        self.json.close(self.closer, self.first);
        if self.variant {
            self.json.close(b'}', false);
        }
        Ok(())
    }
}

/// The methods of a serializer that write a value as another kind, as
/// serde_json does: narrower integers widened to 64 bits of the same sign,
/// a char or unit variant as a string, a newtype or `Some` as its content.
macro_rules! written_as_another_kind {
    () => {
        fn serialize_i8(self, v: i8) -> Result<(), Error> {
            self.serialize_i64(v.into())
        }
        fn serialize_i16(self, v: i16) -> Result<(), Error> {
            self.serialize_i64(v.into())
        }
        fn serialize_i32(self, v: i32) -> Result<(), Error> {
            self.serialize_i64(v.into())
        }
        fn serialize_u8(self, v: u8) -> Result<(), Error> {
            self.serialize_u64(v.into())
        }
        fn serialize_u16(self, v: u16) -> Result<(), Error> {
            self.serialize_u64(v.into())
        }
        fn serialize_u32(self, v: u32) -> Result<(), Error> {
            self.serialize_u64(v.into())
        }
        fn serialize_char(self, v: char) -> Result<(), Error> {
            self.serialize_str(v.encode_utf8(&mut [0; 4]))
        }
        fn serialize_unit_variant(
            self,
            _name: &'static str,
            _index: u32,
            variant: &'static str,
        ) -> Result<(), Error> {
            self.serialize_str(variant)
        }
        fn serialize_some<T: ?Sized + Serialize>(self, value: &T) -> Result<(), Error> {
            value.serialize(self)
        }
    };
}

impl<'a, 'o, W: ?Sized + Write> Serializer for &'a mut Json<'o, W> {
    type Ok = ();
    type Error = Error;
    type SerializeSeq = Compound<'a, 'o, W>;
    type SerializeTuple = Compound<'a, 'o, W>;
    type SerializeTupleStruct = Compound<'a, 'o, W>;
    type SerializeTupleVariant = Compound<'a, 'o, W>;
    type SerializeMap = Compound<'a, 'o, W>;
    type SerializeStruct = Compound<'a, 'o, W>;
    type SerializeStructVariant = Compound<'a, 'o, W>;

    fn serialize_bool(self, v: bool) -> Result<(), Error> {
        self.out
            .extend_from_slice(if v { b"true" } else { b"false" });
        Ok(())
    }
    written_as_another_kind!();
    fn serialize_newtype_struct<T: ?Sized + Serialize>(
        self,
        name: &'static str,
        value: &T,
    ) -> Result<(), Error> {
        if name == Shared::<()>::NAME {
            return self.shared(value);
        }
        value.serialize(self)
    }
    fn serialize_i64(self, v: i64) -> Result<(), Error> {
        number(self.out, |o| CompactFormatter.write_i64(o, v));
        Ok(())
    }
    fn serialize_i128(self, v: i128) -> Result<(), Error> {
        number(self.out, |o| CompactFormatter.write_i128(o, v));
        Ok(())
    }
    fn serialize_u64(self, v: u64) -> Result<(), Error> {
        number(self.out, |o| CompactFormatter.write_u64(o, v));
        Ok(())
    }
    fn serialize_u128(self, v: u128) -> Result<(), Error> {
        number(self.out, |o| CompactFormatter.write_u128(o, v));
        Ok(())
    }
    fn serialize_f32(self, v: f32) -> Result<(), Error> {
        if v.is_finite() {
            number(self.out, |o| CompactFormatter.write_f32(o, v));
        } else {
            self.out.extend_from_slice(b"null");
        }
        Ok(())
    }
    fn serialize_f64(self, v: f64) -> Result<(), Error> {
        if v.is_finite() {
            number(self.out, |o| CompactFormatter.write_f64(o, v));
        } else {
            self.out.extend_from_slice(b"null");
        }
        Ok(())
    }
    fn serialize_str(self, v: &str) -> Result<(), Error> {
        write_string(self.out, v);
        Ok(())
    }
    fn serialize_bytes(self, v: &[u8]) -> Result<(), Error> {
        let mut seq = Compound::new(self, b'[', false);
        for b in v {
            seq.element(b)?;
        }
        seq.finish()
    }
    fn serialize_none(self) -> Result<(), Error> {
        self.serialize_unit()
    }
    fn serialize_unit(self) -> Result<(), Error> {
        self.out.extend_from_slice(b"null");
        Ok(())
    }
    fn serialize_unit_struct(self, _name: &'static str) -> Result<(), Error> {
        self.serialize_unit()
    }
    fn serialize_newtype_variant<T: ?Sized + Serialize>(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        value: &T,
    ) -> Result<(), Error> {
        self.variant(variant);
        value.serialize(&mut *self)?;
        self.close(b'}', false);
        Ok(())
    }
    fn serialize_seq(self, _len: Option<usize>) -> Result<Compound<'a, 'o, W>, Error> {
        Ok(Compound::new(self, b'[', false))
    }
    fn serialize_tuple(self, len: usize) -> Result<Compound<'a, 'o, W>, Error> {
        self.serialize_seq(Some(len))
    }
    fn serialize_tuple_struct(
        self,
        _name: &'static str,
        len: usize,
    ) -> Result<Compound<'a, 'o, W>, Error> {
        self.serialize_seq(Some(len))
    }
    fn serialize_tuple_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        _len: usize,
    ) -> Result<Compound<'a, 'o, W>, Error> {
        self.variant(variant);
        Ok(Compound::new(self, b'[', true))
    }
    fn serialize_map(self, _len: Option<usize>) -> Result<Compound<'a, 'o, W>, Error> {
        Ok(Compound::new(self, b'{', false))
    }
    fn serialize_struct(
        self,
        _name: &'static str,
        _len: usize,
    ) -> Result<Compound<'a, 'o, W>, Error> {
        Ok(Compound::new(self, b'{', false))
    }
    fn serialize_struct_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        _len: usize,
    ) -> Result<Compound<'a, 'o, W>, Error> {
        self.variant(variant);
        Ok(Compound::new(self, b'{', true))
    }
}

/// The sequence-like compounds: each element written the same way.
macro_rules! elements {
    ($($kind:ident :: $method:ident),*) => {$(
        impl<W: ?Sized + Write> ser::$kind for Compound<'_, '_, W> {
            type Ok = ();
            type Error = Error;
            fn $method<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<(), Error> {
                self.element(value)
            }
            fn end(self) -> Result<(), Error> {
                self.finish()
            }
        }
    )*};
}

elements!(
    SerializeSeq::serialize_element,
    SerializeTuple::serialize_element,
    SerializeTupleStruct::serialize_field,
    SerializeTupleVariant::serialize_field
);

impl<W: ?Sized + Write> ser::SerializeMap for Compound<'_, '_, W> {
    type Ok = ();
    type Error = Error;
    #[inline(always)]
    fn serialize_key<T: ?Sized + Serialize>(&mut self, key: &T) -> Result<(), Error> {
        self.json.element(self.first);
        self.first = false;
        key.serialize(MapKey(self.json.out))
    }
    #[inline(always)]
    fn serialize_value<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<(), Error> {
        self.json.colon();
        value.serialize(&mut *self.json)?;
        self.json.flush()
    }
    fn end(self) -> Result<(), Error> {
        self.finish()
    }
}

impl<W: ?Sized + Write> ser::SerializeStruct for Compound<'_, '_, W> {
    type Ok = ();
    type Error = Error;
    // Inlined, a field's name is a constant: its check for bytes to escape
    // and its copy are worked out when the caller is compiled.
    #[inline(always)]
    fn serialize_field<T: ?Sized + Serialize>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<(), Error> {
        self.entry(key, value)
    }
    fn end(self) -> Result<(), Error> {
        self.finish()
    }
}

impl<W: ?Sized + Write> ser::SerializeStructVariant for Compound<'_, '_, W> {
    type Ok = ();
    type Error = Error;
    fn serialize_field<T: ?Sized + Serialize>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<(), Error> {
        self.entry(key, value)
    }
    fn end(self) -> Result<(), Error> {
        self.finish()
    }
}

/// A map's key, as serde_json writes it: a string, or a number, bool or
/// unit variant in quotes.
struct MapKey<'a>(&'a mut Vec<u8>);

impl MapKey<'_> {
    fn quoted(self, write: impl FnOnce(&mut Vec<u8>) -> io::Result<()>) -> Result<(), Error> {
        self.0.push(b'"');
        number(self.0, write);
        self.0.push(b'"');
        Ok(())
    }
}

impl Serializer for MapKey<'_> {
    type Ok = ();
    type Error = Error;
    type SerializeSeq = Impossible<(), Error>;
    type SerializeTuple = Impossible<(), Error>;
    type SerializeTupleStruct = Impossible<(), Error>;
    type SerializeTupleVariant = Impossible<(), Error>;
    type SerializeMap = Impossible<(), Error>;
    type SerializeStruct = Impossible<(), Error>;
    type SerializeStructVariant = Impossible<(), Error>;

    fn serialize_bytes(self, _: &[u8]) -> Result<(), Error> {
        Err(key_must_be_a_string())
    }
    fn serialize_none(self) -> Result<(), Error> {
        Err(key_must_be_a_string())
    }
    fn serialize_unit(self) -> Result<(), Error> {
        Err(key_must_be_a_string())
    }
    fn serialize_unit_struct(self, _: &'static str) -> Result<(), Error> {
        Err(key_must_be_a_string())
    }
    fn serialize_newtype_variant<T: ?Sized + Serialize>(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: &T,
    ) -> Result<(), Error> {
        Err(key_must_be_a_string())
    }
    fn serialize_seq(self, _: Option<usize>) -> Result<Impossible<(), Error>, Error> {
        Err(key_must_be_a_string())
    }
    fn serialize_tuple(self, _: usize) -> Result<Impossible<(), Error>, Error> {
        Err(key_must_be_a_string())
    }
    fn serialize_tuple_struct(
        self,
        _: &'static str,
        _: usize,
    ) -> Result<Impossible<(), Error>, Error> {
        Err(key_must_be_a_string())
    }
    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Impossible<(), Error>, Error> {
        Err(key_must_be_a_string())
    }
    fn serialize_map(self, _: Option<usize>) -> Result<Impossible<(), Error>, Error> {
        Err(key_must_be_a_string())
    }
    fn serialize_struct(self, _: &'static str, _: usize) -> Result<Impossible<(), Error>, Error> {
        Err(key_must_be_a_string())
    }
    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Impossible<(), Error>, Error> {
        Err(key_must_be_a_string())
    }

    fn serialize_str(self, v: &str) -> Result<(), Error> {
        write_string(self.0, v);
        Ok(())
    }
    fn serialize_bool(self, v: bool) -> Result<(), Error> {
        self.quoted(|o| CompactFormatter.write_bool(o, v))
    }
    written_as_another_kind!();
    fn serialize_newtype_struct<T: ?Sized + Serialize>(
        self,
        _name: &'static str,
        value: &T,
    ) -> Result<(), Error> {
        value.serialize(self)
    }
    fn serialize_i64(self, v: i64) -> Result<(), Error> {
        self.quoted(|o| CompactFormatter.write_i64(o, v))
    }
    fn serialize_i128(self, v: i128) -> Result<(), Error> {
        self.quoted(|o| CompactFormatter.write_i128(o, v))
    }
    fn serialize_u64(self, v: u64) -> Result<(), Error> {
        self.quoted(|o| CompactFormatter.write_u64(o, v))
    }
    fn serialize_u128(self, v: u128) -> Result<(), Error> {
        self.quoted(|o| CompactFormatter.write_u128(o, v))
    }
    fn serialize_f32(self, v: f32) -> Result<(), Error> {
        if !v.is_finite() {
            return Err(ser::Error::custom("float key must be finite"));
        }
        self.quoted(|o| CompactFormatter.write_f32(o, v))
    }
    fn serialize_f64(self, v: f64) -> Result<(), Error> {
        if !v.is_finite() {
            return Err(ser::Error::custom("float key must be finite"));
        }
        self.quoted(|o| CompactFormatter.write_f64(o, v))
    }
}

/// Whether serde_json writes `b` escaped inside a string.
fn escaped(b: u8) -> bool {
    b < 0x20 || b == b'"' || b == b'\\'
}

/// `s` as a JSON string, escaped as serde_json escapes it.
#[inline(always)]
fn write_string(out: &mut Vec<u8>, s: &str) {
    let bytes = s.as_bytes();
    out.reserve(bytes.len() + 2);
    out.push(b'"');
    if nothing_to_escape(bytes) {
        out.extend_from_slice(bytes);
    } else {
        escape(out, bytes);
    }
    out.push(b'"');
}

/// No byte of `bytes` is escaped. Eight bytes are checked at once, as one
/// word: a byte below 0x20, `"` or `\\` sets the high bit of its byte in
/// `hit` (and maybe of bytes above it, which does not matter here). Most
/// strings have nothing to escape, and names and messages run to tens or
/// hundreds of bytes: a byte at a time, a whole scan executes 1.6% / 1.7%
/// more instructions (callgrind, typed-12MB / the corpus module).
#[inline(always)]
fn nothing_to_escape(bytes: &[u8]) -> bool {
    const ONES: u64 = u64::from_le_bytes([1; 8]);
    const HIGH: u64 = ONES * 0x80;
    let hit = |word: u64| {
        let below_space = word.wrapping_sub(ONES * 0x20) & !word;
        let quote = word ^ (ONES * u64::from(b'"'));
        let backslash = word ^ (ONES * u64::from(b'\\'));
        let quote = quote.wrapping_sub(ONES) & !quote;
        let backslash = backslash.wrapping_sub(ONES) & !backslash;
        (below_space | quote | backslash) & HIGH != 0
    };
    let words = bytes.chunks_exact(8);
    let rest = words.remainder();
    let word = |w: &[u8]| w.try_into().map_or(0, u64::from_le_bytes);
    if words.into_iter().any(|w| hit(word(w))) {
        return false;
    }
    if rest.is_empty() {
        return true;
    }
    // The last few bytes: in the string's last word, read again in part,
    // when it has one (no copy to make up a word).
    match bytes.last_chunk::<8>() {
        Some(last) => !hit(u64::from_le_bytes(*last)),
        None => !rest.iter().any(|&b| escaped(b)),
    }
}

/// `bytes` with serde_json's escapes: short ones where JSON has them,
/// `\u00xx` (lower-case hex) for the other control bytes.
#[cold]
#[inline(never)]
fn escape(out: &mut Vec<u8>, bytes: &[u8]) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let mut run = 0;
    for (i, &b) in bytes.iter().enumerate() {
        if !escaped(b) {
            continue;
        }
        out.extend_from_slice(&bytes[run..i]);
        run = i + 1;
        let short = match b {
            b'"' => b'"',
            b'\\' => b'\\',
            b'\n' => b'n',
            b'\r' => b'r',
            b'\t' => b't',
            0x08 => b'b',
            0x0c => b'f',
            _ => {
                out.extend_from_slice(b"\\u00");
                out.push(HEX[usize::from(b >> 4)]);
                out.push(HEX[usize::from(b & 0xf)]);
                continue;
            }
        };
        out.extend_from_slice(&[b'\\', short]);
    }
    out.extend_from_slice(&bytes[run..]);
}

const INDENT: &[u8] = b"  ";
const MAX_PREPARED: usize = 32;

/// A comma, a newline and the indent of `MAX_PREPARED` levels, of which a
/// prefix (with the comma or without) is written in one go.
static SEPARATOR: [u8; 2 + MAX_PREPARED * INDENT.len()] = {
    let mut line = [b' '; 2 + MAX_PREPARED * INDENT.len()];
    line[0] = b',';
    line[1] = b'\n';
    line
};

/// A newline and the indent of `depth`, in one write where the depth allows
/// (a report has tens of thousands of lines; a write of two bytes per level
/// was a tenth of writing it).
pub fn newline_and_indent<W: ?Sized + Write>(out: &mut W, depth: usize) -> io::Result<()> {
    out.write_all(&SEPARATOR[1..2 + depth.min(MAX_PREPARED) * INDENT.len()])?;
    for _ in MAX_PREPARED..depth {
        out.write_all(INDENT)?;
    }
    Ok(())
}

/// `newline_and_indent` for a buffer, which cannot fail.
fn newline_and_indent_vec(out: &mut Vec<u8>, depth: usize) {
    separator(out, false, depth);
}

/// A comma if `comma`, then a newline and the indent of `depth`.
#[inline(always)]
fn separator(out: &mut Vec<u8>, comma: bool, depth: usize) {
    let start = usize::from(!comma);
    out.extend_from_slice(&SEPARATOR[start..2 + depth.min(MAX_PREPARED) * INDENT.len()]);
    for _ in MAX_PREPARED..depth {
        out.extend_from_slice(INDENT);
    }
}

#[cfg(test)]
mod tests {
    use super::{MAX_HELD, PrettyWriter, to_writer_pretty, to_writer_pretty_at};

    fn pretty<T: serde::Serialize + ?Sized>(v: &T) -> String {
        let mut out = Vec::new();
        to_writer_pretty(&mut out, v).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[derive(serde::Serialize)]
    enum Kinds {
        Unit,
        Newtype(u8),
        Tuple(i32, String),
        EmptyTuple(),
        Struct { a: f64, b: Option<char> },
        EmptyStruct {},
    }

    #[derive(serde::Serialize)]
    struct Unit;

    #[derive(serde::Serialize)]
    struct Every {
        kinds: Vec<Kinds>,
        unit: Unit,
        unit_value: (),
        tuple: (u8, i64, bool),
        empty: Vec<u8>,
        bytes: serde_bytes_like::Bytes,
        numbers: (i8, i16, u16, u32, u64, i128, u128, f32, f64, f64, f32),
        int_keys: std::collections::BTreeMap<i32, &'static str>,
        bool_keys: std::collections::BTreeMap<bool, u8>,
        char_keys: std::collections::BTreeMap<char, u8>,
        nested: serde_json::Value,
        none: Option<u8>,
    }

    /// `&[u8]` as serde's bytes.
    mod serde_bytes_like {
        pub struct Bytes(pub Vec<u8>);
        impl serde::Serialize for Bytes {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.serialize_bytes(&self.0)
            }
        }
    }

    #[test]
    fn a_shared_value_is_written_as_serde_json_writes_it_at_every_depth() {
        use crate::ir::air::Shared;
        use std::sync::Arc;
        #[derive(serde::Serialize)]
        struct Arg {
            name: &'static str,
            fields: Vec<u32>,
        }
        #[derive(serde::Serialize)]
        struct Entry {
            arguments: Vec<Shared<Arg>>,
            deeper: Vec<Vec<Shared<Arg>>>,
        }
        let a = Shared(Arc::new(Arg {
            name: "a",
            fields: vec![1, 2],
        }));
        let b = Shared(Arc::new(Arg {
            name: "b",
            fields: vec![],
        }));
        // The same values again and again, at two depths, and two distinct
        // values of equal text at one address each.
        let twin = Shared(Arc::new(Arg {
            name: "a",
            fields: vec![1, 2],
        }));
        let entries = vec![
            Entry {
                arguments: vec![a.clone(), b.clone(), a.clone(), twin.clone()],
                deeper: vec![vec![a.clone(), b.clone()], vec![a.clone()]],
            },
            Entry {
                arguments: vec![b.clone(), a.clone()],
                deeper: vec![],
            },
        ];
        assert_eq!(
            pretty(&entries),
            serde_json::to_string_pretty(&entries).unwrap()
        );
        // Laid out at a depth other than 0 as well.
        let mut at_two = Vec::new();
        to_writer_pretty_at(&mut at_two, 2, &entries).unwrap();
        let serde = serde_json::to_string_pretty(&entries)
            .unwrap()
            .replace('\n', "\n    ");
        assert_eq!(String::from_utf8(at_two).unwrap(), serde);
    }

    #[test]
    fn held_values_are_written_as_serde_json_writes_them_write_after_write() {
        use crate::ir::air::Shared;
        use std::sync::Arc;
        #[derive(serde::Serialize)]
        struct Arg {
            name: String,
        }
        let arg = |name: &str| {
            Shared(Arc::new(Arg {
                name: name.to_string(),
            }))
        };
        let mut writer = PrettyWriter::default();
        let mut write = |values: &[Shared<Arg>], hold: &[&Shared<Arg>]| {
            for v in hold {
                writer.hold(&v.0);
            }
            let mut out = Vec::new();
            writer.write_holding(&mut out, 1, values).unwrap();
            let mut expected = Vec::new();
            to_writer_pretty_at(&mut expected, 1, values).unwrap();
            assert_eq!(String::from_utf8(out), String::from_utf8(expected));
        };
        let kept = arg("kept");
        write(&[kept.clone(), kept.clone()], &[&kept]);
        // Values not held are laid out afresh in each write: one dropped,
        // another may take its address.
        for i in 0..50 {
            let passing = arg(&format!("passing {i}"));
            write(&[passing.clone(), kept.clone(), passing.clone()], &[&kept]);
        }
        // Past the most held, all start afresh.
        let many: Vec<Shared<Arg>> = (0..=MAX_HELD).map(|i| arg(&i.to_string())).collect();
        write(&many, &many.iter().collect::<Vec<_>>());
        write(std::slice::from_ref(&kept), &[&kept]);
        write(&many, &[]);
    }

    #[test]
    fn every_kind_of_value_written_as_serde_json_writes_it() {
        // Strings holding brackets, commas, colons, quotes, backslashes and
        // control bytes; empty containers; nesting inside arrays and maps.
        let nested = serde_json::json!({
            "s": "a,b:{c}[d] \"q\" \\ end\\ \n\u{1}\u{7f}é",
            "a": [[], {}, [1, [2, {"k": null}]]],
            "f": 1.5e-7,
            "n": [1, -2, 2.5, 1e300, null, true],
        });
        let v = Every {
            kinds: vec![
                Kinds::Unit,
                Kinds::Newtype(7),
                Kinds::Tuple(-3, "t".into()),
                Kinds::EmptyTuple(),
                Kinds::Struct {
                    a: 0.1,
                    b: Some('\u{8}'),
                },
                Kinds::EmptyStruct {},
            ],
            unit: Unit,
            unit_value: (),
            tuple: (255, i64::MIN, true),
            empty: vec![],
            bytes: serde_bytes_like::Bytes(vec![0, 1, 255]),
            numbers: (
                -128,
                -300,
                65535,
                7,
                u64::MAX,
                i64::MIN.into(),
                u64::MAX.into(),
                1.25,
                -0.0,
                f64::NAN,
                f32::INFINITY,
            ),
            int_keys: [(-1, "a"), (20, "b")].into_iter().collect(),
            bool_keys: [(false, 0), (true, 1)].into_iter().collect(),
            char_keys: [('"', 0), ('k', 1)].into_iter().collect(),
            nested,
            none: None,
        };
        assert_eq!(pretty(&v), serde_json::to_string_pretty(&v).unwrap());
    }

    #[test]
    fn indents_deeper_than_the_prepared_line_still_laid_out_as_serde_json_does() {
        // 40 levels: past the 32 that newline_and_indent writes in one go.
        let mut deep = serde_json::json!({"leaf": [1, 2]});
        for level in 0..40 {
            deep = serde_json::json!({ format!("k{level}"): [deep, level] });
        }
        assert_eq!(pretty(&deep), serde_json::to_string_pretty(&deep).unwrap());
    }

    #[derive(serde::Serialize)]
    struct Entry {
        name: &'static str,
        n: u64,
        arguments: Vec<Argument>,
        empty: Vec<u8>,
        properties: serde_json::Value,
    }

    #[derive(serde::Serialize)]
    struct Argument {
        kind: &'static str,
        size: Option<u64>,
    }

    #[test]
    fn written_at_a_depth_as_serde_json_lays_it_out_there() {
        let argument = || Argument {
            kind: "buffer",
            size: None,
        };
        let entry = Entry {
            name: "k\"1\\",
            n: 7,
            arguments: vec![argument(), argument()],
            empty: vec![],
            properties: serde_json::json!({"a": [1, {}], "b": {"c": []}}),
        };
        let reference = serde_json::to_string_pretty(&entry).unwrap();
        // At depth 0, 2 and 40 (past the prepared indent), every line after
        // the first indented by as many levels.
        for depth in [0, 2, 40] {
            let expected = reference.replace('\n', &format!("\n{}", "  ".repeat(depth)));
            let mut serde = Vec::new();
            to_writer_pretty_at(&mut serde, depth, &entry).unwrap();
            assert_eq!(String::from_utf8(serde).unwrap(), expected, "{depth}");
        }
    }

    #[test]
    fn strings_escaped_as_serde_json_escapes_them() {
        // Every ASCII byte, alone and in long runs on either side of the
        // eight-byte words the check reads.
        let mut strings: Vec<String> = (0u8..0x80).map(|b| char::from(b).to_string()).collect();
        let all: String = (0u8..0x80).map(char::from).collect();
        strings.push(all.clone());
        strings.push(format!("{}é€𝄞{}", "a".repeat(31), all));
        for n in 0..40 {
            for bad in ["\"", "\\", "\u{1f}", "\n", "\u{0}"] {
                strings.push(format!("{}{bad}{}", "x".repeat(n), "é".repeat(20 - n / 2)));
            }
            strings.push("z".repeat(n));
            strings.push(" ~\u{7f}é".repeat(n));
        }
        for s in &strings {
            assert_eq!(pretty(s), serde_json::to_string(s).unwrap(), "{s:?}");
        }
        assert_eq!(
            pretty(&strings),
            serde_json::to_string_pretty(&strings).unwrap()
        );
    }

    #[test]
    fn what_json_cannot_hold_is_an_error_or_null_and_errors_reach_the_writer() {
        let bad: std::collections::BTreeMap<(u8, u8), u8> = [((1, 2), 3)].into_iter().collect();
        assert!(to_writer_pretty(Vec::new(), &bad).is_err());
        assert!(serde_json::to_string(&bad).is_err());
        let none_key: std::collections::BTreeMap<Option<u8>, u8> =
            [(None, 1)].into_iter().collect();
        assert!(to_writer_pretty(Vec::new(), &none_key).is_err());
        assert!(serde_json::to_string(&none_key).is_err());
        let some_key: std::collections::BTreeMap<Option<u8>, u8> =
            [(Some(3), 0)].into_iter().collect();
        assert_eq!(
            pretty(&some_key),
            serde_json::to_string_pretty(&some_key).unwrap()
        );
        struct Full;
        impl std::io::Write for Full {
            fn write(&mut self, _: &[u8]) -> std::io::Result<usize> {
                Err(std::io::Error::other("full"))
            }
            fn flush(&mut self) -> std::io::Result<()> {
                Ok(())
            }
        }
        // Small and large (flushed on the way) values alike.
        assert!(to_writer_pretty(Full, &1).is_err());
        let large: Vec<String> = (0..10_000).map(|i| format!("item {i}")).collect();
        assert!(to_writer_pretty(Full, &large).is_err());
        let mut out = Vec::new();
        to_writer_pretty(&mut out, &large).unwrap();
        assert_eq!(out, serde_json::to_vec_pretty(&large).unwrap());
    }
}
