/* lib.c -- console, lock, barrier and turn helpers shared by smp and bench. */
#include "soc.h"

void putc_(int c) { wr32(SH_PUTC, (u32)c & 0xff); }

void puts_(const char *s)
{
    while (*s)
        putc_(*s++);
}

void put_udec(u32 v)
{
    char buf[11];
    int n = 0;
    do {
        buf[n++] = (char)('0' + v % 10u);
        v /= 10u;
    } while (v);
    while (n)
        putc_(buf[--n]);
}

/* 64-bit decimal without a 64-bit division (no libgcc): subtract powers of 10 */
void put_u64dec(u64 v)
{
    u64 p = 10000000000000000000ull;
    int started = 0;
    for (int k = 0; k < 20; k++) {
        int d = 0;
        while (v >= p) {
            v -= p;
            d++;
        }
        if (d || started || k == 19) {
            putc_('0' + d);
            started = 1;
        }
        /* p /= 10 without a 64-bit division: p is 10^(19-k) */
        u64 q = 1;
        for (int i = 0; i < 18 - k; i++)
            q = (q << 3) + (q << 1);
        p = q;
    }
}

void put_hex(u32 v)
{
    for (int i = 28; i >= 0; i -= 4)
        putc_("0123456789abcdef"[(v >> i) & 15]);
}

/* Ticket lock: take a ticket from the fetch-and-increment dispenser, wait
 * until the owner counter shows it, release by handing the lock to the next
 * ticket.  Only the holder writes the owner counter, so a plain write will do. */
void lock_acquire(u32 *ticket)
{
    u32 t = fetch_inc(CNT_LOCK_NEXT);
    while (cnt_read(CNT_LOCK_OWNER) != t)
        ;
    *ticket = t;
}

void lock_release(u32 ticket) { cnt_write(CNT_LOCK_OWNER, ticket + 1); }

/* Sense-free barrier: the t-th arrival (from 0) belongs to episode t/N and
 * leaves once all N arrivals of that episode have been counted. */
void barrier(void)
{
    u32 n = nharts();
    u32 t = fetch_inc(CNT_BARRIER);
    u32 target = (t / n + 1) * n;
    while ((s32)(cnt_read(CNT_BARRIER) - target) < 0)
        ;
}

void turn_wait(u32 h)
{
    while (cnt_read(CNT_TURN) != h)
        ;
}

void turn_pass(u32 h) { cnt_write(CNT_TURN, h + 1); }

void *memset(void *d, int c, unsigned long n)
{
    u8 *p = d;
    while (n--)
        *p++ = (u8)c;
    return d;
}

void *memcpy(void *d, const void *s, unsigned long n)
{
    u8 *p = d;
    const u8 *q = s;
    while (n--)
        *p++ = *q++;
    return d;
}
