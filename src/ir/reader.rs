//! The module-level reader: header, named types, globals, function headers,
//! attribute groups and metadata. Function bodies are located (one memchr
//! scan for the closing brace) but parsed later, on demand, by `body`.

use super::lexer::{self, Lexer, Tok};
use super::limits;
use super::model::{
    AttributeGroup, Diagnostic, Function, Global, Module, NamedMetadata, NamedStruct, Param,
};
use super::parser::{PResult, ParseError, Parser};

/// Linkage words, the first of which a global or function keeps as its linkage.
const LINKAGES: &[&str] = &[
    "private",
    "internal",
    "available_externally",
    "linkonce",
    "weak",
    "common",
    "appending",
    "extern_weak",
    "linkonce_odr",
    "weak_odr",
    "external",
];

/// Reads `text` (the whole file) into a module. Never fails: problems become
/// diagnostics and the reader resumes at the next top-level entity.
///
/// A `metal-objdump` dump of one function is read without its wrapper. Of
/// a whole library's dump only the first module is read, with a warning:
/// a scan cuts such a dump into its modules (`dump::split`) and reads each
/// with [`read_module_at`].
pub fn read_module(text: &str) -> Module<'_> {
    if let Some(dump) = super::dump::split(text) {
        let Some(first) = dump.modules.first() else {
            let mut module = read_module_at("", 1);
            module.diagnostics.extend(dump.skipped);
            return module;
        };
        let mut module = read_module_at(first.text, first.first_line);
        if dump.modules.len() > 1 {
            module.diagnostics.push(Diagnostic::warning(
                first.first_line.saturating_sub(1),
                format!(
                    "a metal-objdump dump of {} modules: only the first, {}, is read here",
                    dump.modules.len(),
                    lexer::cut(first.name)
                ),
            ));
        }
        return module;
    }
    let (text, first_line) = strip_dump_wrapper(text);
    read_module_at(text, first_line)
}

/// Reads `text`, whose first line is line `first_line` of its file (a
/// module of a dump), into a module.
pub fn read_module_at(text: &str, first_line: u32) -> Module<'_> {
    if text.len() as u64 > limits::MAX_FILE_SIZE {
        // Checked here too for text that did not come through `input::load`.
        let mut module = Module::default();
        module.diagnostics.push(Diagnostic::error(
            first_line,
            format!(
                "the text is {} bytes; the limit is {} bytes: not read",
                text.len(),
                limits::MAX_FILE_SIZE
            ),
        ));
        return module;
    }
    let mut module = Module {
        text,
        first_line,
        metadata: super::metadata::MetadataTable::new(text),
        long_lines: limits::long_lines(text, limits::MAX_LINE_LENGTH),
        ..Module::default()
    };
    module.module_id = module_id(text);
    let mut r = Reading {
        diags: module.diagnostic_budget.module_level(),
        functions_dropped: None,
        globals_dropped: None,
    };
    report_long_lines(&module, first_line, &mut r.diags);
    let mut types = std::mem::take(&mut module.types);
    {
        let lexer = Lexer::skipping(text, first_line, module.long_lines.clone());
        let mut p = Parser::new(lexer, &mut types);
        loop {
            let t = p.lx.peek();
            if t.tok == Tok::Eof {
                break;
            }
            if let Err(e) = top_level(&mut p, &mut module, &mut r) {
                if text
                    .get(t.start..)
                    .is_some_and(|s| s.starts_with(DISASSEMBLY))
                {
                    // A dump's blocks after the IR, without the header
                    // line that `strip_dump_wrapper` cuts them by.
                    module.text = &text[..t.start];
                    break;
                }
                r.diags.push(Diagnostic::error(e.line, e.message));
                p.reset_depth();
                p.lx.recover_after(t.line.max(e.line));
            }
        }
    }
    module.types = types;
    module.metadata.finish();
    // Kept to the end of the scan: without the room their growth left.
    module.functions.shrink_to_fit();
    module.globals.shrink_to_fit();
    for (dropped, what, limit) in [
        (r.functions_dropped, "functions", limits::MAX_FUNCTIONS),
        (r.globals_dropped, "globals", limits::MAX_GLOBALS),
    ] {
        if let Some((count, line)) = dropped {
            r.diags.push_always(Diagnostic::error(
                line,
                format!("more than {limit} {what}: the {count} from this line on are skipped"),
            ));
        }
    }
    module.diagnostic_budget.charge(&r.diags, true);
    module.diagnostics = r.diags.into_vec();
    module
}

/// What one `read_module` call tracks besides the module.
struct Reading {
    diags: limits::Capped,
    /// How many were skipped past the limit, and the line of the first.
    functions_dropped: Option<(usize, u32)>,
    globals_dropped: Option<(usize, u32)>,
}

/// Counts one entity skipped past its limit.
fn dropped(slot: &mut Option<(usize, u32)>, line: u32) {
    match slot {
        Some((n, _)) => *n += 1,
        None => *slot = Some((1, line)),
    }
}

/// One error per line longer than `MAX_LINE_LENGTH`, with its line number.
fn report_long_lines(m: &Module<'_>, first_line: u32, out: &mut limits::Capped) {
    let bytes = m.text.as_bytes();
    let (mut at, mut line) = (0, first_line);
    for r in &m.long_lines {
        line += memchr::memchr_iter(b'\n', &bytes[at..r.start]).count() as u32;
        at = r.start;
        out.push_always(Diagnostic::error(
            line,
            format!(
                "line is {} bytes long; the limit is {} bytes: the line is skipped",
                r.len(),
                limits::MAX_LINE_LENGTH
            ),
        ));
    }
}

/// Apple's `metal-objdump` prints a `0x... -- name:` line before the IR and
/// `Disassembly of section ...` blocks after it. Returns the IR part and the
/// line its first line has in the file.
fn strip_dump_wrapper(text: &str) -> (&str, u32) {
    let mut body = text;
    let mut first_line = 1;
    let first = text.split('\n').next().unwrap_or("").trim_end();
    if first.starts_with("0x") && first.contains(" -- ") && first.ends_with(':') {
        body = &text[text.find('\n').map_or(text.len(), |i| i + 1)..];
        first_line = 2;
        // Looked for only under the header: a search of every module's
        // whole text cost 1.3% of a scan. The reader stops at one too.
        if let Some(i) = memchr::memmem::find(body.as_bytes(), b"\nDisassembly of section") {
            body = &body[..i + 1];
        }
    }
    if body.starts_with(DISASSEMBLY) {
        body = "";
    }
    (body, first_line)
}

/// The line that opens each of a dump's blocks after the IR.
const DISASSEMBLY: &str = "Disassembly of section";

/// A `define` line, looked for from every body: built once, not per body.
static DEFINE: std::sync::LazyLock<memchr::memmem::Finder<'static>> =
    std::sync::LazyLock::new(|| memchr::memmem::Finder::new(b"\ndefine "));

fn module_id(text: &str) -> Option<&str> {
    let rest = text.strip_prefix("; ModuleID = '")?;
    let end = rest.find('\'')?;
    Some(&rest[..end])
}

