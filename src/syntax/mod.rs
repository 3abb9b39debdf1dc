//! Stage 1, syntax: the text of a `.sow` file → its syntax tree ([`ast::File`]), every node with its
//! span. Nothing is checked here beyond the grammar.

pub mod ast;
pub mod names;
pub mod parse;
