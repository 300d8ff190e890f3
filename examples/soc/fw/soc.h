/* soc.h -- memory map and MMIO helpers of the soc_smp tile (see README.md). */
#ifndef SOC_H
#define SOC_H

typedef unsigned int       u32;
typedef int                s32;
typedef unsigned long long u64;
typedef unsigned char      u8;

/* tile-local registers (one set per core) */
#define TILE_BASE   0x10000000u
#define TILE_HARTID (TILE_BASE + 0x00)
#define TILE_NHARTS (TILE_BASE + 0x04)
#define TILE_FWARG  (TILE_BASE + 0x08)
#define TILE_CYCLE  (TILE_BASE + 0x0c)
#define TILE_RESULT (TILE_BASE + 0x10)

/* shared block (one for the whole SoC, behind a round-robin arbiter) */
#define SH_BASE     0x20000000u
#define SH_PUTC     (SH_BASE + 0x000)
#define SH_TIME     (SH_BASE + 0x004)
#define SH_FINISH   (SH_BASE + 0x008)
#define SH_RAM      (SH_BASE + 0x100) /* 64 words */
#define SH_RAM_WORDS 64
#define SH_FINC     (SH_BASE + 0x200) /* 8 counters, read = fetch-and-increment */
#define SH_CNT      (SH_BASE + 0x300) /* the same 8 counters, plain read/write */

static inline u32 rd32(u32 a) { return *(volatile u32 *)a; }
static inline void wr32(u32 a, u32 v) { *(volatile u32 *)a = v; }

static inline u32 hartid(void) { return rd32(TILE_HARTID); }
static inline u32 nharts(void) { return rd32(TILE_NHARTS); }
static inline u32 fw_arg(void) { return rd32(TILE_FWARG); }
static inline u32 cycles(void) { return rd32(TILE_CYCLE); }

static inline u32 fetch_inc(u32 k) { return rd32(SH_FINC + 4 * k); }
static inline u32 cnt_read(u32 k) { return rd32(SH_CNT + 4 * k); }
static inline void cnt_write(u32 k, u32 v) { wr32(SH_CNT + 4 * k, v); }

static inline u32 sh_read(u32 i) { return rd32(SH_RAM + 4 * i); }
static inline void sh_write(u32 i, u32 v) { wr32(SH_RAM + 4 * i, v); }

/* counters used by lib.c; programs may use CNT_USER.. for their own needs */
#define CNT_LOCK_NEXT  0  /* ticket dispenser of the console lock */
#define CNT_LOCK_OWNER 1  /* ticket now served */
#define CNT_BARRIER    2  /* barrier arrivals */
#define CNT_TURN       3  /* whose turn it is to print */
#define CNT_USER       4

/* lib.c */
void putc_(int c);
void puts_(const char *s);
void put_udec(u32 v);
void put_u64dec(u64 v);
void put_hex(u32 v);          /* 8 digits, no prefix */
void lock_acquire(u32 *ticket);
void lock_release(u32 ticket);
void barrier(void);
void turn_wait(u32 h);        /* wait until it is hart h's turn */
void turn_pass(u32 h);        /* hand the turn to hart h+1 */
void *memset(void *d, int c, unsigned long n);
void *memcpy(void *d, const void *s, unsigned long n);

#endif
