//! air-scan: a static analyzer for the LLVM IR ("AIR") that Apple's Metal
//! shader compiler emits.
//!
//! Data flows one way: `input` (files on disk) → `ir` (text into a module
//! model) → `analysis` (control flow, def-use, provenance) → `rules`
//! (patterns/ matched against each function, returning typed evidence) →
//! `scan` (per-file results) → `suppress` / `baseline` (ignore comments, an
//! earlier report) → `report` (text, JSON, SARIF). `compile` and `diff` sit
//! beside. See docs/ARCHITECTURE.md.

pub mod analysis;
pub mod baseline;
pub mod compile;
pub mod diff;
pub mod input;
pub mod ir;
pub mod report;
pub mod rules;
pub mod scan;
pub mod source;
pub mod suppress;
