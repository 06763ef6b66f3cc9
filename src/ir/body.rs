//! The body reader: blocks and instructions of one function.
//!
//! An instruction that cannot be read becomes a diagnostic and the reader
//! resumes at the next line outside any open bracket, so one bad line costs
//! one instruction, not the function.
//!
//! The pieces LLVM prints on nearly every line (`%x = opcode `, `T v`
//! operands, `, label %bb`, `[ v, %bb ]`, `, align N`, `, !kind !N`) are
//! matched on the bytes and consumed with `Lexer::consume_through`, which
//! lexes ~45% fewer tokens. A match accepts only text the tokens would read
//! the same way (single spaces, whole words, ids that fit); anything else
//! leaves the bytes to the tokens, which read (and report) it as before.
//!
//! Most lines are read whole that way (`fast_line`: loads, stores, GEPs,
//! phis, branches, binary ops, compares, casts, selects, vector element
//! ops and shuffles, allocas, returns and calls in their usual shapes),
//! with no token lexed until the next line's first (reading bodies took
//! ~20% fewer instructions than matching piece by piece). A line that
//! ends where the tokens would read on into the next one (a type, a GEP's
//! indices) is left to them. Debug builds read every such line again with
//! the tokens and assert that the instruction, the type table and the
//! lexer state agree, so the tests and the mutation test check the fast
//! path against the slow one.

use super::lexer::{Lexer, Tok, cut, str_at};
use super::limits;
use super::metadata::MetaOperand;
use super::model::{
    Aggregate, AggregateKind, Block, Body, Diagnostic, Flags, Instruction, Module, Opcode, Operand,
    Value,
};
use super::parser::{PResult, Parser};
use super::types::{Type, TypeId, TypeTable};

/// Reads body `index` of `module`, with its diagnostics (in line order,
/// within the file's share of `MAX_DIAGNOSTICS`). A declaration has an
/// empty body; a body past `MAX_BLOCKS` or `MAX_INSTRUCTIONS` is one empty
/// block and an error.
pub fn parse_body<'a>(module: &mut Module<'a>, index: usize) -> (Body<'a>, Vec<Diagnostic>) {
    let mut body = Body::default();
    let diags = parse_body_into(module, index, &mut body);
    (body, diags)
}

/// As [`parse_body`], into `body`, whose vectors are cleared and reused: a
/// scan reads one body after another, and allocating and freeing each
/// body's instruction vector (~250 bytes a line) made glibc consolidate
/// its free lists once per function.
pub fn parse_body_into<'a>(
    module: &mut Module<'a>,
    index: usize,
    body: &mut Body<'a>,
) -> Vec<Diagnostic> {
    body.clear();
    let Some(range) = module
        .functions
        .get(index)
        .and_then(|f| f.body_range.clone())
    else {
        return Vec::new();
    };
    let first_read = module.diagnostic_budget.first_read(index);
    let mut diags = module.diagnostic_budget.body(index);
    read_body(module, index, range, body, &mut diags);
    module.diagnostic_budget.charge(&diags, first_read);
    let mut diags = diags.into_vec();
    diags.sort_by_key(|d| d.line);
    diags
}

fn read_body<'a>(
    module: &mut Module<'a>,
    index: usize,
    range: std::ops::Range<usize>,
    body: &mut Body<'a>,
    diags: &mut limits::Capped,
) {
    let Some(f) = module.functions.get(index) else {
        return;
    };
    let (name, line, body_line) = (f.name, f.line, f.body_line);
    // At most one instruction a line: growing the vector copied whole
    // bodies (an instruction is ~250 bytes). The newlines were counted when
    // the body was located; counting again was a second pass over its bytes.
    let lines = f.body_newlines as usize + 1;
    body.instructions
        .reserve(lines.min(limits::MAX_INSTRUCTIONS + 1));
    // Long lines in this body, in the body's own offsets.
    let skipped = module
        .long_lines
        .iter()
        .filter(|r| r.start >= range.start && r.end <= range.end)
        .map(|r| r.start - range.start..r.end - range.start)
        .collect();
    let text = module.text.get(range).unwrap_or("");
    let mut p = Parser::new(Lexer::skipping(text, body_line, skipped), &mut module.types);
    let mut block = Block {
        label: None,
        instructions: 0..0,
        line: body_line,
    };
    let too_big = |what: &str, limit: usize| {
        Diagnostic::error(
            line,
            format!(
                "@{} has more than {limit} {what}: its body is not read",
                cut(name)
            ),
        )
    };
    loop {
        let t = p.lx.peek();
        match t.tok {
            Tok::Eof => break,
            Tok::Label(label) => {
                p.lx.next_label();
                if !start_block(body, &mut block, label, t.line) {
                    diags.push_always(too_big("blocks", limits::MAX_BLOCKS));
                    *body = Body::skipped(body_line);
                    return;
                }
            }
            Tok::Hash(name) if name.starts_with("dbg_") => {
                p.lx.next_token();
                body.debug_records += 1;
                if let Err(e) = p.skip_group() {
                    diags.push(Diagnostic::error(e.line, e.message));
                    p.lx.recover_after(t.line);
                }
            }
            _ => {
                // A block after a terminator with no label of its own: LLVM
                // before 7 wrote its number in a comment, `; <label>:12`.
                // (Such a comment makes the gap since the last token longer
                // than the `\n  ` between two instructions: one compare.)
                if t.start > p.lx.last_end() + 12
                    && let Some(last) = body.instructions.last()
                    && last.opcode.is_terminator()
                    && body.instructions.len() > block.instructions.start
                    && let Some((label, lines_before)) =
                        commented_label(text, p.lx.last_end(), t.start)
                    && !start_block(body, &mut block, label, t.line - lines_before)
                {
                    diags.push_always(too_big("blocks", limits::MAX_BLOCKS));
                    *body = Body::skipped(body_line);
                    return;
                }
                // An instruction may go on over lines (a switch's cases, one
                // written by hand), but one that reached into a line that
                // starts an instruction of its own is cut short and must
                // not steal that line's tokens.
                let result = instruction(&mut p, &mut body.instructions);
                let multi_line = match &result {
                    Ok(()) => body
                        .instructions
                        .last()
                        .is_some_and(|i| matches!(i.opcode, Opcode::Switch | Opcode::IndirectBr)),
                    Err(_) => {
                        matches!(instruction_word(&p, t.start), Some("switch" | "indirectbr"))
                    }
                } || (p.lx.last_line() > t.line
                    && !steals_a_line(text, t.start, p.lx.last_end()));
                match result {
                    Ok(()) if !multi_line && p.lx.last_line() > t.line => {
                        body.instructions.pop();
                        diags.push(Diagnostic::error(
                            t.line,
                            "incomplete instruction: it ends before its operands do",
                        ));
                        p.lx.seek_line_after(t.start, t.line);
                    }
                    Ok(()) if body.instructions.len() > limits::MAX_INSTRUCTIONS => {
                        diags.push_always(too_big("instructions", limits::MAX_INSTRUCTIONS));
                        *body = Body::skipped(body_line);
                        return;
                    }
                    Ok(()) => {
                        if let Some(inst) = body.instructions.last()
                            && inst.opcode == Opcode::Other
                        {
                            let msg = format!(
                                "unknown instruction '{}' kept without operands",
                                cut(inst.opcode_text)
                            );
                            diags.push(Diagnostic::warning(inst.line, msg));
                        }
                    }
                    Err(e) if !multi_line && e.line > t.line => {
                        diags.push(Diagnostic::error(
                            t.line,
                            format!("incomplete instruction ({})", e.message),
                        ));
                        p.reset_depth();
                        p.lx.seek_line_after(t.start, t.line);
                    }
                    Err(e) => {
                        diags.push(Diagnostic::error(e.line, e.message));
                        p.reset_depth();
                        p.lx.recover_after(t.line.max(e.line));
                    }
                }
            }
        }
    }
    block.instructions.end = body.instructions.len();
    body.blocks.push(block);
    for (line, m) in p.warnings.drain(..) {
        diags.push(Diagnostic::warning(line, m));
    }
}

