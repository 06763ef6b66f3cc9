//! The patterns/ language: one TOML file declares one rule, its text and
//! what it matches. A rule that needs no new Rust code is just such a file.
//!
//! ```toml
//! id = "AIR001"
//! name = "divide-by-uniform"
//! severity = "warning"            # error | warning | note
//! category = "performance"        # performance | correctness | portability
//! summary = "..."
//! rationale = "..."               # with the figure and its source
//! fix = "..."
//! cycles = 730                    # optional: estimated cost per execution
//! source_tokens = ["/", "%"]      # optional: an MSL line of the operation holds one
//!
//! [match]                         # every condition given must hold
//! opcodes = ["udiv", "sdiv"]      # instruction opcodes
//! calls = ["air.wg.barrier", "air.atomic.global.add.*"]
//!                                 # direct calls to these functions; one `*`
//!                                 # stands for any text ("air.sin.*f32")
//! int_bits = [16, 32, 64]         # integer width of the result (scalar or vector)
//! types = ["double"]              # the result or an operand (not a callee) has
//!                                 # this scalar type: half, bfloat, float, double,
//!                                 # or iN; vectors count by their element
//! allocates = ["array", "struct"] # an `alloca` of this kind of type
//! indirect_call = true            # a call whose callee is not a function named
//!                                 # directly (a function pointer, a visible
//!                                 # function table entry)
//! through_helpers = true          # a call to a function of the module that
//!                                 # calls one of `calls` (directly or through
//!                                 # others) matches too, at that call; the
//!                                 # operand conditions are not tested on it
//!                                 # (they are about the named call's operands)
//! fast_math = false               # the module's `!air.compile_options` do (true)
//!                                 # or do not (false) enable fast math
//! in_conditional = true           # the block runs only under a conditional branch
//! in_divergent_block = true       # the block runs only under a branch whose
//!                                 # condition is thread-varying (provenance
//!                                 # varying or mixed), directly or through other
//!                                 # blocks, loop exits included
//!                                 # (`analysis::divergence`)
//! divergent_strict = true         # with in_divergent_block: threads the branch
//!                                 # sends away count while they keep running,
//!                                 # not only when they meet another target
//! in_loop = true                  # the block is inside a loop
//!
//! [[match.operand]]               # conditions on operands (a call's arguments
//! index = 1                       # come first, the callee last)
//! provenance = ["uniform"]        # literal | function_constant | uniform | varying | mixed | unknown
//! constant = [536870907]          # exact integer values
//! family = "fused-shift"          # a named family of constants (see `families`)
//! not_constant = true             # not a literal constant
//! addrspace = [1]                 # a pointer into one of these address spaces
//! bitcast_from = ["float"]        # the result of a `bitcast` from this scalar type
//!
//! [[match.chain]]                 # a def-use path from the previous step's result
//! through = ["add", "sub", "or"]  # any number of hops through these opcodes
//! to = ["shl"]                    # ending at one of these
//! operand = 0                     # arriving as this operand (optional)
//! role = "index"                  # or as a GEP index / "address" of a load or store
//! int_bits = [32]
//! dynamic_index = true            # ending at a GEP with a non-constant index
//! ```
//!
//! A `to` instruction that fails the step's conditions (position, width,
//! `dynamic_index`) is walked through when its opcode is also in `through`.

use serde::Deserialize;

#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Deserialize, serde::Serialize, Hash,
)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Note,
    Warning,
    Error,
}

