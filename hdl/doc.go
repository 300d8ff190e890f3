// Package hdl owns weft's SystemVerilog front end: the preprocessor, the
// lexer, the recursive-descent parser, the syntax tree (AST) with source
// positions, and the diagnostics every later stage reports source problems
// with (`file:line:col: error: message`, the source line and a caret).
// Warnings carry a code (warncode.go: `... [WIDTHTRUNC]`) that
// Diagnostics.Suppress (-Wno-CODE) and `// weft lint_off CODE` comments,
// which the lexer records per file and line, turn off.
//
// The preprocessor reads input and `include files only when they are
// regular files of at most PreprocessOptions.MaxFileBytes (a device or a
// FIFO would never end), and skips a UTF-8 byte-order mark at the start of
// each; elsewhere outside strings and comments a non-ASCII character is one
// lexer error naming it.
//
// hdl knows nothing about simulation: elaboration (package elab) turns the
// syntax tree into a design.Design.
package hdl
