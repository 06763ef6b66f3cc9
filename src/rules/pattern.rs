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
//!
//! [match]
//! opcodes = ["udiv", "sdiv"]      # instruction opcodes (or air.* callee names with `calls`)
//! int_bits = [16, 32, 64]         # integer width of the result (scalar or vector)
//! in_conditional = true           # the block runs only under a conditional branch
//! in_loop = true                  # the block is inside a loop
//!
//! [[match.operand]]               # conditions on operands
//! index = 1
//! provenance = ["uniform"]        # literal | function_constant | uniform | varying | mixed | unknown
//! constant = [536870907]          # exact integer values
//! family = "fused-shift"          # a named family of constants (see `families`)
//!
//! [[match.chain]]                 # a def-use path from the previous step's result
//! through = ["add", "sub", "or"]  # any number of hops through these opcodes
//! to = ["shl"]                    # ending at one of these
//! operand = 0                     # arriving as this operand (optional)
//! role = "index"                  # or as a GEP index / "address" of a load or store
//! int_bits = [32]
//! ```

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
    #[serde(rename = "match")]
    pub matcher: Match,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Match {
    #[serde(default)]
    pub opcodes: Vec<String>,
    /// Direct calls to these functions (e.g. `air.wg.barrier`) match too.
    #[serde(default)]
    pub calls: Vec<String>,
    #[serde(default)]
    pub int_bits: Vec<u32>,
    #[serde(default)]
    pub in_conditional: Option<bool>,
    #[serde(default)]
    pub in_loop: Option<bool>,
    #[serde(default)]
    pub operand: Vec<OperandMatch>,
    #[serde(default)]
    pub chain: Vec<ChainStep>,
    /// A named analysis in Rust that must also accept the match.
    #[serde(default)]
    pub analysis: Option<String>,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OperandMatch {
    pub index: usize,
    #[serde(default)]
    pub provenance: Vec<String>,
    #[serde(default)]
    pub constant: Vec<i64>,
    #[serde(default)]
    pub family: Option<String>,
    /// Requires the operand not to be a literal constant.
    #[serde(default)]
    pub not_constant: bool,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ChainStep {
    #[serde(default)]
    pub through: Vec<String>,
    pub to: Vec<String>,
    #[serde(default)]
    pub operand: Option<usize>,
    /// `index` (a GEP index) or `address` (the address of a load or store).
    #[serde(default)]
    pub role: Option<String>,
    #[serde(default)]
    pub int_bits: Vec<u32>,
}

/// Named families of constants a pattern can ask for.
pub const FAMILIES: &[&str] = &["fused-shift"];

impl Pattern {
    /// Parses and checks one patterns/ file; errors name the problem.
    pub fn parse(text: &str) -> Result<Pattern, String> {
        let p: Pattern = toml::from_str(text).map_err(|e| e.to_string())?;
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
        if p.matcher.opcodes.is_empty() && p.matcher.calls.is_empty() {
            return Err("[match] needs `opcodes` or `calls`".into());
        }
        Ok(p)
    }
}
