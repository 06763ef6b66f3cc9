//! Tokenizer for LLVM IR text.
//!
//! Hand-written rather than generated: the reader must take every era of AIR
//! text (typed and opaque pointers, keywords newer than any one LLVM knows) at
//! hundreds of MB/s, and a byte loop over `&str` that never allocates is the
//! simplest way to get there. Tokens borrow the input; nothing is copied.
//!
//! Lexing is about half of reading, so the common case is kept short
//! (`Lexer::lex`: ~58 instructions a token on the benchmark modules, from
//! ~117): one space at most before the token, a dispatch on a byte-class
//! table, names scanned sixteen bytes per bounds check, slices taken without
//! re-checking char boundaries, and nothing else inline, so the function
//! saves no registers. Longer trivia, comments, strings, signed and real
//! numbers and bad bytes go to out-of-line functions through tail calls; the
//! general path (`lex_any`, `skip_trivia_slow`) is the lexer as it was, and
//! the tests check the fast paths against it.

/// One token. Text fields borrow the input and exclude sigils and quotes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tok<'a> {
    /// `%name`, `%12`, `%"quoted name"`.
    Local(&'a str),
    /// `@name`, `@"quoted"`.
    Global(&'a str),
    /// `!12`.
    MetaRef(&'a str),
    /// `!dbg`, `!air.kernel`, `!DILocation`.
    MetaName(&'a str),
    /// `!"text"`.
    MetaStr(&'a str),
    /// `#0`, or `#dbg_value` (a debug record).
    Hash(&'a str),
    /// `-12`, `42`.
    Int(&'a str),
    /// `1.5e+00`, `0x3FF0000000000000`, `0xH3C00`.
    Float(&'a str),
    /// `"text"`.
    Str(&'a str),
    /// `c"text"`.
    CStr(&'a str),
    /// Keywords, type names, field names: `add`, `i32`, `addrspace`, `x`, `...`.
    Word(&'a str),
    /// `entry:`, `12:`, `"quoted":`, and metadata field names such as `line:`.
    Label(&'a str),
    /// One of `= , ( ) [ ] { } < > * | !`.
    Punct(u8),
    /// A byte that starts no token.
    Bad(u8),
    Eof,
}

impl Tok<'_> {
    /// The token for a message, a long name cut to `MAX_QUOTED` characters.
    pub fn describe(&self) -> String {
        match self {
            Tok::Local(s) => format!("'%{}'", cut(s)),
            Tok::Global(s) => format!("'@{}'", cut(s)),
            Tok::MetaRef(s) => format!("'!{}'", cut(s)),
            Tok::MetaName(s) => format!("'!{}'", cut(s)),
            Tok::MetaStr(_) => "a metadata string".into(),
            Tok::Hash(s) => format!("'#{}'", cut(s)),
            Tok::Int(s) | Tok::Float(s) => format!("'{}'", cut(s)),
            Tok::Str(_) | Tok::CStr(_) => "a string".into(),
            Tok::Word(s) => format!("'{}'", cut(s)),
            Tok::Label(s) => format!("label '{}:'", cut(s)),
            Tok::Punct(c) => format!("'{}'", *c as char),
            Tok::Bad(c) if c.is_ascii_graphic() => format!("unexpected character '{}'", *c as char),
            Tok::Bad(c) => format!("unexpected byte 0x{c:02x}"),
            Tok::Eof => "end of input".into(),
        }
    }
}

/// `s`, or its first `MAX_QUOTED` characters and `…`: a message quotes a
/// token, and a token can be as long as a line.
pub fn cut(s: &str) -> std::borrow::Cow<'_, str> {
    match s.char_indices().nth(super::limits::MAX_QUOTED) {
        Some((i, _)) => format!("{}…", &s[..i]).into(),
        None => s.into(),
    }
}

/// The bracket that closes `open` (one of `( [ { <`).
pub fn closer(open: u8) -> u8 {
    match open {
        b'(' => b')',
        b'[' => b']',
        b'{' => b'}',
        _ => b'>',
    }
}

/// A token with where it starts.
#[derive(Clone, Copy, Debug)]
pub struct Token<'a> {
    pub tok: Tok<'a>,
    /// Byte offset of the token's first byte in the lexer's text.
    pub start: usize,
    /// Byte offset just past the token.
    pub end: usize,
    /// 1-based line number.
    pub line: u32,
}

/// Bytes that may continue an identifier: `[-a-zA-Z$._0-9]`.
static IDENT: [bool; 256] = {
    let mut t = [false; 256];
    let mut i = 0;
    while i < 256 {
        let b = i as u8;
        t[i] = b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b'$' | b'-');
        i += 1;
    }
    t
};

/// Also how the call graph reads the `@name`s of every body, a byte at a time.
#[inline]
pub(crate) fn is_ident_byte(b: u8) -> bool {
    IDENT[b as usize]
}

/// What a token's first byte says about it, for `lex`'s dispatch.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Class {
    /// Whitespace or a comment: `skip_trivia`'s business.
    Trivia,
    /// `% @ # !`.
    Percent,
    At,
    Hash,
    Bang,
    /// `0-9`: maybe a plain integer.
    Digit,
    /// `[a-zA-Z._$]`: a word or a label.
    Ident,
    /// `= , ( ) [ ] { } < > * |`.
    Punct,
    /// Anything else (strings, `-`, `+`, bad bytes, NUL, which also stands
    /// for the end of input): `lex_any`'s business.
    Other,
}

static CLASS: [Class; 256] = {
    let mut t = [Class::Other; 256];
    let mut i = 0;
    while i < 256 {
        let b = i as u8;
        t[i] = match b {
            b' ' | b'\t' | b'\r' | 0x0c | b'\n' | b';' => Class::Trivia,
            b'%' => Class::Percent,
            b'@' => Class::At,
            b'#' => Class::Hash,
            b'!' => Class::Bang,
            b'0'..=b'9' => Class::Digit,
            b'a'..=b'z' | b'A'..=b'Z' | b'.' | b'_' | b'$' => Class::Ident,
            b'=' | b',' | b'(' | b')' | b'[' | b']' | b'{' | b'}' | b'<' | b'>' | b'*' | b'|' => {
                Class::Punct
            }
            _ => Class::Other,
        };
        i += 1;
    }
    t
};

/// `:` and `"`, the bytes after a word that make it something else.
static LABEL_OR_QUOTE: [bool; 256] = {
    let mut t = [false; 256];
    t[b':' as usize] = true;
    t[b'"' as usize] = true;
    t
};

/// The byte at `p`, or 0 past the end (0 starts no fast token, so the end
/// of input goes to `lex_other`, which tells it from a NUL byte).
#[inline(always)]
fn byte_at(b: &[u8], p: usize) -> u8 {
    b.get(p).copied().unwrap_or(0)
}

/// The end of the identifier bytes from `p` (`p` itself if there are
/// none), and the byte there (0 at the end of input). The first sixteen
/// bytes are looked at with one bounds check (the loop over a `[u8; 16]` is
/// unrolled); most names are shorter (eight was 0.2% more instructions).
#[inline(always)]
fn ident_end(b: &[u8], p: usize) -> (usize, u8) {
    // Free when the caller has shown `p <= b.len()`, as `lex` does.
    let rest = b.get(p..).unwrap_or_default();
    if let Some(w) = rest.first_chunk::<16>() {
        for (i, &x) in w.iter().enumerate() {
            if !is_ident_byte(x) {
                return (p + i, x);
            }
        }
        return ident_end_slow(b, p + 16);
    }
    ident_end_slow(b, p)
}

/// `ident_end` a byte at a time: near the end of input, and past the first
/// sixteen bytes of a long name. Inline: a call would make `lex` save
/// registers on every token.
#[inline(always)]
fn ident_end_slow(b: &[u8], mut p: usize) -> (usize, u8) {
    while let Some(&x) = b.get(p) {
        if !is_ident_byte(x) {
            return (p, x);
        }
        p += 1;
    }
    (p, 0)
}

/// The end of the blanks from `p`, eight at a time while eight remain.
#[inline(always)]
fn spaces_end(b: &[u8], mut p: usize) -> usize {
    while let Some(w) = b.get(p..).and_then(|s| s.first_chunk::<8>()) {
        if *w != [b' '; 8] {
            break;
        }
        p += 8;
    }
    while byte_at(b, p) == b' ' {
        p += 1;
    }
    p
}

/// The end of the decimal digits from `p`, and the byte there (0 at the
/// end of input).
#[inline(always)]
fn digits_end(b: &[u8], p: usize) -> (usize, u8) {
    let rest = b.get(p..).unwrap_or_default();
    match rest.iter().position(|x| !x.is_ascii_digit()) {
        Some(i) => (p + i, rest[i]),
        None => (b.len(), 0),
    }
}

/// `text[from..to]` for the fast paths of `lex` and of the byte matchers
/// in `parser` and `body`, where `from` and `to` are known to be char
/// boundaries: `from` is at or just past the token's first byte, and `to`
/// just past one of its identifier bytes or digits, and all of those are
/// ASCII (the fast paths start only at ASCII bytes, which are never inside
/// a multi-byte character, whatever offset a caller seeks to). A boundary
/// check on each token was ~10% of lexing, 3.6% of a whole scan (callgrind,
/// typed-12MB and the corpus module), so it is only checked in debug builds.
#[inline(always)]
pub(super) fn str_at(text: &str, from: usize, to: usize) -> &str {
    debug_assert!(from <= to && to <= text.len());
    debug_assert!(text.is_char_boundary(from) && text.is_char_boundary(to));
    // SAFETY: `from <= to <= text.len()` and both are char boundaries, as
    // explained above (and asserted in debug builds).
    unsafe { text.get_unchecked(from..to) }
}

#[derive(Clone)]
pub struct Lexer<'a> {
    text: &'a str,
    pos: usize,
    line: u32,
    /// The next token, always lexed one ahead.
    cur: Token<'a>,
    /// End offset and line of the last token consumed.
    last_end: usize,
    last_line: u32,
    /// Byte ranges of whole lines to pass over as if they were comments
    /// (lines longer than `MAX_LINE_LENGTH`), sorted.
    skipped: Vec<std::ops::Range<usize>>,
}

impl<'a> Lexer<'a> {
    /// A lexer over `text`, whose first byte is on line `first_line`.
    pub fn new(text: &'a str, first_line: u32) -> Self {
        Self::skipping(text, first_line, Vec::new())
    }

    /// A lexer that passes over `skipped` (byte ranges of whole lines of
    /// `text`, sorted, newline excluded) as if they were comments.
    pub fn skipping(text: &'a str, first_line: u32, skipped: Vec<std::ops::Range<usize>>) -> Self {
        let eof = Token {
            tok: Tok::Eof,
            start: 0,
            end: 0,
            line: first_line,
        };
        let mut lx = Lexer {
            text,
            pos: 0,
            line: first_line,
            cur: eof,
            last_end: 0,
            last_line: first_line,
            skipped,
        };
        lx.restart();
        lx
    }

    /// `p`, or the end of the skipped line that starts at `p`.
    fn past_skipped(&self, p: usize) -> usize {
        match self.skipped.binary_search_by_key(&p, |r| r.start) {
            Ok(i) => self.skipped[i].end,
            Err(_) => p,
        }
    }

    pub fn text(&self) -> &'a str {
        self.text
    }

    /// True when some long lines are passed over as comments.
    pub fn skips_lines(&self) -> bool {
        !self.skipped.is_empty()
    }

    /// Where the lexer stands, for tests that compare two ways of reading.
    #[cfg(debug_assertions)]
    pub fn state(&self) -> String {
        format!(
            "{} {} {:?} {} {}",
            self.pos, self.line, self.cur, self.last_end, self.last_line
        )
    }

    /// Line of the next token (or of the end of input).
    #[inline]
    pub fn line(&self) -> u32 {
        self.cur.line
    }

    #[inline]
    pub fn peek(&self) -> Token<'a> {
        self.cur
    }

    #[inline]
    pub fn next_token(&mut self) -> Token<'a> {
        let t = self.cur;
        self.advance();
        t
    }

    /// Consumes the current token.
    #[inline]
    fn advance(&mut self) {
        self.last_end = self.cur.end;
        self.last_line = self.cur.line;
        self.lex();
    }

    /// Line of the last token consumed.
    pub fn last_line(&self) -> u32 {
        self.last_line
    }

    /// End offset of the last token consumed.
    pub fn last_end(&self) -> usize {
        self.last_end
    }

    #[inline]
    pub fn next_tok(&mut self) -> Tok<'a> {
        self.next_token().tok
    }

    #[inline]
    pub fn peek_tok(&self) -> Tok<'a> {
        self.cur.tok
    }

    /// Consumes the next token if it is the punctuation `c`.
    #[inline]
    pub fn eat(&mut self, c: u8) -> bool {
        if matches!(self.cur.tok, Tok::Punct(x) if x == c) {
            self.advance();
            true
        } else {
            false
        }
    }

    /// Consumes the next token if it is the word `w`.
    #[inline]
    pub fn eat_word(&mut self, w: &str) -> bool {
        if matches!(self.cur.tok, Tok::Word(x) if x == w) {
            self.advance();
            true
        } else {
            false
        }
    }

    /// Byte offset of the next token's start.
    pub fn offset(&mut self) -> usize {
        self.peek().start
    }

    /// True when the token is the first thing on its line.
    pub fn at_line_start(&self, t: &Token<'a>) -> bool {
        t.start == 0 || self.text.as_bytes().get(t.start - 1) == Some(&b'\n')
    }

    /// Error recovery: skips tokens until the first one on a line after
    /// `line` that is outside any bracket opened while skipping. A `}` or
    /// `define` that starts a line always stops it, so one stray bracket
    /// cannot swallow the following functions.
    pub fn recover_after(&mut self, line: u32) {
        let mut depth: i64 = 0;
        loop {
            let t = self.peek();
            if t.tok == Tok::Eof {
                return;
            }
            if t.line > line {
                if depth <= 0 {
                    return;
                }
                if self.at_line_start(&t)
                    && matches!(
                        t.tok,
                        Tok::Punct(b'}') | Tok::Word("define") | Tok::Word("declare")
                    )
                {
                    return;
                }
            }
            match t.tok {
                Tok::Punct(b'(' | b'[' | b'{' | b'<') => depth += 1,
                Tok::Punct(b')' | b']' | b'}' | b'>') => depth -= 1,
                _ => {}
            }
            self.advance();
        }
    }

    /// Moves to the start of the line after the one holding byte `offset`,
    /// which is line `line`.
    pub fn seek_line_after(&mut self, offset: usize, line: u32) {
        let from = offset.min(self.text.len());
        match memchr::memchr(b'\n', &self.text.as_bytes()[from..]) {
            Some(i) => self.seek(from + i + 1, line + 1),
            None => self.seek(self.text.len(), line),
        }
    }

    /// Consumes the next token and what follows it up to byte `end`, which
    /// the caller has read itself: `end` is a token boundary on the same
    /// line, past the next token.
    pub fn consume_through(&mut self, end: usize) {
        self.last_end = end;
        self.last_line = self.cur.line;
        self.pos = end.min(self.text.len());
        self.line = self.cur.line;
        self.restart();
    }

    /// `consume_through(end)` where `end` is at the `\n` that ends the
    /// line: when the next line starts a token as `next_line_token` reads
    /// it, that token is set here at once; otherwise it is lexed.
    pub fn consume_line(&mut self, end: usize) {
        let line = self.cur.line;
        // Debug builds take the step with the tokens too, and compare.
        #[cfg(debug_assertions)]
        let mut slow = self.clone();
        if self.next_line_token(end, line) {
            self.last_end = end;
            self.last_line = line;
            #[cfg(debug_assertions)]
            {
                slow.consume_through(end);
                assert_eq!(self.state(), slow.state());
            }
            return;
        }
        self.consume_through(end);
    }

    /// Sets the token that starts the line after the `\n` at `nl`, which
    /// ends line `line`, as `lex` would read it, when the line has one of
    /// the shapes bodies are made of: the usual two-space indent and a
    /// local or a word (the next instruction), or, after a blank line, a
    /// numbered block label. False, with nothing changed, for anything else.
    #[inline(always)]
    fn next_line_token(&mut self, nl: usize, line: u32) -> bool {
        let b = self.text.as_bytes();
        if !self.skipped.is_empty() {
            return false;
        }
        let start = nl + 3;
        match b.get(nl..start) {
            Some(b"\n  ") => match b.get(start) {
                Some(b'%') => {
                    let (e, _) = ident_end(b, start + 1);
                    if e > start + 1 {
                        self.line = line + 1;
                        self.set(Tok::Local(str_at(self.text, start + 1, e)), start, e);
                        return true;
                    }
                }
                Some(c) if c.is_ascii_lowercase() => {
                    let (e, next) = ident_end(b, start + 1);
                    if !LABEL_OR_QUOTE[next as usize] {
                        self.line = line + 1;
                        self.set(Tok::Word(str_at(self.text, start, e)), start, e);
                        return true;
                    }
                }
                _ => {}
            },
            Some([b'\n', b'\n', c]) if c.is_ascii_digit() => {
                let label = nl + 2;
                let (e, next) = digits_end(b, label + 1);
                if next == b':' {
                    self.line = line + 2;
                    self.set(Tok::Label(str_at(self.text, label, e)), label, e + 1);
                    return true;
                }
            }
            _ => {}
        }
        false
    }

    /// `next_token` for a block label: the rest of its line, blanks and
    /// the `; preds = ...` comment LLVM writes there, is passed over at
    /// once (lexing it took ~300 instructions a block).
    pub fn next_label(&mut self) {
        let t = self.cur;
        let b = self.text.as_bytes();
        // Debug builds take the step with the tokens too, and compare.
        #[cfg(debug_assertions)]
        let mut slow = self.clone();
        if self.skipped.is_empty() && matches!(t.tok, Tok::Label(_)) {
            let p = spaces_end(b, t.end);
            let nl = match b.get(p) {
                Some(b'\n') => Some(p),
                Some(b';') => b
                    .get(p..)
                    .and_then(|rest| memchr::memchr(b'\n', rest))
                    .map(|i| p + i),
                _ => None,
            };
            if let Some(nl) = nl {
                self.last_end = t.end;
                self.last_line = t.line;
                if !self.next_line_token(nl, t.line) {
                    self.pos = nl;
                    self.line = t.line;
                    self.lex();
                }
                #[cfg(debug_assertions)]
                {
                    slow.advance();
                    assert_eq!(self.state(), slow.state());
                }
                return;
            }
        }
        self.advance();
    }

    /// Moves to byte offset `pos` (which must be at a token boundary) on `line`.
    pub fn seek(&mut self, pos: usize, line: u32) {
        self.pos = pos.min(self.text.len());
        self.line = line;
        self.restart();
    }

    /// Moves past a skipped line that starts at `self.pos`, then lexes.
    /// A skipped line starts the text or follows a newline; `skip_trivia`
    /// handles the newline case, so `lex` itself only looks at the byte
    /// after a newline, never at the range list.
    fn restart(&mut self) {
        if !self.skipped.is_empty() {
            self.pos = self.past_skipped(self.pos);
        }
        self.lex();
    }

    /// Passes over whitespace, comments, newlines (counting them) and
    /// skipped lines from `p`. Returns the offset of the next token's first
    /// byte, or the end of the text.
    #[inline(never)]
    fn skip_trivia_slow(&mut self, mut p: usize) -> usize {
        let b = self.text.as_bytes();
        while let Some(&c) = b.get(p) {
            match c {
                b'\n' => {
                    self.line += 1;
                    p += 1;
                    if !self.skipped.is_empty() {
                        p = self.past_skipped(p);
                    }
                }
                b' ' | b'\t' | b'\r' | 0x0c => p += 1,
                b';' => match memchr::memchr(b'\n', &b[p..]) {
                    Some(i) => p += i,
                    None => p = b.len(),
                },
                _ => break,
            }
        }
        p
    }

    fn slice(&self, from: usize, to: usize) -> &'a str {
        // Token boundaries always fall on ASCII bytes, so these are char boundaries.
        self.text.get(from..to).unwrap_or("")
    }

    /// Reads `"..."` starting at `p` (at the opening quote). Returns the
    /// contents and the offset past the closing quote; an unterminated string
    /// ends at the end of its line.
    fn quoted(&mut self, p: usize) -> (Result<&'a str, ()>, usize) {
        let b = self.text.as_bytes();
        let body = p + 1;
        match memchr::memchr2(b'"', b'\n', &b[body..]) {
            Some(i) if b[body + i] == b'"' => (Ok(self.slice(body, body + i)), body + i + 1),
            Some(i) => (Err(()), body + i),
            None => (Err(()), b.len()),
        }
    }

    fn ident_end(&self, p: usize) -> usize {
        ident_end(self.text.as_bytes(), p).0
    }

    /// `%x`, `@x`, `!x`, `#x` name after the sigil at `p`.
    fn sigil_name(&mut self, p: usize) -> (Option<&'a str>, usize) {
        let b = self.text.as_bytes();
        if p < b.len() && b[p] == b'"' {
            let (s, end) = self.quoted(p);
            return (s.ok(), end);
        }
        let end = self.ident_end(p);
        if end == p {
            (None, p)
        } else {
            (Some(self.slice(p, end)), end)
        }
    }

    /// Lexes the next token into `self.cur` (written in place: returning
    /// the 48-byte token and copying it cost a few percent of reading).
    ///
    /// The hot path: one optional space, then the common tokens (names,
    /// words, labels, plain integers, `!12`, `!name`, punctuation). Other
    /// trivia, and any other token (strings, signed or real numbers, bad
    /// bytes, the end of input), go to out-of-line functions through tail
    /// calls, so this one stays small and saves no registers.
    fn lex(&mut self) {
        let b = self.text.as_bytes();
        let mut p = self.pos;
        // The end of input is checked here, so the fast paths know that
        // `p < b.len()` and need fewer bounds checks.
        let Some(&(mut c)) = b.get(p) else {
            return self.lex_other(p);
        };
        if c == b' ' {
            p += 1;
            let Some(&next) = b.get(p) else {
                return self.lex_other(p);
            };
            c = next;
        }
        self.lex_at(p, c);
    }

    /// `lex` when there is more trivia than one space before the token
    /// (at `p`, where the byte is `c`). Blanks and newlines are passed over
    /// here; a comment or a skipped line goes to `lex_after_comment`. Then
    /// back to `lex` (a tail call, like every call here), which finds a
    /// token or the end at once. Out of line, so that `lex` itself saves no
    /// registers.
    #[inline(never)]
    fn lex_after_trivia(&mut self, mut p: usize, mut c: u8) {
        let b = self.text.as_bytes();
        loop {
            if c == b' ' {
                p += 1;
                c = byte_at(b, p);
                // Three blanks or more: the padding before a `; preds`
                // comment, eight at a time (an indent is two).
                if c == b' ' && byte_at(b, p + 1) == b' ' {
                    p = spaces_end(b, p + 2);
                    c = byte_at(b, p);
                }
            } else if c == b'\n' {
                if !self.skipped.is_empty() {
                    return self.lex_after_comment(p);
                }
                self.line += 1;
                p += 1;
                // The usual indent, in one step.
                if b.get(p..p + 2) == Some(b"  ") {
                    p += 2;
                }
                c = byte_at(b, p);
            } else if c == b'\t' || c == b'\r' || c == 0x0c {
                p += 1;
                c = byte_at(b, p);
            } else if c == b';' {
                return self.lex_after_comment(p);
            } else {
                self.pos = p;
                return self.lex();
            }
        }
    }

    /// `lex` from a comment, or a newline when lines are skipped, at `p`.
    #[inline(never)]
    fn lex_after_comment(&mut self, p: usize) {
        self.pos = self.skip_trivia_slow(p);
        self.lex();
    }

    /// Lexes the token that starts at `start` with byte `c` (0 past the
    /// end), or the trivia there and the token after it.
    #[inline(always)]
    fn lex_at(&mut self, start: usize, c: u8) {
        let text = self.text;
        let b = text.as_bytes();
        match CLASS[c as usize] {
            Class::Trivia => self.lex_after_trivia(start, c),
            Class::Other => self.lex_other(start),
            Class::Punct => self.set(Tok::Punct(c), start, start + 1),
            Class::Ident => {
                let (end, next) = ident_end(b, start + 1);
                // One test for the two rare followers, `:` and `"`.
                if !LABEL_OR_QUOTE[next as usize] {
                    self.set(Tok::Word(str_at(text, start, end)), start, end);
                } else if next == b':' {
                    self.set(Tok::Label(str_at(text, start, end)), start, end + 1);
                } else {
                    self.lex_other(start);
                }
            }
            Class::Digit => {
                let (end, next) = digits_end(b, start + 1);
                if next == b':' {
                    self.set(Tok::Label(str_at(text, start, end)), start, end + 1);
                } else if is_ident_byte(next) {
                    self.lex_other(start);
                } else {
                    self.set(Tok::Int(str_at(text, start, end)), start, end);
                }
            }
            Class::Percent => {
                let (end, _) = ident_end(b, start + 1);
                if end == start + 1 {
                    self.lex_other(start);
                } else {
                    self.set(Tok::Local(str_at(text, start + 1, end)), start, end);
                }
            }
            Class::At => {
                let (end, _) = ident_end(b, start + 1);
                if end == start + 1 {
                    self.lex_other(start);
                } else {
                    self.set(Tok::Global(str_at(text, start + 1, end)), start, end);
                }
            }
            Class::Hash => {
                let (end, _) = ident_end(b, start + 1);
                if end == start + 1 {
                    self.lex_other(start);
                } else {
                    self.set(Tok::Hash(str_at(text, start + 1, end)), start, end);
                }
            }
            Class::Bang => {
                let p = start + 1;
                let (end, next) = ident_end(b, p);
                if byte_at(b, p).is_ascii_digit() {
                    self.set(Tok::MetaRef(str_at(text, p, end)), start, end);
                } else if next == b'"' || next == b'\\' {
                    self.lex_other(start);
                } else if end != p {
                    self.set(Tok::MetaName(str_at(text, p, end)), start, end);
                } else {
                    // `!{`, `!(`: the `!` alone.
                    self.set(Tok::Punct(b'!'), start, p);
                }
            }
        }
    }

    /// Stores the token lexed and moves past it.
    #[inline(always)]
    fn set(&mut self, tok: Tok<'a>, start: usize, end: usize) {
        self.pos = end;
        self.cur = Token {
            tok,
            start,
            end,
            line: self.line,
        };
    }

    /// Lexes the token at `start` (past any trivia), whatever it is: the
    /// general path behind `lex`'s fast cases.
    #[inline(never)]
    fn lex_other(&mut self, start: usize) {
        let (tok, end) = self.lex_any(start);
        self.set(tok, start, end);
    }

    /// The token at `start` and its end, whatever it is.
    fn lex_any(&mut self, start: usize) -> (Tok<'a>, usize) {
        let b = self.text.as_bytes();
        if start >= b.len() {
            return (Tok::Eof, start);
        }
        let c = b[start];
        match c {
            b'%' | b'@' | b'#' => {
                let (name, end) = self.sigil_name(start + 1);
                match (c, name) {
                    (b'%', Some(n)) => (Tok::Local(n), end),
                    (b'@', Some(n)) => (Tok::Global(n), end),
                    (b'#', Some(n)) => (Tok::Hash(n), end),
                    _ => (Tok::Bad(c), start + 1),
                }
            }
            b'!' => {
                let p = start + 1;
                if p < b.len() && b[p] == b'"' {
                    let (s, end) = self.quoted(p);
                    match s {
                        Ok(s) => (Tok::MetaStr(s), end),
                        Err(()) => (Tok::Bad(b'"'), end),
                    }
                } else if p < b.len() && b[p].is_ascii_digit() {
                    let end = self.ident_end(p);
                    (Tok::MetaRef(self.slice(p, end)), end)
                } else if p < b.len() && (is_ident_byte(b[p]) || b[p] == b'\\') {
                    let mut end = p;
                    while end < b.len() && (is_ident_byte(b[end]) || b[end] == b'\\') {
                        end += 1;
                    }
                    (Tok::MetaName(self.slice(p, end)), end)
                } else {
                    (Tok::Punct(b'!'), p)
                }
            }
            b'"' => {
                let (s, end) = self.quoted(start);
                match s {
                    Ok(s) if end < b.len() && b[end] == b':' => (Tok::Label(s), end + 1),
                    Ok(s) => (Tok::Str(s), end),
                    Err(()) => (Tok::Bad(b'"'), end),
                }
            }
            b'0'..=b'9' | b'-' | b'+' => self.lex_number(start),
            b'=' | b',' | b'(' | b')' | b'[' | b']' | b'{' | b'}' | b'<' | b'>' | b'*' | b'|' => {
                (Tok::Punct(c), start + 1)
            }
            c if is_ident_byte(c) => {
                let end = self.ident_end(start);
                let word = self.slice(start, end);
                if end < b.len() && b[end] == b':' {
                    (Tok::Label(word), end + 1)
                } else if word == "c" && end < b.len() && b[end] == b'"' {
                    let (s, end) = self.quoted(end);
                    match s {
                        Ok(s) => (Tok::CStr(s), end),
                        Err(()) => (Tok::Bad(b'"'), end),
                    }
                } else {
                    (Tok::Word(word), end)
                }
            }
            _ => {
                // Step over a whole UTF-8 character so slices stay on char boundaries.
                let mut end = start + 1;
                while end < b.len() && (b[end] & 0xC0) == 0x80 {
                    end += 1;
                }
                (Tok::Bad(c), end)
            }
        }
    }

    fn lex_number(&mut self, start: usize) -> (Tok<'a>, usize) {
        let b = self.text.as_bytes();
        let mut p = start;
        if b[p] == b'-' || b[p] == b'+' {
            p += 1;
            if p >= b.len() || !b[p].is_ascii_digit() {
                // `-` alone, or a word such as `-nan`: treat as an identifier.
                let end = self.ident_end(start);
                let end = if end == start { start + 1 } else { end };
                return (Tok::Word(self.slice(start, end)), end);
            }
        }
        // Hex floats: 0x..., 0xH..., 0xK..., 0xL..., 0xM..., 0xR...
        if b[p] == b'0' && p + 1 < b.len() && b[p + 1] == b'x' {
            let end = self.ident_end(p);
            return (Tok::Float(self.slice(start, end)), end);
        }
        while p < b.len() && b[p].is_ascii_digit() {
            p += 1;
        }
        let mut is_float = false;
        if p < b.len() && b[p] == b'.' {
            is_float = true;
            p += 1;
            while p < b.len() && b[p].is_ascii_digit() {
                p += 1;
            }
            if p < b.len() && (b[p] == b'e' || b[p] == b'E') {
                p += 1;
                if p < b.len() && (b[p] == b'+' || b[p] == b'-') {
                    p += 1;
                }
                while p < b.len() && b[p].is_ascii_digit() {
                    p += 1;
                }
            }
        }
        if !is_float && p < b.len() && b[p] == b':' {
            return (Tok::Label(self.slice(start, p)), p + 1);
        }
        if !is_float && p < b.len() && is_ident_byte(b[p]) {
            // An identifier that starts with a digit, e.g. a label `1abc:`.
            let end = self.ident_end(p);
            if end < b.len() && b[end] == b':' {
                return (Tok::Label(self.slice(start, end)), end + 1);
            }
            return (Tok::Word(self.slice(start, end)), end);
        }
        let text = self.slice(start, p);
        (
            if is_float {
                Tok::Float(text)
            } else {
                Tok::Int(text)
            },
            p,
        )
    }
}

