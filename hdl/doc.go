// Package hdl owns weft's SystemVerilog front end: the preprocessor, the
// lexer, the recursive-descent parser, the syntax tree (AST) with source
// positions, and the diagnostics every later stage reports source problems
// with (`file:line:col: error: message`, the source line and a caret).
// Warnings carry a code (warncode.go: `... [WIDTHTRUNC]`) that
// Diagnostics.Suppress (-Wno-CODE) and `// weft lint_off CODE` comments,
// which the lexer records per file and line, turn off.
//
// hdl knows nothing about simulation: elaboration (package elab) turns the
// syntax tree into a design.Design.
package hdl