fn top_level<'a>(p: &mut Parser<'a, '_>, m: &mut Module<'a>, r: &mut Reading) -> PResult<()> {
    let t = p.lx.next_token();
    match t.tok {
        Tok::Word("source_filename") => {
            p.expect(b'=')?;
            m.source_filename = Some(p.expect_str()?);
        }
        Tok::Word("target") => {
            let which = p.lx.next_token();
            p.expect(b'=')?;
            let s = p.expect_str()?;
            match which.tok {
                Tok::Word("triple") => m.target_triple = Some(s),
                Tok::Word("datalayout") => m.datalayout = Some(s),
                other => {
                    return p.error(
                        which.line,
                        format!("unknown target property {}", other.describe()),
                    );
                }
            }
        }
        Tok::Local(name) => {
            p.expect(b'=')?;
            p.expect_word("type")?;
            let body = if p.lx.eat_word("opaque") {
                None
            } else {
                Some(p.parse_type()?)
            };
            if let Some(b) = body {
                p.types.set_named_body(name, b);
            }
            m.struct_types.push(NamedStruct {
                name,
                body,
                line: t.line,
            });
        }
        Tok::Global(name) => {
            let read = global(p, m, name, t.line);
            if m.globals.len() > limits::MAX_GLOBALS {
                m.globals.truncate(limits::MAX_GLOBALS);
                dropped(&mut r.globals_dropped, t.line);
            }
            read?
        }
        Tok::Word(kw @ ("define" | "declare")) => {
            // Read even past the limit, so the body is located and passed over.
            let read = function(p, m, r, kw == "define", t.line);
            if m.functions.len() > limits::MAX_FUNCTIONS {
                m.functions.truncate(limits::MAX_FUNCTIONS);
                dropped(&mut r.functions_dropped, t.line);
            }
            read?
        }
        Tok::Word("attributes") => {
            let id = match p.lx.next_tok() {
                Tok::Hash(id) => id,
                _ => return p.error(t.line, "expected '#N' after 'attributes'"),
            };
            p.expect(b'=')?;
            let open = p.lx.peek();
            p.skip_group()?;
            let close = p.lx.peek().start;
            let inner = p.lx.text().get(open.end..close).unwrap_or("");
            let inner = inner.trim_end().strip_suffix('}').unwrap_or(inner).trim();
            m.attribute_groups.push(AttributeGroup { id, text: inner });
        }
        Tok::MetaName(name) => {
            p.expect(b'=')?;
            p.expect(b'!')?;
            p.expect(b'{')?;
            let mut nodes = Vec::new();
            if !p.lx.eat(b'}') {
                loop {
                    match p.parse_meta_operand()? {
                        super::metadata::MetaOperand::Ref(id) => nodes.push(id),
                        _ => {
                            return p.error(
                                t.line,
                                format!(
                                    "named metadata !{} may only list !N references",
                                    lexer::cut(name)
                                ),
                            );
                        }
                    }
                    if p.lx.eat(b'}') {
                        break;
                    }
                    p.expect(b',')?;
                }
            }
            m.named_metadata.push(NamedMetadata {
                name,
                nodes,
                line: t.line,
            });
        }
        Tok::MetaRef(id) => {
            // ` = [distinct ]!` as LLVM prints it is read from the bytes
            // (the `=` is the next token, lexed already); else the tokens.
            let (distinct, start) = match node_start_after_eq(p) {
                Some(found) => found,
                None => {
                    p.expect(b'=')?;
                    (p.lx.eat_word("distinct"), p.lx.offset())
                }
            };
            // The table keeps only where the node is and parses it when
            // asked, so metadata costs a few bytes per node, not its model.
            let mut run_from = None;
            let end = match node_line_end(p.lx.text(), start) {
                // Most nodes: recorded unread; their grammar is checked when
                // first used (`MetadataTable::get`), which keeps reading
                // debug info at memchr speed.
                Some(node) => {
                    // A `*` outside strings is a typed pointer (`void ()* @f`):
                    // the pointer era must not depend on which nodes get used.
                    if node.has_star {
                        m.metadata.mentions_typed_pointers = true;
                    }
                    p.lx.seek(node.next_line, t.line + 1);
                    run_from = Some(node.next_line);
                    node.end
                }
                None => {
                    if p.lx.offset() != start {
                        // Found on the bytes: the tokens take it from here.
                        p.expect(b'=')?;
                        p.lx.eat_word("distinct");
                    }
                    drop(p.parse_meta_node()?);
                    p.lx.last_end()
                }
            };
            let id = super::metadata::parse_u32(id).ok_or_else(|| ParseError {
                line: t.line,
                message: format!("bad metadata id '!{}'", lexer::cut(id)),
            })?;
            m.metadata.insert(id, start..end, t.line, distinct);
            if let Some(at) = run_from {
                node_run(p, m, at, t.line + 1);
            }
        }
        // `$name = comdat any`, `module asm "..."`, `uselistorder ...`: nothing to keep.
        Tok::Word(w) if w.starts_with('$') || w == "module" || w.starts_with("uselistorder") => {
            skip_rest_of_line(p, t.line);
        }
        // A ThinLTO summary entry, `^N = kind: (...)` or `^N = kind: value`:
        // nothing a scan uses.
        Tok::Bad(b'^') => summary_entry(p)?,
        other => {
            return p.error(
                t.line,
                format!("expected a top-level entity, found {}", other.describe()),
            );
        }
    }
    ensure_line_end(p, t.line.max(p.lx.last_line()))
}

/// Passes over a ThinLTO summary entry after its `^`: `N = kind:` and a
/// parenthesized group, which may span lines, or one token.
fn summary_entry(p: &mut Parser<'_, '_>) -> PResult<()> {
    if !matches!(p.lx.next_tok(), Tok::Int(_)) {
        return p.expected("a summary entry number after '^'");
    }
    p.expect(b'=')?;
    if !matches!(p.lx.next_tok(), Tok::Label(_)) {
        return p.expected("a summary entry kind");
    }
    if p.lx.peek_tok() == Tok::Punct(b'(') {
        p.skip_group()
    } else {
        p.lx.next_token();
        Ok(())
    }
}

/// True when the next token starts a top-level entity (a keyword, or a
/// name, `!N` or `!name` followed by `=`): what a line-agnostic reading of
/// an entity must stop at, since LLVM lets an entity go on over lines.
fn at_entity_start(p: &Parser<'_, '_>) -> bool {
    let t = p.lx.peek();
    match t.tok {
        Tok::Word(w) => {
            w.starts_with('$')
                || matches!(
                    w,
                    "define"
                        | "declare"
                        | "attributes"
                        | "target"
                        | "source_filename"
                        | "module"
                        | "uselistorder"
                        | "uselistorder_bb"
                )
        }
        Tok::Global(_) | Tok::Local(_) | Tok::MetaRef(_) | Tok::MetaName(_) => {
            let b = p.lx.text().as_bytes();
            let mut at = t.end;
            while matches!(b.get(at), Some(b' ' | b'\t' | b'\r' | b'\n')) {
                at += 1;
            }
            b.get(at) == Some(&b'=')
        }
        Tok::Bad(b'^') | Tok::Eof => true,
        _ => false,
    }
}

