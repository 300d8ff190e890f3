// want: -: no module to elaborate: the file has no module declaration
// A file with comments and a package, but no module to be the top.
package defs;
  localparam int W = 8;
endpackage
