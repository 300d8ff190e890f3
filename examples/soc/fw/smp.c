/* smp.c -- multi-hart smoke test of soc_smp: locks, barriers, shared RAM.
 *
 *  1. In hart order (turn counter) and under the console ticket lock, every
 *     hart prints "hart H of N: hello".
 *  2. Lock test: every hart adds 1 to a shared-RAM word LOCK_ITERS times with
 *     a plain read-modify-write inside the lock.
 *  3. Barrier.  Hart h computes the sum of squares of h*1000+1 .. h*1000+1000
 *     (64 bits) and the table-driven CRC-32 of its 64-byte slice of a
 *     pseudo-random table, and publishes both in shared RAM.
 *  4. Barrier.  Hart 0 checks every slice's sum against its closed form and
 *     every CRC against a bitwise CRC-32 of the same bytes, checks the
 *     total n(n+1)(2n+1)/6 for n = 1000*N and the lock-test count, prints
 *     "smp: sum=S crc=C" (C = CRC-32 of the N slice CRCs, little endian) and
 *     publishes its verdict.
 *  5. Barrier.  Every hart returns the verdict (0 = pass) or its own error.
 *
 * Shared RAM words: 0..31 sums (lo, hi per hart), 32..47 CRCs, 48 lock test,
 * 49 verdict.
 */
#include "soc.h"

#define SLICE       1000u
#define CRC_BYTES   64u
#define LOCK_ITERS  20u
#define W_SUM(h)    (2u * (h))
#define W_CRC(h)    (32u + (h))
#define W_LOCK      48u
#define W_VERDICT   49u

static u32 crc_table[256];
static u8 data[16 * CRC_BYTES];

static void crc_init(void)
{
    for (u32 i = 0; i < 256; i++) {
        u32 c = i;
        for (int k = 0; k < 8; k++)
            c = (c & 1) ? (c >> 1) ^ 0xedb88320u : c >> 1;
        crc_table[i] = c;
    }
}

static u32 crc_tab(const u8 *p, u32 n)
{
    u32 c = 0xffffffffu;
    while (n--)
        c = crc_table[(c ^ *p++) & 0xff] ^ (c >> 8);
    return ~c;
}

/* bitwise CRC-32 with the polynomial in its normal (MSB-first) form,
 * reflecting each byte and the result: independent of crc_tab */
static u32 reflect(u32 v, int bits)
{
    u32 r = 0;
    for (int i = 0; i < bits; i++)
        if (v & (1u << i))
            r |= 1u << (bits - 1 - i);
    return r;
}

static u32 crc_bit(const u8 *p, u32 n)
{
    u32 c = 0xffffffffu;
    while (n--) {
        c ^= reflect(*p++, 8) << 24;
        for (int k = 0; k < 8; k++)
            c = (c & 0x80000000u) ? (c << 1) ^ 0x04c11db7u : c << 1;
    }
    return ~reflect(c, 32);
}

/* closed form of 1^2 + ... + n^2 without a 64-bit division */
static u64 sumsq(u32 n)
{
    u32 a = n, b = n + 1, c = 2 * n + 1;
    if (a % 2 == 0) a /= 2; else b /= 2;
    if (a % 3 == 0) a /= 3; else if (b % 3 == 0) b /= 3; else c /= 3;
    return (u64)a * b * c;
}

int main(void)
{
    u32 h = hartid(), n = nharts();
    u32 ticket;

    if (h >= n || n > 16)
        return 0x100;

    /* 1. hello, in hart order, under the lock; hart 0 goes first and clears
     * the shared words before anybody else can touch them */
    turn_wait(h);
    if (h == 0) {
        sh_write(W_LOCK, 0);
        sh_write(W_VERDICT, 0xdead);
    }
    lock_acquire(&ticket);
    puts_("hart ");
    put_udec(h);
    puts_(" of ");
    put_udec(n);
    puts_(": hello\n");
    lock_release(ticket);
    turn_pass(h);

    /* 2. lock test: unprotected read-modify-write under the lock */
    for (u32 i = 0; i < LOCK_ITERS; i++) {
        lock_acquire(&ticket);
        u32 v = sh_read(W_LOCK);
        sh_write(W_LOCK, v + 1);
        lock_release(ticket);
    }

    barrier();

    /* 3. partial results */
    u64 s = 0;
    for (u32 i = h * SLICE + 1; i <= (h + 1) * SLICE; i++)
        s += (u64)(i * i);
    crc_init();
    u32 x = 12345;
    for (u32 i = 0; i < n * CRC_BYTES; i++) {
        x = x * 1103515245u + 12345u;
        data[i] = (u8)(x >> 16);
    }
    u32 crc = crc_tab(data + h * CRC_BYTES, CRC_BYTES);
    sh_write(W_SUM(h), (u32)s);
    sh_write(W_SUM(h) + 1, (u32)(s >> 32));
    sh_write(W_CRC(h), crc);

    barrier();

    /* 4. hart 0 combines and checks */
    if (h == 0) {
        u32 err = 0;
        u64 total = 0;
        u8 crcs[16 * 4];
        for (u32 k = 0; k < n; k++) {
            u64 part = sh_read(W_SUM(k)) | ((u64)sh_read(W_SUM(k) + 1) << 32);
            if (part != sumsq((k + 1) * SLICE) - sumsq(k * SLICE))
                err = err ? err : 0x10 + k;
            total += part;
            u32 c = sh_read(W_CRC(k));
            if (c != crc_bit(data + k * CRC_BYTES, CRC_BYTES))
                err = err ? err : 0x20 + k;
            for (int b = 0; b < 4; b++)
                crcs[4 * k + b] = (u8)(c >> (8 * b));
        }
        if (total != sumsq(n * SLICE))
            err = err ? err : 0x30;
        if (sh_read(W_LOCK) != n * LOCK_ITERS)
            err = err ? err : 0x31;
        u32 all = crc_bit(crcs, 4 * n);
        if (all != crc_tab(crcs, 4 * n))
            err = err ? err : 0x32;
        puts_("smp: sum=");
        put_u64dec(total);
        puts_(" crc=");
        put_hex(all);
        puts_(err ? " FAIL\n" : " ok\n");
        sh_write(W_VERDICT, err ? err : 0);
    }

    barrier();

    /* 5. everybody reports the verdict */
    return (int)sh_read(W_VERDICT);
}
