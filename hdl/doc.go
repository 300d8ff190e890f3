// Package hdl owns weft's SystemVerilog front end: the preprocessor, the
// lexer, the recursive-descent parser, the syntax tree (AST) with source
// positions, and the diagnostics every later stage reports source problems
// with (`file:line:col: error: message`, the source line and a caret).
//
// hdl knows nothing about simulation: elaboration (package elab) turns the
// syntax tree into a design.Design.
package hdl