/// Reads the `!N = [distinct ]!...` lines from byte `at` (the start of
/// `line`) on straight from the bytes, each as `top_level` would (the same
/// table entries and lines), up to the first line that is anything else,
/// and leaves the lexer there. A module's metadata is tens of thousands of
/// such lines in a row; going through the tokens cost ~600 instructions a
/// line more, mostly lexing the `!N` and `=` and the next line's first
/// token.
fn node_run<'a>(p: &mut Parser<'a, '_>, m: &mut Module<'a>, mut at: usize, mut line: u32) {
    let text = p.lx.text();
    let from = at;
    loop {
        // A line the lexer skips (too long) is left to it, to report.
        if !m.long_lines.is_empty() && m.long_lines.binary_search_by_key(&at, |r| r.start).is_ok() {
            break;
        }
        let Some((id, distinct, start)) = node_head(text.as_bytes(), at) else {
            break;
        };
        let Some(node) = node_line_end(text, start) else {
            break;
        };
        if node.has_star {
            m.metadata.mentions_typed_pointers = true;
        }
        m.metadata.insert(id, start..node.end, line, distinct);
        at = node.next_line;
        line += 1;
    }
    if at != from {
        p.lx.seek(at, line);
    }
}

/// The line at `at` starts `!N = !` or `!N = distinct !`, `N` of up to
/// nine digits (so it fits a `u32`): `N`, whether the node is distinct,
/// and where it starts (its `!`). `None` for anything else, which the
/// tokens read.
fn node_head(b: &[u8], at: usize) -> Option<(u32, bool, usize)> {
    let rest = b.get(at..)?.strip_prefix(b"!")?;
    // Counted and valued in one pass: two (count, then fold) cost ~30
    // instructions a node more.
    let (mut id, mut digits) = (0u32, 0);
    while let Some(&d) = rest.get(digits)
        && d.is_ascii_digit()
    {
        if digits == 9 {
            return None;
        }
        id = id * 10 + u32::from(d - b'0');
        digits += 1;
    }
    if digits == 0 {
        return None;
    }
    let after = &rest[digits..];
    let start = at + 1 + digits;
    if after.starts_with(b" = !") {
        Some((id, false, start + 3))
    } else if after.starts_with(b" = distinct !") {
        Some((id, true, start + 12))
    } else {
        None
    }
}

/// After `!N`, when the next token is `=` followed by ` !` or
/// ` distinct !`: whether the node is distinct and where it starts (its
/// `!`), which is where the tokens would find it. Consumes nothing.
fn node_start_after_eq(p: &Parser<'_, '_>) -> Option<(bool, usize)> {
    let eq = p.lx.peek();
    if eq.tok != Tok::Punct(b'=') {
        return None;
    }
    let b = p.lx.text().as_bytes();
    let at = eq.end;
    if b.get(at..at + 2)? == b" !" {
        Some((false, at + 1))
    } else if b.get(at..at + 11)? == b" distinct !" {
        Some((true, at + 10))
    } else {
        None
    }
}

/// A metadata node found by `one_line_node_end`.
struct OneLineNode {
    /// Just past its last bracket.
    end: usize,
    /// The start of the next line.
    next_line: usize,
    /// A `*` outside strings: a typed-pointer type.
    has_star: bool,
}

/// The bytes `one_line_node_end` must look at outside strings: brackets,
/// comments and pointer stars (quotes and newlines have masks of their own).
static NODE_BYTES: [bool; 256] = byte_set(b"()[]{}<>;*");

/// A table of which bytes are in `bytes`.
const fn byte_set(bytes: &[u8]) -> [bool; 256] {
    let mut t = [false; 256];
    let mut i = 0;
    while i < bytes.len() {
        t[bytes[i] as usize] = true;
        i += 1;
    }
    t
}

/// Where the metadata node starting at `start` ends, and where the next
/// line starts, for a node alone on its line: as `one_line_node_end`, but a
/// line with no `*` and no `;` whose last byte (blanks aside) closes a
/// bracket, how LLVM prints nearly every node, is taken whole without its
/// brackets counted. They are checked with its grammar when the node is
/// first parsed (`MetadataTable::get`), and most nodes never are: counting
/// them took ~380 instructions a node, 4% of a whole scan. Any other line
/// (a `*` may be a typed pointer, a `;` a comment) gets the full check.
fn node_line_end(text: &str, start: usize) -> Option<OneLineNode> {
    let rest = text.as_bytes().get(start..)?;
    let stop = memchr::memchr3(b'\n', b'*', b';', rest);
    if rest.first() == Some(&b'!') && stop.is_none_or(|i| rest[i] == b'\n') {
        let line_end = stop.unwrap_or(rest.len());
        let line = &rest[..line_end];
        let end = line
            .iter()
            .rposition(|c| !matches!(c, b' ' | b'\t' | b'\r'))
            .map_or(0, |i| i + 1);
        if end > 1 && matches!(line[end - 1], b'}' | b')') {
            return Some(OneLineNode {
                end: start + end,
                next_line: start + (line_end + 1).min(rest.len()),
                has_star: false,
            });
        }
    }
    one_line_node_end(text, start)
}

/// Where the metadata node starting at `start` ends, and where the next line
/// starts, when the node is a `!{...}` or `!Name(...)` that closes every
/// bracket it opens by the end of its own line (how LLVM prints every node).
/// `None` sends the node to the full parser, which reports what is wrong.
///
/// One pass over the line, 32 bytes at a time (`node_byte_masks`): which
/// bytes lie inside strings is worked out for the whole block from its
/// quotes (`inside_strings`), so only the brackets outside strings (about
/// two a line) and newlines are visited one by one; visiting every quote
/// too, sixteen bytes a block, cost ~460 instructions a line, a third of
/// reading a module's top level. Its end is found with the node's, not by
/// a `memchr` first (most lines are short, not much longer than its setup).
#[inline]
fn one_line_node_end(text: &str, start: usize) -> Option<OneLineNode> {
    let rest = text.as_bytes().get(start..)?;
    if rest.first() != Some(&b'!') {
        return None;
    }
    let mut stack = [0u8; limits::MAX_DEPTH as usize];
    let mut depth = 0;
    let mut has_star = false;
    // All ones when a string is open where the block starts.
    let mut open_string = 0u32;
    let mut base = 1;
    let end = 'scan: loop {
        // The text ends inside the node: `None`.
        let block = rest.get(base..).filter(|b| !b.is_empty())?;
        let masks = node_byte_masks(block);
        let inside = inside_strings(masks.quotes) ^ open_string;
        // A newline, in a string or not, ends the line before the node.
        let mut todo = (masks.others & !inside) | masks.newlines;
        while todo != 0 {
            let k = todo.trailing_zeros() as usize;
            todo &= todo - 1;
            match *block.get(k)? {
                c @ (b'(' | b'[' | b'{' | b'<') => {
                    *stack.get_mut(depth)? = lexer::closer(c);
                    depth += 1;
                }
                c @ (b')' | b']' | b'}' | b'>') => {
                    if depth == 0 || stack[depth - 1] != c {
                        return None;
                    }
                    depth -= 1;
                    if depth == 0 {
                        break 'scan base + k + 1;
                    }
                }
                b'*' => has_star = true,
                // The line ends before the node does, or a comment starts in it.
                _ => return None,
            }
        }
        open_string = 0u32.wrapping_sub(inside >> 31);
        base += block.len().min(32);
    };
    // Only blanks or a comment may follow the node on its line.
    let mut j = end;
    let next_line = loop {
        match rest.get(j) {
            None => break rest.len(),
            Some(b' ' | b'\t' | b'\r') => j += 1,
            Some(b'\n') => break j + 1,
            Some(b';') => {
                break memchr::memchr(b'\n', &rest[j..]).map_or(rest.len(), |k| j + k + 1);
            }
            Some(_) => return None,
        }
    };
    Some(OneLineNode {
        end: start + end,
        next_line: start + next_line,
        has_star,
    })
}

