#!/usr/bin/env python3
"""Build one large, valid LLVM IR module out of the AIR corpus, for read benchmarks.

    make_large_module.py CORPUS OUT [--size-mb 100 | --one-pass] [--typed] [--validate-with LLVM_AS]

Sources are the corpus's `*.opaque.ll` files (opaque pointers, readable by LLVM 22), or
with --typed their `.ll` twins (the same modules disassembled by llvm-dis-14, typed
pointers), so both outputs hold the same functions. Files are copied round-robin, in
sorted order, until the output reaches --size-mb megabytes (10^6 bytes); with --one-pass
every source is copied exactly once (the whole corpus as one module).

Every copy N of a source module becomes part of the single output module:
  * each `@name` the source defines (globals, functions) becomes `@name.cN`, everywhere
    in that copy (instructions, constants, metadata);
  * numbered metadata `!K` is offset by a per-copy base, so ids stay dense and unique;
  * `declare`s appear once per name; if two sources declare one name with different
    signatures, the later one is renamed `@name.dF` (F = source index) for that source;
  * named struct types appear once; a source that defines a name differently from an
    earlier source gets its own `%name.tF` (renaming cascades to types that use it);
  * attribute groups are deduplicated by content and renumbered;
  * `@llvm.global_ctors` / `@llvm.compiler.used` / `@llvm.used` are merged into one
    appending array each;
  * named metadata: `!air.kernel`, `!air.vertex`, `!air.fragment`, `!llvm.dbg.cu`,
    `!air.function_constants`, ... are merged into one list; `!llvm.module.flags` is the
    union by flag name (first value wins); any other named metadata (`!llvm.ident`,
    `!air.version`, `!air.language_version`, `!air.compile_options`, ...) keeps the first
    copy's list only. The header (datalayout, triple) is the first source's.

With --validate-with, every source is first checked with that llvm-as (rejected ones are
excluded and listed), and the output is checked with it at the end (full verifier on).
Python 3 standard library only.
"""

import argparse
import concurrent.futures
import os
import re
import shutil
import subprocess
import sys
import tempfile

# Named metadata whose operand lists are concatenated across copies.
MERGE_NAMED_MD = {
    "air.kernel", "air.vertex", "air.fragment", "air.visible", "air.mesh", "air.object",
    "air.intersection", "air.function_constants", "air.sampler_states", "llvm.dbg.cu",
}
APPENDING_GLOBALS = {"@llvm.global_ctors", "@llvm.global_dtors", "@llvm.compiler.used", "@llvm.used"}

# Marker characters used in per-source templates (never occur in LLVM text).
SUF = "\x01"   # replaced by the copy number
MDM = "\x02"   # "\x02<id>\x03": a numbered metadata reference, offset per copy
MDE = "\x03"

TOKEN = re.compile(
    r'(?P<q>[@%!]?"[^"]*")'           # quoted identifier or string literal
    r'|(?P<c>;[^\n]*)'                # comment
    r'|(?P<g>@[-\w$.]+)'              # global identifier
    r'|(?P<l>%[-\w$.]+)'              # local value or type identifier
    r'|!(?P<md>\d+)(?![-\w$.])'       # numbered metadata reference
    r'|#(?P<at>\d+)(?![-\w$.])'       # attribute group reference
)
MD_DEF = re.compile(r"^!(\d+) = ")
NAMED_MD_DEF = re.compile(r'^!([-a-zA-Z$._][-\w$.]*) = !\{(.*)\}\s*$')
TYPE_DEF = re.compile(r'^(%(?:"[^"]*"|[-\w$.]+)) = type (.*)$')
GLOBAL_DEF = re.compile(r'^(@(?:"[^"]*"|[-\w$.]+)) = ')
FUNC_NAME = re.compile(r'(@(?:"[^"]*"|[-\w$.]+))\(')
ATTR_DEF = re.compile(r'^attributes #(\d+) = (.*)$')
MODFLAG_KEY = re.compile(r'^!\{i32 \d+, !"([^"]*)"')
APPENDING = re.compile(r'^(@[-\w$.]+) = appending global \[(\d+) x (.*?)\] (.*)$')


