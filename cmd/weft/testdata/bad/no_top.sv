// want: 4:1: several modules could be the top (a, b); choose one with --top
module a;
endmodule
module b;
endmodule