/// Bit `k` set when byte `k` of a block is an opening quote or inside the
/// string it opens (a closing quote is not), given the block's `quotes`
/// and that no string is open at its start: each bit is the parity of the
/// quotes up to it. Metadata strings escape their quotes (`\22`).
fn inside_strings(quotes: u32) -> u32 {
    let mut x = quotes;
    x ^= x << 1;
    x ^= x << 2;
    x ^= x << 4;
    x ^= x << 8;
    x ^= x << 16;
    x
}

/// Which of the first 32 bytes of a block (all of it when shorter) are
/// ones `one_line_node_end` looks at, a bit each.
#[derive(Debug, PartialEq, Eq)]
struct NodeByteMasks {
    /// `NODE_BYTES`.
    others: u32,
    quotes: u32,
    newlines: u32,
}

#[inline]
fn node_byte_masks(block: &[u8]) -> NodeByteMasks {
    #[cfg(target_arch = "x86_64")]
    if let Some(both) = block.first_chunk::<32>() {
        use std::arch::x86_64::*;
        // A byte at a time instead, a whole scan executes 18.9% / 18.5% more
        // instructions (callgrind, typed-12MB / the corpus module).
        // SAFETY: SSE2 is part of every x86_64 CPU (and enabled in every
        // x86_64 build); each load reads sixteen bytes of `both`.
        unsafe {
            let is = |x, c: u8| _mm_cmpeq_epi8(x, _mm_set1_epi8(c as i8));
            let masks = |v| {
                // `[` `]` with bit 5 set are `{` `}`; `>` without bit 1 is `<`,
                // `)` without bit 0 is `(`: no other byte maps to those.
                let lower = _mm_or_si128(v, _mm_set1_epi8(0x20));
                let braces = _mm_or_si128(is(lower, b'{'), is(lower, b'}'));
                let angles = is(_mm_and_si128(v, _mm_set1_epi8(!0x02u8 as i8)), b'<');
                let parens = is(_mm_and_si128(v, _mm_set1_epi8(!0x01u8 as i8)), b'(');
                let marks = _mm_or_si128(is(v, b';'), is(v, b'*'));
                let others =
                    _mm_or_si128(_mm_or_si128(braces, angles), _mm_or_si128(parens, marks));
                (
                    _mm_movemask_epi8(others) as u32,
                    _mm_movemask_epi8(is(v, b'"')) as u32,
                    _mm_movemask_epi8(is(v, b'\n')) as u32,
                )
            };
            let lo = masks(_mm_loadu_si128(both.as_ptr().cast()));
            let hi = masks(_mm_loadu_si128(both.as_ptr().add(16).cast()));
            return NodeByteMasks {
                others: lo.0 | hi.0 << 16,
                quotes: lo.1 | hi.1 << 16,
                newlines: lo.2 | hi.2 << 16,
            };
        }
    }
    node_byte_masks_by_bytes(block)
}

/// `node_byte_masks` a byte at a time: on targets without SSE2 (Apple
/// Silicon among them) and for a text's last bytes.
fn node_byte_masks_by_bytes(block: &[u8]) -> NodeByteMasks {
    let mut m = NodeByteMasks {
        others: 0,
        quotes: 0,
        newlines: 0,
    };
    for (k, &c) in block.iter().take(32).enumerate() {
        m.others |= u32::from(NODE_BYTES[c as usize]) << k;
        m.quotes |= u32::from(c == b'"') << k;
        m.newlines |= u32::from(c == b'\n') << k;
    }
    m
}

fn skip_rest_of_line(p: &mut Parser<'_, '_>, line: u32) {
    while p.lx.peek().line == line && p.lx.peek_tok() != Tok::Eof {
        p.lx.next_token();
    }
}

/// A top-level entity ends its line; anything after it is an error.
fn ensure_line_end(p: &mut Parser<'_, '_>, line: u32) -> PResult<()> {
    let t = p.lx.peek();
    if t.tok != Tok::Eof && t.line == line {
        return p.error(
            line,
            format!(
                "unexpected {} after the end of the entity",
                t.tok.describe()
            ),
        );
    }
    Ok(())
}

fn global<'a>(p: &mut Parser<'a, '_>, m: &mut Module<'a>, name: &'a str, line: u32) -> PResult<()> {
    p.expect(b'=')?;
    let mut linkage = None;
    let mut addrspace = 0;
    let mut externally_initialized = false;
    let kind = loop {
        let t = p.lx.next_token();
        match t.tok {
            Tok::Word(w @ ("global" | "constant" | "alias" | "ifunc")) => break w,
            Tok::Word("addrspace") => {
                p.expect(b'(')?;
                addrspace = p.expect_u32()?;
                p.expect(b')')?;
            }
            Tok::Word("externally_initialized") => externally_initialized = true,
            Tok::Word(w) => {
                if linkage.is_none() && LINKAGES.contains(&w) {
                    linkage = Some(w);
                }
                // thread_local(...), partition "...": skip their argument.
                if p.lx.peek_tok() == Tok::Punct(b'(') {
                    p.skip_group()?;
                } else if let Tok::Str(_) = p.lx.peek_tok() {
                    p.lx.next_token();
                }
            }
            other => {
                return p.error(
                    t.line,
                    format!(
                        "expected 'global' or 'constant', found {}",
                        other.describe()
                    ),
                );
            }
        }
    };
    let ty = p.parse_type()?;
    let mut initializer = None;
    if kind == "alias" || kind == "ifunc" {
        p.expect(b',')?;
        initializer = Some(p.parse_operand()?.value);
    } else {
        let t = p.lx.peek();
        // On the line, anything but a `,` is the initializer. On a later
        // line (LLVM reads on over line ends) only where the linkage asks
        // for one (not `external`, `extern_weak`) and no entity starts.
        let here = t.line == p.lx.last_line();
        let declared_only = matches!(linkage, Some("external" | "extern_weak"));
        if !matches!(t.tok, Tok::Punct(b',') | Tok::Eof)
            && (here || (!declared_only && !at_entity_start(p)))
        {
            initializer = Some(p.parse_value(ty)?);
        }
    }
    let mut section = None;
    while p.lx.eat(b',') {
        let t = p.lx.next_token();
        match t.tok {
            Tok::Word("section") => section = Some(p.expect_str()?),
            Tok::Word("align") => {
                p.expect_int()?;
            }
            Tok::MetaName(_) => {
                p.parse_meta_operand()?;
            }
            Tok::Word(_) => {
                // comdat, comdat($x), partition "p", code_model "small", no_sanitize_*...
                match p.lx.peek_tok() {
                    Tok::Punct(b'(') => p.skip_group()?,
                    Tok::Str(_) => {
                        p.lx.next_token();
                    }
                    _ => {}
                }
            }
            other => return p.error(t.line, format!("unexpected {} in global", other.describe())),
        }
    }
    m.globals.push(Global {
        name,
        linkage,
        addrspace,
        is_constant: kind == "constant",
        externally_initialized,
        ty,
        initializer,
        section,
        line,
    });
    Ok(())
}