/// Starts block `label` (on `line`) after `block`, which is pushed unless
/// it is an empty unnamed entry block; false past `MAX_BLOCKS`.
fn start_block<'a>(body: &mut Body<'a>, block: &mut Block<'a>, label: &'a str, line: u32) -> bool {
    let start = body.instructions.len();
    let mut ended = std::mem::replace(
        block,
        Block {
            label: Some(label),
            instructions: start..start,
            line,
        },
    );
    if ended.label.is_some() || start > 0 {
        ended.instructions.end = start;
        body.blocks.push(ended);
    }
    body.blocks.len() < limits::MAX_BLOCKS
}

/// The label of an old-style `; <label>:N` comment between bytes `from`
/// and `to` of `text` (the last one, should there be several), and how
/// many lines before `to` it is.
fn commented_label(text: &str, from: usize, to: usize) -> Option<(&str, u32)> {
    const MARK: &str = "; <label>:";
    let gap = text.get(from..to)?;
    let at = gap.rfind(MARK)? + MARK.len();
    let rest = &gap[at..];
    let end = rest
        .bytes()
        .position(|c| !super::lexer::is_ident_byte(c))
        .unwrap_or(rest.len());
    let lines_before = memchr::memchr_iter(b'\n', rest.as_bytes()).count() as u32;
    Some((rest.get(..end).filter(|l| !l.is_empty())?, lines_before))
}

/// True when a line after the first in `text[from..to]` (an instruction
/// read over several lines) starts as an instruction does: `%x =`, a label,
/// or an opcode that no constant expression has (`store`, `ret`, `call`).
/// Valid text continues on lines that start with an operand, a type, a `,`
/// or a constant expression.
fn steals_a_line(text: &str, from: usize, to: usize) -> bool {
    let b = text.as_bytes();
    let Some(span) = b.get(from..to.min(b.len())) else {
        return false;
    };
    memchr::memchr_iter(b'\n', span).any(|i| {
        let mut at = from + i + 1;
        while matches!(b.get(at), Some(b' ' | b'\t' | b'\r')) {
            at += 1;
        }
        let mut lx = Lexer::new(text.get(at..).unwrap_or(""), 1);
        match lx.next_tok() {
            Tok::Local(_) => lx.peek_tok() == Tok::Punct(b'='),
            Tok::Label(_) => true,
            Tok::Word(w) => match Opcode::from_word(w) {
                Some(op) => !super::parser::is_const_expr_opcode(op),
                None => matches!(w, "tail" | "musttail" | "notail"),
            },
            _ => false,
        }
    })
}

/// The opcode word of the instruction starting at byte `start`.
fn instruction_word<'a>(p: &Parser<'a, '_>, start: usize) -> Option<&'a str> {
    let line = p.lx.text().get(start..)?.split('\n').next()?;
    let rest = match line.split_once(" = ") {
        Some((lhs, rhs)) if lhs.starts_with('%') => rhs,
        _ => line,
    };
    rest.split_whitespace().next()
}

fn new_inst<'a>(
    result: Option<&'a str>,
    opcode: Opcode,
    text: &'a str,
    line: u32,
) -> Instruction<'a> {
    Instruction {
        result,
        opcode,
        opcode_text: text,
        flags: Flags::default(),
        ty: TypeTable::VOID,
        elem_ty: None,
        predicate: None,
        operands: super::small_list::SmallList::new(),
        indices: Vec::new(),
        dbg: None,
        metadata: super::small_list::SmallList::new(),
        line,
    }
}

/// Reads one instruction and appends it to `out` (built in place: an
/// instruction is large, and moving it twice showed in profiles). On error
/// nothing is appended.
fn instruction<'a>(p: &mut Parser<'a, '_>, out: &mut Vec<Instruction<'a>>) -> PResult<()> {
    let first = p.lx.peek();
    let text = p.lx.text();
    let start = match first.tok {
        Tok::Local(name) => opcode_after_result(text, first.end).map(|(w, e)| (Some(name), w, e)),
        Tok::Word(w) => Some((None, w, first.end)),
        _ => None,
    };
    if let Some((result, word, end)) = start {
        #[cfg(debug_assertions)]
        let saved = (p.lx.clone(), p.types.len(), p.warnings.len());
        if fast_line(p, out, result, word, end, first.line) {
            #[cfg(debug_assertions)]
            check_fast_line(p, out, saved);
            return Ok(());
        }
    }
    instruction_tokens(p, out)
}

/// Debug builds read each line `fast_line` read again with the tokens,
/// and check that both ways give the same instruction, types and lexer
/// state.
#[cfg(debug_assertions)]
fn check_fast_line<'a>(
    p: &mut Parser<'a, '_>,
    out: &mut Vec<Instruction<'a>>,
    (lx, types, warnings): (Lexer<'a>, usize, usize),
) {
    let Some(fast) = out.pop() else {
        return;
    };
    let fast_lx = std::mem::replace(&mut p.lx, lx);
    let fast_types = p.types.len();
    let read = instruction_tokens(p, out);
    let slow = out.last();
    assert!(read.is_ok(), "{fast:?}");
    assert_eq!(format!("{:?}", Some(&fast)), format!("{slow:?}"));
    assert_eq!(fast_lx.state(), p.lx.state(), "{fast:?}");
    assert_eq!(fast_types, p.types.len(), "{fast:?}");
    assert!(types <= fast_types);
    assert_eq!(warnings, p.warnings.len(), "{fast:?}");
}

/// `instruction` with the tokens.
fn instruction_tokens<'a>(p: &mut Parser<'a, '_>, out: &mut Vec<Instruction<'a>>) -> PResult<()> {
    let first = p.lx.peek();
    let line = first.line;
    let (result, word) = match first.tok {
        // `%x = opcode `, as LLVM prints it, is read from the bytes.
        Tok::Local(name) => match opcode_after_result(p.lx.text(), first.end) {
            Some((word, end)) => {
                p.lx.consume_through(end);
                (Some(name), word)
            }
            None => {
                p.lx.next_token();
                p.expect(b'=')?;
                (Some(name), opcode_word(p)?)
            }
        },
        _ => (None, opcode_word(p)?),
    };
    // `tail call`, `musttail call`, `notail call`.
    let (word, mut pre_flags) = match word {
        "tail" | "musttail" | "notail" => {
            let f = Flags::from_word(word).unwrap_or_default();
            match p.lx.next_tok() {
                Tok::Word("call") => ("call", f),
                other => {
                    return p.error(
                        line,
                        format!("expected 'call' after '{word}', found {}", other.describe()),
                    );
                }
            }
        }
        _ => (word, Flags::default()),
    };
    let Some(opcode) = Opcode::from_word(word) else {
        // An instruction from a newer LLVM: kept, opaque; the caller warns.
        skip_to_line_end(p, line)?;
        out.push(new_inst(result, Opcode::Other, word, line));
        return Ok(());
    };
    pre_flags.insert(p.parse_flags());
    if expects_type_next(opcode) {
        // A flag from a newer LLVM: skipped, with a warning, never fatal.
        while let Tok::Word(w) = p.lx.peek_tok() {
            if super::parser::is_type_word(w) {
                break;
            }
            p.lx.next_token();
            if p.lx.peek_tok() == Tok::Punct(b'(') {
                p.skip_group()?;
            }
            if p.warnings.len() < limits::MAX_DIAGNOSTICS {
                p.warnings.push((
                    line,
                    format!("unknown flag '{}' on '{word}' skipped", cut(w)),
                ));
            }
            pre_flags.insert(p.parse_flags());
        }
    }
    out.push(new_inst(result, opcode, word, line));
    let Some(inst) = out.last_mut() else {
        return Ok(());
    };
    inst.flags = pre_flags;
    let read = operands(p, inst).and_then(|()| trailing(p, inst));
    if read.is_err() {
        out.pop();
    }
    read
}

