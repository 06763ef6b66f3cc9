//! The recursive-descent core shared by the module reader and the body
//! reader: types, values, constant expressions, attributes and metadata.
//!
//! Every recursive call goes through `enter`, which caps nesting, so no input
//! can overflow the stack.

use super::lexer::{Lexer, Tok, Token, cut, str_at};
use super::metadata::{MetaNode, MetaOperand};
use super::model::{Aggregate, AggregateKind, ConstExpr, Flags, Opcode, Operand, Value};
use super::types::{Type, TypeId, TypeTable};

pub use super::limits::MAX_DEPTH;

#[derive(Debug)]
pub struct ParseError {
    pub line: u32,
    pub message: String,
}

pub type PResult<T> = Result<T, ParseError>;

pub struct Parser<'a, 't> {
    pub lx: Lexer<'a>,
    pub types: &'t mut TypeTable<'a>,
    /// Things skipped that deserve a word: (line, message).
    pub warnings: Vec<(u32, String)>,
    depth: u32,
}

/// Words that start a value rather than continue a list of attributes.
fn is_value_word(w: &str) -> bool {
    matches!(
        w,
        "true"
            | "false"
            | "null"
            | "undef"
            | "poison"
            | "zeroinitializer"
            | "none"
            | "splat"
            | "asm"
            | "blockaddress"
            | "dso_local_equivalent"
            | "no_cfi"
            | "ptrauth"
    ) || Opcode::from_word(w).is_some_and(is_const_expr_opcode)
}

pub(crate) fn is_const_expr_opcode(op: Opcode) -> bool {
    op.is_cast()
        || op.is_binary()
        || matches!(
            op,
            Opcode::GetElementPtr
                | Opcode::ICmp
                | Opcode::FCmp
                | Opcode::Select
                | Opcode::ExtractElement
                | Opcode::InsertElement
                | Opcode::ShuffleVector
                | Opcode::ExtractValue
                | Opcode::InsertValue
        )
}

/// True for words that name a type.
pub fn is_type_word(w: &str) -> bool {
    let b = w.as_bytes();
    match b.first() {
        Some(b'i') => b.len() >= 2 && b[1..].iter().all(u8::is_ascii_digit),
        Some(b'f') => w == "float" || w == "fp128",
        Some(b'h') => w == "half",
        Some(b'd') => w == "double",
        Some(b'v') => w == "void",
        Some(b'b') => w == "bfloat",
        Some(b'p') => w == "ptr" || w == "ppc_fp128",
        Some(b'x') => matches!(w, "x86_fp80" | "x86_mmx" | "x86_amx"),
        Some(b'l') => w == "label",
        Some(b'm') => w == "metadata",
        Some(b't') => w == "token" || w == "target",
        Some(b'o') => w == "opaque",
        _ => false,
    }
}

/// Bytes that may continue an identifier, as the lexer reads them
/// (`[-a-zA-Z$._0-9]`): bits 1 and 2; a `\\`, which may also continue a
/// metadata name: bit 2.
pub static NAME_BYTES: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut i = 0;
    while i < 256 {
        let b = i as u8;
        if b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b'$' | b'-') {
            t[i] = 3;
        } else if b == b'\\' {
            t[i] = 2;
        }
        i += 1;
    }
    t
};

#[inline]
pub fn is_ident_byte(b: u8) -> bool {
    NAME_BYTES[b as usize] & 1 != 0
}

/// The end of the identifier bytes from `at`.
#[inline]
pub fn ident_end(b: &[u8], mut at: usize) -> usize {
    while at < b.len() && is_ident_byte(b[at]) {
        at += 1;
    }
    at
}

/// True when the byte at `at` ends a word or number token before it (a
/// `:` would make it a label).
#[inline]
fn ends_word(b: &[u8], at: usize) -> bool {
    b.get(at).is_none_or(|&c| !is_ident_byte(c) && c != b':')
}

/// The end of 1 to 9 decimal digits at `at` and their value.
#[inline]
fn small_digits(b: &[u8], at: usize) -> Option<(usize, u32)> {
    let mut end = at;
    let mut v: u32 = 0;
    while end < b.len() && b[end].is_ascii_digit() {
        if end - at == 9 {
            return None;
        }
        v = v * 10 + u32::from(b[end] - b'0');
        end += 1;
    }
    (end > at).then_some((end, v))
}

/// The word types on most lines (`i1`, `i8`, `i16`, `i32`, `i64`, `half`,
/// `float`, `double`) at `at`, followed by a byte that ends the word, told
/// by one eight-byte load; `None` for anything else (and within eight bytes
/// of the end), which `Parser::word_type_at` reads as before. Interns
/// nothing: these types are in every table. Without it a whole scan
/// executes 4.5% (typed-12MB) / 3.4% (the corpus module) more instructions
/// (callgrind).
#[inline(always)]
fn common_word_type_at(b: &[u8], at: usize) -> Option<(TypeId, usize)> {
    const fn word(w: &[u8]) -> u64 {
        let mut v = 0;
        let mut i = w.len();
        while i > 0 {
            i -= 1;
            v = v << 8 | w[i] as u64;
        }
        v
    }
    const I32: u64 = word(b"i32");
    const I64: u64 = word(b"i64");
    const I16: u64 = word(b"i16");
    const I8: u64 = word(b"i8");
    const I1: u64 = word(b"i1");
    const HALF: u64 = word(b"half");
    const FLOAT: u64 = word(b"float");
    const DOUBLE: u64 = word(b"double");
    let w = u64::from_le_bytes(*b.get(at..)?.first_chunk::<8>()?);
    let (ty, len) = match w & 0xff_ffff {
        I32 => (TypeTable::I32, 3),
        I64 => (TypeTable::I64, 3),
        I16 => (TypeTable::I16, 3),
        _ => match w & 0xffff {
            I8 => (TypeTable::I8, 2),
            I1 => (TypeTable::I1, 2),
            _ if w & 0xffff_ffff == HALF => (TypeTable::HALF, 4),
            _ if w & 0xff_ffff_ffff == FLOAT => (TypeTable::FLOAT, 5),
            _ if w & 0xffff_ffff_ffff == DOUBLE => (TypeTable::DOUBLE, 6),
            _ => return None,
        },
    };
    ends_word(b, at + len).then_some((ty, at + len))
}