#[cfg(test)]
impl Lexer<'_> {
    /// The lexer as it was before the fast paths, for comparison: trivia
    /// by `skip_trivia_slow`, every token by `lex_any`.
    fn lex_reference(&mut self) {
        let mut p = self.pos;
        if !self.skipped.is_empty() {
            p = self.past_skipped(p);
        }
        let p = self.skip_trivia_slow(p);
        let (tok, end) = self.lex_any(p);
        self.set(tok, p, end);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every token of `text` (Eof included) with its place, through `lex`
    /// or through `lex_reference`.
    fn all_tokens<'a>(
        text: &'a str,
        skipped: Vec<std::ops::Range<usize>>,
        reference: bool,
    ) -> Vec<(Tok<'a>, usize, usize, u32)> {
        let mut lx = Lexer::skipping(text, 1, skipped);
        if reference {
            lx.pos = 0;
            lx.line = 1;
            lx.lex_reference();
        }
        let mut out = Vec::new();
        loop {
            let t = lx.peek();
            out.push((t.tok, t.start, t.end, t.line));
            if t.tok == Tok::Eof {
                return out;
            }
            if reference {
                lx.lex_reference();
            } else {
                lx.lex();
            }
        }
    }

    /// `lex` and `lex_reference` agree on `text`, with and without
    /// skipped long lines.
    fn check_same(text: &str) {
        for limit in [usize::MAX, 8, 3] {
            let skipped = if limit == usize::MAX {
                Vec::new()
            } else {
                super::super::limits::long_lines(text, limit)
            };
            let fast = all_tokens(text, skipped.clone(), false);
            let slow = all_tokens(text, skipped, true);
            assert_eq!(fast, slow, "{text:?} (long lines over {limit})");
        }
    }

    #[test]
    fn fast_paths_agree_with_the_general_path_on_random_text() {
        // Bytes that start, end or break tokens, and some multi-byte chars.
        const PIECES: &[&str] = &[
            " ",
            "  ",
            "        ",
            "\n",
            "\r\n",
            "\t",
            "\x0c",
            ";",
            "; c\n",
            "%",
            "@",
            "#",
            "!",
            "\"",
            "\\",
            "c",
            "c\"",
            ":",
            "=",
            ",",
            "(",
            ")",
            "[",
            "]",
            "{",
            "}",
            "<",
            ">",
            "*",
            "|",
            "-",
            "+",
            ".",
            "$",
            "_",
            "0",
            "7",
            "12",
            "0x",
            "0xH3C",
            "e",
            "e+",
            "1.5",
            "x",
            "abc",
            "i32",
            "entry",
            "abcdefghij",
            "0123456789",
            "\0",
            "é",
            "€",
            "𝄞",
            "~",
            "?",
        ];
        let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        for _ in 0..20_000 {
            let n = (next() % 24) as usize;
            let text: String = (0..n)
                .map(|_| PIECES[(next() % PIECES.len() as u64) as usize])
                .collect();
            check_same(&text);
        }
    }

    #[test]
    fn fast_paths_agree_with_the_general_path_on_the_corpus() {
        fn walk(p: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
            if p.is_dir() {
                for e in std::fs::read_dir(p).into_iter().flatten().flatten() {
                    walk(&e.path(), out);
                }
            } else if p.extension().is_some_and(|x| x == "ll") {
                out.push(p.to_path_buf());
            }
        }
        let corpus = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus");
        if !corpus.is_dir() {
            eprintln!("skipped: no corpus at {}", corpus.display());
            return;
        }
        let mut files = Vec::new();
        walk(&corpus, &mut files);
        files.sort();
        assert!(!files.is_empty(), "no .ll file under {}", corpus.display());
        for f in &files {
            let Ok(text) = std::fs::read_to_string(f) else {
                continue;
            };
            let fast = all_tokens(&text, Vec::new(), false);
            let slow = all_tokens(&text, Vec::new(), true);
            assert!(fast == slow, "{}", f.display());
        }
    }

    #[test]
    fn lines_are_counted_across_comments_blanks_and_crlf() {
        let text = "a ; x\r\n\r\n  b\t;\n; only a comment\n\x0c c   \n\n\n        d";
        let mut lx = Lexer::new(text, 10);
        let mut got = Vec::new();
        loop {
            let t = lx.next_token();
            got.push((t.tok, t.line));
            if t.tok == Tok::Eof {
                break;
            }
        }
        assert_eq!(
            got,
            vec![
                (Tok::Word("a"), 10),
                (Tok::Word("b"), 12),
                (Tok::Word("c"), 14),
                (Tok::Word("d"), 17),
                (Tok::Eof, 17),
            ]
        );
        check_same(text);
    }

    #[test]
    fn tokens_at_the_end_of_input() {
        for (text, want) in [
            ("abc", Tok::Word("abc")),
            ("abcdefghijklmnop", Tok::Word("abcdefghijklmnop")),
            ("%x", Tok::Local("x")),
            ("@abcdefgh", Tok::Global("abcdefgh")),
            ("#1", Tok::Hash("1")),
            ("!12", Tok::MetaRef("12")),
            ("!dbg", Tok::MetaName("dbg")),
            ("42", Tok::Int("42")),
            ("x:", Tok::Label("x")),
            ("7:", Tok::Label("7")),
            ("%", Tok::Bad(b'%')),
            ("!", Tok::Punct(b'!')),
            ("c", Tok::Word("c")),
            ("\"ab", Tok::Bad(b'"')),
        ] {
            for pad in ["", " ", "\n", "  \n "] {
                let padded = format!("{pad}{text}");
                let all = all_tokens(&padded, Vec::new(), false);
                assert_eq!(all.len(), 2, "{padded:?}");
                assert_eq!(all[0].0, want, "{padded:?}");
                assert_eq!(all[0].2, padded.len(), "{padded:?}");
                assert_eq!(all[1].0, Tok::Eof);
                check_same(&padded);
            }
        }
    }

    #[test]
    fn a_skipped_first_line_and_seek_onto_a_skipped_line() {
        let text = "xxxxxxxxxxxx\nab\nyyyyyyyyyyyy\ncd";
        let skipped = super::super::limits::long_lines(text, 8);
        assert_eq!(skipped, vec![0..12, 16..28]);
        let mut lx = Lexer::skipping(text, 1, skipped);
        let t = lx.next_token();
        assert_eq!((t.tok, t.line), (Tok::Word("ab"), 2));
        let t = lx.next_token();
        assert_eq!((t.tok, t.line), (Tok::Word("cd"), 4));
        lx.seek(16, 3);
        let t = lx.next_token();
        assert_eq!((t.tok, t.line, t.start), (Tok::Word("cd"), 4, 29));
        check_same(text);
    }

    fn toks(s: &str) -> Vec<Tok<'_>> {
        let mut lx = Lexer::new(s, 1);
        let mut out = Vec::new();
        loop {
            let t = lx.next_tok();
            if t == Tok::Eof {
                return out;
            }
            out.push(t);
        }
    }

    #[test]
    fn lexes_instruction() {
        assert_eq!(
            toks("%5 = udiv i32 %a, 7 ; comment\n"),
            vec![
                Tok::Local("5"),
                Tok::Punct(b'='),
                Tok::Word("udiv"),
                Tok::Word("i32"),
                Tok::Local("a"),
                Tok::Punct(b','),
                Tok::Int("7"),
            ]
        );
    }

    #[test]
    fn lexes_metadata_and_labels() {
        assert_eq!(
            toks("!dbg !35 !\"air.buffer\" 12: entry: line: 4 !{"),
            vec![
                Tok::MetaName("dbg"),
                Tok::MetaRef("35"),
                Tok::MetaStr("air.buffer"),
                Tok::Label("12"),
                Tok::Label("entry"),
                Tok::Label("line"),
                Tok::Int("4"),
                Tok::Punct(b'!'),
                Tok::Punct(b'{'),
            ]
        );
    }

    #[test]
    fn lexes_floats_and_quoted_names() {
        assert_eq!(
            toks("-1.5e+00 0xH3C00 %\"struct.a::b\" c\"hi\\00\" #0"),
            vec![
                Tok::Float("-1.5e+00"),
                Tok::Float("0xH3C00"),
                Tok::Local("struct.a::b"),
                Tok::CStr("hi\\00"),
                Tok::Hash("0"),
            ]
        );
    }

    #[test]
    fn unterminated_string_stops_at_line_end() {
        let mut lx = Lexer::new("\"abc\nnext", 1);
        assert_eq!(lx.next_tok(), Tok::Bad(b'"'));
        let t = lx.next_token();
        assert_eq!(t.tok, Tok::Word("next"));
        assert_eq!(t.line, 2);
    }
}
