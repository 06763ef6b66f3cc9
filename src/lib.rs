//! air-scan: a static analyzer for the LLVM IR ("AIR") that Apple's Metal
//! shader compiler emits.
//!
//! Data flows one way: `input` (files on disk) → `ir` (text into a module
//! model) → `scan` (per-file results) → `report` (text, JSON). See
//! docs/ARCHITECTURE.md.

pub mod input;
pub mod ir;
pub mod report;
pub mod scan;