fn function<'a>(
    p: &mut Parser<'a, '_>,
    m: &mut Module<'a>,
    r: &mut Reading,
    is_definition: bool,
    line: u32,
) -> PResult<()> {
    // Linkage, visibility, calling convention and return attributes come
    // before the return type; any word that is not a type is one of them.
    let mut linkage = None;
    let mut metadata = Vec::new();
    while !p.at_type() {
        let t = p.lx.next_token();
        match t.tok {
            // `declare !dbg !12 void @g()`, as LLVM 16 and later print a
            // declaration's attachments.
            Tok::MetaName(kind) => {
                if let super::metadata::MetaOperand::Ref(id) = p.parse_meta_operand()? {
                    metadata.push((kind, id));
                }
            }
            Tok::Word(w) => {
                if linkage.is_none() && LINKAGES.contains(&w) {
                    linkage = Some(w);
                }
                match p.lx.peek_tok() {
                    Tok::Punct(b'(') => p.skip_group()?,
                    Tok::Int(_) if w == "align" || w == "dereferenceable" => {
                        p.lx.next_token();
                    }
                    _ => {}
                }
            }
            Tok::Str(_) => {
                if p.lx.eat(b'=') {
                    p.lx.next_token();
                }
            }
            other => {
                return p.error(
                    t.line,
                    format!("expected a return type, found {}", other.describe()),
                );
            }
        }
    }
    let return_type = p.parse_type()?;
    let name = match p.lx.next_tok() {
        Tok::Global(n) => n,
        other => {
            return p.error(
                line,
                format!("expected a function name, found {}", other.describe()),
            );
        }
    };
    p.expect(b'(')?;
    let mut params = Vec::new();
    let mut vararg = false;
    if !p.lx.eat(b')') {
        loop {
            if p.lx.eat_word("...") {
                vararg = true;
            } else if let Some((param, end)) = param_at(p, p.lx.peek().start) {
                p.lx.consume_through(end);
                params.push(param);
            } else {
                let ty = p.parse_type()?;
                let attributes = p.skip_attributes()?;
                let name = match p.lx.peek_tok() {
                    Tok::Local(n) => {
                        p.lx.next_token();
                        Some(n)
                    }
                    _ => None,
                };
                params.push(Param {
                    ty,
                    name,
                    attributes,
                });
            }
            if p.lx.eat(b')') {
                break;
            }
            p.expect(b',')?;
        }
    }
    // Function attributes, section, attachments: up to `{` or the line end,
    // or on later lines (LLVM reads on over line ends) up to the `{` of a
    // definition, and of a declaration, what may only follow it.
    let attr_start = p.lx.peek().start;
    let mut attr_end = attr_start;
    let mut section = None;
    while !matches!(p.lx.peek_tok(), Tok::Eof | Tok::Punct(b'{'))
        && (p.lx.peek().line == p.lx.last_line()
            || (is_definition && !at_entity_start(p))
            || continues_declaration(p))
    {
        let t = p.lx.next_token();
        match t.tok {
            Tok::Word("section") => section = Some(p.expect_str()?),
            Tok::MetaName(kind) => {
                if let super::metadata::MetaOperand::Ref(id) = p.parse_meta_operand()? {
                    metadata.push((kind, id));
                }
            }
            Tok::Word(_) if p.lx.peek_tok() == Tok::Punct(b'(') => p.skip_group()?,
            // "key"="value"
            Tok::Str(_) if p.lx.eat(b'=') => {
                p.lx.next_token();
            }
            Tok::Punct(c @ (b'(' | b')' | b'[' | b']' | b'}' | b'=')) => {
                return p.error(
                    t.line,
                    format!("unexpected '{}' in function attributes", c as char),
                );
            }
            _ => {}
        }
        attr_end = p.lx.last_end();
    }
    let attributes =
        p.lx.text()
            .get(attr_start..attr_end)
            .unwrap_or("")
            .trim_end();
    params.shrink_to_fit();
    let mut f = Function {
        name,
        is_definition,
        linkage,
        return_type,
        params,
        vararg,
        attributes,
        section,
        metadata,
        line,
        body_range: None,
        body_line: line,
        body_newlines: 0,
    };
    if is_definition {
        let open = p.lx.peek();
        if open.tok != Tok::Punct(b'{') {
            m.functions.push(f);
            return p.error(
                line,
                format!("expected '{{' to open the body of @{}", lexer::cut(name)),
            );
        }
        p.lx.next_token();
        locate_body(p, &mut r.diags, &mut f, open.end, open.line);
    }
    m.functions.push(f);
    Ok(())
}

/// True when the next token, on a line after a declaration's header, can
/// only belong to it: an attribute group `#N`, an attachment `!kind !N`,
/// or a word only function headers have. Any other word (a function
/// attribute written on its own line) is left to the next entity: unknown
/// text after a declaration stays an error rather than an attribute.
fn continues_declaration(p: &Parser<'_, '_>) -> bool {
    match p.lx.peek_tok() {
        Tok::Hash(_) => true,
        Tok::MetaName(_) => !at_entity_start(p),
        Tok::Word(w) => matches!(
            w,
            "section"
                | "align"
                | "gc"
                | "comdat"
                | "prefix"
                | "prologue"
                | "personality"
                | "partition"
                | "unnamed_addr"
                | "local_unnamed_addr"
                | "addrspace"
        ),
        _ => false,
    }
}