impl Severity {
    pub fn name(self) -> &'static str {
        match self {
            Severity::Note => "note",
            Severity::Warning => "warning",
            Severity::Error => "error",
        }
    }
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Pattern {
    pub id: String,
    pub name: String,
    pub severity: Severity,
    pub category: String,
    pub summary: String,
    pub rationale: String,
    pub fix: String,
    #[serde(default)]
    pub cycles: Option<u32>,
    /// What an MSL line holding the operation contains (any one of them):
    /// a mapped line holding none is reported `stale`.
    #[serde(default)]
    pub source_tokens: Vec<String>,
    #[serde(rename = "match")]
    pub matcher: Match,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Match {
    #[serde(default)]
    pub opcodes: Vec<String>,
    /// `opcodes` parsed once by `Pattern::parse`, so matching compares enums, not strings.
    #[serde(skip)]
    pub opcode_set: Vec<crate::ir::Opcode>,
    /// Direct calls to these functions (e.g. `air.wg.barrier`) match too.
    #[serde(default)]
    pub calls: Vec<String>,
    /// Where each of `calls` has its `*`, found once by `Pattern::parse`.
    #[serde(skip)]
    pub call_stars: Vec<Option<usize>>,
    #[serde(default)]
    pub int_bits: Vec<u32>,
    /// Scalar types the result or an operand must have.
    #[serde(default)]
    pub types: Vec<String>,
    /// `types` parsed once by `Pattern::parse`.
    #[serde(skip)]
    pub type_set: Option<ScalarSet>,
    /// Kinds of allocated type (`array`, `struct`) an `alloca` must have.
    #[serde(default)]
    pub allocates: Vec<String>,
    #[serde(default)]
    pub indirect_call: Option<bool>,
    /// A call to a function of the module that calls one of `calls`,
    /// directly or through others, matches too (at the call).
    #[serde(default)]
    pub through_helpers: Option<bool>,
    #[serde(default)]
    pub fast_math: Option<bool>,
    #[serde(default)]
    pub in_conditional: Option<bool>,
    #[serde(default)]
    pub in_divergent_block: Option<bool>,
    /// With `in_divergent_block`: the threads a branch sends away count
    /// while they go on running the kernel, not only when they can meet
    /// another target; threads that return at once never count. Set for
    /// barrier-in-divergent-flow by `strict = true` in `air-scan.toml`.
    #[serde(default)]
    pub divergent_strict: bool,
    #[serde(default)]
    pub in_loop: Option<bool>,
    #[serde(default)]
    pub operand: Vec<OperandMatch>,
    #[serde(default)]
    pub chain: Vec<ChainStep>,
    /// A named analysis in Rust that must also accept the match.
    #[serde(default)]
    pub analysis: Option<String>,
    /// One per `Pattern::parse` in the process, shared by that parse's
    /// clones (0: not parsed): the key of the pattern's callee table
    /// (`CallGraph::table`), which the pattern's address, reusable by
    /// another pattern, could not be.
    #[serde(skip)]
    pub table_id: u64,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OperandMatch {
    pub index: usize,
    #[serde(default)]
    pub provenance: Vec<String>,
    /// `provenance` parsed once by `Pattern::parse`.
    #[serde(skip)]
    pub provenance_set: Vec<crate::analysis::provenance::Class>,
    #[serde(default)]
    pub constant: Vec<i64>,
    #[serde(default)]
    pub family: Option<String>,
    /// Requires the operand not to be a literal constant.
    #[serde(default)]
    pub not_constant: bool,
    /// Address spaces the operand, a pointer, must point into.
    #[serde(default)]
    pub addrspace: Vec<u32>,
    /// Scalar types the operand must be bitcast from.
    #[serde(default)]
    pub bitcast_from: Vec<String>,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ChainStep {
    #[serde(default)]
    pub through: Vec<String>,
    pub to: Vec<String>,
    /// `through` and `to` parsed once by `Pattern::parse`: a step compares
    /// the opcode of every user it visits.
    #[serde(skip)]
    pub through_set: Vec<crate::ir::Opcode>,
    #[serde(skip)]
    pub to_set: Vec<crate::ir::Opcode>,
    #[serde(default)]
    pub operand: Option<usize>,
    /// `index` (a GEP index) or `address` (the address of a load or store).
    #[serde(default)]
    pub role: Option<String>,
    #[serde(default)]
    pub int_bits: Vec<u32>,
    /// The step ends at a GEP with an index that is not a constant.
    #[serde(default)]
    pub dynamic_index: bool,
}

/// A set of scalar type names (`types`), parsed: matching a type then asks
/// no string comparison.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ScalarSet {
    pub half: bool,
    pub bfloat: bool,
    pub float: bool,
    pub double: bool,
    /// Widths of the `iN` names written canonically (digits without a sign or
    /// leading zeros); another spelling names no type.
    pub ints: Vec<u32>,
}

impl ScalarSet {
    pub fn of(names: &[String]) -> ScalarSet {
        let mut set = ScalarSet::default();
        for n in names {
            match n.as_str() {
                "half" => set.half = true,
                "bfloat" => set.bfloat = true,
                "float" => set.float = true,
                "double" => set.double = true,
                _ => {
                    if let Some(d) = n.strip_prefix('i') {
                        let canonical =
                            !d.starts_with('+') && (d.len() == 1 || !d.starts_with('0'));
                        if let (true, Ok(b)) = (canonical, d.parse::<u32>()) {
                            set.ints.push(b);
                        }
                    }
                }
            }
        }
        set
    }
}

/// Named families of constants a pattern can ask for.
pub const FAMILIES: &[&str] = &["fused-shift"];

/// Scalar type names `types` and `bitcast_from` know, besides `iN`.
pub const FLOAT_TYPES: &[&str] = &["half", "bfloat", "float", "double"];

/// Kinds of allocated type `allocates` knows.
pub const ALLOCATED_KINDS: &[&str] = &["array", "struct", "vector", "scalar"];

fn check_type_name(t: &str) -> Result<(), String> {
    let int = t
        .strip_prefix('i')
        .and_then(|b| b.parse::<u32>().ok())
        .is_some_and(|b| b > 0);
    if int || FLOAT_TYPES.contains(&t) {
        Ok(())
    } else {
        Err(format!(
            "unknown type '{t}' (known: {}, iN)",
            FLOAT_TYPES.join(", ")
        ))
    }
}

/// Checks a `calls` entry: a name with at most one `*`.
fn check_call_name(c: &str) -> Result<(), String> {
    if c.is_empty() || c.matches('*').count() > 1 {
        Err(format!("bad call name '{c}': a name with at most one `*`"))
    } else {
        Ok(())
    }
}

impl Pattern {
    /// Parses and checks one patterns/ file; errors name the problem.
    pub fn parse(text: &str) -> Result<Pattern, String> {
        let mut p: Pattern = toml::from_str(text).map_err(|e| e.to_string())?;
        p.matcher.opcode_set = p
            .matcher
            .opcodes
            .iter()
            .filter_map(|o| crate::ir::Opcode::from_word(o))
            .collect();
        for op in p.matcher.opcodes.iter().chain(
            p.matcher
                .chain
                .iter()
                .flat_map(|c| c.through.iter().chain(&c.to)),
        ) {
            if crate::ir::Opcode::from_word(op).is_none() {
                return Err(format!("unknown opcode '{op}'"));
            }
        }
        let opcodes = |words: &[String]| {
            words
                .iter()
                .filter_map(|o| crate::ir::Opcode::from_word(o))
                .collect()
        };
        p.matcher.call_stars = p.matcher.calls.iter().map(|c| c.find('*')).collect();
        static NEXT_ID: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);
        p.matcher.table_id = NEXT_ID.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        p.matcher.type_set = Some(ScalarSet::of(&p.matcher.types));
        for c in &mut p.matcher.chain {
            c.through_set = opcodes(&c.through);
            c.to_set = opcodes(&c.to);
        }
        for o in &mut p.matcher.operand {
            o.provenance_set = o
                .provenance
                .iter()
                .filter_map(|c| crate::analysis::provenance::Class::from_name(c))
                .collect();
        }
        for o in &p.matcher.operand {
            for c in &o.provenance {
                if crate::analysis::provenance::Class::from_name(c).is_none() {
                    return Err(format!("unknown provenance class '{c}'"));
                }
            }
            if let Some(f) = &o.family
                && !FAMILIES.contains(&f.as_str())
            {
                return Err(format!(
                    "unknown constant family '{f}' (known: {})",
                    FAMILIES.join(", ")
                ));
            }
        }
        for o in &p.matcher.operand {
            for t in &o.bitcast_from {
                check_type_name(t)?;
            }
        }
        for t in &p.matcher.types {
            check_type_name(t)?;
        }
        for k in &p.matcher.allocates {
            if !ALLOCATED_KINDS.contains(&k.as_str()) {
                return Err(format!(
                    "unknown allocated kind '{k}' (known: {})",
                    ALLOCATED_KINDS.join(", ")
                ));
            }
        }
        for c in &p.matcher.calls {
            check_call_name(c)?;
        }
        for c in &p.matcher.chain {
            if let Some(r) = &c.role
                && r != "index"
                && r != "address"
            {
                return Err(format!("unknown chain role '{r}' (known: index, address)"));
            }
        }
        if p.matcher.analysis.is_some() {
            return Err("no named analyses exist yet: remove `analysis`".into());
        }
        if p.matcher.through_helpers == Some(true) && p.matcher.calls.is_empty() {
            return Err("`through_helpers` needs `calls`".into());
        }
        if p.matcher.opcodes.is_empty() && p.matcher.calls.is_empty() {
            return Err("[match] needs `opcodes` or `calls`".into());
        }
        Ok(p)
    }
}