/// The instruction whose opcode word ends at `at` (`result` is its
/// `%x = `, already matched), read from the bytes to the end of its line
/// when it has one of the shapes LLVM prints on most lines: the operands
/// `Parser::operand_at` reads, `, align N`, `, !kind !N`. Consumed and
/// appended then; `false`, with nothing consumed or appended, for
/// anything else, which the tokens then read. Each piece is matched the
/// way the token path matches it (the same byte matchers, the same types
/// interned in the same order), and debug builds check that both agree.
/// Inlined into `instruction`, its one caller: called, it cost ~25
/// instructions a line more.
#[inline(always)]
fn fast_line<'a>(
    p: &mut Parser<'a, '_>,
    out: &mut Vec<Instruction<'a>>,
    result: Option<&'a str>,
    word: &'a str,
    at: usize,
    line: u32,
) -> bool {
    let text = p.lx.text();
    let b = text.as_bytes();
    let (word, mut flags, mut at, opcode) = match word {
        "tail" | "musttail" | "notail" => {
            if b.get(at..at + 6) != Some(b" call ") {
                return false;
            }
            let flags = Flags::from_word(word).unwrap_or_default();
            ("call", flags, at + 5, Opcode::Call)
        }
        _ => match Opcode::from_word(word) {
            Some(op) => (word, Flags::default(), at, op),
            None => return false,
        },
    };
    // Flag words, as `Parser::parse_flags` reads them.
    loop {
        if b.get(at) != Some(&b' ') {
            return false;
        }
        if surely_no_flag(b, at + 1) {
            break;
        }
        let Some((w, end)) = word_at(text, at + 1) else {
            break;
        };
        match Flags::from_word(w) {
            Some(f) => {
                flags.insert(f);
                at = end;
            }
            None => break,
        }
    }
    let end = match push_in_place(out, || new_inst(result, opcode, word, line)) {
        Some(inst) => {
            inst.flags = flags;
            fast_operands(p, inst, at + 1)
        }
        None => None,
    };
    match end {
        Some(end) if !next_token_continues(b, end) => {
            p.lx.consume_line(end);
            true
        }
        _ => {
            out.pop();
            false
        }
    }
}

/// True when the first token after the line end at `nl` is one that
/// continues the instruction on later lines (`trailing`): a `,` or a `#N`.
/// Blank and comment lines between are passed over, as the lexer does;
/// nearly always the next line's indent and first byte settle it.
#[inline(always)]
fn next_token_continues(b: &[u8], nl: usize) -> bool {
    // The usual indent and a local or a word: settled in three compares.
    if b.get(nl + 1..nl + 3) == Some(b"  ")
        && b.get(nl + 3)
            .is_some_and(|&c| c == b'%' || c.is_ascii_lowercase())
    {
        return false;
    }
    let mut at = nl + 1;
    loop {
        match b.get(at) {
            Some(b' ' | b'\t' | b'\r' | b'\n' | 0x0c) => at += 1,
            Some(b';') => match memchr::memchr(b'\n', &b[at..]) {
                Some(i) => at += i,
                None => return false,
            },
            Some(b',') => return true,
            Some(b'#') => return !b[at + 1..].starts_with(b"dbg_"),
            _ => return false,
        }
    }
}

/// Appends the instruction `make` builds to `out`, written in place, and
/// returns it. `push` built the ~340-byte instruction on the stack and
/// copied it, and `resize_with`, not inlined, cost ~60 instructions a line.
#[inline(always)]
fn push_in_place<'a, 'o>(
    out: &'o mut Vec<Instruction<'a>>,
    make: impl FnOnce() -> Instruction<'a>,
) -> Option<&'o mut Instruction<'a>> {
    out.reserve(1);
    out.spare_capacity_mut().first_mut()?.write(make());
    // SAFETY: the slot just past the length, within the capacity, was
    // initialized on the line above.
    unsafe { out.set_len(out.len() + 1) };
    out.last_mut()
}

/// True when what starts at `at` is no flag `Flags::from_word` knows, as
/// its first two bytes tell for what follows most opcodes (`i32`, `float`,
/// `half`, `ptr`, `double`, `label`, `%T`, `<4 x T>`, `[2 x T]`,
/// and the compare predicates but `false`): reading the word and matching
/// it cost ~40 instructions a line, 1.1% of a whole scan (callgrind,
/// typed-12MB and the corpus module).
#[inline(always)]
fn surely_no_flag(b: &[u8], at: usize) -> bool {
    match (b.get(at), b.get(at + 1)) {
        (Some(b'h' | b'p' | b'l' | b'%' | b'<' | b'[' | b'u' | b'o'), _) => true,
        (Some(b'i'), Some(c)) => c.is_ascii_digit(),
        (Some(b'f'), Some(b'l'))
        | (Some(b'd'), Some(b'o'))
        | (Some(b'e'), Some(b'q'))
        | (Some(b'n'), Some(b'e'))
        | (Some(b's'), Some(b'g' | b'l'))
        | (Some(b't'), Some(b'r')) => true,
        _ => false,
    }
}

/// A word token at `at`: the word and the offset past it.
#[inline]
fn word_at(text: &str, at: usize) -> Option<(&str, usize)> {
    let b = text.as_bytes();
    let c = *b.get(at)?;
    if !(c.is_ascii_alphabetic() || matches!(c, b'.' | b'_' | b'$')) {
        return None;
    }
    let end = super::parser::ident_end(b, at + 1);
    if matches!(b.get(end), Some(b':' | b'"')) {
        return None;
    }
    // ASCII from `at` to `end`.
    Some((str_at(text, at, end), end))
}

/// `, <operand>` at `at`, as `fast_comma_operand` reads it.
#[inline]
fn comma_operand_at<'a>(p: &mut Parser<'a, '_>, at: usize) -> Option<(Operand<'a>, usize)> {
    if p.lx.text().as_bytes().get(at..at + 2) != Some(b", ") {
        return None;
    }
    p.operand_at(at + 2)
}

/// `comma_operand_at` for a pointer to `pointee`, read from the bytes
/// `written` (see `Parser::pointer_type_at`). Inlined: called, with its
/// two more arguments, it cost the opaque-pointer module more than
/// `comma_operand_at` did.
#[inline(always)]
fn comma_pointer_at<'a>(
    p: &mut Parser<'a, '_>,
    at: usize,
    pointee: TypeId,
    written: &[u8],
) -> Option<(Operand<'a>, usize)> {
    if p.lx.text().as_bytes().get(at..at + 2) != Some(b", ") {
        return None;
    }
    let (ty, e) = p.pointer_type_at(at + 2, pointee, written)?;
    p.operand_after_type(ty, e)
}

/// `, v` at `at` with `v` a value `Parser::value_at` reads, as
/// `Parser::fast_comma_value` reads it.
#[inline]
fn comma_value_at<'a>(text: &'a str, at: usize) -> Option<(Value<'a>, usize)> {
    if text.as_bytes().get(at..at + 2) != Some(b", ") {
        return None;
    }
    Parser::value_at(text, at + 2)
}

