//! JSON kept as compact text until it is written, and the writer that
//! lays a report out.
//!
//! A report holds, per finding and per entry point, small JSON objects that
//! nothing reads until the report is written. As `serde_json::Value`s they
//! cost a B-tree node (~650 bytes) per object and an allocation per key: on
//! a 100 MB module, a fifth of the scan's memory. Kept as text, each is one
//! allocation of its own length. Written by `to_writer_pretty`, it is laid
//! out as a `Value` would be, keys in the same order, by re-indenting the
//! text; any other serializer gets it as a raw JSON value.
//!
//! The compact text and the pretty report are both written by `Json`, a
//! serializer that gives serde_json's bytes (the tests hold it to them) but
//! appends to a `Vec` and checks a string for bytes to escape sixteen at a
//! time: through serde_json's `Formatter`, a write per fragment and a table
//! look-up per byte of every string were a sixth of a whole scan.

use serde::ser::{self, Impossible, Serialize, SerializeStruct, Serializer};
use serde_json::ser::{CompactFormatter, Formatter};
use std::cell::Cell;
use std::fmt;
use std::io::{self, Write};

/// The struct name by which serde_json's serializers know a raw value
/// (`RawValue`'s own `Serialize` writes it): they copy its one field's text
/// as it stands. `CompactJson` hands its text over that way, without making
/// a `RawValue`, whose construction parses the text again.
const RAW_TOKEN: &str = "$serde_json::private::RawValue";

#[derive(Debug, Clone)]
pub struct CompactJson(Box<str>);

thread_local! {
    /// The text of a `CompactJson` as it is written, kept from one value to
    /// the next: grown once, not per value, and copied to an allocation of
    /// its own length (an entry point's text is kilobytes).
    static BUFFER: Cell<Vec<u8>> = const { Cell::new(Vec::new()) };
}

impl CompactJson {
    /// `v` as compact JSON; `null` if it cannot be written as JSON.
    pub fn of<T: Serialize + ?Sized>(v: &T) -> CompactJson {
        CompactJson::written(v, None)
    }

    /// `v` as pretty JSON laid out where a value stands `depth` levels deep
    /// (`to_writer_pretty_at`): written there, it is copied as it stands,
    /// not re-indented. Written anywhere else it is laid out again. For a
    /// value always written at the same place, whose text is worth more
    /// time than memory (twice the compact text, for an entry point).
    pub fn laid_out<T: Serialize + ?Sized>(v: &T, depth: usize) -> CompactJson {
        CompactJson::written(v, Some(depth))
    }

    fn written<T: Serialize + ?Sized>(v: &T, depth: Option<usize>) -> CompactJson {
        let mut out = BUFFER.take();
        out.clear();
        let mut json = Json::<io::Sink> {
            out: &mut out,
            sink: None,
            pretty: depth.is_some(),
            depth: depth.unwrap_or(0),
        };
        let written = v.serialize(&mut json);
        let json = match std::str::from_utf8(&out) {
            Ok(text) if written.is_ok() => CompactJson(text.into()),
            _ => CompactJson("null".into()),
        };
        if out.capacity() <= 1 << 20 {
            BUFFER.set(out);
        }
        json
    }

    /// What `write` lays out at `depth` (`Pretty`), kept as it stands, as
    /// `laid_out` keeps a value: for values made by the thousand, written
    /// field by field without serde's call per fragment.
    pub fn laid_out_by(depth: usize, write: impl FnOnce(&mut Pretty<'_>)) -> CompactJson {
        let mut out = BUFFER.take();
        out.clear();
        write(&mut Pretty::new(&mut out, depth));
        let json = match std::str::from_utf8(&out) {
            Ok(text) => CompactJson(text.into()),
            Err(_) => CompactJson("null".into()),
        };
        if out.capacity() <= 1 << 20 {
            BUFFER.set(out);
        }
        json
    }

    /// `{}`.
    /// Debug builds (tests, fuzzing): panics unless this text is what serde
    /// lays out for `reference` at `depth`. For the writers that bypass serde
    /// for speed, so a field added to a type cannot go missing from them.
    #[cfg(debug_assertions)]
    pub fn assert_as_serde<T: Serialize + ?Sized>(&self, reference: &T, depth: usize, what: &str) {
        let by_serde = CompactJson::laid_out(reference, depth);
        assert_eq!(self.0, by_serde.0, "{what}: written by hand unlike serde");
    }

    pub fn empty_object() -> CompactJson {
        CompactJson("{}".into())
    }

    /// The JSON parsed, for code that reads its fields.
    pub fn value(&self) -> serde_json::Value {
        serde_json::from_str(&self.0).unwrap_or_default()
    }
}

impl Serialize for CompactJson {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut raw = s.serialize_struct(RAW_TOKEN, 1)?;
        raw.serialize_field(RAW_TOKEN, &*self.0)?;
        raw.end()
    }
}

