//! SARIF 2.1.0, the format GitHub code scanning and SARIF viewers read.
//!
//! One run. The driver lists every rule in force, so a viewer can tell "ran
//! and found nothing" from "did not run". Each result points at the MSL line
//! when debug info found the source on disk, else at the IR line, with URIs
//! relative to a base folder (the current directory by default) so GitHub can
//! place them in the repository. `partialFingerprints` carries the finding's
//! fingerprint, which ignores line numbers, so alerts survive edits that move
//! code. Baselined findings are left out; suppressed ones too, unless
//! `--show-suppressed` asks for them as results with `suppressions`.
//!
//! What GitHub code scanning asks of a run, checked by the SARIF SDK's
//! validator in the tests (`--rule-kind "Gh;Ghas;Sarif"`): every rule with a
//! `fullDescription` of at most [`MAX_DESCRIPTION`] characters and `help`;
//! at most [`MAX_RESULTS`] results (the highest-ranked are kept and the
//! rest counted in a notification); no line numbers in a binary artifact
//! (an `.air` or `.metallib` file: the lines are those of its disassembly),
//! where a result names the library, function and kernels as logical
//! locations instead.

use super::Totals;
use super::causes::{Cause, Causes};
use super::paths::{Located, PathRoot, file_part};
use crate::rules::{Finding, Rule, RuleSet, Severity};
use crate::scan::{FileReport, Status};
use crate::source::SourceLocation;
use serde::{Serialize, Serializer};
use std::collections::BTreeMap;
use std::io::{self, Write};
use std::path::{Component, Path, PathBuf};

/// The schema `$schema` names: the SARIF 2.1.0 schema as GitHub documents it.
pub const SARIF_SCHEMA: &str = "https://json.schemastore.org/sarif-2.1.0.json";

/// The `partialFingerprints` key of a result. Bump the `/v1` if the
/// fingerprint's recipe changes, so old and new are never compared.
pub const FINGERPRINT_KEY: &str = "airScanFingerprint/v1";

#[derive(Serialize)]
struct Log<'a> {
    #[serde(rename = "$schema")]
    schema: &'static str,
    version: &'static str,
    runs: Vec<Run<'a>>,
}

/// GitHub refuses a run with more results.
pub const MAX_RESULTS: usize = 25_000;

/// GitHub refuses a rule whose `fullDescription` is longer (characters).
pub const MAX_DESCRIPTION: usize = 1_024;

/// The `uriBaseId` of artifact URIs relative to the base folder, as CodeQL
/// names the checkout's root.
const SRCROOT: &str = "%SRCROOT%";

/// How to render.
#[derive(Default)]
pub struct Options<'a> {
    /// The folder result URIs are relative to (default: the current one).
    pub base: Option<&'a Path>,
    /// Suppressed findings as results with `suppressions`.
    pub show_suppressed: bool,
    /// `--emit-ir`'s folder: a result in a binary artifact points at the
    /// IR text written there too.
    pub emit_ir: Option<&'a Path>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Run<'a> {
    tool: Tool,
    invocations: Vec<Invocation>,
    /// `%SRCROOT%`: the base folder, where the scan ran.
    original_uri_base_ids: BTreeMap<&'static str, ArtifactLocation>,
    results: Results<'a>,
    /// DWARF columns count bytes; MSL is almost always ASCII, where bytes
    /// and code points agree.
    column_kind: &'static str,
}

