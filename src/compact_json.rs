//! JSON kept as compact text until it is written.
//!
//! A report holds, per finding and per entry point, small JSON objects that
//! nothing reads until the report is written. As `serde_json::Value`s they
//! cost a B-tree node (~650 bytes) per object and an allocation per key: on
//! a 100 MB module, a fifth of the scan's memory. Kept as text, each is one
//! allocation of its own length; written through a transcoder, a pretty
//! report lays it out as it would a `Value`, keys in the same order.

use serde::{Serialize, Serializer};
use serde_json::value::RawValue;

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
        serde_transcode::transcode(&mut serde_json::Deserializer::from_str(self.0.get()), s)
    }
}

#[cfg(test)]
mod tests {
    use super::CompactJson;

    #[test]
    fn written_pretty_like_the_value_it_holds() {
        let v = serde_json::json!({"b": [1, {"c": "x"}], "a": null});
        let compact = CompactJson::of(&v);
        assert_eq!(compact.value(), v);
        assert_eq!(
            serde_json::to_string_pretty(&compact).unwrap(),
            serde_json::to_string_pretty(&v).unwrap()
        );
        assert_eq!(
            serde_json::to_string(&CompactJson::empty_object()).unwrap(),
            "{}"
        );
    }
}