/// A vector constant `<T v, T v, ...>` at `at` whose elements
/// `Parser::operand_at` reads, as `Parser::parse_value` reads it: the
/// value and the offset past it.
fn vector_value_at<'a>(
    p: &mut Parser<'a, '_>,
    at: usize,
    len: usize,
) -> Option<(Value<'a>, usize)> {
    let b = p.lx.text().as_bytes();
    if b.get(at) != Some(&b'<') || matches!(b.get(at + 1), Some(b'{' | b'>' | b' ')) {
        return None;
    }
    let text = p.lx.text();
    // Elements mostly repeat the first's type (`<i32 0, i32 1, ...>`, up to
    // 64 of them): where its text is written again, followed by a space
    // before no `addrspace(`, `type_at` would read the same type there.
    let (ty, first_end) = p.type_at(at + 1)?;
    let written = b.get(at + 1..first_end)?;
    let mut elements = Vec::with_capacity(len);
    let mut e = at + 1;
    loop {
        let ty_end = e + written.len();
        let (op, end) = if b.get(e..ty_end) == Some(written)
            && b.get(ty_end) == Some(&b' ')
            && b.get(ty_end + 1) != Some(&b'a')
        {
            let (value, end) = Parser::value_at(text, ty_end + 1)?;
            (Operand { ty, value }, end)
        } else {
            p.operand_at(e)?
        };
        elements.push(op);
        match b.get(end..end + 2)? {
            [b'>', _] => {
                let vector = Aggregate {
                    kind: AggregateKind::Vector,
                    elements,
                };
                return Some((Value::Aggregate(Box::new(vector)), end + 1));
            }
            b", " => e = end + 2,
            _ => return None,
        }
    }
}

/// A call argument at `at`: an operand `Parser::operand_at` reads, or
/// one with common attributes between its type and value (`i8* nonnull
/// %p`), which `Parser::skip_attributes` would skip as bare words.
#[inline]
fn argument_at<'a>(p: &mut Parser<'a, '_>, at: usize) -> Option<(Operand<'a>, usize)> {
    let (ty, mut e) = p.type_at(at)?;
    let text = p.lx.text();
    let b = text.as_bytes();
    if b.get(e) != Some(&b' ') {
        return None;
    }
    while let Some((w, end)) = word_at(text, e + 1) {
        // Words that are neither types nor values, and take no argument.
        if !matches!(
            w,
            "noundef"
                | "nonnull"
                | "nocapture"
                | "readonly"
                | "writeonly"
                | "readnone"
                | "noalias"
                | "signext"
                | "zeroext"
                | "inreg"
                | "immarg"
                | "returned"
                | "nofree"
        ) || b.get(end) != Some(&b' ')
        {
            break;
        }
        e = end;
    }
    let (value, end) = Parser::value_at(text, e + 1)?;
    Some((Operand { ty, value }, end))
}

/// True when an instruction that ends a line at `at` (its `\n`, or the end
/// of the text) ends there for the tokens too. Some of their reads go on
/// at the next token wherever it is: a type at a `*`, `(` or `addrspace`,
/// a GEP's indices or a phi's pairs at a `,`, a load or store at an
/// ordering word. So the next line must start with a name, a number, a
/// `}` or another word.
fn ends_at_line_end(p: &Parser<'_, '_>, at: usize) -> bool {
    let b = p.lx.text().as_bytes();
    if at >= b.len() {
        return true;
    }
    if p.lx.skips_lines() {
        return false;
    }
    let mut q = at + 1;
    while b.get(q) == Some(&b' ') {
        q += 1;
    }
    match b.get(q) {
        None => true,
        Some(&c) if c == b'%' || c == b'}' || c.is_ascii_digit() => true,
        Some(&c) if c.is_ascii_lowercase() => {
            let end = super::parser::ident_end(b, q);
            !matches!(
                b.get(q..end),
                Some(
                    b"addrspace"
                        | b"syncscope"
                        | b"unordered"
                        | b"monotonic"
                        | b"acquire"
                        | b"release"
                        | b"acq_rel"
                        | b"seq_cst"
                        | b"singlethread"
                )
            )
        }
        _ => false,
    }
}