def die(msg):
    print(f"make_large_module: error: {msg}", file=sys.stderr)
    sys.exit(1)


def rename_ident(tok, suffix):
    """`@a` -> `@a<suffix>`, `@"a b"` -> `@"a b<suffix>"`."""
    if tok[1] == '"':
        return tok[:-1] + suffix + '"'
    return tok + suffix


def split_top_level(s):
    """Split `a, b, (c, d)` on commas that are not nested in brackets/quotes."""
    out, depth, start, inq = [], 0, 0, False
    for i, ch in enumerate(s):
        if inq:
            if ch == '"':
                inq = False
        elif ch == '"':
            inq = True
        elif ch in "([{<":
            depth += 1
        elif ch in ")]}>":
            depth -= 1
        elif ch == "," and depth == 0:
            out.append(s[start:i].strip())
            start = i + 1
    tail = s[start:].strip()
    if tail:
        out.append(tail)
    return out


class Entity:
    __slots__ = ("kind", "lines", "name")

    def __init__(self, kind, lines, name=None):
        self.kind, self.lines, self.name = kind, lines, name


def parse_module(path):
    """Split a .ll file into top-level entities (leading comments stay with the next one)."""
    with open(path, encoding="utf-8", errors="surrogateescape") as f:
        lines = f.read().split("\n")
    ents, header, pending = [], {}, []
    i, n = 0, len(lines)
    while i < n:
        line = lines[i]
        if not line.strip() or line.startswith(";"):
            if line.startswith("; ModuleID"):
                header["moduleid"] = line
            elif line.strip():
                pending.append(line)
            i += 1
            continue
        if line.startswith("define "):
            j = i
            while j < n and lines[j] != "}":
                j += 1
            if j == n:
                die(f"{path}: unterminated function at line {i + 1}")
            m = FUNC_NAME.search(line)
            ents.append(Entity("def", pending + lines[i:j + 1], m.group(1) if m else None))
            pending, i = [], j + 1
            continue
        if line.startswith("declare "):
            m = FUNC_NAME.search(line)
            ents.append(Entity("decl", pending + [line], m.group(1)))
        elif line.startswith("@"):
            m = GLOBAL_DEF.match(line)
            if not m:
                die(f"{path}:{i + 1}: unrecognised global: {line[:120]}")
            kind = "appending" if m.group(1) in APPENDING_GLOBALS else "global"
            ents.append(Entity(kind, pending + [line], m.group(1)))
        elif line.startswith("%"):
            m = TYPE_DEF.match(line)
            if not m:
                die(f"{path}:{i + 1}: unrecognised line: {line[:120]}")
            ents.append(Entity("type", [line], m.group(1)))
        elif line.startswith("attributes #"):
            ents.append(Entity("attr", [line]))
        elif line.startswith("!"):
            m = MD_DEF.match(line)
            if m:
                ents.append(Entity("md", [line], int(m.group(1))))
            else:
                m = NAMED_MD_DEF.match(line)
                if not m:
                    die(f"{path}:{i + 1}: unrecognised metadata: {line[:120]}")
                ents.append(Entity("named", [line], m.group(1)))
        elif line.startswith("source_filename"):
            header["source_filename"] = line
        elif line.startswith("target datalayout"):
            header["datalayout"] = line
        elif line.startswith("target triple"):
            header["triple"] = line
        else:
            die(f"{path}:{i + 1}: unsupported top-level line (extend the generator): {line[:120]}")
        pending = []
        i += 1
    return header, ents