/// `value` as pretty JSON (two-space indent, as `serde_json::to_writer_pretty`
/// lays it out), with every `CompactJson` inside re-indented in place.
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
        self.buf.clear();
        let mut json = Json {
            out: &mut self.buf,
            sink: Some(&mut *out),
            pretty: true,
            depth,
        };
        value.serialize(&mut json).map_err(|e| e.0)?;
        out.write_all(&self.buf).map_err(io::Error::other)
    }
}

impl PrettyWriter {
    /// `write` for a value laid out by hand (`Pretty`), in one write.
    pub fn write_by<W: Write + ?Sized>(
        &mut self,
        out: &mut W,
        depth: usize,
        write: impl FnOnce(&mut Pretty<'_>),
    ) -> io::Result<()> {
        self.buf.clear();
        write(&mut Pretty::new(&mut self.buf, depth));
        out.write_all(&self.buf)
    }
}

/// Pretty JSON written field by field, byte for byte as `Json` lays out
/// the struct or sequence with the same fields and elements: for the
/// values a report writes by the thousand (entry points, findings), where
/// serde's calls per field and fragment were most of the cost. The caller
/// names each key (`key`) or element (`element`) before its value.
pub struct Pretty<'o> {
    out: &'o mut Vec<u8>,
    depth: usize,
    /// Nothing written yet in the innermost open container.
    first: bool,
}

impl<'o> Pretty<'o> {
    /// Writes a value that stands `depth` levels deep.
    pub fn new(out: &'o mut Vec<u8>, depth: usize) -> Self {
        Pretty {
            out,
            depth,
            first: true,
        }
    }

    /// `{` or `[`.
    pub fn open(&mut self, bracket: u8) {
        self.out.push(bracket);
        self.depth += 1;
        self.first = true;
    }

    /// `}` or `]`: on a line of its own unless the container is empty.
    pub fn close(&mut self, bracket: u8) {
        self.depth = self.depth.saturating_sub(1);
        if !self.first {
            newline_and_indent_vec(self.out, self.depth);
        }
        self.out.push(bracket);
        self.first = false;
    }

    /// What goes before an element of an array.
    #[inline(always)]
    pub fn element(&mut self) {
        separator(self.out, !self.first, self.depth);
        self.first = false;
    }

    /// What goes before a field's value. `key` is a plain name, copied as
    /// it stands (nothing in it to escape).
    #[inline(always)]
    pub fn key(&mut self, key: &'static str) {
        debug_assert!(nothing_to_escape(key.as_bytes()), "{key}");
        self.element();
        self.out.push(b'"');
        self.out.extend_from_slice(key.as_bytes());
        self.out.extend_from_slice(b"\": ");
    }

    /// What goes before a map entry's value: `key` escaped, as any string.
    pub fn key_str(&mut self, key: &str) {
        self.element();
        write_string(self.out, key);
        self.out.extend_from_slice(b": ");
    }

    #[inline(always)]
    pub fn str(&mut self, v: &str) {
        write_string(self.out, v);
    }

    #[inline(always)]
    pub fn u64(&mut self, v: u64) {
        number(self.out, |o| CompactFormatter.write_u64(o, v));
    }

    pub fn i64(&mut self, v: i64) {
        number(self.out, |o| CompactFormatter.write_i64(o, v));
    }

    pub fn bool(&mut self, v: bool) {
        self.out
            .extend_from_slice(if v { b"true" } else { b"false" });
    }

    pub fn null(&mut self) {
        self.out.extend_from_slice(b"null");
    }

    /// A number, or `null` for `None` (as serde writes an `Option`).
    pub fn opt_u64(&mut self, v: Option<u64>) {
        match v {
            Some(v) => self.u64(v),
            None => self.null(),
        }
    }