/// `fast_line` after the flags: the operands from `at`, then what may
/// follow them to the end of the line, whose offset it returns.
fn fast_operands<'a>(
    p: &mut Parser<'a, '_>,
    inst: &mut Instruction<'a>,
    mut at: usize,
) -> Option<usize> {
    use Opcode::*;
    let text = p.lx.text();
    let b = text.as_bytes();
    // Past a GEP's indices or a phi's pairs, or an attachment, only
    // attachments may follow (the tokens read `, align` there as an error).
    let mut attachments_only = false;
    // Whether the tokens would look past the line end for more (see
    // `ends_at_line_end`) if the instruction ended here.
    let mut open_end = false;
    match inst.opcode {
        Load => {
            open_end = true;
            let (ty, e) = p.type_at(at)?;
            inst.elem_ty = Some(ty);
            inst.ty = ty;
            let (op, e) = comma_pointer_at(p, e, ty, &b[at..e])?;
            inst.operands.push(op);
            at = e;
        }
        Store => {
            open_end = true;
            let (ty, ty_end) = p.type_at(at)?;
            let (v, e) = p.operand_after_type(ty, ty_end)?;
            let (ptr, e) = comma_pointer_at(p, e, ty, &b[at..ty_end])?;
            inst.operands.push(v);
            inst.operands.push(ptr);
            at = e;
        }
        GetElementPtr => {
            open_end = true;
            let (ty, mut e) = p.type_at(at)?;
            inst.elem_ty = Some(ty);
            let (op, e1) = comma_pointer_at(p, e, ty, &b[at..e])?;
            inst.operands.push(op);
            e = e1;
            while let Some((op, e1)) = comma_operand_at(p, e) {
                inst.operands.push(op);
                e = e1;
            }
            let addrspace = inst
                .operands
                .first()
                .and_then(|o| p.types.addrspace(o.ty))
                .unwrap_or(0);
            inst.ty = p.types.ptr(addrspace, None);
            at = e;
            attachments_only = true;
        }
        Phi => {
            open_end = true;
            let (ty, mut e) = p.type_at(at)?;
            if ty == TypeTable::METADATA || b.get(e) != Some(&b' ') {
                return None;
            }
            inst.ty = ty;
            e += 1;
            loop {
                // `[ v, %bb ]`, as `fast_incoming` reads it.
                if b.get(e..e + 2) != Some(b"[ ") {
                    return None;
                }
                let (v, v_end) = Parser::value_at(text, e + 2)?;
                if b.get(v_end) != Some(&b',') {
                    return None;
                }
                let (bb, bb_end) = local_at(text, v_end + 1)?;
                if b.get(bb_end..bb_end + 2)? != b" ]" {
                    return None;
                }
                inst.operands.push(Operand { ty, value: v });
                inst.operands.push(label_operand(bb));
                e = bb_end + 2;
                if b.get(e..e + 3) != Some(b", [") {
                    break;
                }
                e += 2;
            }
            at = e;
            attachments_only = true;
        }
        Br => {
            if b.get(at..at + 5) == Some(b"label") {
                let (name, e) = local_at(text, at + 5)?;
                inst.operands.push(label_operand(name));
                at = e;
            } else {
                let (c, e) = p.operand_at(at)?;
                if b.get(e..e + 7) != Some(b", label") {
                    return None;
                }
                let (yes, e) = local_at(text, e + 7)?;
                if b.get(e..e + 7) != Some(b", label") {
                    return None;
                }
                let (no, e) = local_at(text, e + 7)?;
                inst.operands.push(c);
                inst.operands.push(label_operand(yes));
                inst.operands.push(label_operand(no));
                at = e;
            }
        }
        op if op.is_binary() => {
            let (a, e) = p.operand_at(at)?;
            let (v, e) = comma_value_at(text, e)?;
            inst.ty = a.ty;
            let ty = a.ty;
            inst.operands.push(a);
            inst.operands.push(Operand { ty, value: v });
            at = e;
        }
        ICmp | FCmp => {
            let (pred, e) = word_at(text, at)?;
            if b.get(e) != Some(&b' ') {
                return None;
            }
            let (a, e) = p.operand_at(e + 1)?;
            let (v, e) = comma_value_at(text, e)?;
            inst.predicate = Some(pred);
            inst.ty = bool_like(p.types, a.ty);
            let ty = a.ty;
            inst.operands.push(a);
            inst.operands.push(Operand { ty, value: v });
            at = e;
        }
        op if op.is_cast() => {
            open_end = true;
            let (a, e) = p.operand_at(at)?;
            if b.get(e..e + 4) != Some(b" to ") {
                return None;
            }
            let (to, e) = p.type_at(e + 4)?;
            inst.ty = to;
            inst.elem_ty = Some(to);
            inst.operands.push(a);
            at = e;
        }
        Select => {
            let (c, e) = p.operand_at(at)?;
            let (x, e) = comma_operand_at(p, e)?;
            let (y, e) = comma_operand_at(p, e)?;
            inst.ty = x.ty;
            inst.operands.extend([c, x, y]);
            at = e;
        }
        ExtractElement => {
            let (v, e) = p.operand_at(at)?;
            let (i, e) = comma_operand_at(p, e)?;
            inst.ty = p.types.scalar_of(v.ty);
            inst.operands.extend([v, i]);
            at = e;
        }
        InsertElement => {
            let (v, e) = p.operand_at(at)?;
            let (x, e) = comma_operand_at(p, e)?;
            let (i, e) = comma_operand_at(p, e)?;
            inst.ty = v.ty;
            inst.operands.extend([v, x, i]);
            at = e;
        }
        FNeg | Freeze => {
            let (v, e) = p.operand_at(at)?;
            inst.ty = v.ty;
            inst.operands.push(v);
            at = e;
        }
        ShuffleVector => {
            let (x, e) = p.operand_at(at)?;
            let (y, e) = comma_operand_at(p, e)?;
            // The mask: `<i32 0, i32 1, ...>`, `zeroinitializer`, ...
            if b.get(e..e + 2) != Some(b", ") {
                return None;
            }
            let (mask_ty, e) = p.type_at(e + 2)?;
            if b.get(e) != Some(&b' ') {
                return None;
            }
            // As many elements as the mask type says, mostly.
            let len = match p.types.get(mask_ty) {
                Type::Vector { len, .. } => (*len).min(256) as usize,
                _ => 0,
            };
            let (value, e) = match vector_value_at(p, e + 1, len) {
                Some(v) => v,
                None => Parser::value_at(text, e + 1)?,
            };
            let mask = Operand { ty: mask_ty, value };
            inst.ty = shuffle_type(p.types, x.ty, mask.ty);
            inst.operands.extend([x, y, mask]);
            at = e;
        }
        Alloca => {
            open_end = true;
            let (ty, e) = p.type_at(at)?;
            inst.elem_ty = Some(ty);
            // `, align N` as `Parser::expect_int` reads it.
            at = e;
            if let Some(end) = align_at(b, at + 1)
                && b.get(at) == Some(&b',')
            {
                text.get(at + 8..end)?.parse::<i64>().ok()?;
                at = end;
                open_end = false;
            }
            if b.get(at..at + 8) == Some(b", align ") {
                return None;
            }
            inst.ty = p.types.ptr(0, None);
        }
        Ret => {
            if b.get(at..at + 4) == Some(b"void")
                && !b
                    .get(at + 4)
                    .is_some_and(|&c| is_ident_byte(c) || c == b':' || c == b'"')
            {
                at += 4;
            } else {
                let (v, e) = p.operand_at(at)?;
                inst.operands.push(v);
                at = e;
            }
        }
        Call => {
            let (ty, e) = if b.get(at..at + 5) == Some(b"void ") {
                (TypeTable::VOID, at + 4)
            } else {
                p.type_at(at)?
            };
            if b.get(e) != Some(&b' ') {
                return None;
            }
            let (callee, e) = Parser::value_at(text, e + 1)?;
            if !matches!(callee, Value::Global(_) | Value::Local(_)) || b.get(e) != Some(&b'(') {
                return None;
            }
            let mut e = e + 1;
            if b.get(e) == Some(&b')') {
                e += 1;
            } else {
                loop {
                    let (arg, e1) = argument_at(p, e)?;
                    inst.operands.push(arg);
                    e = e1;
                    if b.get(e) == Some(&b')') {
                        e += 1;
                        break;
                    }
                    if b.get(e..e + 2) != Some(b", ") {
                        return None;
                    }
                    e += 2;
                }
            }
            inst.ty = ty;
            inst.operands.push(Operand {
                ty: TypeTable::PTR,
                value: callee,
            });
            // Function attributes, `#N`.
            if b.get(e..e + 2) == Some(b" #") {
                let end = super::parser::ident_end(b, e + 2);
                if end == e + 2 {
                    return None;
                }
                e = end;
            }
            at = e;
        }
        _ => return None,
    }
    // `, align N` and `, !kind !N` to the end of the line.
    loop {
        match b.get(at) {
            None | Some(b'\n') => break,
            Some(b',') => {
                if !attachments_only && let Some(end) = align_at(b, at + 1) {
                    at = end;
                    open_end = false;
                    continue;
                }
                let (kind, id, end) = attachment_at(text, at + 1)?;
                attach(inst, kind, id);
                at = end;
                attachments_only = true;
                open_end = false;
            }
            _ => return None,
        }
    }
    if open_end && !ends_at_line_end(p, at) {
        return None;
    }
    Some(at)
}

/// The opcode word, the next token.
fn opcode_word<'a>(p: &mut Parser<'a, '_>) -> PResult<&'a str> {
    let t = p.lx.next_token();
    match t.tok {
        Tok::Word(w) => Ok(w),
        other => p.error(
            t.line,
            format!("expected an instruction, found {}", other.describe()),
        ),
    }
}

/// ` = word ` at `at` (just past a result name): the word, which the lexer
/// would read as a word token, and the offset past it.
fn opcode_after_result(text: &str, at: usize) -> Option<(&str, usize)> {
    let b = text.as_bytes();
    if b.get(at..at + 3)? != b" = " || !b.get(at + 3)?.is_ascii_lowercase() {
        return None;
    }
    let start = at + 3;
    let end = super::parser::ident_end(b, start);
    if b.get(end) != Some(&b' ') {
        return None;
    }
    // ASCII from `start` to `end`.
    Some((str_at(text, start, end), end))
}

/// Opcodes whose flags are followed directly by a type.
fn expects_type_next(op: Opcode) -> bool {
    use Opcode::*;
    op.is_binary()
        || op.is_cast()
        || matches!(
            op,
            FNeg | Freeze
                | Select
                | Phi
                | Load
                | Store
                | GetElementPtr
                | ExtractElement
                | InsertElement
                | ShuffleVector
                | ExtractValue
                | InsertValue
                | Alloca
        )
}

fn skip_to_line_end(p: &mut Parser<'_, '_>, line: u32) -> PResult<()> {
    while p.lx.peek().line == line && p.lx.peek_tok() != Tok::Eof {
        match p.lx.peek_tok() {
            Tok::Punct(b'(' | b'[' | b'{' | b'<') => p.skip_group()?,
            _ => {
                p.lx.next_token();
            }
        }
    }
    Ok(())
}

/// ` %name` at `at`, as the lexer would read the local: the name and the
/// offset past it.
#[inline]
fn local_at(text: &str, at: usize) -> Option<(&str, usize)> {
    let b = text.as_bytes();
    if b.get(at..at + 2)? != b" %" {
        return None;
    }
    let end = super::parser::ident_end(b, at + 2);
    if end == at + 2 {
        return None;
    }
    // ASCII from `at` (` %`) to `end`.
    Some((str_at(text, at + 2, end), end))
}

