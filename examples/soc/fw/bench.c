/* bench.c -- per-hart compute benchmark for soc_smp.
 *
 * Every hart runs ITERS iterations of a mixed kernel on data seeded by its
 * hart id and the iteration number: LCG fill (MUL), insertion sort (loads,
 * stores, branches), 8x8 matrix multiply (MUL), CRC-32 table-driven and
 * bitwise, a sieve of Eratosthenes (byte stores), Euclid's GCD (REMU) against
 * a binary GCD, and signed DIV/REM.  Each kernel is checked in a second,
 * independent way every iteration (sortedness and sum, Freivalds' check of
 * the product, table vs bitwise CRC, prime count, two GCDs, a = q*b + r).
 * Results fold into a 32-bit checksum.
 *
 * ITERS = FW_ARG, or DEFAULT_ITERS when FW_ARG = 0.  For FW_ARG = 0 and 1
 * the checksum of hart h is also compared with bench_expect.h, a table
 * computed on the host by this same file built with -DHOST (see build.sh).
 *
 * Output, one line per hart in hart order:
 *   bench: hart H iters I sum XXXXXXXX ok
 * RESULT: 0 on success, 1 kernel self-check failed, 2 checksum mismatch.
 */
#ifdef HOST
#include <stdio.h>
typedef unsigned int u32;
typedef int s32;
typedef unsigned char u8;
#else
#include "soc.h"
#endif

#define DEFAULT_ITERS 48u
#define NSORT 64
#define NMAT  8
#define NCRC  256
#define NSIEVE 2048
#define NPRIMES 309     /* primes below 2048 */
#define NGCD  24

static u32 crc_table[256];
static u32 sortbuf[NSORT];
static u32 ma[NMAT][NMAT], mb[NMAT][NMAT], mc[NMAT][NMAT];
static u8 crcbuf[NCRC];
static u8 sieve[NSIEVE];
static u32 fail;

static u32 rotl(u32 x, int k) { return (x << k) | (x >> (32 - k)); }

static u32 lcg(u32 *s)
{
    *s = *s * 1664525u + 1013904223u;
    return *s ^ (*s >> 15);
}

static void crc_init(void)
{
    for (u32 i = 0; i < 256; i++) {
        u32 c = i;
        for (int k = 0; k < 8; k++)
            c = (c >> 1) ^ (0xedb88320u & (0u - (c & 1)));
        crc_table[i] = c;
    }
}

static u32 crc_tab(const u8 *p, u32 n)
{
    u32 c = 0xffffffffu;
    for (u32 i = 0; i < n; i++)
        c = crc_table[(c ^ p[i]) & 0xff] ^ (c >> 8);
    return ~c;
}

static u32 crc_bit(const u8 *p, u32 n)
{
    u32 c = 0xffffffffu;
    for (u32 i = 0; i < n; i++) {
        c ^= p[i];
        for (int k = 0; k < 8; k++)
            c = (c & 1) ? (c >> 1) ^ 0xedb88320u : c >> 1;
    }
    return ~c;
}

static u32 k_sort(u32 *seed)
{
    u32 sum = 0, x = 0;
    for (int i = 0; i < NSORT; i++) {
        sortbuf[i] = lcg(seed) % 100000u;
        sum += sortbuf[i];
        x ^= sortbuf[i];
    }
    for (int i = 1; i < NSORT; i++) {
        u32 v = sortbuf[i];
        int j = i - 1;
        while (j >= 0 && sortbuf[j] > v) {
            sortbuf[j + 1] = sortbuf[j];
            j--;
        }
        sortbuf[j + 1] = v;
    }
    u32 sum2 = sortbuf[0], x2 = sortbuf[0];
    for (int i = 1; i < NSORT; i++) {
        if (sortbuf[i - 1] > sortbuf[i])
            fail |= 1;
        sum2 += sortbuf[i];
        x2 ^= sortbuf[i];
    }
    if (sum2 != sum || x2 != x)
        fail |= 1;
    return sortbuf[0] + 3 * sortbuf[NSORT / 2] + 7 * sortbuf[NSORT - 1];
}

static u32 k_mat(u32 *seed)
{
    for (int i = 0; i < NMAT; i++)
        for (int j = 0; j < NMAT; j++) {
            ma[i][j] = lcg(seed);
            mb[i][j] = lcg(seed) >> 7;
        }
    for (int i = 0; i < NMAT; i++)
        for (int j = 0; j < NMAT; j++) {
            u32 s = 0;
            for (int k = 0; k < NMAT; k++)
                s += ma[i][k] * mb[k][j];
            mc[i][j] = s;
        }
    /* Freivalds: A (B v) == C v, exact modulo 2^32 */
    u32 v[NMAT], bv[NMAT];
    for (int i = 0; i < NMAT; i++)
        v[i] = lcg(seed) | 1;
    for (int i = 0; i < NMAT; i++) {
        u32 s = 0;
        for (int k = 0; k < NMAT; k++)
            s += mb[i][k] * v[k];
        bv[i] = s;
    }
    u32 h = 0;
    for (int i = 0; i < NMAT; i++) {
        u32 l = 0, r = 0;
        for (int k = 0; k < NMAT; k++) {
            l += ma[i][k] * bv[k];
            r += mc[i][k] * v[k];
        }
        if (l != r)
            fail |= 1;
        h = rotl(h, 3) ^ r;
    }
    return h;
}

