//! JSON kept as compact text until it is written.
//!
//! A report holds, per finding and per entry point, small JSON objects that
//! nothing reads until the report is written. As `serde_json::Value`s they
//! cost a B-tree node (~650 bytes) per object and an allocation per key: on
//! a 100 MB module, a fifth of the scan's memory. Kept as text, each is one
//! allocation of its own length. Written by `to_writer_pretty`, it is laid
//! out as a `Value` would be, keys in the same order, by re-indenting the
//! text; any other serializer gets it as a raw JSON value.

use serde::{Serialize, Serializer};
use serde_json::ser::Formatter;
use serde_json::value::RawValue;
use std::io::{self, Write};

#[derive(Debug, Clone)]
pub struct CompactJson(Box<RawValue>);

impl CompactJson {
    /// `v` as compact JSON; `null` if it cannot be written as JSON.
    pub fn of<T: Serialize + ?Sized>(v: &T) -> CompactJson {
        serde_json::value::to_raw_value(v)
            .map(CompactJson)
            .unwrap_or_else(|_| CompactJson::parse("null"))
    }

    /// `{}`.
    pub fn empty_object() -> CompactJson {
        CompactJson::parse("{}")
    }

    fn parse(text: &str) -> CompactJson {
        CompactJson(RawValue::from_string(text.to_string()).unwrap_or_default())
    }

    /// The JSON parsed, for code that reads its fields.
    pub fn value(&self) -> serde_json::Value {
        serde_json::from_str(self.0.get()).unwrap_or_default()
    }
}

impl Serialize for CompactJson {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(s)
    }
}

/// `value` as pretty JSON (two-space indent, as `serde_json::to_writer_pretty`
/// lays it out), with every `CompactJson` inside re-indented in place.
/// Transcoding each through a deserializer instead was a seventh of a whole
/// scan's instructions on a module whose report is 5 MB.
pub fn to_writer_pretty<W: Write, T: Serialize + ?Sized>(out: W, value: &T) -> io::Result<()> {
    to_writer_pretty_at(out, 0, value)
}

/// `to_writer_pretty` for a value that stands `depth` levels deep in a
/// pretty document: its inner lines are indented to match, so the text can
/// be written where the value goes.
pub fn to_writer_pretty_at<W: Write, T: Serialize + ?Sized>(
    out: W,
    depth: usize,
    value: &T,
) -> io::Result<()> {
    let pretty = Pretty {
        depth,
        has_value: false,
    };
    let mut ser = serde_json::Serializer::with_formatter(out, pretty);
    value.serialize(&mut ser).map_err(io::Error::other)
}

/// serde_json's pretty layout, written out because its `PrettyFormatter`
/// keeps its depth private and a raw fragment needs it.
#[derive(Default)]
struct Pretty {
    depth: usize,
    has_value: bool,
}

const INDENT: &[u8] = b"  ";

/// A newline and the indent of `depth`, in one write where the depth allows
/// (a report has tens of thousands of lines; a write of two bytes per level
/// was a tenth of writing it).
pub fn newline_and_indent<W: ?Sized + Write>(out: &mut W, depth: usize) -> io::Result<()> {
    const MAX: usize = 32;
    static NEWLINE_AND_SPACES: [u8; 1 + MAX * INDENT.len()] = {
        let mut line = [b' '; 1 + MAX * INDENT.len()];
        line[0] = b'\n';
        line
    };
    out.write_all(&NEWLINE_AND_SPACES[..1 + depth.min(MAX) * INDENT.len()])?;
    for _ in MAX..depth {
        out.write_all(INDENT)?;
    }
    Ok(())
}

impl Pretty {
    fn open<W: ?Sized + Write>(&mut self, out: &mut W, bracket: &[u8]) -> io::Result<()> {
        self.depth += 1;
        self.has_value = false;
        out.write_all(bracket)
    }

    fn close<W: ?Sized + Write>(&mut self, out: &mut W, bracket: &[u8]) -> io::Result<()> {
        self.depth -= 1;
        if self.has_value {
            newline_and_indent(out, self.depth)?;
        }
        out.write_all(bracket)
    }

    fn element<W: ?Sized + Write>(&mut self, out: &mut W, first: bool) -> io::Result<()> {
        if !first {
            out.write_all(b",")?;
        }
        newline_and_indent(out, self.depth)
    }
}

impl Formatter for Pretty {
    fn begin_array<W: ?Sized + Write>(&mut self, out: &mut W) -> io::Result<()> {
        self.open(out, b"[")
    }
    fn end_array<W: ?Sized + Write>(&mut self, out: &mut W) -> io::Result<()> {
        self.close(out, b"]")
    }
    fn begin_array_value<W: ?Sized + Write>(&mut self, out: &mut W, first: bool) -> io::Result<()> {
        self.element(out, first)
    }
    fn end_array_value<W: ?Sized + Write>(&mut self, _out: &mut W) -> io::Result<()> {
        self.has_value = true;
        Ok(())
    }
    fn begin_object<W: ?Sized + Write>(&mut self, out: &mut W) -> io::Result<()> {
        self.open(out, b"{")
    }
    fn end_object<W: ?Sized + Write>(&mut self, out: &mut W) -> io::Result<()> {
        self.close(out, b"}")
    }
    fn begin_object_key<W: ?Sized + Write>(&mut self, out: &mut W, first: bool) -> io::Result<()> {
        self.element(out, first)
    }
    fn begin_object_value<W: ?Sized + Write>(&mut self, out: &mut W) -> io::Result<()> {
        out.write_all(b": ")
    }
    fn end_object_value<W: ?Sized + Write>(&mut self, _out: &mut W) -> io::Result<()> {
        self.has_value = true;
        Ok(())
    }
    fn write_raw_fragment<W: ?Sized + Write>(&mut self, out: &mut W, json: &str) -> io::Result<()> {
        reindent(out, json.as_bytes(), self.depth)
    }
}

/// Writes compact JSON (serde_json's own, no whitespace outside strings) as
/// the pretty layout at `depth`: a newline and indent after each opening
/// bracket and comma, `": "` between key and value, `[]` and `{}` kept whole.
/// Strings are copied in runs, so the cost is a few instructions a byte.
fn reindent<W: ?Sized + Write>(out: &mut W, json: &[u8], mut depth: usize) -> io::Result<()> {
    let mut i = 0;
    while i < json.len() {
        // Everything up to the next structural byte or string is copied as is.
        let run = json[i..]
            .iter()
            .position(|b| matches!(b, b'"' | b'{' | b'[' | b'}' | b']' | b',' | b':'))
            .unwrap_or(json.len() - i);
        out.write_all(&json[i..i + run])?;
        i += run;
        let Some(&b) = json.get(i) else { break };
        match b {
            b'"' => {
                let end = string_end(json, i);
                out.write_all(&json[i..end])?;
                i = end;
                continue;
            }
            b'{' | b'[' => {
                let closer = if b == b'{' { b'}' } else { b']' };
                if json.get(i + 1) == Some(&closer) {
                    out.write_all(&[b, closer])?;
                    i += 2;
                    continue;
                }
                depth += 1;
                out.write_all(&[b])?;
                newline_and_indent(out, depth)?;
            }
            b'}' | b']' => {
                depth = depth.saturating_sub(1);
                newline_and_indent(out, depth)?;
                out.write_all(&[b])?;
            }
            b',' => {
                out.write_all(b",")?;
                newline_and_indent(out, depth)?;
            }
            _ => out.write_all(b": ")?,
        }
        i += 1;
    }
    Ok(())
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
}