fn label_operand(name: &str) -> Operand<'_> {
    Operand {
        ty: TypeTable::LABEL,
        value: Value::Label(name),
    }
}

/// `, label %x`.
fn comma_label<'a>(p: &mut Parser<'a, '_>) -> PResult<Operand<'a>> {
    let t = p.lx.peek();
    let text = p.lx.text();
    if t.tok == Tok::Punct(b',')
        && text.as_bytes().get(t.end..t.end + 6) == Some(b" label")
        && let Some((name, end)) = local_at(text, t.end + 6)
    {
        p.lx.consume_through(end);
        return Ok(label_operand(name));
    }
    p.expect(b',')?;
    label(p)
}

fn label<'a>(p: &mut Parser<'a, '_>) -> PResult<Operand<'a>> {
    let t = p.lx.peek();
    if t.tok == Tok::Word("label")
        && let Some((name, end)) = local_at(p.lx.text(), t.end)
    {
        p.lx.consume_through(end);
        return Ok(label_operand(name));
    }
    p.expect_word("label")?;
    let t = p.lx.next_token();
    match t.tok {
        Tok::Local(name) => Ok(Operand {
            ty: TypeTable::LABEL,
            value: Value::Label(name),
        }),
        other => p.error(
            t.line,
            format!("expected a block label, found {}", other.describe()),
        ),
    }
}

/// A phi's `[ v, %bb ]` in the shape LLVM prints, when the next token is
/// its `[` and `v` a value `Parser::value_at` reads; consumed then.
fn fast_incoming<'a>(p: &mut Parser<'a, '_>, ty: TypeId) -> Option<(Value<'a>, &'a str)> {
    let t = p.lx.peek();
    let text = p.lx.text();
    let b = text.as_bytes();
    if t.tok != Tok::Punct(b'[') || ty == TypeTable::METADATA || b.get(t.end) != Some(&b' ') {
        return None;
    }
    let (v, v_end) = Parser::value_at(text, t.end + 1)?;
    if b.get(v_end) != Some(&b',') {
        return None;
    }
    let (bb, bb_end) = local_at(text, v_end + 1)?;
    if b.get(bb_end..bb_end + 2)? != b" ]" {
        return None;
    }
    p.lx.consume_through(bb_end + 2);
    Some((v, bb))
}

/// `, <type> <value>`
fn comma_operand<'a>(p: &mut Parser<'a, '_>) -> PResult<Operand<'a>> {
    if let Some(op) = fast_comma_operand(p) {
        return Ok(op);
    }
    p.expect(b',')?;
    p.parse_operand()
}

/// `, <type> <value>` when the next token is the comma and the operand is
/// one `Parser::fast_operand` reads; consumed then, else nothing is.
#[inline]
fn fast_comma_operand<'a>(p: &mut Parser<'a, '_>) -> Option<Operand<'a>> {
    let t = p.lx.peek();
    if t.tok == Tok::Punct(b',') && p.lx.text().as_bytes().get(t.end) == Some(&b' ') {
        p.fast_operand(t.end + 1)
    } else {
        None
    }
}