    /// A `CompactJson`, laid out here.
    pub fn raw(&mut self, v: &CompactJson) {
        let text = v.0.as_bytes();
        if laid_out_at(text) == Some(self.depth) {
            self.out.extend_from_slice(text);
        } else {
            lay_out(self.out, text, Some(self.depth));
        }
    }

    /// How many levels deep the next value stands.
    #[inline]
    pub fn depth(&self) -> usize {
        self.depth
    }

    /// Where the next byte goes, for `since`.
    pub fn mark(&self) -> usize {
        self.out.len()
    }

    /// What was written since `mark` gave `start`.
    pub fn since(&self, start: usize) -> &[u8] {
        self.out.get(start..).unwrap_or_default()
    }

    /// A value's text as `since` gave it, written where it stood then.
    pub fn copy(&mut self, text: &[u8]) {
        self.out.extend_from_slice(text);
        self.first = false;
    }

    /// Any value, through the serializer (`null` if it is not JSON).
    pub fn value<T: Serialize + ?Sized>(&mut self, v: &T) {
        let start = self.out.len();
        let mut json = Json::<io::Sink> {
            out: self.out,
            sink: None,
            pretty: true,
            depth: self.depth,
        };
        if v.serialize(&mut json).is_err() {
            self.out.truncate(start);
            self.null();
        }
    }

    /// An array of strings.
    pub fn strs<S: AsRef<str>>(&mut self, items: &[S]) {
        self.open(b'[');
        for s in items {
            self.element();
            self.str(s.as_ref());
        }
        self.close(b']');
    }
}

/// What the buffer may hold before it is handed to the writer: a large
/// module's report is tens of megabytes, never held whole.
const FLUSH_AT: usize = 32 << 10;

/// A serializer that appends serde_json's bytes to `out`, compact or pretty
/// (as `PrettyFormatter` lays them out, `depth` levels in), and hands them
/// to `sink`, if any, once they pass `FLUSH_AT`.
struct Json<'o, W: ?Sized> {
    out: &'o mut Vec<u8>,
    sink: Option<&'o mut W>,
    pretty: bool,
    depth: usize,
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
        if self.pretty && !empty {
            newline_and_indent_vec(self.out, self.depth);
        }
        self.out.push(bracket);
    }

    /// What goes before an element or a key.
    #[inline(always)]
    fn element(&mut self, first: bool) {
        if self.pretty {
            separator(self.out, !first, self.depth);
        } else if !first {
            self.out.push(b',');
        }
    }

    #[inline(always)]
    fn colon(&mut self) {
        if self.pretty {
            self.out.extend_from_slice(b": ");
        } else {
            self.out.push(b':');
        }
    }

    /// Opens the `{"variant": ` around a variant's content.
    fn variant(&mut self, variant: &str) {
        self.open(b'{');
        self.element(true);
        write_string(self.out, variant);
        self.colon();
    }

    fn flush(&mut self) -> Result<(), Error> {
        if self.out.len() >= FLUSH_AT
            && let Some(sink) = &mut self.sink
        {
            sink.write_all(self.out)
                .map_err(|e| Error(io::Error::other(e)))?;
            self.out.clear();
        }
        Ok(())
    }

    /// A raw value's text: copied as it stands if it is laid out as it
    /// should be here (compact, or pretty at this depth), else laid out.
    fn raw(&mut self, text: &str) {
        let text = text.as_bytes();
        let here = if self.pretty { Some(self.depth) } else { None };
        if laid_out_at(text) == here {
            self.out.extend_from_slice(text);
        } else {
            lay_out(self.out, text, here);
        }
    }
}

