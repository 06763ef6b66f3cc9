//! Options a project sets for the rules, from the `[rules.<name>]` tables of
//! its `air-scan.toml` (read by `compile::xcrun::ProjectConfig::rules_for`; the
//! rules never open files). Unknown rules or keys are errors, so a typo is not a
//! silently ignored setting.

use serde::Deserialize;

#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RuleOptions {
    #[serde(default, rename = "barrier-in-divergent-flow")]
    pub barrier_in_divergent_flow: BarrierOptions,
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BarrierOptions {
    /// Report barriers whose skipping threads reach no other barrier but
    /// keep running the kernel (the MSL specification's letter); off by
    /// default, since Apple GPUs run them (docs/RULES.md, "Barriers").
    #[serde(default)]
    pub strict: bool,
}

impl RuleOptions {
    /// The options of a `[rules]` table; `origin` names it in errors.
    pub fn from_table(table: toml::Value, origin: &str) -> Result<RuleOptions, String> {
        RuleOptions::deserialize(table).map_err(|e| format!("{origin}: [rules]: {e}"))
    }
}