fn operands<'a>(p: &mut Parser<'a, '_>, inst: &mut Instruction<'a>) -> PResult<()> {
    use Opcode::*;
    match inst.opcode {
        Ret => {
            if p.lx.peek_tok() == Tok::Word("void") {
                // `ret void`, or a function-pointer type that starts with
                // `void` (`ret void (i32)* @f`).
                let ty = p.parse_type()?;
                if ty == TypeTable::VOID {
                    return Ok(());
                }
                let value = p.parse_value(ty)?;
                inst.operands.push(Operand { ty, value });
            } else {
                let op = p.parse_operand()?;
                inst.operands.push(op);
            }
        }
        Br => {
            if p.lx.peek_tok() == Tok::Word("label") {
                inst.operands.push(label(p)?);
            } else {
                inst.operands.push(p.parse_operand()?);
                inst.operands.push(comma_label(p)?);
                inst.operands.push(comma_label(p)?);
            }
        }
        Switch => {
            inst.operands.push(p.parse_operand()?);
            p.expect(b',')?;
            inst.operands.push(label(p)?);
            p.expect(b'[')?;
            while !p.lx.eat(b']') {
                inst.operands.push(p.parse_operand()?);
                p.expect(b',')?;
                inst.operands.push(label(p)?);
            }
        }
        IndirectBr => {
            inst.operands.push(p.parse_operand()?);
            p.expect(b',')?;
            p.expect(b'[')?;
            while !p.lx.eat(b']') {
                inst.operands.push(label(p)?);
                p.lx.eat(b',');
            }
        }
        Unreachable => {}
        FNeg | Freeze => {
            let op = p.parse_operand()?;
            inst.ty = op.ty;
            inst.operands.push(op);
        }
        op if op.is_binary() => {
            let a = p.parse_operand()?;
            let b = match p.fast_comma_value(a.ty) {
                Some(b) => b,
                None => {
                    p.expect(b',')?;
                    p.parse_value(a.ty)?
                }
            };
            inst.ty = a.ty;
            let ty = a.ty;
            inst.operands.push(a);
            inst.operands.push(Operand { ty, value: b });
        }
        ICmp | FCmp => {
            inst.flags.insert(p.parse_flags());
            match p.lx.next_tok() {
                Tok::Word(pred) => inst.predicate = Some(pred),
                other => {
                    return p.error(
                        inst.line,
                        format!("expected a predicate, found {}", other.describe()),
                    );
                }
            }
            let a = p.parse_operand()?;
            let b = match p.fast_comma_value(a.ty) {
                Some(b) => b,
                None => {
                    p.expect(b',')?;
                    p.parse_value(a.ty)?
                }
            };
            inst.ty = bool_like(p.types, a.ty);
            inst.operands.push(a.clone());
            inst.operands.push(Operand { ty: a.ty, value: b });
        }
        op if op.is_cast() => {
            let a = p.parse_operand()?;
            p.expect_word("to")?;
            let to = p.parse_type()?;
            inst.ty = to;
            inst.elem_ty = Some(to);
            inst.operands.push(a);
        }
        Select => {
            let c = p.parse_operand()?;
            let a = comma_operand(p)?;
            let b = comma_operand(p)?;
            inst.ty = a.ty;
            inst.operands.extend([c, a, b]);
        }
        Phi => {
            let ty = p.parse_type()?;
            inst.ty = ty;
            loop {
                if let Some((v, bb)) = fast_incoming(p, ty) {
                    inst.operands.push(Operand { ty, value: v });
                    inst.operands.push(label_operand(bb));
                    if p.lx.peek_tok() == Tok::Punct(b',') {
                        p.lx.next_token();
                        if p.lx.peek_tok() != Tok::Punct(b'[') {
                            attachments_after_comma(p, inst)?;
                            return Ok(());
                        }
                        continue;
                    }
                    break;
                }
                p.expect(b'[')?;
                let v = p.parse_value(ty)?;
                p.expect(b',')?;
                let bb = match p.lx.next_tok() {
                    Tok::Local(n) => n,
                    other => {
                        return p.error(
                            inst.line,
                            format!("expected a block in phi, found {}", other.describe()),
                        );
                    }
                };
                p.expect(b']')?;
                inst.operands.push(Operand { ty, value: v });
                inst.operands.push(Operand {
                    ty: TypeTable::LABEL,
                    value: Value::Label(bb),
                });
                // A trailing `, !dbg` is an attachment, not another incoming pair.
                let t = p.lx.peek();
                if t.tok == Tok::Punct(b',') {
                    p.lx.next_token();
                    if p.lx.peek_tok() != Tok::Punct(b'[') {
                        attachments_after_comma(p, inst)?;
                        return Ok(());
                    }
                } else {
                    break;
                }
            }
        }
        Alloca => {
            p.lx.eat_word("inalloca");
            let ty = p.parse_type()?;
            inst.elem_ty = Some(ty);
            let mut addrspace = 0;
            while p.lx.eat(b',') {
                match p.lx.peek_tok() {
                    Tok::Word("align") => {
                        p.lx.next_token();
                        p.expect_int()?;
                    }
                    Tok::Word("addrspace") => {
                        p.lx.next_token();
                        p.expect(b'(')?;
                        addrspace = p.expect_u32()?;
                        p.expect(b')')?;
                    }
                    Tok::MetaName(_) => {
                        attachments_after_comma(p, inst)?;
                        break;
                    }
                    _ => inst.operands.push(p.parse_operand()?),
                }
            }
            inst.ty = p.types.ptr(addrspace, None);
        }
        Load => {
            let ty = p.parse_type()?;
            inst.elem_ty = Some(ty);
            inst.ty = ty;
            inst.operands.push(comma_operand(p)?);
            memory_ordering(p, inst)?;
        }
        Store => {
            inst.operands.push(p.parse_operand()?);
            inst.operands.push(comma_operand(p)?);
            memory_ordering(p, inst)?;
        }
        GetElementPtr => {
            let ty = p.parse_type()?;
            inst.elem_ty = Some(ty);
            loop {
                if let Some(op) = fast_comma_operand(p) {
                    inst.operands.push(op);
                    continue;
                }
                if !p.lx.eat(b',') {
                    break;
                }
                if matches!(p.lx.peek_tok(), Tok::MetaName(_)) {
                    attachments_after_comma(p, inst)?;
                    break;
                }
                p.lx.eat_word("inrange");
                inst.operands.push(p.parse_operand()?);
            }
            let addrspace = inst
                .operands
                .first()
                .and_then(|o| p.types.addrspace(o.ty))
                .unwrap_or(0);
            inst.ty = p.types.ptr(addrspace, None);
        }
        ExtractElement => {
            let v = p.parse_operand()?;
            let i = comma_operand(p)?;
            inst.ty = p.types.scalar_of(v.ty);
            inst.operands.extend([v, i]);
        }
        InsertElement => {
            let v = p.parse_operand()?;
            let e = comma_operand(p)?;
            let i = comma_operand(p)?;
            inst.ty = v.ty;
            inst.operands.extend([v, e, i]);
        }
        ShuffleVector => {
            let a = p.parse_operand()?;
            let b = comma_operand(p)?;
            let mask = comma_operand(p)?;
            inst.ty = shuffle_type(p.types, a.ty, mask.ty);
            inst.operands.extend([a, b, mask]);
        }
        ExtractValue | InsertValue => {
            let agg = p.parse_operand()?;
            inst.ty = agg.ty;
            inst.operands.push(agg);
            if inst.opcode == InsertValue {
                inst.operands.push(comma_operand(p)?);
            }
            while p.lx.eat(b',') {
                if matches!(p.lx.peek_tok(), Tok::MetaName(_)) {
                    attachments_after_comma(p, inst)?;
                    break;
                }
                inst.indices.push(p.expect_u32()?);
            }
            if inst.opcode == ExtractValue {
                let mut ty = Some(inst.ty);
                for i in &inst.indices {
                    ty = ty.and_then(|t| p.types.member(t, *i as u64));
                }
                inst.ty = ty.unwrap_or(TypeTable::VOID);
            }
        }
        Fence => {
            memory_ordering(p, inst)?;
        }
        CmpXchg => {
            let ptr = p.parse_operand()?;
            let cmp = comma_operand(p)?;
            let new = comma_operand(p)?;
            let value_ty = cmp.ty;
            inst.ty = p.types.intern(Type::Struct {
                fields: vec![value_ty, TypeTable::I1],
                packed: false,
            });
            inst.operands.extend([ptr, cmp, new]);
            memory_ordering(p, inst)?;
        }
        AtomicRmw => {
            inst.flags.insert(p.parse_flags());
            match p.lx.next_tok() {
                Tok::Word(op) => inst.predicate = Some(op),
                other => {
                    return p.error(
                        inst.line,
                        format!("expected an atomic operation, found {}", other.describe()),
                    );
                }
            }
            let ptr = p.parse_operand()?;
            let v = comma_operand(p)?;
            inst.ty = v.ty;
            inst.operands.extend([ptr, v]);
            memory_ordering(p, inst)?;
        }
        Call => call(p, inst)?,
        VAArg => {
            inst.operands.push(p.parse_operand()?);
            p.expect(b',')?;
            inst.ty = p.parse_type()?;
        }
        _ => skip_to_line_end(p, inst.line)?,
    }
    Ok(())
}

/// `<i1>` or a vector of i1 as long as `ty`.
/// A shufflevector's result: the inputs' element type, as many as the mask
/// has (the first input's type if the mask is not a vector).
fn shuffle_type(types: &mut TypeTable<'_>, input: TypeId, mask: TypeId) -> TypeId {
    let elem = types.scalar_of(input);
    match types.get(mask) {
        Type::Vector { len, scalable, .. } => {
            let (len, scalable) = (*len, *scalable);
            types.intern(Type::Vector {
                len,
                elem,
                scalable,
            })
        }
        _ => input,
    }
}

fn bool_like(types: &mut TypeTable<'_>, ty: TypeId) -> TypeId {
    match types.get(ty) {
        Type::Vector { len, scalable, .. } => {
            let (len, scalable) = (*len, *scalable);
            types.intern(Type::Vector {
                len,
                elem: TypeTable::I1,
                scalable,
            })
        }
        _ => TypeTable::I1,
    }
}

/// `syncscope("...")` and orderings after a memory operation.
fn memory_ordering<'a>(p: &mut Parser<'a, '_>, inst: &mut Instruction<'a>) -> PResult<()> {
    loop {
        match p.lx.peek_tok() {
            Tok::Word("syncscope") => {
                p.lx.next_token();
                p.skip_group()?;
            }
            Tok::Word(
                "unordered" | "monotonic" | "acquire" | "release" | "acq_rel" | "seq_cst"
                | "singlethread",
            ) => {
                p.lx.next_token();
                inst.flags.insert(Flags::ATOMIC);
            }
            _ => return Ok(()),
        }
    }
}

fn call<'a>(p: &mut Parser<'a, '_>, inst: &mut Instruction<'a>) -> PResult<()> {
    // Fast-math flags were read with the other flags; now calling convention,
    // return attributes and `addrspace(N)` until the type.
    while !p.at_type() {
        let t = p.lx.next_token();
        match t.tok {
            Tok::Word(_) => {
                if p.lx.peek_tok() == Tok::Punct(b'(') {
                    p.skip_group()?;
                } else if let Tok::Int(_) = p.lx.peek_tok() {
                    p.lx.next_token();
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
                    format!("expected the call's type, found {}", other.describe()),
                );
            }
        }
    }
    let ty = p.parse_type()?;
    inst.ty = match p.types.get(ty) {
        Type::Function { ret, .. } => *ret,
        _ => ty,
    };
    let callee_value = p.parse_value(TypeTable::PTR)?;
    p.expect(b'(')?;
    if !p.lx.eat(b')') {
        'arguments: loop {
            inst.operands.push(p.parse_argument()?);
            loop {
                if p.lx.eat(b')') {
                    break 'arguments;
                }
                match fast_comma_operand(p) {
                    Some(op) => inst.operands.push(op),
                    None => break,
                }
            }
            p.expect(b',')?;
        }
    }
    inst.operands.push(Operand {
        ty: TypeTable::PTR,
        value: callee_value,
    });
    Ok(())
}