class Builder:
    def __init__(self, tmpdir, corpus):
        self.corpus = corpus
        self.types = {}          # type name -> body (as emitted)
        self.type_lines = []
        self.attr_ids = {}       # content -> new id
        self.attr_lines = []
        self.decls = {}          # name -> signature key
        self.globals_out = []    # rendered global lines
        self.fn_out = open(os.path.join(tmpdir, "functions.ll"), "w", encoding="utf-8", errors="surrogateescape")
        self.md_out = open(os.path.join(tmpdir, "metadata.ll"), "w", encoding="utf-8", errors="surrogateescape")
        self.named = {}          # name -> list of "!id"
        self.named_order = []
        self.modflags = {}       # key -> "!id"
        self.appending = {}      # name -> [elem_type, [elems], tail]
        self.appending_dropped = 0
        self.md_base = 0
        self.copies = 0
        self.bytes = 0
        self.header = None
        self.notes = []

    def rel(self, path):
        return os.path.relpath(path, self.corpus)

    # -- per-source preparation (done once per source file) ---------------------------------
    def prepare(self, fidx, path, header, ents):
        if self.header is None:
            self.header = header
        defined = {e.name for e in ents if e.kind in ("def", "global")}
        tdefs = {e.name: TYPE_DEF.match(e.lines[0]).group(2) for e in ents if e.kind == "type"}
        tmap = self._resolve_types(fidx, tdefs)
        local_attr = {}
        decl_map = {}
        src = {"tmap": tmap, "attr": local_attr, "decl": decl_map, "defined": defined}

        # Attribute groups: dedupe by content (after type renaming).
        for e in ents:
            if e.kind == "attr":
                m = ATTR_DEF.match(e.lines[0])
                content = self._xform(m.group(2), src)
                if SUF in content or MDM in content:
                    die(f"{path}: attribute group refers to globals/metadata; unsupported")
                if content not in self.attr_ids:
                    nid = len(self.attr_ids)
                    self.attr_ids[content] = nid
                    self.attr_lines.append(f"attributes #{nid} = {content}")
                local_attr[m.group(1)] = str(self.attr_ids[content])

        # Declarations: once per name; conflicting signatures get a per-source name.
        decl_lines = []
        for e in ents:
            if e.kind != "decl":
                continue
            text = self._xform("\n".join(e.lines), src)
            sig = re.sub(r" #\d+$", "", text.split("\n")[-1])
            prev = self.decls.get(e.name)
            if prev is None:
                self.decls[e.name] = sig
                decl_lines.append(text)
            elif prev != sig:
                if e.name.startswith(("@llvm.", '@"llvm.')):
                    die(f"{path}: intrinsic {e.name} declared with two signatures:\n  {prev}\n  {sig}")
                new = rename_ident(e.name, f".d{fidx}")
                decl_map[e.name] = new
                self.notes.append(f"declaration {e.name} has another signature in {self.rel(path)}; "
                                  f"renamed {new} there")
                text = self._xform("\n".join(e.lines), src)
                self.decls[new] = text
                decl_lines.append(text)
        if decl_lines:
            self.fn_out.write("\n".join(decl_lines) + "\n\n")

        # Templates for the per-copy parts.
        glob_parts, fn_parts, md_parts = [], [], []
        named, append = [], []
        max_md = -1
        md_lines = {}
        for e in ents:
            if e.kind == "global":
                glob_parts.append("\n".join(e.lines))
            elif e.kind == "def":
                fn_parts.append("\n".join(e.lines) + "\n")
            elif e.kind == "md":
                md_parts.append(e.lines[0])
                max_md = max(max_md, e.name)
                md_lines[e.name] = e.lines[0]
            elif e.kind == "named":
                refs = [r.strip() for r in NAMED_MD_DEF.match(e.lines[0]).group(2).split(",") if r.strip()]
                ids = []
                for r in refs:
                    if not re.fullmatch(r"!\d+", r):
                        die(f"{path}: named metadata !{e.name} has a non-node operand {r}")
                    ids.append(int(r[1:]))
                named.append((e.name, ids))
            elif e.kind == "appending":
                m = APPENDING.match(e.lines[-1])
                if not m:
                    die(f"{path}: cannot parse {e.lines[-1][:120]}")
                name, count, ety, rest = m.groups()
                ety = self._xform(ety, src)
                if rest.startswith("zeroinitializer"):
                    elems, tail = [], rest[len("zeroinitializer"):]
                else:
                    depth = 0
                    for k, ch in enumerate(rest):
                        depth += ch == "["
                        depth -= ch == "]"
                        if depth == 0:
                            break
                    elems = split_top_level(rest[1:k])
                    tail = rest[k + 1:]
                    if len(elems) != int(count):
                        die(f"{path}: {name}: expected {count} elements, found {len(elems)}")
                append.append((name, ety, [self._template(x, src) for x in elems], tail))
        # Module flag keys (local node id -> flag name).
        for name, ids in named:
            if name == "llvm.module.flags":
                keys = []
                for i in ids:
                    body = md_lines.get(i, "").split(" = ", 1)[-1]
                    body = re.sub(r"^distinct ", "", body)
                    m = MODFLAG_KEY.match(body)
                    if not m:
                        die(f"{path}: cannot read module flag !{i}: {body[:80]}")
                    keys.append((m.group(1), i))
                src["modflags"] = keys
        src["glob"] = self._template("\n".join(glob_parts), src) if glob_parts else None
        src["fn"] = self._template("\n".join(fn_parts), src) if fn_parts else None
        src["md"] = self._template("\n".join(md_parts), src) if md_parts else None
        src["named"] = named
        src["append"] = append
        src["md_span"] = max_md + 1
        return src

    def _resolve_types(self, fidx, tdefs):
        """Map this source's type names to output names; register new ones."""
        renamed = set()

        def body_with(names):
            m = {t: rename_ident(t, f".t{fidx}") for t in names}
            return {t: self._xform(b, {"tmap": m, "attr": {}, "decl": {}, "defined": set()}) for t, b in tdefs.items()}, m

        while True:
            bodies, m = body_with(renamed)
            bad = {t for t, b in bodies.items()
                   if t not in renamed and t in self.types and self.types[t] != b}
            if not bad:
                break
            renamed |= bad
        for t, b in bodies.items():
            out = m.get(t, t)
            if out not in self.types:
                self.types[out] = b
                self.type_lines.append(f"{out} = type {b}")
        return m

    def _xform(self, text, src):
        """Apply per-source renaming; copy-dependent parts become markers."""
        tmap, amap, dmap, defined = src["tmap"], src["attr"], src["decl"], src["defined"]

        def sub(m):
            g = m.lastgroup
            tok = m.group(0)
            if g == "q":
                if tok[0] == "@":
                    if tok in defined:
                        return rename_ident(tok, ".c" + SUF)
                    return dmap.get(tok, tok)
                if tok[0] == "%":
                    return tmap.get(tok, tok)
                return tok
            if g == "g":
                if tok in defined:
                    return tok + ".c" + SUF
                return dmap.get(tok, tok)
            if g == "l":
                return tmap.get(tok, tok)
            if g == "md":
                return MDM + m.group("md") + MDE
            if g == "at":
                a = amap.get(m.group("at"))
                return "#" + a if a is not None else tok
            return tok

        return TOKEN.sub(sub, text)

    def _template(self, text, src):
        t = self._xform(text, src)
        parts = t.split(MDM)
        head = parts[0]
        rest = []
        for p in parts[1:]:
            num, tail = p.split(MDE, 1)
            rest.append((int(num), tail))
        return head, rest

    @staticmethod
    def _render(tpl, base, cs):
        head, rest = tpl
        s = head + "".join(["!" + str(n + base) + tail for n, tail in rest])
        return s.replace(SUF, cs)

    # -- per-copy output --------------------------------------------------------------------
    def emit_copy(self, src):
        cs = str(self.copies)
        base = self.md_base
        if src["glob"]:
            g = self._render(src["glob"], base, cs)
            self.globals_out.append(g)
            self.bytes += len(g) + 1
        if src["fn"]:
            f = self._render(src["fn"], base, cs)
            self.fn_out.write(f + "\n")
            self.bytes += len(f) + 1
        if src["md"]:
            md = self._render(src["md"], base, cs)
            self.md_out.write(md + "\n")
            self.bytes += len(md) + 1
        for name, ids in src["named"]:
            refs = ["!" + str(i + base) for i in ids]
            if name == "llvm.module.flags":
                for key, i in src.get("modflags", []):
                    self.modflags.setdefault(key, "!" + str(i + base))
                if name not in self.named:
                    self.named[name] = None
                    self.named_order.append(name)
            elif name in MERGE_NAMED_MD:
                if name not in self.named:
                    self.named[name] = []
                    self.named_order.append(name)
                self.named[name].extend(refs)
            elif name not in self.named:
                self.named[name] = refs
                self.named_order.append(name)
        for name, ety, elems, tail in src["append"]:
            slot = self.appending.setdefault(name, [ety, [], tail])
            if slot[0] != ety:
                self.appending_dropped += len(elems)
                continue
            slot[1].extend(self._render(e, base, cs) for e in elems)
        self.md_base += src["md_span"]
        self.copies += 1

    def finish(self, out_path, tmpdir):
        self.fn_out.close()
        self.md_out.close()
        h = self.header
        with open(out_path, "w", encoding="utf-8", errors="surrogateescape") as out:
            out.write("; ModuleID = 'air-scan-bench-large'\n")
            out.write('source_filename = "air-scan-bench-large"\n')
            for key in ("datalayout", "triple"):
                if key in h:
                    out.write(h[key] + "\n")
            out.write("\n")
            out.write("\n".join(self.type_lines) + "\n\n")
            out.write("\n".join(self.globals_out) + "\n")
            for name, (ety, elems, tail) in self.appending.items():
                if elems:
                    out.write(f"{name} = appending global [{len(elems)} x {ety}] [{', '.join(elems)}]{tail}\n")
                else:
                    out.write(f"{name} = appending global [0 x {ety}] zeroinitializer{tail}\n")
            out.write("\n")
        # Append the big temp files in binary mode (fast), then the trailer.
        with open(out_path, "ab") as out:
            with open(os.path.join(tmpdir, "functions.ll"), "rb") as f:
                shutil.copyfileobj(f, out, 1 << 20)
            trailer = "\n".join(self.attr_lines) + "\n\n"
            for name in self.named_order:
                if name == "llvm.module.flags":
                    refs = list(self.modflags.values())
                else:
                    refs = self.named[name]
                trailer += f"!{name} = !{{{', '.join(refs)}}}\n"
            trailer += "\n"
            out.write(trailer.encode("utf-8", "surrogateescape"))
            with open(os.path.join(tmpdir, "metadata.ll"), "rb") as f:
                shutil.copyfileobj(f, out, 1 << 20)


