//! Reading LLVM IR text into a module model. Knows nothing of rules.
//!
//! `reader` reads the module level, `body` reads function bodies on demand,
//! `parser` is the recursive-descent core both share, `lexer` tokenizes,
//! `model`, `types` and `metadata` are the data, `limits` caps what one
//! file may cost, `air` interprets Apple's AIR metadata on top of the
//! model, and `dump` cuts Apple's whole-library disassembly dumps into
//! their modules' texts.

pub mod air;
pub mod body;
pub mod dump;
pub mod lexer;
pub mod limits;
pub mod metadata;
pub mod model;
pub mod parser;
pub mod reader;
pub mod small_list;
pub mod types;

pub use model::*;
pub use reader::{read_module, read_module_at};
pub use types::{Type, TypeId, TypeTable};
pub mod bitcode;