/// Attachments after a comma was eaten: `!dbg !12, !tbaa !3`.
fn attachments_after_comma<'a>(p: &mut Parser<'a, '_>, inst: &mut Instruction<'a>) -> PResult<()> {
    loop {
        let t = p.lx.next_token();
        let kind = match t.tok {
            Tok::MetaName(k) => k,
            other => {
                return p.error(
                    t.line,
                    format!("expected a metadata attachment, found {}", other.describe()),
                );
            }
        };
        if let MetaOperand::Ref(id) = p.parse_meta_operand()? {
            attach(inst, kind, id);
        }
        if !more_attachments(p, inst) {
            return Ok(());
        }
    }
}

fn attach<'a>(inst: &mut Instruction<'a>, kind: &'a str, id: u32) {
    if kind == "dbg" {
        inst.dbg = Some(id);
    } else {
        inst.metadata.push((kind, id));
    }
}

/// After an attachment: reads the `, !kind !N` that follow on its line
/// from the bytes. True when a comma was eaten and what follows it must be
/// read by `attachments_after_comma`.
fn more_attachments<'a>(p: &mut Parser<'a, '_>, inst: &mut Instruction<'a>) -> bool {
    loop {
        let t = p.lx.peek();
        if t.tok != Tok::Punct(b',') || t.line != p.lx.last_line() {
            return false;
        }
        match attachment_at(p.lx.text(), t.end) {
            Some((kind, id, end)) => {
                p.lx.consume_through(end);
                attach(inst, kind, id);
            }
            None => {
                p.lx.next_token();
                return true;
            }
        }
    }
}

use super::parser::{NAME_BYTES, is_ident_byte};

/// The end of the decimal digits at `at` when the lexer would read them as
/// one integer token (no sign, no fraction, not a label or a word).
#[inline]
fn int_token_end(b: &[u8], at: usize) -> Option<usize> {
    let mut end = at;
    while end < b.len() && b[end].is_ascii_digit() {
        end += 1;
    }
    match b.get(end) {
        _ if end == at => None,
        Some(&c) if is_ident_byte(c) || c == b':' => None,
        _ => Some(end),
    }
}

/// ` align N` at `at` (just past a comma): the offset past `N`.
#[inline]
fn align_at(b: &[u8], at: usize) -> Option<usize> {
    if b.get(at..at + 7)? != b" align " {
        return None;
    }
    int_token_end(b, at + 7)
}

/// ` !kind !N` at `at` (just past a comma), written as LLVM prints it: the
/// kind, the node id and the offset past it. `None` for anything else,
/// which the tokens then read (and report).
fn attachment_at(text: &str, at: usize) -> Option<(&str, u32, usize)> {
    let b = text.as_bytes();
    if b.get(at..at + 2)? != b" !" {
        return None;
    }
    let name = at + 2;
    let name_end = kind_end(b, name)?;
    let digits = name_end + 2;
    let mut end = digits;
    let mut id: u64 = 0;
    while end < b.len() && b[end].is_ascii_digit() {
        id = id * 10 + u64::from(b[end] - b'0');
        end += 1;
        if end - digits > 9 {
            // Possibly past u32: the tokens read it.
            return None;
        }
    }
    if end == digits || b.get(end).is_some_and(|&c| is_ident_byte(c)) {
        return None;
    }
    // ASCII from `name` to `name_end`.
    Some((str_at(text, name, name_end), id as u32, end))
}

/// The end of the attachment kind at `name`, followed by ` !`.
#[inline]
fn kind_end(b: &[u8], name: usize) -> Option<usize> {
    if b.get(name).is_none_or(|c| c.is_ascii_digit()) {
        return None;
    }
    let mut name_end = name;
    while name_end < b.len() && NAME_BYTES[b[name_end] as usize] != 0 {
        name_end += 1;
    }
    if name_end == name || b.get(name_end..name_end + 2)? != b" !" {
        return None;
    }
    Some(name_end)
}

/// True for an instruction's first word: no attribute has an opcode's name.
fn starts_instruction(w: &str) -> bool {
    Opcode::from_word(w).is_some() || matches!(w, "tail" | "musttail" | "notail")
}

/// What may follow an instruction on its line: `, align N`, function
/// attributes `#0`, operand bundles `[ "x"(...) ]`, and attachments.
fn trailing<'a>(p: &mut Parser<'a, '_>, inst: &mut Instruction<'a>) -> PResult<()> {
    // On the line of its last token (a switch's `]`) the instruction goes
    // on up to the next instruction's opcode (`{ %y = add i32 %x, 1 ret i32
    // %y }`); on later lines only by a `,` or `#N` (no instruction starts
    // with one), as LLVM reads on over line ends.
    let line = p.lx.last_line();
    loop {
        let t = p.lx.peek();
        let goes_on = if t.line == line {
            // What starts the next instruction of a one-line body.
            match t.tok {
                Tok::Word(w) => !starts_instruction(w),
                Tok::Hash(h) => !h.starts_with("dbg_"),
                Tok::Local(_) => {
                    let b = p.lx.text().as_bytes();
                    let mut at = t.end;
                    while b.get(at) == Some(&b' ') {
                        at += 1;
                    }
                    b.get(at) != Some(&b'=')
                }
                Tok::Label(_) => false,
                _ => true,
            }
        } else {
            matches!(t.tok, Tok::Punct(b','))
                || matches!(t.tok, Tok::Hash(h) if !h.starts_with("dbg_"))
        };
        if !goes_on || t.tok == Tok::Eof {
            return Ok(());
        }
        match t.tok {
            Tok::Punct(b',') => {
                // `, align N` and `, !kind !N`, as LLVM prints them, are
                // read from the bytes: they end most lines.
                let text = p.lx.text();
                if let Some(end) = align_at(text.as_bytes(), t.end) {
                    p.lx.consume_through(end);
                    continue;
                }
                if let Some((kind, id, end)) = attachment_at(text, t.end) {
                    p.lx.consume_through(end);
                    attach(inst, kind, id);
                    if more_attachments(p, inst) {
                        attachments_after_comma(p, inst)?;
                    }
                    continue;
                }
                p.lx.next_token();
                match p.lx.peek_tok() {
                    Tok::MetaName(_) => {
                        attachments_after_comma(p, inst)?;
                    }
                    Tok::Word(_) => {
                        p.lx.next_token();
                        match p.lx.peek_tok() {
                            Tok::Int(_) => {
                                p.lx.next_token();
                            }
                            Tok::Punct(b'(') => p.skip_group()?,
                            _ => {}
                        }
                    }
                    _ => return p.expected("an attachment or 'align'"),
                }
            }
            Tok::Hash(_) => {
                p.lx.next_token();
            }
            Tok::Punct(b'[') => p.skip_group()?,
            Tok::Word(_) => {
                // Function attributes written inline on a call.
                p.lx.next_token();
                if p.lx.peek_tok() == Tok::Punct(b'(') {
                    p.skip_group()?;
                }
            }
            Tok::Str(_) => {
                p.lx.next_token();
                if p.lx.eat(b'=') {
                    p.lx.next_token();
                }
            }
            other => {
                return p.error(
                    t.line,
                    format!("unexpected {} after the instruction", other.describe()),
                );
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{Flags, surely_no_flag};

    #[test]
    fn surely_no_flag_turns_no_flag_away() {
        let flags = "nsw nuw nneg nusw notail nnan ninf nsz atomic arcp afn exact inbounds \
            disjoint samesign volatile tail musttail weak fast contract reassoc";
        for w in flags.split_whitespace() {
            assert!(
                Flags::from_word(w).is_some() && !surely_no_flag(w.as_bytes(), 0),
                "{w}"
            );
        }
    }
}