def check_one(llvm_as, path):
    r = subprocess.run([llvm_as, "-o", os.devnull, path], capture_output=True, text=True)
    return path, r.returncode, r.stderr.strip()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("corpus", help="corpus directory (…/shared/corpus)")
    ap.add_argument("out", help="output .ll path")
    ap.add_argument("--size-mb", type=float, default=100.0, help="target size in MB (10^6 bytes), default 100")
    ap.add_argument("--one-pass", action="store_true",
                    help="ignore --size-mb: copy every source exactly once (the corpus as one module)")
    ap.add_argument("--typed", action="store_true",
                    help="use the typed-pointer .ll twin of every .opaque.ll instead")
    ap.add_argument("--validate-with", metavar="LLVM_AS",
                    help="llvm-as binary: check each source first (exclude rejects) and the output at the end")
    ap.add_argument("--exclude", action="append", default=[],
                    help="skip sources whose path contains this string (repeatable)")
    args = ap.parse_args()

    if not os.path.isdir(args.corpus):
        die(f"corpus directory not found: {args.corpus}")
    out_real = os.path.realpath(args.out)
    sources = []
    for root, _dirs, files in os.walk(args.corpus):
        for fn in files:
            if fn.endswith(".opaque.ll"):
                p = os.path.join(root, fn)
                if args.typed:
                    p = p[: -len(".opaque.ll")] + ".ll"
                    if not os.path.isfile(p):
                        continue
                if any(x in p for x in args.exclude) or os.path.realpath(p) == out_real:
                    continue
                sources.append(p)
    sources.sort()
    if not sources:
        die(f"no *.opaque.ll files under {args.corpus}")

    rejected = []
    if args.typed:
        # A few `.ll` twins are opaque-pointer text already; keep the typed module typed.
        opaque_sig = re.compile(r'^(?:define|declare) [^\n]*[(,] ?ptr\b', re.M)
        keep = []
        for p in sources:
            with open(p, encoding="utf-8", errors="surrogateescape") as f:
                if opaque_sig.search(f.read()):
                    print(f"excluded (opaque pointers, not typed): {os.path.relpath(p, args.corpus)}",
                          file=sys.stderr)
                    rejected.append((p, "opaque"))
                else:
                    keep.append(p)
        sources = keep
    if args.validate_with:
        with concurrent.futures.ThreadPoolExecutor(os.cpu_count() or 2) as ex:
            results = list(ex.map(lambda p: check_one(args.validate_with, p), sources))
        bad = [(p, err) for p, rc, err in results if rc != 0]
        rejected += bad
        sources = [p for p in sources if p not in {p for p, _ in bad}]
        for p, err in bad:
            first = err.splitlines()[0] if err else "(no message)"
            print(f"excluded (rejected by {os.path.basename(args.validate_with)}): "
                  f"{os.path.relpath(p, args.corpus)}: {first[:200]}", file=sys.stderr)

    target = int(args.size_mb * 1e6)
    tmpdir = tempfile.mkdtemp(prefix="make_large_module.", dir=os.path.dirname(os.path.abspath(args.out)))
    try:
        b = Builder(tmpdir, args.corpus)
        prepared = []
        for fidx, p in enumerate(sources):
            header, ents = parse_module(p)
            prepared.append(b.prepare(fidx, p, header, ents))
        passes = 0
        if args.one_pass:
            for src in prepared:
                b.emit_copy(src)
            passes = 1
        while b.bytes < target and not args.one_pass:
            for src in prepared:
                b.emit_copy(src)
                if b.bytes >= target:
                    break
            passes += 1
        b.finish(args.out, tmpdir)
    finally:
        shutil.rmtree(tmpdir, ignore_errors=True)

    size = os.path.getsize(args.out)
    for note in b.notes:
        print("note: " + note, file=sys.stderr)
    if b.appending_dropped:
        print(f"note: dropped {b.appending_dropped} appending-global elements of a mismatched type", file=sys.stderr)
    print(f"wrote {args.out}: {size / 1e6:.1f} MB, {b.copies} module copies from {len(sources)} "
          f"{'typed .ll' if args.typed else '.opaque.ll'} sources ({passes} pass(es)), "
          f"{len(b.type_lines)} struct types, {len(b.attr_lines)} attribute groups, "
          f"{len(b.decls)} declarations, {b.md_base} metadata nodes; {len(rejected)} source(s) excluded",
          file=sys.stderr)

    if args.validate_with:
        r = subprocess.run([args.validate_with, "-o", os.devnull, args.out], capture_output=True, text=True)
        if r.returncode != 0:
            print(r.stderr[:4000], file=sys.stderr)
            die(f"{args.validate_with} rejects {args.out}")
        print(f"validated: {os.path.basename(args.validate_with)} accepts {args.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