impl<'a, 't> Parser<'a, 't> {
    pub fn new(lx: Lexer<'a>, types: &'t mut TypeTable<'a>) -> Self {
        Parser {
            lx,
            types,
            warnings: Vec::new(),
            depth: 0,
        }
    }

    pub fn error<T>(&mut self, line: u32, message: impl Into<String>) -> PResult<T> {
        Err(ParseError {
            line,
            message: message.into(),
        })
    }

    /// "expected X, found Y" at the next token.
    pub fn expected<T>(&mut self, what: &str) -> PResult<T> {
        let t = self.lx.peek();
        Err(ParseError {
            line: t.line,
            message: format!("expected {what}, found {}", t.tok.describe()),
        })
    }

    #[inline]
    pub fn expect(&mut self, c: u8) -> PResult<()> {
        if self.lx.eat(c) {
            Ok(())
        } else {
            self.expected_punct(c)
        }
    }

    #[cold]
    #[inline(never)]
    fn expected_punct<T>(&mut self, c: u8) -> PResult<T> {
        self.expected(&format!("'{}'", c as char))
    }

    #[inline]
    pub fn expect_word(&mut self, w: &str) -> PResult<()> {
        if self.lx.eat_word(w) {
            Ok(())
        } else {
            self.expected_word(w)
        }
    }

    #[cold]
    #[inline(never)]
    fn expected_word<T>(&mut self, w: &str) -> PResult<T> {
        self.expected(&format!("'{w}'"))
    }