static u32 k_crc(u32 *seed)
{
    for (int i = 0; i < NCRC; i++)
        crcbuf[i] = (u8)(lcg(seed) >> 24);
    u32 a = crc_tab(crcbuf, NCRC);
    if (a != crc_bit(crcbuf, NCRC))
        fail |= 1;
    return a;
}

static u32 k_sieve(u32 *seed)
{
    for (int i = 0; i < NSIEVE; i++)
        sieve[i] = 1;
    sieve[0] = sieve[1] = 0;
    for (int i = 2; i * i < NSIEVE; i++)
        if (sieve[i])
            for (int j = i * i; j < NSIEVE; j += i)
                sieve[j] = 0;
    u32 cnt = 0, pick = 0, want = lcg(seed) % NPRIMES;
    for (int i = 0; i < NSIEVE; i++)
        if (sieve[i]) {
            if (cnt == want)
                pick = (u32)i;
            cnt++;
        }
    if (cnt != NPRIMES)
        fail |= 1;
    return pick;
}

static u32 gcd_euclid(u32 a, u32 b)
{
    while (b) {
        u32 t = a % b;
        a = b;
        b = t;
    }
    return a;
}

static u32 gcd_binary(u32 a, u32 b)
{
    if (!a) return b;
    if (!b) return a;
    int sh = 0;
    while (!((a | b) & 1)) {
        a >>= 1;
        b >>= 1;
        sh++;
    }
    while (!(a & 1))
        a >>= 1;
    do {
        while (!(b & 1))
            b >>= 1;
        if (a > b) {
            u32 t = a;
            a = b;
            b = t;
        }
        b -= a;
    } while (b);
    return a << sh;
}

static u32 k_div(u32 *seed)
{
    u32 h = 0;
    for (int i = 0; i < NGCD; i++) {
        u32 m = lcg(seed) % 1000u + 1;
        u32 a = (lcg(seed) % 100000u) * m, b = (lcg(seed) % 100000u) * m;
        u32 g = gcd_euclid(a, b);
        if (g != gcd_binary(a, b))
            fail |= 1;
        s32 x = (s32)lcg(seed), y = (s32)((lcg(seed) >> (i & 15)) - 40000u);
        if (y == 0 || y == -1)      /* keep clear of C's undefined cases */
            y = 7;
        s32 q = x / y, r = x % y;
        if ((u32)q * (u32)y + (u32)r != (u32)x || (r != 0 && (r < 0) != (x < 0)))
            fail |= 1;
        h = rotl(h, 7) + g + (u32)q * 31u + (u32)r;
    }
    return h;
}

static u32 bench(u32 hart, u32 iters)
{
    u32 sum = 0x12345678u ^ hart;
    crc_init();
    for (u32 it = 0; it < iters; it++) {
        u32 seed = (hart + 1) * 0x9e3779b9u + it * 0x85ebca6bu;
        sum = rotl(sum, 5) ^ k_sort(&seed);
        sum = rotl(sum, 5) ^ k_mat(&seed);
        sum = rotl(sum, 5) ^ k_crc(&seed);
        sum = rotl(sum, 5) ^ k_sieve(&seed);
        sum = rotl(sum, 5) ^ k_div(&seed);
        sum *= 0x01000193u;
    }
    return sum;
}

#ifdef HOST
int main(void)
{
    printf("/* bench_expect.h -- generated by build.sh: bench.c built for the host\n"
           " * with -DHOST.  Checksum of hart h for FW_ARG = 1 and FW_ARG = 0. */\n");
    fail = 0;
    printf("#define EXPECT_DEFAULT_ITERS %uu\n", DEFAULT_ITERS);
    printf("static const u32 expect_iters1[16] = {\n");
    for (u32 h = 0; h < 16; h++)
        printf("%s0x%08xu,%s", h % 4 ? " " : "    ", bench(h, 1), h % 4 == 3 ? "\n" : "");
    printf("};\nstatic const u32 expect_default[16] = {\n");
    for (u32 h = 0; h < 16; h++)
        printf("%s0x%08xu,%s", h % 4 ? " " : "    ", bench(h, DEFAULT_ITERS), h % 4 == 3 ? "\n" : "");
    printf("};\n");
    if (fail) {
        fprintf(stderr, "bench: a kernel self-check failed on the host\n");
        return 1;
    }
    return 0;
}
#else
#include "bench_expect.h"

int main(void)
{
    u32 h = hartid(), arg = fw_arg();
    u32 iters = arg ? arg : DEFAULT_ITERS;
    u32 sum = bench(h, iters);
    u32 err = fail ? 1 : 0;
    if (!err && h < 16 && EXPECT_DEFAULT_ITERS == DEFAULT_ITERS) {
        if (arg == 1 && sum != expect_iters1[h])
            err = 2;
        if (arg == 0 && sum != expect_default[h])
            err = 2;
    }
    turn_wait(h);
    puts_("bench: hart ");
    put_udec(h);
    puts_(" iters ");
    put_udec(iters);
    puts_(" sum ");
    put_hex(sum);
    puts_(err ? " FAIL\n" : " ok\n");
    turn_pass(h);
    /* nobody writes RESULT (which the hardware prints) while a later hart
     * is still printing its line */
    barrier();
    return (int)err;
}
#endif