/// An array, object or raw value being written.
struct Compound<'a, 'o, W: ?Sized> {
    json: &'a mut Json<'o, W>,
    /// No element written yet.
    first: bool,
    /// `]` or `}`; 0 for a raw value.
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
        if self.closer != 0 {
            self.json.close(self.closer, self.first);
            if self.variant {
                self.json.close(b'}', false);
            }
        }
        Ok(())
    }
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
    fn serialize_i8(self, v: i8) -> Result<(), Error> {
        self.serialize_i64(v.into())
    }
    fn serialize_i16(self, v: i16) -> Result<(), Error> {
        self.serialize_i64(v.into())
    }
    fn serialize_i32(self, v: i32) -> Result<(), Error> {
        self.serialize_i64(v.into())
    }
    fn serialize_i64(self, v: i64) -> Result<(), Error> {
        number(self.out, |o| CompactFormatter.write_i64(o, v));
        Ok(())
    }
    fn serialize_i128(self, v: i128) -> Result<(), Error> {
        number(self.out, |o| CompactFormatter.write_i128(o, v));
        Ok(())
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
    fn serialize_char(self, v: char) -> Result<(), Error> {
        self.serialize_str(v.encode_utf8(&mut [0; 4]))
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
    fn serialize_some<T: ?Sized + Serialize>(self, value: &T) -> Result<(), Error> {
        value.serialize(self)
    }
    fn serialize_unit(self) -> Result<(), Error> {
        self.out.extend_from_slice(b"null");
        Ok(())
    }
    fn serialize_unit_struct(self, _name: &'static str) -> Result<(), Error> {
        self.serialize_unit()
    }
    fn serialize_unit_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
    ) -> Result<(), Error> {
        self.serialize_str(variant)
    }
    fn serialize_newtype_struct<T: ?Sized + Serialize>(
        self,
        _name: &'static str,
        value: &T,
    ) -> Result<(), Error> {
        value.serialize(self)
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
        name: &'static str,
        _len: usize,
    ) -> Result<Compound<'a, 'o, W>, Error> {
        if name == RAW_TOKEN {
            return Ok(Compound {
                json: self,
                first: true,
                closer: 0,
                variant: false,
            });
        }
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
        if self.closer == 0 {
            return value.serialize(RawText(self.json));
        }
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

/// Methods of a serializer that takes only some kinds of value: each of the
/// others is `$error()`.
macro_rules! refuse {
    ($error:ident: $($method:ident($($arg:ty),*)),* $(,)?) => {
        $(fn $method(self, $(_: $arg),*) -> Result<(), Error> {
            Err($error())
        })*
    };
}

/// Methods of a serializer that takes no compound value.
macro_rules! refuse_compounds {
    ($error:ident) => {
        type SerializeSeq = Impossible<(), Error>;
        type SerializeTuple = Impossible<(), Error>;
        type SerializeTupleStruct = Impossible<(), Error>;
        type SerializeTupleVariant = Impossible<(), Error>;
        type SerializeMap = Impossible<(), Error>;
        type SerializeStruct = Impossible<(), Error>;
        type SerializeStructVariant = Impossible<(), Error>;
        fn serialize_newtype_variant<T: ?Sized + Serialize>(
            self,
            _: &'static str,
            _: u32,
            _: &'static str,
            _: &T,
        ) -> Result<(), Error> {
            Err($error())
        }
        fn serialize_seq(self, _: Option<usize>) -> Result<Impossible<(), Error>, Error> {
            Err($error())
        }
        fn serialize_tuple(self, _: usize) -> Result<Impossible<(), Error>, Error> {
            Err($error())
        }
        fn serialize_tuple_struct(
            self,
            _: &'static str,
            _: usize,
        ) -> Result<Impossible<(), Error>, Error> {
            Err($error())
        }
        fn serialize_tuple_variant(
            self,
            _: &'static str,
            _: u32,
            _: &'static str,
            _: usize,
        ) -> Result<Impossible<(), Error>, Error> {
            Err($error())
        }
        fn serialize_map(self, _: Option<usize>) -> Result<Impossible<(), Error>, Error> {
            Err($error())
        }
        fn serialize_struct(
            self,
            _: &'static str,
            _: usize,
        ) -> Result<Impossible<(), Error>, Error> {
            Err($error())
        }
        fn serialize_struct_variant(
            self,
            _: &'static str,
            _: u32,
            _: &'static str,
            _: usize,
        ) -> Result<Impossible<(), Error>, Error> {
            Err($error())
        }
    };
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
    refuse_compounds!(key_must_be_a_string);
    refuse!(key_must_be_a_string:
        serialize_bytes(&[u8]),
        serialize_none(),
        serialize_unit(),
        serialize_unit_struct(&'static str),
    );

    fn serialize_str(self, v: &str) -> Result<(), Error> {
        write_string(self.0, v);
        Ok(())
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
    fn serialize_newtype_struct<T: ?Sized + Serialize>(
        self,
        _name: &'static str,
        value: &T,
    ) -> Result<(), Error> {
        value.serialize(self)
    }
    fn serialize_some<T: ?Sized + Serialize>(self, value: &T) -> Result<(), Error> {
        value.serialize(self)
    }
    fn serialize_bool(self, v: bool) -> Result<(), Error> {
        self.quoted(|o| CompactFormatter.write_bool(o, v))
    }
    fn serialize_i8(self, v: i8) -> Result<(), Error> {
        self.serialize_i64(v.into())
    }
    fn serialize_i16(self, v: i16) -> Result<(), Error> {
        self.serialize_i64(v.into())
    }
    fn serialize_i32(self, v: i32) -> Result<(), Error> {
        self.serialize_i64(v.into())
    }
    fn serialize_i64(self, v: i64) -> Result<(), Error> {
        self.quoted(|o| CompactFormatter.write_i64(o, v))
    }
    fn serialize_i128(self, v: i128) -> Result<(), Error> {
        self.quoted(|o| CompactFormatter.write_i128(o, v))
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

fn not_raw_text() -> Error {
    ser::Error::custom("a raw JSON value holds text")
}

/// The text of a raw value, written in place (re-indented when pretty).
struct RawText<'a, 'o, W: ?Sized>(&'a mut Json<'o, W>);

impl<W: ?Sized + Write> Serializer for RawText<'_, '_, W> {
    type Ok = ();
    type Error = Error;
    refuse_compounds!(not_raw_text);
    refuse!(not_raw_text:
        serialize_bool(bool),
        serialize_i8(i8),
        serialize_i16(i16),
        serialize_i32(i32),
        serialize_i64(i64),
        serialize_u8(u8),
        serialize_u16(u16),
        serialize_u32(u32),
        serialize_u64(u64),
        serialize_f32(f32),
        serialize_f64(f64),
        serialize_char(char),
        serialize_bytes(&[u8]),
        serialize_none(),
        serialize_unit(),
        serialize_unit_struct(&'static str),
        serialize_unit_variant(&'static str, u32, &'static str),
    );
    fn serialize_newtype_struct<T: ?Sized + Serialize>(
        self,
        _: &'static str,
        _: &T,
    ) -> Result<(), Error> {
        Err(not_raw_text())
    }
    fn serialize_some<T: ?Sized + Serialize>(self, _: &T) -> Result<(), Error> {
        Err(not_raw_text())
    }

    fn serialize_str(self, text: &str) -> Result<(), Error> {
        self.0.raw(text);
        Ok(())
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
/// hundreds of bytes.
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

/// The depth at which the text of a JSON object or array is laid out
/// pretty: the indent of its closing bracket. `None` for compact text
/// (which has no newline outside strings, and none in them, escaped).
fn laid_out_at(json: &[u8]) -> Option<usize> {
    let (_, before) = json.split_last()?;
    let spaces = before.iter().rev().take_while(|&&b| b == b' ').count();
    let newline = before.len().checked_sub(spaces + 1)?;
    (before.get(newline) == Some(&b'\n')).then_some(spaces / INDENT.len())
}

/// Appends JSON text, compact (serde_json's own) or laid out at some
/// depth, laid out at `depth` (`None`: compact): a newline and indent
/// after each opening bracket and comma, `": "` between key and value,
/// `[]` and `{}` kept whole, whitespace outside strings dropped. Bytes
/// that stay as they are (strings, numbers, a comma) are copied in one go
/// up to the next place where layout goes in.
fn lay_out(out: &mut Vec<u8>, json: &[u8], depth: Option<usize>) {
    let pretty = depth.is_some();
    let mut depth = depth.unwrap_or(0);
    out.reserve(json.len() + json.len() / 2);
    // The start of the bytes not yet copied.
    let mut run = 0;
    let mut i = 0;
    while let Some(&b) = json.get(i) {
        match b {
            b'"' => {
                i = string_end(json, i);
                continue;
            }
            b'{' | b'[' => {
                let closer = if b == b'{' { b'}' } else { b']' };
                if json.get(i + 1) == Some(&closer) {
                    i += 2;
                    continue;
                }
                depth += 1;
                out.extend_from_slice(&json[run..=i]);
                if pretty {
                    newline_and_indent_vec(out, depth);
                }
            }
            b'}' | b']' => {
                depth = depth.saturating_sub(1);
                out.extend_from_slice(&json[run..i]);
                if pretty {
                    newline_and_indent_vec(out, depth);
                }
                out.push(b);
            }
            b',' => {
                out.extend_from_slice(&json[run..=i]);
                if pretty {
                    newline_and_indent_vec(out, depth);
                }
            }
            b':' => {
                out.extend_from_slice(&json[run..i]);
                out.extend_from_slice(if pretty { b": " } else { b":" });
            }
            b' ' | b'\n' => {
                out.extend_from_slice(&json[run..i]);
                while matches!(json.get(i + 1), Some(b' ' | b'\n')) {
                    i += 1;
                }
            }
            _ => {
                i += 1;
                continue;
            }
        }
        i += 1;
        run = i;
    }
    out.extend_from_slice(json.get(run..).unwrap_or_default());
}

/// Just past the string whose opening quote is at `start` (the end of the
/// text if it is not closed, which serde_json never writes). A plain loop:
/// these strings are mostly names of a few bytes, where memchr's set-up
/// cost more than the search.
fn string_end(json: &[u8], start: usize) -> usize {
    let mut i = start + 1;
    while let Some(&b) = json.get(i) {
        match b {
            b'"' => return i + 1,
            b'\\' => i += 2,
            _ => i += 1,
        }
    }
    json.len()
}

#[cfg(test)]
mod tests {
    use super::{CompactJson, to_writer_pretty};

    fn pretty<T: serde::Serialize>(v: &T) -> String {
        let mut out = Vec::new();
        to_writer_pretty(&mut out, v).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn written_pretty_like_the_value_it_holds() {
        let v = serde_json::json!({"b": [1, {"c": "x"}], "a": null});
        let compact = CompactJson::of(&v);
        assert_eq!(compact.value(), v);
        assert_eq!(pretty(&compact), serde_json::to_string_pretty(&v).unwrap());
        assert_eq!(
            serde_json::to_string(&CompactJson::empty_object()).unwrap(),
            "{}"
        );
    }

    #[test]
    fn nested_and_escaped_values_laid_out_as_serde_json_does() {
        // Strings holding brackets, commas, colons, quotes and backslashes;
        // empty containers; numbers of each kind; a compact value nested in
        // ordinary structure at depth 2, as a report's evidence is.
        let inner = serde_json::json!({
            "s": "a,b:{c}[d] \"q\" \\ end\\",
            "e": [], "o": {}, "n": [1, -2, 2.5, 1e300, null, true],
            "deep": [[{"x": [{}]}]],
        });
        let outer = serde_json::json!({"files": [{"evidence": inner.clone(), "k": "v"}], "z": []});
        let with_compact = serde_json::json!({"files": [{"evidence": null, "k": "v"}], "z": []});
        #[derive(serde::Serialize)]
        struct File {
            evidence: CompactJson,
            k: &'static str,
        }
        #[derive(serde::Serialize)]
        struct Report {
            files: Vec<File>,
            z: Vec<u8>,
        }
        let report = Report {
            files: vec![File {
                evidence: CompactJson::of(&inner),
                k: "v",
            }],
            z: vec![],
        };
        assert_eq!(
            pretty(&report),
            serde_json::to_string_pretty(&outer).unwrap()
        );
        assert_eq!(
            pretty(&with_compact),
            serde_json::to_string_pretty(&with_compact).unwrap()
        );
        // Any other serializer gets the value itself.
        assert_eq!(serde_json::to_value(&report).unwrap(), outer);
    }

    #[test]
    fn indents_deeper_than_the_prepared_line_still_laid_out_as_serde_json_does() {
        // 40 levels: past the 32 that newline_and_indent writes in one go,
        // both as ordinary structure and inside a compact value.
        let mut deep = serde_json::json!({"leaf": [1, 2]});
        for level in 0..40 {
            deep = serde_json::json!({ format!("k{level}"): [deep, level] });
        }
        let expected = serde_json::to_string_pretty(&deep).unwrap();
        assert_eq!(pretty(&deep), expected);
        assert_eq!(pretty(&CompactJson::of(&deep)), expected);
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
        raw: CompactJson,
        raws: Vec<CompactJson>,
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

    fn every() -> Every {
        let nested = serde_json::json!({"s": "x\"y\\z\n\u{1}\u{7f}é", "a": [[], {}, [1, [2, {"k": null}]]], "f": 1.5e-7});
        Every {
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
            nested: nested.clone(),
            raw: CompactJson::of(&nested),
            raws: vec![CompactJson::empty_object(), CompactJson::of(&[1, 2])],
            none: None,
        }
    }

    #[test]
    fn every_kind_of_value_written_as_serde_json_writes_it() {
        let v = every();
        let compact = CompactJson::of(&v);
        assert_eq!(&*compact.0, serde_json::to_string(&v).unwrap());
        let pretty_json = pretty(&v);
        assert_eq!(
            serde_json::to_value(&v).unwrap(),
            serde_json::from_str::<serde_json::Value>(&pretty_json).unwrap()
        );
        // Every field but the raw ones (which serde_json copies as they
        // stand) laid out by serde_json.
        let mut reference = Vec::new();
        let mut ser = serde_json::Serializer::pretty(&mut reference);
        serde::Serialize::serialize(&v, &mut ser).unwrap();
        let reference = String::from_utf8(reference).unwrap();
        let strip_raw = |s: &str| -> String {
            let start = s.find("\"raw\"").unwrap();
            let end = s.find("\"none\"").unwrap();
            format!("{}{}", &s[..start], &s[end..])
        };
        assert_eq!(strip_raw(&pretty_json), strip_raw(&reference));
        assert_eq!(
            pretty(&v.nested),
            serde_json::to_string_pretty(&v.nested).unwrap()
        );
    }

    #[test]
    fn laid_out_text_copied_where_it_stands_and_laid_out_again_elsewhere() {
        let inner = serde_json::json!({"s": "a: b, [c]\n  }", "e": [], "n": [1, {"k": [2]}]});
        #[derive(serde::Serialize)]
        struct File {
            evidence: CompactJson,
            k: &'static str,
        }
        #[derive(serde::Serialize)]
        struct Report {
            files: Vec<File>,
        }
        let plain = serde_json::json!({"files": [{"evidence": inner.clone(), "k": "v"}]});
        // `evidence` stands three levels deep: `{`, `"files": [`, `{`.
        for depth in [3, 0, 1, 7, 40] {
            let evidence = CompactJson::laid_out(&inner, depth);
            assert_eq!(super::laid_out_at(evidence.0.as_bytes()), Some(depth));
            let report = Report {
                files: vec![File { evidence, k: "v" }],
            };
            assert_eq!(
                pretty(&report),
                serde_json::to_string_pretty(&plain).unwrap()
            );
            assert_eq!(
                &*CompactJson::of(&report).0,
                serde_json::to_string(&plain).unwrap()
            );
            assert_eq!(serde_json::to_value(&report).unwrap(), plain);
            assert_eq!(report.files[0].evidence.value(), inner);
        }
        assert_eq!(
            super::laid_out_at(CompactJson::of(&inner).0.as_bytes()),
            None
        );
    }

    #[test]
    fn strings_escaped_as_serde_json_escapes_them() {
        // Every ASCII byte, alone and in long runs on either side of the
        // sixteen-byte chunks the check reads.
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
            assert_eq!(
                &*CompactJson::of(s).0,
                serde_json::to_string(s).unwrap(),
                "{s:?}"
            );
        }
        assert_eq!(
            pretty(&strings),
            serde_json::to_string_pretty(&strings).unwrap()
        );
    }

    #[test]
    fn what_json_cannot_hold_is_null_and_errors_reach_the_writer() {
        let bad: std::collections::BTreeMap<(u8, u8), u8> = [((1, 2), 3)].into_iter().collect();
        assert_eq!(&*CompactJson::of(&bad).0, "null");
        assert!(serde_json::to_string(&bad).is_err());
        let some_key: std::collections::BTreeMap<Option<u8>, u8> =
            [(Some(3), 0)].into_iter().collect();
        assert_eq!(
            &*CompactJson::of(&some_key).0,
            serde_json::to_string(&some_key).unwrap()
        );
        assert_eq!(
            pretty(&some_key),
            serde_json::to_string_pretty(&some_key).unwrap()
        );
        let none_key: std::collections::BTreeMap<Option<u8>, u8> =
            [(None, 1)].into_iter().collect();
        assert_eq!(&*CompactJson::of(&none_key).0, "null");
        assert!(serde_json::to_string(&none_key).is_err());
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