#[derive(Serialize)]
struct Tool {
    driver: Driver,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Driver {
    name: &'static str,
    version: &'static str,
    semantic_version: &'static str,
    information_uri: String,
    rules: Vec<Descriptor>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Descriptor {
    id: String,
    name: String,
    short_description: Text,
    #[serde(skip_serializing_if = "Option::is_none")]
    full_description: Option<Text>,
    help: Help,
    default_configuration: Configuration,
    properties: DescriptorProperties,
}

#[derive(Serialize)]
struct Text {
    text: String,
}

impl Text {
    fn of(text: impl Into<String>) -> Self {
        Text { text: text.into() }
    }
}

#[derive(Serialize)]
struct Help {
    text: String,
    markdown: String,
}

#[derive(Serialize)]
struct Configuration {
    level: &'static str,
}

#[derive(Serialize)]
struct DescriptorProperties {
    category: String,
    /// GitHub shows tags and filters on them.
    tags: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    cycles: Option<u32>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Invocation {
    execution_successful: bool,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    tool_execution_notifications: Vec<Notification>,
}

#[derive(Serialize)]
struct Notification {
    level: &'static str,
    message: Text,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    locations: Vec<Location>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct SarifResult {
    rule_id: String,
    rule_index: usize,
    level: &'static str,
    message: Text,
    locations: Vec<Location>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    related_locations: Vec<Location>,
    partial_fingerprints: BTreeMap<&'static str, String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    suppressions: Vec<Suppression>,
    properties: ResultProperties,
}

#[derive(Serialize)]
struct Suppression {
    kind: &'static str,
    justification: String,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ResultProperties {
    function: String,
    kernels: Vec<String>,
    loop_depth: u32,
    rank: u32,
    /// The MSL line was borrowed from a neighbouring instruction or the
    /// function's start.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    approximate_location: bool,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Location {
    #[serde(skip_serializing_if = "Option::is_none")]
    id: Option<usize>,
    physical_location: PhysicalLocation,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    logical_locations: Vec<LogicalLocation>,
    #[serde(skip_serializing_if = "Option::is_none")]
    message: Option<Text>,
}

impl Location {
    fn at(physical_location: PhysicalLocation, message: Option<Text>) -> Self {
        Location {
            id: None,
            physical_location,
            logical_locations: Vec::new(),
            message,
        }
    }
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct PhysicalLocation {
    artifact_location: ArtifactLocation,
    #[serde(skip_serializing_if = "Option::is_none")]
    region: Option<Region>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ArtifactLocation {
    uri: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    uri_base_id: Option<&'static str>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Region {
    start_line: u32,
    #[serde(skip_serializing_if = "Option::is_none")]
    start_column: Option<u32>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct LogicalLocation {
    name: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    fully_qualified_name: Option<String>,
    kind: &'static str,
}

impl LogicalLocation {
    fn of(kind: &'static str, name: &str) -> Self {
        LogicalLocation {
            name: name.to_string(),
            fully_qualified_name: None,
            kind,
        }
    }
}

/// SARIF's levels have the same names as our severities.
fn level(s: Severity) -> &'static str {
    s.name()
}

/// A pattern's hard-wrapped text as paragraphs of one line each.
fn unwrap(text: &str) -> String {
    text.trim()
        .split("\n\n")
        .map(|p| p.split_whitespace().collect::<Vec<_>>().join(" "))
        .filter(|p| !p.is_empty())
        .collect::<Vec<_>>()
        .join("\n\n")
}

/// `text` cut to at most [`MAX_DESCRIPTION`] characters: whole paragraphs,
/// else whole sentences of the first, else its words, and a pointer to
/// `air-scan explain`, which prints it all.
fn clip(text: String, rule: &str) -> String {
    let count = |s: &str| s.chars().count();
    if count(&text) <= MAX_DESCRIPTION {
        return text;
    }
    let more = format!(" (`air-scan explain {rule}` says more.)");
    let room = MAX_DESCRIPTION - count(&more);
    let mut kept = String::new();
    for paragraph in text.split("\n\n") {
        let sep = if kept.is_empty() { "" } else { "\n\n" };
        if count(&kept) + count(sep) + count(paragraph) > room {
            break;
        }
        kept = format!("{kept}{sep}{paragraph}");
    }
    if kept.is_empty() {
        let pieces: Vec<&str> = match text.contains(". ") {
            true => text.split_inclusive(". ").collect(),
            false => text.split_inclusive(' ').collect(),
        };
        for piece in pieces {
            if count(&kept) + count(piece) > room {
                break;
            }
            kept.push_str(piece);
        }
        kept = kept.trim_end().to_string();
    }
    if kept.is_empty() {
        kept = text.chars().take(room).collect();
    }
    kept + &more
}

/// The help GitHub shows beside a rule's alerts.
fn help(fix: String, rule: &str) -> Help {
    Help {
        markdown: format!(
            "{fix}\n\n`air-scan explain {rule}` prints the rationale and its measurements."
        ),
        text: fix,
    }
}

fn descriptor(rule: &Rule) -> Descriptor {
    let p = &rule.pattern;
    Descriptor {
        id: p.id.clone(),
        name: p.name.clone(),
        short_description: Text::of(unwrap(&p.summary)),
        full_description: Some(Text::of(clip(unwrap(&p.rationale), &p.name))),
        help: help(unwrap(&p.fix), &p.name),
        default_configuration: Configuration {
            level: level(p.severity),
        },
        properties: DescriptorProperties {
            category: p.category.clone(),
            tags: vec![p.category.clone()],
            cycles: p.cycles,
        },
    }
}

/// A descriptor for a finding whose rule is not in the rule set: the
/// `bad-suppression` findings that suppressions add, described by
/// [`crate::suppress::BAD_SUPPRESSION_RULE`], or a rule `--select` left out
/// whose suppressed finding is shown.
fn ad_hoc_descriptor(f: &Finding) -> Descriptor {
    let bad = &crate::suppress::BAD_SUPPRESSION_RULE;
    let (short, full) = if &*f.rule == bad.name {
        (
            bad.summary.to_string(),
            clip(bad.rationale.to_string(), bad.name),
        )
    } else {
        let short = format!("{} ({})", f.rule, f.category);
        (short.clone(), short)
    };
    Descriptor {
        id: f.rule_id.to_string(),
        name: f.rule.to_string(),
        short_description: Text::of(short),
        full_description: Some(Text::of(full)),
        help: help(f.help.to_string(), &f.rule),
        default_configuration: Configuration {
            level: level(f.severity),
        },
        properties: DescriptorProperties {
            category: f.category.to_string(),
            tags: vec![f.category.to_string()],
            cycles: None,
        },
    }
}

/// Turns file paths into URIs relative to the report's root, the way the
/// JSON report writes them (`paths`).
struct Uris {
    root: PathRoot,
    /// Whether each file met is binary (bitcode or a metallib), by its bytes.
    binary: std::cell::RefCell<BTreeMap<String, bool>>,
    /// `--emit-ir`'s folder, where a binary module's IR text was written.
    emit_ir: Option<PathBuf>,
}

/// Percent-encodes all but RFC 3986's unreserved characters and the
/// sub-delimiters, so a file name becomes a valid URI segment. `:` is
/// encoded too: in a relative reference's first segment it would read as a
/// scheme.
fn encode_segment(s: &str, out: &mut String) {
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || b"-._~!$&'()*+,;=@".contains(&b) {
            out.push(char::from(b));
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
}

/// The path's segments joined with `/`, whatever the platform's separator;
/// a Windows drive stays `C:`.
fn encode_components(p: &Path) -> String {
    use std::path::Prefix;
    let mut out = String::new();
    for c in p.components() {
        let segment = match c {
            Component::RootDir => continue,
            Component::Prefix(pre) => match pre.kind() {
                Prefix::Disk(d) | Prefix::VerbatimDisk(d) => {
                    out.push(char::from(d));
                    out.push(':');
                    continue;
                }
                _ => continue,
            },
            other => other.as_os_str().to_string_lossy(),
        };
        if !out.is_empty() {
            out.push('/');
        }
        encode_segment(&segment, &mut out);
    }
    out
}

impl Uris {
    fn new(base: Option<&Path>, emit_ir: Option<&Path>) -> Self {
        Uris {
            root: PathRoot::new(base),
            binary: Default::default(),
            emit_ir: emit_ir.map(Path::to_path_buf),
        }
    }

    /// Whether `path` names a binary artifact, whose lines mean nothing.
    fn is_binary(&self, path: &str) -> bool {
        let file = file_part(path);
        if let Some(&known) = self.binary.borrow().get(file) {
            return known;
        }
        let binary = crate::input::Kind::of_file(Path::new(file)).is_some_and(|k| k.is_binary());
        self.binary.borrow_mut().insert(file.to_string(), binary);
        binary
    }

    /// `%SRCROOT%`, the base folder as an absolute `file:` URI ending in `/`.
    fn root(&self) -> BTreeMap<&'static str, ArtifactLocation> {
        let Some(base) = self.root.base() else {
            return BTreeMap::new();
        };
        let mut uri = format!("file:///{}", encode_components(base));
        if !uri.ends_with('/') {
            uri.push('/');
        }
        BTreeMap::from([(
            SRCROOT,
            ArtifactLocation {
                uri,
                uri_base_id: None,
            },
        )])
    }

    /// The URI of `path`: relative to the root, else a `file:` URI.
    fn uri(&self, path: &str) -> String {
        match self.root.locate(path) {
            Located::Inside(rel) => encode_components(&rel),
            Located::Outside(abs) if abs.is_absolute() => {
                format!("file:///{}", encode_components(&abs))
            }
            Located::Outside(abs) => encode_components(&abs),
        }
    }

    /// The IR text `--emit-ir` wrote for the module of a finding at `path`
    /// in a binary artifact, at `line`.
    fn emitted(&self, path: &str, line: u32) -> Option<PhysicalLocation> {
        let file = self
            .emit_ir
            .as_ref()?
            .join(crate::scan::emitted_ir_name(&self.root.path(path)));
        let file = file.to_str().filter(|_| file.is_file())?;
        Some(self.physical(file, line, 0))
    }

    /// The file and line; no line in a binary artifact, whose lines are
    /// those of its disassembly.
    fn physical(&self, path: &str, line: u32, column: u32) -> PhysicalLocation {
        let uri = self.uri(path);
        let uri_base_id = (!uri.starts_with("file:")).then_some(SRCROOT);
        PhysicalLocation {
            artifact_location: ArtifactLocation { uri, uri_base_id },
            // SARIF lines and columns start at 1; DWARF's 0 means "unknown".
            region: (line > 0 && !self.is_binary(path)).then_some(Region {
                start_line: line,
                start_column: (column > 0).then_some(column),
            }),
        }
    }
}

/// The MSL location to show a finding at: known, with a line, and on disk
/// (a path on the machine that compiled the shader is no use to GitHub).
fn usable_source(f: &Finding) -> Option<&SourceLocation> {
    f.source
        .as_ref()
        .filter(|s| s.line > 0 && Path::new(&s.path).is_file())
}

/// Where a finding is in terms of the program: its function, and when its
/// IR came from a binary artifact (no line there), the library or `.air`
/// file, the library's entry and the kernels that reach the function.
fn logical_locations(f: &Finding, uris: &Uris) -> Vec<LogicalLocation> {
    let mut out = Vec::new();
    let binary = uris.is_binary(&f.ir.path);
    if binary {
        let file = file_part(&f.ir.path);
        let name = Path::new(file)
            .file_name()
            .map_or_else(|| file.to_string(), |n| n.to_string_lossy().into_owned());
        out.push(LogicalLocation::of("module", &name));
        if let Some(entry) = f.ir.path.get(file.len() + 1..).filter(|e| !e.is_empty()) {
            let mut l = LogicalLocation::of("module", entry);
            l.fully_qualified_name = Some(format!("{name}:{entry}"));
            out.push(l);
        }
    }
    out.push(LogicalLocation::of("function", &f.function));
    if binary {
        for k in f.kernels.iter().filter(|k| **k != *f.function) {
            out.push(LogicalLocation::of("function", k));
        }
    }
    out
}

fn result(f: &Finding, rule_index: usize, uris: &Uris) -> SarifResult {
    let mut related = Vec::new();
    let primary = match usable_source(f) {
        Some(src) => {
            related.push(Location::at(
                uris.physical(&f.ir.path, f.ir.line, 0),
                Some(Text::of("the AIR instruction")),
            ));
            uris.physical(&src.path, src.line, src.column)
        }
        None => {
            if let Some(src) = &f.source {
                related.push(Location::at(
                    uris.physical(&src.path, src.line, src.column),
                    Some(Text::of(
                        "the MSL source debug info names (not found on disk)",
                    )),
                ));
            }
            if let Some(text) = uris
                .is_binary(&f.ir.path)
                .then(|| uris.emitted(&f.ir.path, f.ir.line))
                .flatten()
            {
                related.push(Location::at(
                    text,
                    Some(Text::of(
                        "the AIR instruction, in the IR text --emit-ir wrote",
                    )),
                ));
            }
            uris.physical(&f.ir.path, f.ir.line, 0)
        }
    };
    for at in &f.inlined_at {
        let into = at.function.as_deref().unwrap_or("its caller");
        related.push(Location::at(
            uris.physical(&at.path, at.line, at.column),
            Some(Text::of(format!("inlined here, into `{into}`"))),
        ));
    }
    for (i, r) in related.iter_mut().enumerate() {
        r.id = Some(i + 1);
    }
    let mut location = Location::at(primary, None);
    location.logical_locations = logical_locations(f, uris);
    SarifResult {
        rule_id: f.rule_id.to_string(),
        rule_index,
        level: level(f.severity),
        message: Text::of(f.message.clone()),
        locations: vec![location],
        related_locations: related,
        partial_fingerprints: BTreeMap::from([(FINGERPRINT_KEY, f.fingerprint.clone())]),
        suppressions: Vec::new(),
        properties: ResultProperties {
            function: f.function.to_string(),
            kernels: f.kernels.to_vec(),
            loop_depth: f.loop_depth,
            rank: f.rank,
            approximate_location: f.source.as_ref().is_some_and(|s| s.approximate),
        },
    }
}

/// Related locations a result lists at most for a cause's other instances.
const MAX_INSTANCES_LISTED: usize = 100;

/// Makes a finding's result stand for its whole cause: the other instances
/// as related locations (up to `MAX_INSTANCES_LISTED`), how many there are
/// in the message, and the cause's id as the fingerprint, which stays the
/// same whichever instance is shown.
fn add_instances(r: &mut SarifResult, c: &Cause, uris: &Uris) {
    let others = c.places.iter().skip(1).take(MAX_INSTANCES_LISTED);
    for place in others {
        let mut at = Location::at(
            uris.physical(&place.path, place.line, place.column),
            Some(Text::of("another instance of this cause")),
        );
        at.id = Some(r.related_locations.len() + 1);
        r.related_locations.push(at);
    }
    if c.instances > 1 {
        let kernels = match c.kernels.len() {
            0 | 1 => String::new(),
            n => format!(" in {n} kernels"),
        };
        r.message.text.push_str(&format!(
            " ({} instances{kernels} across {} file{}.)",
            c.instances,
            c.files,
            if c.files == 1 { "" } else { "s" }
        ));
    }
    r.partial_fingerprints
        .insert(FINGERPRINT_KEY, format!("cause:{}", c.id));
}

/// A file that could not be read and its reader diagnostics, as tool
/// notifications.
fn notify(file: &FileReport, uris: &Uris, out: &mut Vec<Notification>) {
    match file.status {
        Status::Error => out.push(Notification {
            level: "error",
            message: Text::of(file.error.as_deref().unwrap_or("unreadable")),
            locations: vec![Location::at(uris.physical(&file.path, 0, 0), None)],
        }),
        Status::Skipped => out.push(Notification {
            level: "warning",
            message: Text::of(format!(
                "not analysed: {}",
                file.reason.as_deref().unwrap_or("skipped")
            )),
            locations: vec![Location::at(uris.physical(&file.path, 0, 0), None)],
        }),
        Status::Ok => {}
    }
    for d in &file.diagnostics {
        out.push(Notification {
            level: match d.severity {
                crate::ir::Severity::Error => "error",
                crate::ir::Severity::Warning => "warning",
            },
            message: Text::of(d.message.clone()),
            locations: vec![Location::at(uris.physical(&file.path, d.line, 0), None)],
        });
    }
}

/// What `informationUri` says: Cargo.toml's `repository`, else its
/// `homepage`, when set; else the README of the source tree this binary was
/// built from, as a `file:` URI. Neither is set because the project has no
/// public address yet, and an address made up here would be false.
fn information_uri() -> String {
    let declared = [env!("CARGO_PKG_REPOSITORY"), env!("CARGO_PKG_HOMEPAGE")]
        .into_iter()
        .find(|u| !u.is_empty());
    match declared {
        Some(u) => u.to_string(),
        None => format!(
            "file:///{}",
            encode_components(&Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md"))
        ),
    }
}

/// What a result stands for: a cause (its instance best shown), or a
/// finding a suppression silenced, with the reason.
enum Shown<'a> {
    Cause(&'a Cause),
    Suppressed(&'a Finding, &'a str),
}

impl Shown<'_> {
    fn finding(&self) -> &Finding {
        match self {
            Shown::Cause(c) => &c.shown,
            Shown::Suppressed(f, _) => f,
        }
    }
}

/// The results to keep within [`MAX_RESULTS`]: the highest-ranked (severity
/// first, then loop depth: `Finding::rank`), in their order; and the
/// notification saying what was left out.
fn within_limit(found: &mut Vec<Shown<'_>>) -> Option<String> {
    let total = found.len();
    if total <= MAX_RESULTS {
        return None;
    }
    let mut order: Vec<usize> = (0..total).collect();
    // Stable: among equals, the first found are kept.
    order.sort_by_key(|&i| std::cmp::Reverse(found[i].finding().rank));
    let mut keep = vec![false; total];
    for &i in &order[..MAX_RESULTS] {
        keep[i] = true;
    }
    let lowest = found[order[MAX_RESULTS - 1]].finding().severity.name();
    let mut i = 0;
    found.retain(|_| {
        i += 1;
        keep[i - 1]
    });
    Some(format!(
        "SARIF: {} of {total} results left out (GitHub code scanning takes at most {MAX_RESULTS} \
         a run); kept the highest-ranked, down to {lowest} level. `--format json` lists them \
         all; `--fail-on`, `--select` or `--baseline` narrow the scan",
        total - MAX_RESULTS
    ))
}

/// The run's results, each made as it is written: a cause's result lists
/// up to [`MAX_INSTANCES_LISTED`] places, and a run may have 25,000.
struct Results<'a> {
    found: &'a [Shown<'a>],
    index: &'a BTreeMap<String, usize>,
    uris: &'a Uris,
}

impl Serialize for Results<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.found.iter().map(|shown| {
            let f = shown.finding();
            let rule_index = self.index.get(&*f.rule_id).copied().unwrap_or(0);
            let mut r = result(f, rule_index, self.uris);
            match shown {
                Shown::Cause(c) => add_instances(&mut r, c, self.uris),
                Shown::Suppressed(_, reason) => r.suppressions.push(Suppression {
                    kind: "inSource",
                    justification: reason.to_string(),
                }),
            }
            r
        }))
    }
}

/// The SARIF 2.1.0 log of a scan, one file's report at a time. What a
/// report adds is kept in the form the log needs: its findings counted into
/// their causes (`report::causes`: a cause keeps its instance best shown and
/// its instances' places), its suppressed findings under
/// `--show-suppressed`, its notifications and its totals; its kernels,
/// arguments and the rest go with it. The log is written at the end, since
/// the results are ranked and cut over the whole scan and the driver lists
/// the rules they name before them.
pub struct SarifStream<W: Write> {
    out: W,
    uris: Uris,
    show_suppressed: bool,
    /// The rules in force, and each one's index by id.
    descriptors: Vec<Descriptor>,
    index: BTreeMap<String, usize>,
    causes: Causes,
    /// Findings silenced by a suppression, with its reason, when shown.
    suppressed: Vec<(Box<Finding>, String)>,
    notifications: Vec<Notification>,
    totals: Totals,
    /// Told what was left out to keep within GitHub's limits, besides the
    /// log's notification.
    on_cut: Option<Tell>,
}

/// Says a line of its own to the user.
type Tell = Box<dyn FnOnce(&str) + Send>;

impl<W: Write> SarifStream<W> {
    /// `options.base` is the folder result URIs are relative to: the
    /// repository root when uploading to GitHub (default: the current
    /// directory).
    pub fn new(out: W, rules: &RuleSet, options: &Options<'_>) -> Self {
        let mut index = BTreeMap::new();
        for (i, r) in rules.rules.iter().enumerate() {
            index.entry(r.pattern.id.clone()).or_insert(i);
        }
        SarifStream {
            out,
            uris: Uris::new(options.base, options.emit_ir),
            show_suppressed: options.show_suppressed,
            descriptors: rules.rules.iter().map(descriptor).collect(),
            index,
            causes: Causes::default(),
            suppressed: Vec::new(),
            notifications: Vec::new(),
            totals: Totals::default(),
            on_cut: None,
        }
    }

    /// Has `tell` told what the log leaves out to keep within GitHub's
    /// limits (the log says it in a notification too).
    pub fn on_cut(mut self, tell: impl FnOnce(&str) + Send + 'static) -> Self {
        self.on_cut = Some(Box::new(tell));
        self
    }

    /// Keeps what the log needs of `file`.
    pub fn add(&mut self, file: &FileReport) {
        for f in &file.findings {
            self.causes.add(&file.path, f);
        }
        if self.show_suppressed {
            let silenced = file.suppressed.iter();
            self.suppressed
                .extend(silenced.map(|s| (s.finding.clone(), s.reason.clone())));
        }
        notify(file, &self.uris, &mut self.notifications);
        self.totals.add(file);
    }

    /// Writes the log and returns the totals.
    pub fn finish(mut self) -> io::Result<Totals> {
        self.totals.causes = self.causes.len();
        // One result per cause (the instance best shown, the others as
        // related locations), then each suppressed finding with its reason.
        let mut found: Vec<Shown> = self.causes.list().iter().map(Shown::Cause).collect();
        let silenced = self.suppressed.iter();
        found.extend(silenced.map(|(f, reason)| Shown::Suppressed(f, reason)));
        let cut = within_limit(&mut found);
        // Rules met only in findings (e.g. bad-suppression), in name order.
        let mut extra: BTreeMap<&str, &Finding> = BTreeMap::new();
        for f in found.iter().map(Shown::finding) {
            if !self.index.contains_key(&*f.rule_id) {
                extra.entry(&*f.rule).or_insert(f);
            }
        }
        for f in extra.into_values() {
            if !self.index.contains_key(&*f.rule_id) {
                self.index
                    .insert(f.rule_id.to_string(), self.descriptors.len());
                self.descriptors.push(ad_hoc_descriptor(f));
            }
        }
        if let Some(cut) = &cut {
            self.notifications.push(Notification {
                level: "warning",
                message: Text::of(cut.clone()),
                locations: Vec::new(),
            });
            if let Some(tell) = self.on_cut.take() {
                tell(cut);
            }
        }
        let log = Log {
            schema: SARIF_SCHEMA,
            version: "2.1.0",
            runs: vec![Run {
                tool: Tool {
                    driver: Driver {
                        name: env!("CARGO_PKG_NAME"),
                        version: env!("CARGO_PKG_VERSION"),
                        semantic_version: env!("CARGO_PKG_VERSION"),
                        information_uri: information_uri(),
                        rules: std::mem::take(&mut self.descriptors),
                    },
                },
                invocations: vec![Invocation {
                    execution_successful: self.totals.failed == 0 && self.totals.reader_errors == 0,
                    tool_execution_notifications: std::mem::take(&mut self.notifications),
                }],
                original_uri_base_ids: self.uris.root(),
                results: Results {
                    found: &found,
                    index: &self.index,
                    uris: &self.uris,
                },
                column_kind: "unicodeCodePoints",
            }],
        };
        let mut out = io::BufWriter::new(&mut self.out);
        serde_json::to_writer_pretty(&mut out, &log)?;
        out.write_all(b"\n")?;
        out.flush()?;
        Ok(self.totals)
    }
}

impl<W: Write> super::ReportStream for SarifStream<W> {
    fn add(&mut self, file: &FileReport) -> io::Result<()> {
        SarifStream::add(self, file);
        Ok(())
    }

    fn finish(self: Box<Self>) -> io::Result<Totals> {
        SarifStream::finish(*self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// As if run in `/repo/build` with `--sarif-root /repo`; nothing here exists.
    fn uris() -> Uris {
        Uris {
            root: PathRoot::fixed("/repo/build", "/repo"),
            binary: Default::default(),
            emit_ir: None,
        }
    }

    #[test]
    fn uris_are_relative_to_the_base_with_forward_slashes() {
        let u = uris();
        assert_eq!(u.uri("shaders/a.ll"), "build/shaders/a.ll");
        assert_eq!(u.uri("./x/../b.ll"), "build/b.ll");
        assert_eq!(u.uri("../src/k.metal"), "src/k.metal");
        assert_eq!(u.uri("/repo/src/k.metal"), "src/k.metal");
    }

    #[test]
    fn uris_outside_the_base_are_file_uris_and_encoded() {
        let u = uris();
        assert_eq!(
            u.uri("/elsewhere/a b.metal"),
            "file:///elsewhere/a%20b.metal"
        );
        assert_eq!(u.uri("/repo/c:d#e%.ll"), "c%3Ad%23e%25.ll");
    }

    #[test]
    fn hard_wrapped_text_becomes_paragraphs() {
        assert_eq!(unwrap("\na\nb\n\n c \n"), "a b\n\nc");
    }

    #[test]
    fn levels_are_sarif_levels() {
        assert_eq!(level(Severity::Error), "error");
        assert_eq!(level(Severity::Warning), "warning");
        assert_eq!(level(Severity::Note), "note");
    }
}