    fn enter(&mut self) -> PResult<()> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            let line = self.lx.line();
            self.depth = 0;
            return self.error(line, format!("nesting deeper than {MAX_DEPTH} levels"));
        }
        Ok(())
    }

    fn leave(&mut self) {
        self.depth = self.depth.saturating_sub(1);
    }

    /// Resets nesting after an error unwound part of the stack.
    pub fn reset_depth(&mut self) {
        self.depth = 0;
    }

    pub fn expect_int(&mut self) -> PResult<i64> {
        self.expect_number()
    }

    /// An unsigned integer up to 2^64-1: array and vector lengths.
    pub fn expect_u64(&mut self) -> PResult<u64> {
        self.expect_number()
    }

    /// An integer token that fits `T`.
    fn expect_number<T: std::str::FromStr>(&mut self) -> PResult<T> {
        let t = self.lx.peek();
        if let Tok::Int(s) = t.tok {
            self.lx.next_token();
            if let Ok(v) = s.parse::<T>() {
                return Ok(v);
            }
            return self.error(t.line, format!("integer '{}' out of range", cut(s)));
        }
        self.expected("an integer")
    }

    pub fn expect_u32(&mut self) -> PResult<u32> {
        let line = self.lx.line();
        let v = self.expect_int()?;
        u32::try_from(v).or_else(|_| self.error(line, format!("{v} is out of range")))
    }

    pub fn expect_str(&mut self) -> PResult<&'a str> {
        match self.lx.peek_tok() {
            Tok::Str(s) => {
                self.lx.next_token();
                Ok(s)
            }
            _ => self.expected("a string"),
        }
    }

    /// Skips a balanced `(...)`, `[...]`, `{...}` or `<...>` group whose
    /// opener is the next token. Iterative, so depth costs no stack.
    pub fn skip_group(&mut self) -> PResult<()> {
        let open = self.lx.next_token();
        let mut stack: Vec<u8> = Vec::new();
        use super::lexer::closer;
        match open.tok {
            Tok::Punct(c @ (b'(' | b'[' | b'{' | b'<')) => stack.push(closer(c)),
            _ => {
                return self.error(
                    open.line,
                    format!("expected a bracket, found {}", open.tok.describe()),
                );
            }
        }
        while let Some(&want) = stack.last() {
            let t = self.lx.next_token();
            match t.tok {
                Tok::Punct(c @ (b'(' | b'[' | b'{' | b'<')) => stack.push(closer(c)),
                Tok::Punct(c) if c == want => {
                    stack.pop();
                }
                Tok::Punct(c @ (b')' | b']' | b'}' | b'>')) => {
                    return self.error(t.line, format!("unbalanced '{}'", c as char));
                }
                Tok::Eof => return self.error(open.line, "unclosed bracket at end of input"),
                _ => {}
            }
        }
        Ok(())
    }

    /// True when the next token starts a type.
    pub fn at_type(&mut self) -> bool {
        match self.lx.peek_tok() {
            Tok::Word(w) => is_type_word(w),
            Tok::Local(_) => true,
            Tok::Punct(b'{' | b'<' | b'[') => true,
            _ => false,
        }
    }

    /// `addrspace(N)` with the word next. Nearly every pointer type has one,
    /// so the common spelling is read from the bytes (lexing its four tokens
    /// was ~10% of reading typed-pointer IR); anything else is lexed.
    fn addrspace_word(&mut self) -> PResult<u32> {
        let word_end = self.lx.peek().end;
        let bytes = self.lx.text().as_bytes();
        if bytes.get(word_end) == Some(&b'(') {
            let digits = word_end + 1;
            let close = digits
                + bytes
                    .get(digits..)
                    .unwrap_or(&[])
                    .iter()
                    .take(11)
                    .take_while(|b| b.is_ascii_digit())
                    .count();
            if close > digits
                && bytes.get(close) == Some(&b')')
                && let Some(n) = self
                    .lx
                    .text()
                    .get(digits..close)
                    .and_then(|d| d.parse().ok())
            {
                self.lx.consume_through(close + 1);
                return Ok(n);
            }
        }
        self.lx.next_token();
        self.addrspace_arg()
    }

    /// `addrspace(N)`, after the word was seen.
    fn addrspace_arg(&mut self) -> PResult<u32> {
        self.expect(b'(')?;
        let n = self.expect_u32()?;
        self.expect(b')')?;
        Ok(n)
    }

    pub fn parse_type(&mut self) -> PResult<TypeId> {
        self.enter()?;
        let r = self.parse_type_inner();
        self.leave();
        r
    }

    fn parse_type_inner(&mut self) -> PResult<TypeId> {
        let t = self.lx.next_token();
        let mut ty = match t.tok {
            Tok::Word(w) => self.type_word(w, t)?,
            Tok::Local(name) => self.types.named(name),
            Tok::Punct(b'{') => {
                let fields = self.struct_fields(b'}')?;
                self.types.intern(Type::Struct {
                    fields,
                    packed: false,
                })
            }
            Tok::Punct(b'<') => {
                if self.lx.eat(b'{') {
                    let fields = self.struct_fields(b'}')?;
                    self.expect(b'>')?;
                    self.types.intern(Type::Struct {
                        fields,
                        packed: true,
                    })
                } else {
                    let scalable = self.lx.eat_word("vscale");
                    if scalable {
                        self.expect_word("x")?;
                    }
                    let len = self.expect_u64()?;
                    self.expect_word("x")?;
                    let elem = self.parse_type()?;
                    self.expect(b'>')?;
                    self.types.intern(Type::Vector {
                        len,
                        elem,
                        scalable,
                    })
                }
            }
            Tok::Punct(b'[') => {
                let len = self.expect_u64()?;
                self.expect_word("x")?;
                let elem = self.parse_type()?;
                self.expect(b']')?;
                self.types.intern(Type::Array { len, elem })
            }
            other => {
                return self.error(
                    t.line,
                    format!("expected a type, found {}", other.describe()),
                );
            }
        };
        // Typed-pointer and function-type suffixes.
        loop {
            match self.lx.peek_tok() {
                Tok::Punct(b'*') => {
                    self.lx.next_token();
                    ty = self.types.ptr(0, Some(ty));
                }
                Tok::Word("addrspace") => {
                    let n = self.addrspace_word()?;
                    self.expect(b'*')?;
                    ty = self.types.ptr(n, Some(ty));
                }
                Tok::Punct(b'(') => {
                    self.lx.next_token();
                    let (params, vararg) = self.function_type_params()?;
                    ty = self.types.intern(Type::Function {
                        ret: ty,
                        params,
                        vararg,
                    });
                }
                _ => return Ok(ty),
            }
        }
    }

    fn type_word(&mut self, w: &'a str, t: Token<'a>) -> PResult<TypeId> {
        let b = w.as_bytes();
        if b.len() >= 2 && b[0] == b'i' && b[1..].iter().all(u8::is_ascii_digit) {
            return match self.types.int_from_digits(&b[1..]) {
                Some(id) => Ok(id),
                None => self.error(t.line, format!("bad integer type '{}'", cut(w))),
            };
        }
        Ok(match w {
            "void" => TypeTable::VOID,
            "half" => TypeTable::HALF,
            "float" => TypeTable::FLOAT,
            "double" => TypeTable::DOUBLE,
            "bfloat" => self.types.intern(Type::BFloat),
            "label" => TypeTable::LABEL,
            "metadata" => TypeTable::METADATA,
            "token" => self.types.intern(Type::Token),
            "x86_fp80" | "fp128" | "ppc_fp128" | "x86_mmx" | "x86_amx" => {
                self.types.intern(Type::OtherFloat(w))
            }
            "ptr" => {
                let n = if self.lx.peek_tok() == Tok::Word("addrspace") {
                    self.addrspace_word()?
                } else {
                    0
                };
                self.types.ptr(n, None)
            }
            "opaque" => self.types.intern(Type::Opaque("opaque")),
            "target" => {
                let start = self.lx.offset();
                self.skip_group()?;
                let end = self.lx.offset();
                let text = self
                    .lx
                    .text()
                    .get(start..end)
                    .unwrap_or("target")
                    .trim_end();
                self.types.intern(Type::Opaque(text))
            }
            _ => return self.error(t.line, format!("expected a type, found '{}'", cut(w))),
        })
    }

    fn struct_fields(&mut self, close: u8) -> PResult<Vec<TypeId>> {
        let mut fields = Vec::new();
        if self.lx.eat(close) {
            return Ok(fields);
        }
        loop {
            fields.push(self.parse_type()?);
            if self.lx.eat(close) {
                return Ok(fields);
            }
            self.expect(b',')?;
        }
    }

    fn function_type_params(&mut self) -> PResult<(Vec<TypeId>, bool)> {
        let mut params = Vec::new();
        let mut vararg = false;
        if self.lx.eat(b')') {
            return Ok((params, vararg));
        }
        loop {
            if self.lx.eat_word("...") {
                vararg = true;
            } else {
                params.push(self.parse_type()?);
                // Parameter attributes may appear in function types of calls.
                self.skip_attributes()?;
            }
            if self.lx.eat(b')') {
                return Ok((params, vararg));
            }
            self.expect(b',')?;
        }
    }

    /// Skips parameter or return attributes: bare words, words with a
    /// bracketed argument (`captures(none)`, `range(i32 0, 4)`,
    /// `sret(%T)`), `align N`, and string attributes (`"k"` or `"k"="v"`).
    /// Unknown words are skipped the same way, so new attributes are never
    /// fatal. Returns the text span skipped.
    pub fn skip_attributes(&mut self) -> PResult<&'a str> {
        let start = self.lx.peek().start;
        let mut end = start;
        loop {
            let t = self.lx.peek();
            match t.tok {
                Tok::Word(w) if !is_value_word(w) && !is_type_word(w) => {
                    self.lx.next_token();
                    end = t.end;
                    match self.lx.peek_tok() {
                        Tok::Punct(b'(') => {
                            self.skip_group()?;
                            end = self.lx.peek().start;
                        }
                        Tok::Int(_)
                            if w == "align" || w == "dereferenceable" || w == "alignstack" =>
                        {
                            end = self.lx.next_token().end;
                        }
                        _ => {}
                    }
                }
                Tok::Str(_) => {
                    self.lx.next_token();
                    end = t.end;
                    if self.lx.eat(b'=') {
                        end = self.lx.next_token().end;
                    }
                }
                _ => break,
            }
        }
        Ok(self.lx.text().get(start..end).unwrap_or("").trim_end())
    }

    /// `<type> <value>`
    pub fn parse_operand(&mut self) -> PResult<Operand<'a>> {
        if let Some(op) = self.fast_operand(self.lx.peek().start) {
            return Ok(op);
        }
        let ty = self.parse_type()?;
        let value = self.parse_value(ty)?;
        Ok(Operand { ty, value })
    }

    /// An operand in the shapes LLVM prints most, read from the bytes at
    /// `at` (the start of the next token, or just past it) and consumed:
    /// a type that is a word (`float`, `iN`, `ptr addrspace(N)`), a named
    /// struct or a vector of a word type, with typed-pointer suffixes
    /// (`*`, ` addrspace(N)*`); one space; a local, a global or a decimal
    /// integer. `None`, with nothing consumed, for anything else, which
    /// the tokens then read: the same types are interned in the same order
    /// either way, so type ids do not depend on which path read them.
    pub fn fast_operand(&mut self, at: usize) -> Option<Operand<'a>> {
        let (op, end) = self.operand_at(at)?;
        self.lx.consume_through(end);
        Some(op)
    }

    /// What `fast_operand` reads at `at`, and the offset past it; nothing
    /// is consumed.
    #[inline]
    pub fn operand_at(&mut self, at: usize) -> Option<(Operand<'a>, usize)> {
        let (ty, e) = self.type_at(at)?;
        self.operand_after_type(ty, e)
    }

    /// The operand whose type `ty` ends at `e`: a space and its value.
    /// Inlined as `operand_at` had it: called, it cost ~0.2% of a scan.
    #[inline(always)]
    pub fn operand_after_type(&self, ty: TypeId, e: usize) -> Option<(Operand<'a>, usize)> {
        let text = self.lx.text();
        if text.as_bytes().get(e) != Some(&b' ') {
            return None;
        }
        let (value, end) = Self::value_at(text, e + 1)?;
        Some((Operand { ty, value }, end))
    }

    /// `type_at` for a type that may point to `pointee`, just read from
    /// the bytes `written`: typed IR writes a load's, store's or GEP's
    /// pointee again before the pointer's `*` or ` addrspace(N)*`, and
    /// those bytes give the same type again, so only the suffixes are read
    /// (`ptr`, which takes an ` addrspace(N)` of its own, is left to
    /// `type_at`). Inlined: a call cost opaque-pointer IR, which never
    /// repeats the pointee, ~17 instructions an operand.
    #[inline(always)]
    pub fn pointer_type_at(
        &mut self,
        at: usize,
        pointee: TypeId,
        written: &[u8],
    ) -> Option<(TypeId, usize)> {
        let b = self.lx.text().as_bytes();
        let end = at + written.len();
        if b.get(at) == written.first()
            && self.depth + 4 <= MAX_DEPTH
            && b.get(end).is_some_and(|&c| c == b'*' || c == b' ')
            && b.get(at..end) == Some(written)
            && written != b"ptr"
        {
            return self.pointer_suffixes(pointee, end);
        }
        self.type_at(at)
    }

    /// A type in the shapes `fast_operand` reads, at `at`, and the offset
    /// of the first byte past it and its pointer suffixes. The caller must
    /// check that byte: the tokens would go on reading a type at `*`, `(`
    /// or the word `addrspace`, wherever the next token is.
    #[inline]
    pub fn type_at(&mut self, at: usize) -> Option<(TypeId, usize)> {
        // The token path nests three levels at most here; near the limit
        // it must be the one to report it.
        if self.depth + 4 > MAX_DEPTH {
            return None;
        }
        let text = self.lx.text();
        let b = text.as_bytes();
        let (ty, e) = match common_word_type_at(b, at) {
            Some(found) => found,
            None => self.composite_type_at(text, at)?,
        };
        self.pointer_suffixes(ty, e)
    }

    /// `ty` with the pointer suffixes (`*`, ` addrspace(N)*`) from `e`
    /// applied, and the offset past them.
    #[inline(always)]
    fn pointer_suffixes(&mut self, mut ty: TypeId, mut e: usize) -> Option<(TypeId, usize)> {
        let b = self.lx.text().as_bytes();
        loop {
            match b.get(e) {
                Some(b'*') => {
                    ty = self.types.ptr(0, Some(ty));
                    e += 1;
                }
                Some(b' ') if b.get(e + 1..e + 11) == Some(b"addrspace(") => {
                    let (n_end, n) = small_digits(b, e + 11)?;
                    if b.get(n_end..n_end + 2)? != b")*" {
                        return None;
                    }
                    ty = self.types.ptr(n, Some(ty));
                    e = n_end + 2;
                }
                _ => return Some((ty, e)),
            }
        }
    }

    /// `type_at` without pointer suffixes, for what `common_word_type_at`
    /// leaves: arrays, vectors, named structs, `ptr`, rarer words. Out of
    /// line, so the common words pay for no registers it needs.
    #[inline(never)]
    fn composite_type_at(&mut self, text: &'a str, at: usize) -> Option<(TypeId, usize)> {
        let b = text.as_bytes();
        match *b.get(at)? {
            b'[' => {
                // `[N x T]`, `T` a type `element_type_at` reads.
                let (len_end, len) = small_digits(b, at + 1)?;
                if b.get(len_end..len_end + 3)? != b" x " {
                    return None;
                }
                let (elem, elem_end) = self.element_type_at(text, len_end + 3)?;
                if b.get(elem_end) != Some(&b']') {
                    return None;
                }
                let array = self.types.sequence(false, u64::from(len), elem);
                Some((array, elem_end + 1))
            }
            _ => self.element_type_at(text, at),
        }
    }

    /// A word type, a vector of one, or a named struct (`%name`,
    /// `%"name"`) at `at`, without pointer suffixes, and the offset past it.
    #[inline]
    fn element_type_at(&mut self, text: &'a str, at: usize) -> Option<(TypeId, usize)> {
        let b = text.as_bytes();
        match *b.get(at)? {
            b'<' => {
                let (len_end, len) = small_digits(b, at + 1)?;
                if b.get(len_end..len_end + 3)? != b" x " {
                    return None;
                }
                let (elem, elem_end) = match common_word_type_at(b, len_end + 3) {
                    Some(found) => found,
                    None => self.word_type_at(b, len_end + 3)?,
                };
                if b.get(elem_end) != Some(&b'>') {
                    return None;
                }
                let vector = self.types.sequence(true, u64::from(len), elem);
                Some((vector, elem_end + 1))
            }
            b'%' if b.get(at + 1) == Some(&b'"') => {
                // As the lexer reads a quoted name: to the next quote on
                // the line.
                let name = at + 2;
                let close = name + memchr::memchr2(b'"', b'\n', b.get(name..)?)?;
                if b.get(close) != Some(&b'"') {
                    return None;
                }
                let named = self.types.named(text.get(name..close)?);
                Some((named, close + 1))
            }
            b'%' => {
                let end = ident_end(b, at + 1);
                if end == at + 1 {
                    return None;
                }
                // ASCII from `at` to `end`.
                Some((self.types.named(str_at(text, at + 1, end)), end))
            }
            _ => self.word_type_at(b, at),
        }
    }

    /// A word type at `at` followed by a byte that ends the word token:
    /// `float`, `half`, `double`, `iN`, `ptr [addrspace(N)]`.
    #[inline]
    fn word_type_at(&mut self, b: &[u8], at: usize) -> Option<(TypeId, usize)> {
        let (ty, end) = match *b.get(at)? {
            b'i' => {
                let mut end = at + 1;
                while end < b.len() && b[end].is_ascii_digit() {
                    end += 1;
                }
                // The whole word first: `i3x` is no type, and interning
                // `i3` on the way would change the ids of later types.
                if !ends_word(b, end) {
                    return None;
                }
                let digits = b.get(at + 1..end)?;
                let ty = match digits {
                    b"32" => TypeTable::I32,
                    b"64" => TypeTable::I64,
                    b"1" => TypeTable::I1,
                    b"8" => TypeTable::I8,
                    b"16" => TypeTable::I16,
                    [] => return None,
                    _ => self.types.int_from_digits(digits)?,
                };
                (ty, end)
            }
            b'f' if b.get(at..at + 5) == Some(b"float") => (TypeTable::FLOAT, at + 5),
            b'h' if b.get(at..at + 4) == Some(b"half") => (TypeTable::HALF, at + 4),
            b'd' if b.get(at..at + 6) == Some(b"double") => (TypeTable::DOUBLE, at + 6),
            // Interned only once the word is known whole, as the tokens do.
            b'b' if b.get(at..at + 6) == Some(b"bfloat") && ends_word(b, at + 6) => {
                (self.types.intern(Type::BFloat), at + 6)
            }
            b'p' if b.get(at..at + 3) == Some(b"ptr") => {
                if !ends_word(b, at + 3) {
                    return None;
                }
                if b.get(at + 3..at + 14) == Some(b" addrspace(") {
                    let (n_end, n) = small_digits(b, at + 14)?;
                    if b.get(n_end) != Some(&b')') {
                        return None;
                    }
                    return Some((self.types.ptr(n, None), n_end + 1));
                }
                return Some((self.types.ptr(0, None), at + 3));
            }
            _ => return None,
        };
        ends_word(b, end).then_some((ty, end))
    }

    /// A value in the shapes `fast_operand` reads, at `v`, and the offset past it.
    #[inline]
    pub fn value_at(text: &'a str, v: usize) -> Option<(Value<'a>, usize)> {
        let b = text.as_bytes();
        match *b.get(v)? {
            sigil @ (b'%' | b'@') => {
                let end = ident_end(b, v + 1);
                if end == v + 1 {
                    return None;
                }
                // ASCII from `v` to `end`.
                let name = str_at(text, v + 1, end);
                let value = if sigil == b'%' {
                    Value::Local(name)
                } else {
                    Value::Global(name)
                };
                Some((value, end))
            }
            c @ (b'-' | b'0'..=b'9') => {
                let digits = v + usize::from(c == b'-');
                if b.get(digits..digits + 2) == Some(b"0x") {
                    // A hex float: the lexer takes every identifier byte.
                    let end = ident_end(b, digits);
                    return Some((Value::Float(text.get(v..end)?), end));
                }
                let mut end = digits;
                while end < b.len() && b[end].is_ascii_digit() {
                    end += 1;
                }
                if end == digits {
                    return None;
                }
                if b.get(end) == Some(&b'.') {
                    // A decimal float, as the lexer reads it: no check of
                    // what follows.
                    end += 1;
                    while end < b.len() && b[end].is_ascii_digit() {
                        end += 1;
                    }
                    if matches!(b.get(end), Some(b'e' | b'E')) {
                        end += 1;
                        if matches!(b.get(end), Some(b'+' | b'-')) {
                            end += 1;
                        }
                        while end < b.len() && b[end].is_ascii_digit() {
                            end += 1;
                        }
                    }
                    return Some((Value::Float(text.get(v..end)?), end));
                }
                if !ends_word(b, end) {
                    return None;
                }
                // ASCII from `v` to `end`.
                let s = str_at(text, v, end);
                // Eighteen digits cannot overflow an i64: folded here,
                // cheaper than `parse`, which takes the longer ones.
                let value = match b.get(digits..end) {
                    Some(ds) if ds.len() <= 18 => {
                        let n = ds.iter().fold(0, |n, &d| n * 10 + i64::from(d - b'0'));
                        Value::Int(if c == b'-' { -n } else { n })
                    }
                    _ => match s.parse::<i64>() {
                        Ok(n) => Value::Int(n),
                        Err(_) => Value::BigInt(s),
                    },
                };
                Some((value, end))
            }
            c => {
                // The constant words.
                let (word, value): (&[u8], Value<'a>) = match c {
                    b'u' => (b"undef", Value::Undef),
                    b'p' => (b"poison", Value::Poison),
                    b't' => (b"true", Value::Bool(true)),
                    b'f' => (b"false", Value::Bool(false)),
                    b'z' => (b"zeroinitializer", Value::ZeroInitializer),
                    b'n' if b.get(v + 1) == Some(&b'u') => (b"null", Value::Null),
                    b'n' => (b"none", Value::None),
                    _ => return None,
                };
                let end = v + word.len();
                if b.get(v..end) != Some(word) || !ends_word(b, end) {
                    return None;
                }
                Some((value, end))
            }
        }
    }

    /// `, v` with `v` a value `fast_operand` reads, of type `ty`, when the
    /// next token is the comma; consumed then, else nothing is.
    #[inline]
    pub fn fast_comma_value(&mut self, ty: TypeId) -> Option<Value<'a>> {
        if ty == TypeTable::METADATA || self.depth + 2 > MAX_DEPTH {
            return None;
        }
        let t = self.lx.peek();
        let text = self.lx.text();
        if t.tok != Tok::Punct(b',') || text.as_bytes().get(t.end) != Some(&b' ') {
            return None;
        }
        let (value, end) = Self::value_at(text, t.end + 1)?;
        self.lx.consume_through(end);
        Some(value)
    }

    /// `<type> [attributes] <value>`, as in call arguments.
    pub fn parse_argument(&mut self) -> PResult<Operand<'a>> {
        if let Some(op) = self.fast_operand(self.lx.peek().start) {
            return Ok(op);
        }
        let ty = self.parse_type()?;
        self.skip_attributes()?;
        let value = self.parse_value(ty)?;
        Ok(Operand { ty, value })
    }

    pub fn parse_value(&mut self, ty: TypeId) -> PResult<Value<'a>> {
        self.enter()?;
        let r = self.parse_value_inner(ty);
        self.leave();
        r
    }

    fn parse_value_inner(&mut self, ty: TypeId) -> PResult<Value<'a>> {
        let t = self.lx.peek();
        if ty == TypeTable::METADATA {
            let op = self.parse_meta_operand()?;
            return Ok(Value::Metadata(Box::new(op)));
        }
        let v = match t.tok {
            Tok::Local(n) => {
                self.lx.next_token();
                Value::Local(n)
            }
            Tok::Global(n) => {
                self.lx.next_token();
                Value::Global(n)
            }
            Tok::Int(s) => {
                self.lx.next_token();
                match s.parse::<i64>() {
                    Ok(v) => Value::Int(v),
                    Err(_) => Value::BigInt(s),
                }
            }
            Tok::Float(s) => {
                self.lx.next_token();
                Value::Float(s)
            }
            Tok::CStr(s) => {
                self.lx.next_token();
                Value::CString(s)
            }
            Tok::Punct(b'<') => {
                self.lx.next_token();
                if self.lx.eat(b'{') {
                    let elements = self.value_list(b'}')?;
                    self.expect(b'>')?;
                    Value::Aggregate(Box::new(Aggregate {
                        kind: AggregateKind::PackedStruct,
                        elements,
                    }))
                } else {
                    let elements = self.value_list(b'>')?;
                    Value::Aggregate(Box::new(Aggregate {
                        kind: AggregateKind::Vector,
                        elements,
                    }))
                }
            }
            Tok::Punct(b'[') => {
                self.lx.next_token();
                let elements = self.value_list(b']')?;
                Value::Aggregate(Box::new(Aggregate {
                    kind: AggregateKind::Array,
                    elements,
                }))
            }
            Tok::Punct(b'{') => {
                self.lx.next_token();
                let elements = self.value_list(b'}')?;
                Value::Aggregate(Box::new(Aggregate {
                    kind: AggregateKind::Struct,
                    elements,
                }))
            }
            Tok::Word(w) => {
                self.lx.next_token();
                match w {
                    "true" => Value::Bool(true),
                    "false" => Value::Bool(false),
                    "null" => Value::Null,
                    "none" => Value::None,
                    "undef" => Value::Undef,
                    "poison" => Value::Poison,
                    "zeroinitializer" => Value::ZeroInitializer,
                    "splat" => {
                        self.expect(b'(')?;
                        let op = self.parse_operand()?;
                        self.expect(b')')?;
                        Value::Splat(Box::new(op))
                    }
                    "asm" => {
                        let start = t.start;
                        // asm [sideeffect] [alignstack] [inteldialect] [unwind] "code", "constraints"
                        while let Tok::Word(_) = self.lx.peek_tok() {
                            self.lx.next_token();
                        }
                        self.expect_str()?;
                        self.expect(b',')?;
                        let end = self.lx.next_token().end;
                        Value::Text(self.lx.text().get(start..end).unwrap_or("asm"))
                    }
                    "blockaddress" | "dso_local_equivalent" | "no_cfi" | "ptrauth" => {
                        let start = t.start;
                        if self.lx.peek_tok() == Tok::Punct(b'(') {
                            self.skip_group()?;
                        } else {
                            self.lx.next_token();
                        }
                        let end = self.lx.peek().start;
                        Value::Text(self.lx.text().get(start..end).unwrap_or(w).trim_end())
                    }
                    _ => match Opcode::from_word(w) {
                        Some(op) if is_const_expr_opcode(op) => self.const_expr(op, t)?,
                        _ => {
                            return self
                                .error(t.line, format!("expected a value, found '{}'", cut(w)));
                        }
                    },
                }
            }
            other => {
                return self.error(
                    t.line,
                    format!("expected a value, found {}", other.describe()),
                );
            }
        };
        Ok(v)
    }

    /// `T v, T v, ...` up to the closing punctuation.
    fn value_list(&mut self, close: u8) -> PResult<Vec<Operand<'a>>> {
        let mut out = Vec::new();
        if self.lx.eat(close) {
            return Ok(out);
        }
        loop {
            out.push(self.parse_operand()?);
            if self.lx.eat(close) {
                return Ok(out);
            }
            self.expect(b',')?;
        }
    }

    /// Flag words after an opcode (`nsw`, `inbounds`, `fast`, ...).
    pub fn parse_flags(&mut self) -> Flags {
        let mut flags = Flags::default();
        while let Tok::Word(w) = self.lx.peek_tok() {
            match Flags::from_word(w) {
                Some(f) => {
                    self.lx.next_token();
                    flags.insert(f);
                }
                None => break,
            }
        }
        flags
    }

    fn const_expr(&mut self, opcode: Opcode, t: Token<'a>) -> PResult<Value<'a>> {
        let mut flags = Flags::default();
        let mut predicate = None;
        while let Tok::Word(w) = self.lx.peek_tok() {
            if let Some(f) = Flags::from_word(w) {
                flags.insert(f);
                self.lx.next_token();
            } else if w == "inrange" {
                self.lx.next_token();
                if self.lx.peek_tok() == Tok::Punct(b'(') {
                    self.skip_group()?;
                }
            } else if matches!(opcode, Opcode::ICmp | Opcode::FCmp) && predicate.is_none() {
                predicate = Some(w);
                self.lx.next_token();
            } else {
                return self.error(
                    t.line,
                    format!("unexpected '{}' in constant expression", cut(w)),
                );
            }
        }
        self.expect(b'(')?;
        let mut ty = None;
        if opcode == Opcode::GetElementPtr {
            ty = Some(self.parse_type()?);
            self.expect(b',')?;
        }
        let mut operands = Vec::new();
        loop {
            operands.push(self.parse_operand()?);
            // `inrange` may also mark one GEP index (older syntax).
            self.lx.eat_word("inrange");
            if opcode.is_cast() && self.lx.eat_word("to") {
                ty = Some(self.parse_type()?);
                self.expect(b')')?;
                break;
            }
            if self.lx.eat(b')') {
                break;
            }
            self.expect(b',')?;
        }
        Ok(Value::Expr(Box::new(ConstExpr {
            opcode,
            flags,
            ty,
            predicate,
            operands,
        })))
    }

    // ---- metadata ----

    /// One metadata operand: `!12`, `!"s"`, `null`, `!{...}`, `!DIxxx(...)`,
    /// or a typed value.
    pub fn parse_meta_operand(&mut self) -> PResult<MetaOperand<'a>> {
        self.enter()?;
        let r = self.parse_meta_operand_inner();
        self.leave();
        r
    }

    fn parse_meta_operand_inner(&mut self) -> PResult<MetaOperand<'a>> {
        let t = self.lx.peek();
        match t.tok {
            Tok::MetaRef(s) => {
                self.lx.next_token();
                match s.parse::<u32>() {
                    Ok(id) => Ok(MetaOperand::Ref(id)),
                    Err(_) => self.error(t.line, format!("bad metadata id '!{}'", cut(s))),
                }
            }
            Tok::MetaStr(s) => {
                self.lx.next_token();
                Ok(MetaOperand::Str(s))
            }
            Tok::Word("null") => {
                self.lx.next_token();
                Ok(MetaOperand::Null)
            }
            Tok::Punct(b'!') | Tok::MetaName(_) => {
                Ok(MetaOperand::Node(Box::new(self.parse_meta_node()?)))
            }
            _ => Ok(MetaOperand::Value(self.parse_operand()?.value)),
        }
    }

    /// A node: `!{...}` or `!Kind(field: value, ...)`.
    pub fn parse_meta_node(&mut self) -> PResult<MetaNode<'a>> {
        self.enter()?;
        let r = self.parse_meta_node_inner();
        self.leave();
        r
    }

    fn parse_meta_node_inner(&mut self) -> PResult<MetaNode<'a>> {
        let t = self.lx.next_token();
        match t.tok {
            Tok::Punct(b'!') => {
                self.expect(b'{')?;
                let mut ops = Vec::new();
                if self.lx.eat(b'}') {
                    return Ok(MetaNode::Tuple(ops));
                }
                loop {
                    ops.push(self.parse_meta_operand()?);
                    if self.lx.eat(b'}') {
                        return Ok(MetaNode::Tuple(ops));
                    }
                    self.expect(b',')?;
                }
            }
            Tok::MetaName(kind) => {
                self.expect(b'(')?;
                let mut fields = Vec::new();
                if self.lx.eat(b')') {
                    return Ok(MetaNode::specialized(kind, fields));
                }
                loop {
                    if kind == "DIArgList" {
                        // `T %v` operands, a type of any era (`ptr addrspace(1)`,
                        // `%struct.S addrspace(1)*`) before each value.
                        self.parse_operand()?;
                        if self.lx.eat(b')') {
                            return Ok(MetaNode::specialized(kind, fields));
                        }
                        self.expect(b',')?;
                        continue;
                    }
                    let f = self.lx.next_token();
                    match f.tok {
                        Tok::Label(name) => {
                            let value = self.parse_field_value()?;
                            fields.push((name, value));
                        }
                        // DIExpression and DIArgList take bare operands.
                        Tok::Word(w) => fields.push(("", MetaOperand::Word(w))),
                        Tok::Int(s) => fields.push(("", MetaOperand::Int(s.parse().unwrap_or(0)))),
                        Tok::Local(_) | Tok::Global(_) | Tok::MetaRef(_) => {}
                        other => {
                            return self.error(
                                f.line,
                                format!("expected a field in !{kind}, found {}", other.describe()),
                            );
                        }
                    }
                    if self.lx.eat(b')') {
                        return Ok(MetaNode::specialized(kind, fields));
                    }
                    self.expect(b',')?;
                }
            }
            other => self.error(
                t.line,
                format!("expected metadata, found {}", other.describe()),
            ),
        }
    }

    fn parse_field_value(&mut self) -> PResult<MetaOperand<'a>> {
        let t = self.lx.peek();
        match t.tok {
            Tok::Int(s) => {
                self.lx.next_token();
                // Flag sets may also be numeric: `flags: 3 | DIFlagX`.
                if self.lx.peek_tok() == Tok::Punct(b'|') {
                    return self.flag_chain(t);
                }
                match s.parse::<i64>() {
                    Ok(v) => Ok(MetaOperand::Int(v)),
                    Err(_) => Ok(MetaOperand::Word(s)),
                }
            }
            Tok::Str(s) => {
                self.lx.next_token();
                Ok(MetaOperand::FieldStr(s))
            }
            Tok::Word("null") => {
                self.lx.next_token();
                Ok(MetaOperand::Null)
            }
            Tok::Word(_) => {
                self.lx.next_token();
                self.flag_chain(t)
            }
            Tok::MetaRef(_) | Tok::MetaStr(_) | Tok::Punct(b'!') | Tok::MetaName(_) => {
                self.parse_meta_operand()
            }
            Tok::Float(s) => {
                self.lx.next_token();
                Ok(MetaOperand::Word(s))
            }
            _ => Ok(MetaOperand::Value(self.parse_operand()?.value)),
        }
    }

    /// `A | B | C` after `A` was consumed.
    fn flag_chain(&mut self, first: Token<'a>) -> PResult<MetaOperand<'a>> {
        let mut end = first.end;
        while self.lx.eat(b'|') {
            end = self.lx.next_token().end;
        }
        Ok(MetaOperand::Word(
            self.lx.text().get(first.start..end).unwrap_or(""),
        ))
    }
}
