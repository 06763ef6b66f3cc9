//! Tokenizer for LLVM IR text.
//!
//! Hand-written rather than generated: the reader must take every era of AIR
//! text (typed and opaque pointers, keywords newer than any one LLVM knows) at
//! hundreds of MB/s, and a byte loop over `&str` that never allocates is the
//! simplest way to get there. Tokens borrow the input; nothing is copied.

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

#[inline]
fn is_ident_byte(b: u8) -> bool {
    IDENT[b as usize]
}

pub struct Lexer<'a> {
    text: &'a str,
    bytes: &'a [u8],
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
            bytes: text.as_bytes(),
            pos: 0,
            line: first_line,
            cur: eof,
            last_end: 0,
            last_line: first_line,
            skipped,
        };
        lx.lex();
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
        t.start == 0 || self.bytes.get(t.start - 1) == Some(&b'\n')
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
        let from = offset.min(self.bytes.len());
        match memchr::memchr(b'\n', &self.bytes[from..]) {
            Some(i) => self.seek(from + i + 1, line + 1),
            None => self.seek(self.bytes.len(), line),
        }
    }

    /// Consumes the next token and what follows it up to byte `end`, which
    /// the caller has read itself: `end` is a token boundary on the same
    /// line, past the next token.
    pub fn consume_through(&mut self, end: usize) {
        self.last_end = end;
        self.last_line = self.cur.line;
        self.pos = end.min(self.bytes.len());
        self.line = self.cur.line;
        self.lex();
    }

    /// Moves to byte offset `pos` (which must be at a token boundary) on `line`.
    pub fn seek(&mut self, pos: usize, line: u32) {
        self.pos = pos.min(self.bytes.len());
        self.line = line;
        self.lex();
    }

    fn skip_trivia(&mut self) {
        let b = self.bytes;
        let mut p = self.pos;
        if !self.skipped.is_empty() {
            p = self.past_skipped(p);
        }
        while p < b.len() {
            match b[p] {
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
        self.pos = p;
    }

    fn slice(&self, from: usize, to: usize) -> &'a str {
        // Token boundaries always fall on ASCII bytes, so these are char boundaries.
        self.text.get(from..to).unwrap_or("")
    }

    /// Reads `"..."` starting at `p` (at the opening quote). Returns the
    /// contents and the offset past the closing quote; an unterminated string
    /// ends at the end of its line.
    fn quoted(&mut self, p: usize) -> (Result<&'a str, ()>, usize) {
        let b = self.bytes;
        let body = p + 1;
        match memchr::memchr2(b'"', b'\n', &b[body..]) {
            Some(i) if b[body + i] == b'"' => (Ok(self.slice(body, body + i)), body + i + 1),
            Some(i) => (Err(()), body + i),
            None => (Err(()), b.len()),
        }
    }

    fn ident_end(&self, mut p: usize) -> usize {
        let b = self.bytes;
        while p < b.len() && is_ident_byte(b[p]) {
            p += 1;
        }
        p
    }

    /// `%x`, `@x`, `!x`, `#x` name after the sigil at `p`.
    fn sigil_name(&mut self, p: usize) -> (Option<&'a str>, usize) {
        let b = self.bytes;
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
    fn lex(&mut self) {
        self.skip_trivia();
        let b = self.bytes;
        let start = self.pos;
        let line = self.line;
        let mk = |tok, end| Token {
            tok,
            start,
            end,
            line,
        };
        if start >= b.len() {
            self.cur = mk(Tok::Eof, start);
            return;
        }
        let c = b[start];
        let (tok, end) = match c {
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
        };
        self.pos = end;
        self.cur = mk(tok, end);
    }

    fn lex_number(&mut self, start: usize) -> (Tok<'a>, usize) {
        let b = self.bytes;
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
mod tests {
    use super::*;

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
