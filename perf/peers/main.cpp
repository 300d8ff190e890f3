// perf/peers/main.cpp: Verilator driver for the weft peer comparison.
// Built by verilator.sh with --prefix Vtop and these macros:
//   CLK, RST        clock and active-low reset port names
//   PRINTS_H        a header with PRINT(sig) lines for the final values
// Usage: Vtop CYCLES NAME
// Holds reset for 4 cycles, releases it, then toggles the clock CYCLES
// times (eval on each edge), timing only the clocked loop.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>

#include "Vtop.h"
#include "verilated.h"

int main(int argc, char** argv) {
    if (argc < 3) {
        std::fprintf(stderr, "usage: %s CYCLES NAME\n", argv[0]);
        return 2;
    }
    const unsigned long long cycles = std::strtoull(argv[1], nullptr, 10);
    const char* name = argv[2];

    auto ctx = std::make_unique<VerilatedContext>();
    auto top = std::make_unique<Vtop>(ctx.get());

    top->CLK = 0;
    top->RST = 0;
    top->eval();
    for (int i = 0; i < 4; i++) {
        top->CLK = 1;
        top->eval();
        top->CLK = 0;
        top->eval();
    }
    top->RST = 1;
    top->eval();

    const auto t0 = std::chrono::steady_clock::now();
    unsigned long long ran = 0; // fewer than cycles when the design calls $finish
    for (; ran < cycles && !ctx->gotFinish(); ran++) {
        top->CLK = 1;
        top->eval();
        top->CLK = 0;
        top->eval();
    }
    const auto t1 = std::chrono::steady_clock::now();
    const double s = std::chrono::duration<double>(t1 - t0).count();

#define PRINT(sig) std::printf(#sig "=0x%llx\n", (unsigned long long)top->sig)
#include PRINTS_H
#undef PRINT
    std::printf("verilator design=%s cycles=%llu run_s=%.3f cycles_per_s=%.0f\n",
                name, ran, s, ran / s);
    top->final();
    return 0;
}