/// A parameter in the shapes LLVM prints kernels' in (`float addrspace(1)*
/// noundef "air-buffer-no-alias" %0`, `i32`), read from the bytes at `at`
/// (its type) as the tokens read it: a type `Parser::type_at` reads, then,
/// each after one space, common bare attributes, `align N`,
/// `dereferenceable(N)` and string attributes (`"k"`, not `"k"="v"`), and
/// a local name; and the offset of the `,` or
/// `)` after it. Nothing is consumed; `None` for anything else, which the
/// tokens read (interning the same types in the same order). Through the
/// tokens a parameter cost ~900 instructions, ~7 M for a module's
/// headers.
fn param_at<'a>(p: &mut Parser<'a, '_>, at: usize) -> Option<(Param<'a>, usize)> {
    let (ty, mut e) = p.type_at(at)?;
    let text = p.lx.text();
    let b = text.as_bytes();
    let mut attributes = None;
    let mut name = None;
    loop {
        match *b.get(e)? {
            b',' | b')' => break,
            b' ' if name.is_none() => {}
            _ => return None,
        }
        let q = e + 1;
        e = match *b.get(q)? {
            b'%' => {
                let end = super::parser::ident_end(b, q + 1);
                name = Some(text.get(q + 1..end).filter(|n| !n.is_empty())?);
                end
            }
            b'"' => {
                // As the lexer reads a string: to the next quote on the line.
                let close = q + 1 + memchr::memchr2(b'"', b'\n', b.get(q + 1..)?)?;
                if b[close] != b'"' {
                    return None;
                }
                close + 1
            }
            c if c.is_ascii_lowercase() => {
                let end = super::parser::ident_end(b, q);
                let word = &b[q..end];
                if word == b"align" && b.get(end) == Some(&b' ') {
                    // `align N`: as the tokens read a number before a blank.
                    let digits = super::parser::ident_end(b, end + 1);
                    if digits == end + 1 || !b[end + 1..digits].iter().all(u8::is_ascii_digit) {
                        return None;
                    }
                    digits
                } else if matches!(word, b"dereferenceable" | b"dereferenceable_or_null")
                    && b.get(end) == Some(&b'(')
                {
                    // `(N)`: a group the tokens skip.
                    let digits = super::parser::ident_end(b, end + 1);
                    if digits == end + 1
                        || !b[end + 1..digits].iter().all(u8::is_ascii_digit)
                        || b.get(digits) != Some(&b')')
                    {
                        return None;
                    }
                    digits + 1
                } else if matches!(
                    word,
                    b"noundef"
                        | b"nonnull"
                        | b"nocapture"
                        | b"readonly"
                        | b"writeonly"
                        | b"readnone"
                        | b"noalias"
                        | b"signext"
                        | b"zeroext"
                        | b"inreg"
                        | b"immarg"
                        | b"returned"
                        | b"nofree"
                ) {
                    // Words that are neither types nor values and take no
                    // argument; what follows is checked as the loop goes on
                    // (a `:` or `"` would make another token of the word).
                    end
                } else {
                    return None;
                }
            }
            _ => return None,
        };
        if name.is_none() {
            let from = attributes.map_or(q, |r: std::ops::Range<usize>| r.start);
            attributes = Some(from..e);
        }
    }
    let attributes = attributes.map_or("", |r| text.get(r).unwrap_or(""));
    Some((
        Param {
            ty,
            name,
            attributes,
        },
        e,
    ))
}

/// Finds the `}` line that closes a body starting at byte `from`, records
/// the body's range and moves the lexer past it. A `define` line before any
/// `}` means the body was never closed: the body ends there, with an error.
fn locate_body<'a>(
    p: &mut Parser<'a, '_>,
    diags: &mut limits::Capped,
    f: &mut Function<'a>,
    from: usize,
    line: u32,
) {
    let bytes = p.lx.text().as_bytes();
    let rest = &bytes[from..];
    // A body LLVM prints has nothing after its `{` and its `}` alone at the
    // start of a line, found from the bytes; the tokens find any other
    // (`{ ret void }`, `  ret void }`, an indented `}`), where the bytes
    // find none or the `{` line goes on.
    let (close, next_define) = if opens_its_line(rest) {
        match body_end(rest) {
            (Some(c), _) => (Some(c), None),
            (None, stop) => close_by_tokens(&p.lx, from, stop),
        }
    } else {
        close_by_tokens(&p.lx, from, None)
    };
    let (end, resume, closed) = match (close, next_define) {
        (Some(c), _) => (c, c + 1, true),
        (None, Some(d)) => (d, d, false),
        (None, None) => (rest.len(), rest.len(), false),
    };
    let newlines = memchr::memchr_iter(b'\n', &rest[..end]).count() as u32;
    let end_line = line + newlines;
    f.body_range = Some(from..from + end);
    f.body_line = line;
    f.body_newlines = newlines;
    if !closed {
        let msg = if end == rest.len() {
            format!(
                "unexpected end of file: the body of @{} is not closed",
                lexer::cut(f.name)
            )
        } else {
            format!(
                "the body of @{} is not closed before the next 'define'",
                lexer::cut(f.name)
            )
        };
        diags.push(Diagnostic::error(end_line, msg));
    }
    p.lx.seek(from + resume, end_line);
}

/// True when nothing but blanks or a comment follows a body's `{` on its
/// line (`rest` starts just past it).
fn opens_its_line(rest: &[u8]) -> bool {
    let line = &rest[..memchr::memchr(b'\n', rest).unwrap_or(rest.len())];
    match line.iter().position(|c| !matches!(c, b' ' | b'\t' | b'\r')) {
        None => true,
        Some(i) => line[i] == b';',
    }
}

/// The body's `}` found with the tokens from byte `from` (just past its
/// `{`), as offsets from `from`: the first `}` outside the braces the body
/// opens, else `(None, Some(d))` at `d`, the start of the line of the first
/// `define` (which no body holds), or the one `body_end` found (`stop`),
/// else `(None, None)`. Only the bytes up to that `define` are lexed, so a
/// file of unclosed bodies still reads in linear time.
fn close_by_tokens(
    lx: &Lexer<'_>,
    from: usize,
    stop: Option<usize>,
) -> (Option<usize>, Option<usize>) {
    let mut lx = lx.clone();
    let text = lx.text();
    let stop_at = stop.map_or(text.len(), |d| from + d);
    let mut depth = 0u32;
    loop {
        let t = lx.next_token();
        if t.tok == Tok::Eof || t.start >= stop_at {
            return (None, stop);
        }
        match t.tok {
            Tok::Punct(b'{') => depth += 1,
            Tok::Punct(b'}') if depth == 0 => return (Some(t.start - from), None),
            Tok::Punct(b'}') => depth -= 1,
            Tok::Word("define") => {
                let line_start = text[..t.start].rfind('\n').map_or(0, |i| i + 1);
                return (None, Some(line_start.max(from) - from));
            }
            _ => {}
        }
    }
}

/// Where the body text `rest` ends: the first `}` line (`find_close_line`)
/// unless a `define` line comes before it, and that `define` line if so;
/// `(None, None)` when neither is found.
///
/// Looked for in windows that double in size, the `define` only as far
/// as the window that holds the `}`: the bytes after a body (declarations,
/// all the metadata after the last one) are not searched, and a file of
/// unclosed bodies still takes linear time, each body costing at most a
/// few times its own length.
fn body_end(rest: &[u8]) -> (Option<usize>, Option<usize>) {
    const NEEDLE: &[u8] = b"\ndefine ";
    let finder = &*DEFINE;
    let (mut from, mut window) = (0, 4096);
    loop {
        let to = (from + window).min(rest.len());
        let close = find_close_line(rest, from, to);
        // A `define` line that straddles `from` starts within the needle's
        // length before it; one wholly before was looked for already.
        let look = from.saturating_sub(NEEDLE.len() - 1);
        let stop = close.unwrap_or(to);
        if let Some(i) = finder.find(&rest[look..stop]) {
            return (None, Some(look + i + 1));
        }
        if close.is_some() || to == rest.len() {
            return (close, None);
        }
        from = to;
        window *= 2;
    }
}

