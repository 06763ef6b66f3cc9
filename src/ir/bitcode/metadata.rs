//! METADATA_BLOCK: strings, nodes, values, debug-info records and named
//! metadata, by metadata id. Node operands are stored as LLVM writes them
//! (id + 1, 0 for null); debug-info nodes keep their fields by name so the
//! printer writes them as `!DIFile(filename: "...", ...)`.

use super::Error;
use super::bitstream::Reader;
use super::module::{Module, bad, chars};
use super::types::TypeId;

/// A field of a debug-info node.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Field {
    /// A metadata reference, id + 1 (0: null, left out when printed).
    Md(u64),
    /// A string reference, id + 1 (left out when 0 or empty).
    Str(u64),
    /// A string printed even when null or empty (`directory: ""`).
    StrAlways(u64),
    /// A reference printed even when null (`scope: null`).
    MdOrNull(u64),
    /// A bound (`count:`), id + 1: a constant integer printed as its
    /// number, another node as a reference, left out when null.
    Bound(u64),
    Int(i64),
    Uint(u64),
    /// A name: tags, booleans, enumerations.
    Word(&'static str),
    /// Printed as is: flags.
    Text(String),
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Md {
    /// Its bytes: a span of [`MdTable::bytes`].
    Str(Span),
    /// `T v`, a value of the module or function.
    Value(TypeId, u32),
    Node {
        distinct: bool,
        /// Its operands: a span of [`MdTable::node_ops`].
        ops: Span,
    },
    Special {
        distinct: bool,
        kind: &'static str,
        fields: Vec<(&'static str, Field)>,
    },
    /// `!DIExpression(...)` and other nodes printed as given.
    Raw(String),
    ArgList(Vec<u64>),
}

/// A span of one of [`MdTable`]'s flat vectors.
pub type Span = std::ops::Range<usize>;

/// Where a table ended, to go back to after a body (see
/// [`MdTable::mark`]).
#[derive(Debug, Clone, Copy)]
pub struct Mark {
    items: usize,
    bytes: usize,
    node_ops: usize,
}

#[derive(Debug, Default)]
pub struct MdTable {
    pub items: Vec<Md>,
    /// The strings' bytes, one after another (one vector, not one per
    /// string: allocating and freeing them was ~2% of a scan).
    pub bytes: Vec<u8>,
    /// The nodes' operands, one node after another.
    pub node_ops: Vec<u64>,
    pub named: Vec<(String, Vec<u64>)>,
    /// METADATA_GLOBAL_DECL_ATTACHMENT: (global value id, [(kind, md)]).
    pub global_attachments: Vec<(u64, Vec<(u64, u64)>)>,
}

impl MdTable {
    pub fn len(&self) -> usize {
        self.items.len()
    }

    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    pub fn get(&self, id: u32) -> Option<&Md> {
        self.items.get(id as usize)
    }

    /// A string's bytes.
    pub fn str(&self, span: &Span) -> &[u8] {
        self.bytes.get(span.clone()).unwrap_or_default()
    }

    /// A node's operands.
    pub fn ops(&self, span: &Span) -> &[u64] {
        self.node_ops.get(span.clone()).unwrap_or_default()
    }

    /// Where the table ends now.
    pub fn mark(&self) -> Mark {
        Mark {
            items: self.items.len(),
            bytes: self.bytes.len(),
            node_ops: self.node_ops.len(),
        }
    }

    /// Drops what came after `mark` (a body's own metadata).
    pub fn truncate(&mut self, mark: Mark) {
        self.items.truncate(mark.items);
        self.bytes.truncate(mark.bytes);
        self.node_ops.truncate(mark.node_ops);
    }

    /// Empties the table, keeping its vectors' room.
    pub fn clear(&mut self) {
        self.truncate(Mark {
            items: 0,
            bytes: 0,
            node_ops: 0,
        });
        self.named.clear();
        self.global_attachments.clear();
    }

    fn push_str(&mut self, bytes: impl IntoIterator<Item = u8>) -> Md {
        let start = self.bytes.len();
        self.bytes.extend(bytes);
        Md::Str(start..self.bytes.len())
    }

    /// Reads a metadata block, at module level or (with `function`) in a
    /// body, appending to the table.
    pub fn block(&mut self, r: &mut Reader<'_>, m: &Module<'_>) -> Result<(), Error> {
        let mut ops = r.ops();
        let mut name: Option<String> = None;
        while let Some(rec) = r.next_record(&mut ops)? {
            let item = match rec.code {
                35 => {
                    self.strings(r, &ops, rec.blob)?;
                    continue;
                }
                1 => self.push_str(ops.iter().map(|&c| c as u8)),
                2 => {
                    let (Some(&t), Some(&v)) = (ops.first(), ops.get(1)) else {
                        return Err(bad(r, "metadata value"));
                    };
                    let t = m.type_id(r, t)?;
                    // May name a value defined later in the body: the
                    // printer checks every reference when it writes it.
                    let v = u32::try_from(v).map_err(|_| bad(r, "metadata value"))?;
                    Md::Value(t, v)
                }
                3 | 5 => {
                    let start = self.node_ops.len();
                    self.node_ops.extend_from_slice(&ops);
                    Md::Node {
                        distinct: rec.code == 5,
                        ops: start..self.node_ops.len(),
                    }
                }
                4 => {
                    name = Some(String::from_utf8_lossy(&chars(&ops)).into_owned());
                    continue;
                }
                10 => {
                    let n = name
                        .take()
                        .ok_or_else(|| r.error("NAMED_NODE without a NAME before it"))?;
                    self.named.push((n, ops.clone()));
                    continue;
                }
                6 => continue, // kinds in an old place: the kind block has them
                36 => {
                    if ops.len() % 2 == 0 {
                        return Err(bad(r, "global attachment"));
                    }
                    let pairs = ops[1..].chunks(2).map(|p| (p[0], p[1])).collect();
                    self.global_attachments.push((ops[0], pairs));
                    continue;
                }
                38 | 39 => continue, // index offsets: for lazy loading only
                46 => Md::ArgList(ops.clone()),
                code => super::debug_info::node(r, code, &ops)?,
            };
            self.items.push(item);
        }
        r.give_back(ops);
        Ok(())
    }

    fn strings(&mut self, r: &Reader<'_>, ops: &[u64], blob: Option<&[u8]>) -> Result<(), Error> {
        let (Some(&count), Some(&offset), Some(blob)) = (ops.first(), ops.get(1), blob) else {
            return Err(bad(r, "metadata strings"));
        };
        let offset = usize::try_from(offset)
            .ok()
            .filter(|&o| o <= blob.len())
            .ok_or_else(|| bad(r, "metadata strings"))?;
        let (lengths, mut chars) = blob.split_at(offset);
        if count > lengths.len() as u64 * 8 / 6 + 1 {
            return Err(r.error(format!(
                "{count} metadata strings in a table of {} bytes",
                lengths.len()
            )));
        }
        let mut lr = Reader::new(lengths, r.offset());
        for _ in 0..count {
            let len = lr.vbr6()?;
            let len = usize::try_from(len)
                .ok()
                .filter(|&l| l <= chars.len())
                .ok_or_else(|| r.error("metadata string runs past its blob"))?;
            let (s, rest) = chars.split_at(len);
            let item = self.push_str(s.iter().copied());
            self.items.push(item);
            chars = rest;
        }
        Ok(())
    }
}