/// Offset of the first `}` in `rest[from..to]` that starts a line (after
/// `rest[0]`'s line) and is followed by nothing but the line's end or a
/// blank. The `}` is found by its own byte, rare inside bodies (a search
/// for `\n}` stopped on every line).
fn find_close_line(rest: &[u8], from: usize, to: usize) -> Option<usize> {
    memchr::memchr_iter(b'}', &rest[from..to])
        .map(|i| from + i)
        .find(|&at| {
            at > 0
                && rest[at - 1] == b'\n'
                && matches!(rest.get(at + 1), None | Some(b'\n' | b'\r' | b' '))
        })
}

/// A fixed pseudo-random sequence (xorshift64) for the generated-input
/// tests below: each call gives a number below `n`.
#[cfg(test)]
fn below(mut seed: u64) -> impl FnMut(usize) -> usize {
    move |n: usize| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed >> 32) as usize % n
    }
}

#[cfg(test)]
mod node_end_tests {
    use super::*;

    /// The bytes `reference_one_line_node_end` must look at.
    static REFERENCE_NODE_BYTES: [bool; 256] = byte_set(b"\"()[]{}<>;*");

    /// Where the metadata node starting at `start` ends, and where the next line
    /// starts, when the node is a `!{...}` or `!Name(...)` that closes every
    /// bracket it opens by the end of its own line (how LLVM prints every node).
    /// `None` sends the node to the full parser, which reports what is wrong.
    fn reference_one_line_node_end(text: &str, start: usize) -> Option<OneLineNode> {
        let bytes = text.as_bytes();
        let rest = bytes.get(start..)?;
        let line_len = memchr::memchr(b'\n', rest).unwrap_or(rest.len());
        let line = &rest[..line_len];
        if line.first() != Some(&b'!') {
            return None;
        }
        let mut stack = [0u8; limits::MAX_DEPTH as usize];
        let mut depth = 0;
        let mut opened = false;
        let mut has_star = false;
        let mut i = 1;
        let mut end = None;
        while i < line.len() {
            // Most bytes are none of those below: passed over four at a time.
            while let Some(four) = line.get(i..i + 4)
                && !(REFERENCE_NODE_BYTES[four[0] as usize]
                    | REFERENCE_NODE_BYTES[four[1] as usize]
                    | REFERENCE_NODE_BYTES[four[2] as usize]
                    | REFERENCE_NODE_BYTES[four[3] as usize])
            {
                i += 4;
            }
            let Some(&c) = line.get(i) else {
                break;
            };
            if !REFERENCE_NODE_BYTES[c as usize] {
                i += 1;
                continue;
            }
            match c {
                b'"' => match memchr::memchr(b'"', &line[i + 1..]) {
                    Some(j) => i += j + 1,
                    None => return None,
                },
                c @ (b'(' | b'[' | b'{' | b'<') => {
                    *stack.get_mut(depth)? = lexer::closer(c);
                    depth += 1;
                    opened = true;
                }
                c @ (b')' | b']' | b'}' | b'>') => {
                    if depth == 0 || stack[depth - 1] != c {
                        return None;
                    }
                    depth -= 1;
                    if depth == 0 {
                        end = Some(i + 1);
                        break;
                    }
                }
                b';' => return None,
                b'*' => has_star = true,
                _ => {}
            }
            i += 1;
        }
        let end = end.filter(|_| opened)?;
        // Only blanks or a comment may follow the node on its line.
        match line[end..]
            .iter()
            .find(|b| !matches!(b, b' ' | b'\t' | b'\r'))
        {
            None | Some(b';') => Some(OneLineNode {
                end: start + end,
                next_line: (start + line_len + 1).min(bytes.len()),
                has_star,
            }),
            Some(_) => None,
        }
    }

    /// The one-pass `one_line_node_end` agrees with the two-pass one it
    /// replaced (kept above) on every text made of bytes that matter to
    /// either, and on prefixes and suffixes of real nodes.
    /// The SSE2 masks and the byte loop (what other targets run) agree on
    /// every byte value at every position of a block.
    #[test]
    fn node_byte_masks_agree_with_the_byte_loop() {
        for c in 0..=255u8 {
            for k in 0..32 {
                let mut block = *b"abcdefghijklmnopqrstuvwxyz012345";
                block[k] = c;
                assert_eq!(
                    node_byte_masks(&block),
                    node_byte_masks_by_bytes(&block),
                    "{c} at {k}"
                );
            }
        }
        let mixed = b"!{!\"a\", (i32 <4 x [2 x float]>) * ;\n}".repeat(3);
        for start in 0..mixed.len() {
            let block = &mixed[start..];
            assert_eq!(
                node_byte_masks(block),
                node_byte_masks_by_bytes(block),
                "at {start}"
            );
        }
    }

    #[test]
    fn one_pass_node_end_agrees_with_the_two_pass_one() {
        let alphabet = b"!\"()[]{}<>;*\n \t\rab1,";
        let mut texts: Vec<Vec<u8>> = Vec::new();
        // Every string of up to four bytes over the alphabet, behind a `!`.
        let mut frontier: Vec<Vec<u8>> = vec![b"!".to_vec()];
        for _ in 0..4 {
            let mut next = Vec::new();
            for t in &frontier {
                for &c in alphabet {
                    let mut u = t.clone();
                    u.push(c);
                    next.push(u);
                }
            }
            texts.extend(next.iter().cloned());
            frontier = next;
        }
        // Long and realistic ones, cut at every length.
        let samples: [&[u8]; 6] = [
            b"!{i32 0, !\"air.buffer\", !\"air.location_index\", i32 0, i32 1, !\"air.read\"}  ; c\n!1 = !{}\n",
            b"!DIFile(filename: \"a.metal\", directory: \"/tmp\", source: \"#include <metal_stdlib>\\0Avoid f() { x[0] = 1; }\")\r\n",
            b"!{void (float addrspace(1)*, <4 x i32>, [2 x float]*)* @k, !16, !17}\n",
            b"!{!\"an unterminated string\n}\n",
            b"!{!{!{!{!1}}}, !(2], !\"x\"} \t;\n",
            b"!DILocation(line: 12, column: 3, scope: !5, inlinedAt: !9)",
        ];
        for s in samples {
            for cut in 0..=s.len() {
                texts.push(s[..cut].to_vec());
                texts.push(s[cut..].to_vec());
            }
        }
        // Longer ones, whose strings and brackets straddle the blocks the
        // text is read in: nodes from a fixed pseudo-random sequence, mostly
        // well formed, each byte sometimes replaced by any of the alphabet.
        let mut next = below(0x2545_f491_4f6c_dd1d);
        for _ in 0..20_000 {
            let mut t = b"!{".to_vec();
            let mut open = vec![b'}'];
            while t.len() < 160 && !open.is_empty() {
                match next(12) {
                    0..=3 => t.extend_from_slice(b"ab, "),
                    4 | 5 => {
                        t.push(b'"');
                        for _ in 0..next(40) {
                            t.push(
                                alphabet
                                    .get(next(alphabet.len() * 8))
                                    .copied()
                                    .unwrap_or(b'q'),
                            );
                            t.extend_from_slice(&b"xyzw"[..next(5).min(4)]);
                        }
                        t.push(b'"');
                    }
                    6 => t.push(b'*'),
                    7 | 8 if open.len() < 6 => {
                        let (o, c) =
                            [(b'(', b')'), (b'[', b']'), (b'{', b'}'), (b'<', b'>')][next(4)];
                        t.push(o);
                        open.push(c);
                    }
                    _ => t.extend(open.pop()),
                }
                if next(60) == 0 {
                    t.push(alphabet[next(alphabet.len())]);
                }
            }
            t.extend(open.iter().rev());
            t.extend_from_slice([&b""[..], b"\n", b"  ; c\n", b" x"][next(4)]);
            texts.push(t);
        }
        // Deeper than the bracket limit.
        let deep = limits::MAX_DEPTH as usize + 1;
        texts.push([b"!".to_vec(), b"{".repeat(deep), b"}".repeat(deep)].concat());
        texts.push([b"!".to_vec(), b"{".repeat(deep - 1), b"}".repeat(deep - 1)].concat());
        let mut found = 0;
        for t in &texts {
            let Ok(text) = std::str::from_utf8(t) else {
                continue;
            };
            for prefix in ["", "x\n", "!7 = "] {
                let full = format!("{prefix}{text}");
                let start = prefix.len();
                let got = one_line_node_end(&full, start).map(|n| (n.end, n.next_line, n.has_star));
                let want = reference_one_line_node_end(&full, start)
                    .map(|n| (n.end, n.next_line, n.has_star));
                assert_eq!(got, want, "{full:?} from {start}");
                found += usize::from(got.is_some_and(|(end, _, _)| end > start + 40));
                // `node_line_end` reads every node the full check reads the
                // same way; what else it takes is a whole line that ends in
                // a bracket and holds no `*` or `;`, for `MetadataTable::get`.
                let quick = node_line_end(&full, start).map(|n| (n.end, n.next_line, n.has_star));
                match (got, quick) {
                    (Some(_), _) => assert_eq!(quick, got, "{full:?} from {start}"),
                    (None, Some((end, next_line, has_star))) => {
                        let line = full[start..next_line].trim_end_matches('\n');
                        assert!(!has_star && !line.contains(['*', ';']), "{full:?}");
                        assert_eq!(line.trim_end_matches([' ', '\t', '\r']).len(), end - start);
                        assert!(line.ends_with(['}', ')', ' ', '\t', '\r']), "{full:?}");
                    }
                    (None, None) => {}
                }
            }
        }
        assert!(found > 10_000, "{found} long nodes read");
    }
}

#[cfg(test)]
mod param_tests {
    use super::*;
    use crate::ir::types::{TypeId, TypeTable};

    /// A parameter as the tokens read it (what `function` did before
    /// `param_at`): its type, attributes and name, and where the next
    /// token starts.
    fn by_tokens<'a>(
        text: &'a str,
        types: &mut TypeTable<'a>,
    ) -> Option<(TypeId, &'a str, Option<&'a str>, usize)> {
        let mut p = Parser::new(Lexer::new(text, 1), types);
        let ty = p.parse_type().ok()?;
        let attributes = p.skip_attributes().ok()?;
        let name = match p.lx.peek_tok() {
            Tok::Local(n) => {
                p.lx.next_token();
                Some(n)
            }
            _ => None,
        };
        Some((ty, attributes, name, p.lx.peek().start))
    }

    /// Wherever `param_at` reads a parameter, the tokens read the same one
    /// and stop at the same `,` or `)`: on parameters made of common and
    /// uncommon pieces, with blanks and terminators of every kind.
    #[test]
    fn param_at_agrees_with_the_tokens() {
        let types_written = [
            "float",
            "i32",
            "i1",
            "<3 x i32>",
            "float addrspace(1)*",
            "%struct.A addrspace(2)*",
            "%\"s::t\" addrspace(1)*",
            "i8*",
            "i32 (i32)*",
            "float *",
            "ptr",
            "ptr addrspace(1)",
            "[4 x float]*",
            "float addrspace(1) *",
            "half addrspace(3)**",
            "%T",
        ];
        let attributes = [
            "noundef",
            "nocapture",
            "readonly",
            "writeonly",
            "zeroext",
            "align 4",
            "align 16",
            "align x",
            "align 4x",
            "align",
            "dereferenceable(4)",
            "dereferenceable_or_null(8)",
            "dereferenceable(x)",
            "dereferenceable (4)",
            "dereferenceable(4",
            "\"air-buffer-no-alias\"",
            "\"k\"=\"v\"",
            "\"k\" = \"v\"",
            "\"a:b\"",
            "\"k\":",
            "\"open",
            "addrspace(1)",
            "nonnull",
            "byval(i32)",
            "sret(%T)",
            "noundef:",
            "true",
            "float",
            "c\"x\"",
        ];
        let names = ["", "%0", "%x.y", "%\"q\"", "%", "%12a", "@g", "%a:"];
        let blanks = [" ", " ", " ", " ", "  ", "\t", "", "\n"];
        let ends = [",", ")", ", i32 %z)", " ,", ")\n", "", " )", "x"];
        let mut next = below(0x9e37_79b9_7f4a_7c15);
        let (mut fast, mut total) = (0, 0);
        for _ in 0..200_000 {
            let mut t = types_written[next(types_written.len())].to_string();
            for _ in 0..next(4) {
                t.push_str(blanks[next(blanks.len())]);
                t.push_str(attributes[next(attributes.len())]);
            }
            let name = names[next(names.len())];
            if !name.is_empty() {
                t.push_str(blanks[next(blanks.len())]);
                t.push_str(name);
            }
            t.push_str(ends[next(ends.len())]);
            total += 1;
            let mut types = TypeTable::new();
            let got = {
                let mut p = Parser::new(Lexer::new(&t, 1), &mut types);
                param_at(&mut p, 0)
                    .map(|(param, end)| (param.ty, param.attributes, param.name, end))
            };
            let Some(got) = got else {
                continue;
            };
            fast += 1;
            assert!(matches!(t.as_bytes()[got.3], b',' | b')'), "{t:?}");
            assert_eq!(Some(got), by_tokens(&t, &mut types), "{t:?}");
        }
        // Most mix in something the bytes leave to the tokens.
        assert!(fast > total / 40, "{fast} of {total} read from the bytes");
    }
}
