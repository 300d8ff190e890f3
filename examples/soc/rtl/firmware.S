# firmware.S -- boot program of the weft example SoC (soc_top), RV32I only.
#
# Builds a checksum in s2 from everything it exercises and writes it to the
# simulation-control FINISH register, which prints it and ends the run.
# Comments of the form "AAA: EEEEEEEE" give each instruction's byte address
# and encoding, i.e. the matching line of firmware.hex (line = AAA/4 + 1).
#
# Registers: s0 = 0x1000_0000 (peripheral base), s1 = 0x800 (data area),
#            s2 = running checksum, sp = 0x1000 (top of the 4 KiB RAM).
#
# Expected simulator output (see ../README.md):
#   weft soc: rv32i up
#   [soc] finish: result=0x00021363 cycles=2519 instret=738

        .equ TIMER,   0x000             # offsets from s0
        .equ GPIO,    0x100
        .equ UART,    0x200
        .equ SIM,     0x300

        .text
        .globl _start
_start:
        lui     sp, 0x1                     # 000: 00001137  sp = 0x0000_1000
        lui     s0, 0x10000                 # 004: 10000437  s0 = 0x1000_0000
        addi    s2, zero, 0                 # 008: 00000913  checksum = 0

# ---- 1. banner through SIM_PUTC (auipc + pc-relative addi, jal/jalr call)
.Lbanner:
        auipc   a0, %pcrel_hi(banner)       # 00c: 00000517
        addi    a0, a0, %pcrel_lo(.Lbanner) # 010: 34050513
        jal     ra, puts                    # 014: 2b4000ef

# ---- 2. fib(0..23) into RAM at 0x800
        lui     s1, 0x1                     # 018: 000014b7
        addi    s1, s1, -2048               # 01c: 80048493  s1 = 0x800
        addi    t0, zero, 0                 # 020: 00000293  fib(n)
        addi    t1, zero, 1                 # 024: 00100313  fib(n+1)
        addi    t2, zero, 24                # 028: 01800393  words left
        addi    t3, s1, 0                   # 02c: 00048e13  store pointer
fib_loop:
        sw      t0, 0(t3)                   # 030: 005e2023
        add     t4, t0, t1                  # 034: 00628eb3
        addi    t0, t1, 0                   # 038: 00030293
        addi    t1, t4, 0                   # 03c: 000e8313
        addi    t3, t3, 4                   # 040: 004e0e13
        addi    t2, t2, -1                  # 044: fff38393
        bne     t2, zero, fib_loop          # 048: fe0394e3
        lw      s3, 92(s1)                  # 04c: 05c4a983  s3 = fib(23) = 28657, checked at the end

# ---- 3. rotate-xor checksum of the table (nested calls, stack)
        addi    a0, s1, 0                   # 050: 00048513
        addi    a1, zero, 24                # 054: 01800593
        jal     ra, csum                    # 058: 298000ef
        add     s2, s2, a0                  # 05c: 00a90933

# ---- 4. byte and halfword stores/loads, sign and zero extension
        addi    t0, zero, -128              # 060: f8000293  0xffff_ff80
        sb      t0, 256(s1)                 # 064: 10548023  [0x900] = 0x80
        addi    t1, zero, 127               # 068: 07f00313
        sb      t1, 257(s1)                 # 06c: 106480a3  [0x901] = 0x7f
        lui     t2, 0x8                     # 070: 000083b7
        addi    t2, t2, 1                   # 074: 00138393  0x8001
        sh      t2, 258(s1)                 # 078: 10749123  [0x902] = 0x8001
        lw      t3, 256(s1)                 # 07c: 1004ae03  0x8001_7f80
        add     s2, s2, t3                  # 080: 01c90933
        lb      t4, 256(s1)                 # 084: 10048e83  -128
        add     s2, s2, t4                  # 088: 01d90933
        lbu     t4, 256(s1)                 # 08c: 1004ce83  128
        add     s2, s2, t4                  # 090: 01d90933
        lb      t4, 257(s1)                 # 094: 10148e83  127
        xor     s2, s2, t4                  # 098: 01d94933
        lh      t4, 258(s1)                 # 09c: 10249e83  0xffff_8001
        add     s2, s2, t4                  # 0a0: 01d90933
        lhu     t4, 258(s1)                 # 0a4: 1024de83  0x0000_8001
        sub     s2, s2, t4                  # 0a8: 41d90933
        lbu     t4, 259(s1)                 # 0ac: 1034ce83  0x80
        add     s2, s2, t4                  # 0b0: 01d90933
        lh      t4, 256(s1)                 # 0b4: 10049e83  0x0000_7f80
        add     s2, s2, t4                  # 0b8: 01d90933
        sw      zero, 260(s1)               # 0bc: 1004a223
        sh      t0, 262(s1)                 # 0c0: 10549323  [0x906] = 0xff80
        sb      t1, 261(s1)                 # 0c4: 106482a3  [0x905] = 0x7f
        lw      t4, 260(s1)                 # 0c8: 1044ae83  0xff80_7f00
        xor     s2, s2, t4                  # 0cc: 01d94933
        lb      t4, 263(s1)                 # 0d0: 10748e83  -1
        add     s2, s2, t4                  # 0d4: 01d90933

# ---- 5. ALU and shifts
        lui     a2, 0x80000                 # 0d8: 80000637  0x8000_0000
        srai    a3, a2, 4                   # 0dc: 40465693  0xf800_0000
        srli    a4, a2, 4                   # 0e0: 00465713  0x0800_0000
        add     s2, s2, a3                  # 0e4: 00d90933
        add     s2, s2, a4                  # 0e8: 00e90933
        addi    a5, zero, 7                 # 0ec: 00700793
        sra     a6, a2, a5                  # 0f0: 40f65833  0xff00_0000
        srl     a7, a2, a5                  # 0f4: 00f658b3  0x0100_0000
        sll     t0, a5, a5                  # 0f8: 00f792b3  896
        slli    t1, a5, 28                  # 0fc: 01c79313  0x7000_0000
        xor     s2, s2, a6                  # 100: 01094933
        add     s2, s2, a7                  # 104: 01190933
        add     s2, s2, t0                  # 108: 00590933
        xor     s2, s2, t1                  # 10c: 00694933
        addi    t0, zero, 35                # 110: 02300293
        sll     t0, a5, t0                  # 114: 005792b3  shamt uses rs2[4:0]: 7 << 3 = 56
        add     s2, s2, t0                  # 118: 00590933
        slt     t2, a2, zero                # 11c: 000623b3  1
        sltu    t3, a2, zero                # 120: 00063e33  0
        slti    t4, a3, -1                  # 124: fff6ae93  1
        sltiu   t5, a5, -1                  # 128: fff7bf13  1 (7 < 0xffff_ffff)
        slti    t6, a5, 7                   # 12c: 0077af93  0
        sltiu   a0, zero, 1                 # 130: 00103513  1
        slli    t3, t3, 1                   # 134: 001e1e13
        slli    t4, t4, 2                   # 138: 002e9e93
        slli    t5, t5, 3                   # 13c: 003f1f13
        slli    t6, t6, 4                   # 140: 004f9f93
        slli    a0, a0, 5                   # 144: 00551513
        or      t2, t2, t3                  # 148: 01c3e3b3
        or      t2, t2, t4                  # 14c: 01d3e3b3
        or      t2, t2, t5                  # 150: 01e3e3b3
        or      t2, t2, t6                  # 154: 01f3e3b3
        or      t2, t2, a0                  # 158: 00a3e3b3  0b101101 = 45
        add     s2, s2, t2                  # 15c: 00790933
        andi    t0, s2, 2047                # 160: 7ff97293
        ori     t1, t0, -2048               # 164: 8002e313
        xori    t1, t1, 1365                # 168: 55534313
        and     t3, s2, t1                  # 16c: 00697e33
        or      t4, s2, t1                  # 170: 00696eb3
        sub     t5, t4, t3                  # 174: 41ce8f33
        add     s2, s2, t5                  # 178: 01e90933
        xori    s2, s2, -1                  # 17c: fff94913  not
        fence                               # 180: 0ff0000f

# ---- 6. every branch type, taken and not taken, signed vs unsigned
        addi    t0, zero, -1                # 184: fff00293
        addi    t1, zero, 1                 # 188: 00100313
        addi    t2, zero, 0                 # 18c: 00000393  bit k set = branch k fell through
        blt     t0, t1, .Lb1                # 190: 0062c463  taken
        ori     t2, t2, 1                   # 194: 0013e393
.Lb1:   bltu    t0, t1, .Lb2                # 198: 0062e463  not taken
        ori     t2, t2, 2                   # 19c: 0023e393
.Lb2:   bge     t0, t1, .Lb3                # 1a0: 0062d463  not taken
        ori     t2, t2, 4                   # 1a4: 0043e393
.Lb3:   bgeu    t0, t1, .Lb4                # 1a8: 0062f463  taken
        ori     t2, t2, 8                   # 1ac: 0083e393
.Lb4:   beq     t0, t1, .Lb5                # 1b0: 00628463  not taken
        ori     t2, t2, 16                  # 1b4: 0103e393
.Lb5:   bne     t0, t1, .Lb6                # 1b8: 00629463  taken
        ori     t2, t2, 32                  # 1bc: 0203e393
.Lb6:   addi    t1, zero, -1                # 1c0: fff00313
        beq     t0, t1, .Lb7                # 1c4: 00628463  taken
        ori     t2, t2, 64                  # 1c8: 0403e393
.Lb7:   bge     t0, t1, .Lb8                # 1cc: 0062d463  taken (equal)
        ori     t2, t2, 128                 # 1d0: 0803e393
.Lb8:   bgeu    t0, t1, .Lb9                # 1d4: 0062f463  taken (equal)
        ori     t2, t2, 256                 # 1d8: 1003e393
.Lb9:   blt     t0, t1, .Lb10               # 1dc: 0062c463  not taken (equal)
        ori     t2, t2, 512                 # 1e0: 2003e393
.Lb10:  slli    t2, t2, 8                   # 1e4: 00839393  expect 0x216 << 8 = 0x0002_1600
        add     s2, s2, t2                  # 1e8: 00790933

# ---- 7. jalr with an offset and an odd target (bit 0 is dropped)
.Ljr:   auipc   t0, 0                       # 1ec: 00000297
        jalr    ra, 13(t0)                  # 1f0: 00d280e7  to .Ljr+12, ra = .Ljr+8
        addi    s2, s2, 1000                # 1f4: 3e890913  skipped
        sub     t1, ra, t0                  # 1f8: 40508333  8
        add     s2, s2, t1                  # 1fc: 00690933

# ---- 8. GPIO: walking one on the outputs, then set/clear/toggle
        addi    t0, zero, 1                 # 200: 00100293
        addi    t1, zero, 8                 # 204: 00800313
.Lwalk: sw      t0, GPIO+0(s0)              # 208: 10542023  OUT
        slli    t0, t0, 1                   # 20c: 00129293
        addi    t1, t1, -1                  # 210: fff30313
        bne     t1, zero, .Lwalk            # 214: fe031ae3
        addi    t0, zero, 1                 # 218: 00100293
        sw      t0, GPIO+0(s0)              # 21c: 10542023  OUT = 0x01
        addi    t0, zero, 255               # 220: 0ff00293
        sw      t0, GPIO+16(s0)             # 224: 10542823  TGL -> 0xfe
        addi    t0, zero, 128               # 228: 08000293
        sw      t0, GPIO+8(s0)              # 22c: 10542423  SET -> 0xfe
        addi    t0, zero, 6                 # 230: 00600293
        sw      t0, GPIO+12(s0)             # 234: 10542623  CLR -> 0xf8
        lw      t0, GPIO+0(s0)              # 238: 10042283
        add     s2, s2, t0                  # 23c: 00590933

# ---- 9. timer: prescale 2, compare 20, poll the match flag, clear it
        addi    t0, zero, 1                 # 240: 00100293
        sw      t0, TIMER+4(s0)             # 244: 00542223  PRESC = 1
        addi    t0, zero, 20                # 248: 01400293
        sw      t0, TIMER+12(s0)            # 24c: 00542623  CMP = 20
        addi    t0, zero, 7                 # 250: 00700293
        sw      t0, TIMER+0(s0)             # 254: 00542023  CTRL = irq_en | auto_clr | enable
.Ltpoll:
        lw      t1, TIMER+16(s0)            # 258: 01042303  STATUS
        beq     t1, zero, .Ltpoll           # 25c: fe030ee3
        add     s2, s2, t1                  # 260: 00690933  1
        sw      t1, TIMER+16(s0)            # 264: 00642823  write 1 to clear
        lw      t1, TIMER+16(s0)            # 268: 01042303
        add     s2, s2, t1                  # 26c: 00690933  0
        sw      zero, TIMER+0(s0)           # 270: 00042023  stop

# ---- 10. UART: send "ok", wait until idle, read the sent count
        addi    a0, zero, 111               # 274: 06f00513  'o'
        jal     ra, uart_putc               # 278: 068000ef
        addi    a0, zero, 107               # 27c: 06b00513  'k'
        jal     ra, uart_putc               # 280: 060000ef
.Luwait:
        lw      t0, UART+4(s0)              # 284: 20442283
        bne     t0, zero, .Luwait           # 288: fe029ee3
        lw      t0, UART+12(s0)             # 28c: 20c42283  2
        add     s2, s2, t0                  # 290: 00590933

# ---- 11. scratch register and a byte store to the putc register
        sw      s2, SIM+16(s0)              # 294: 31242823
        lw      t0, SIM+16(s0)              # 298: 31042283
        sub     t0, t0, s2                  # 29c: 412282b3  0
        add     s2, s2, t0                  # 2a0: 00590933

# ---- 12. verdict: s2 on success, 0xbad0_0000 | fib(23) if fib(23) is wrong
        lui     t0, 0x7                     # 2a4: 000072b7
        addi    t0, t0, -15                 # 2a8: ff128293  0x7000 - 15 = 28657
        beq     s3, t0, .Lpass              # 2ac: 00598663
        lui     s2, 0xbad00                 # 2b0: bad00937
        or      s2, s2, s3                  # 2b4: 01396933
.Lpass: addi    t0, zero, 10                # 2b8: 00a00293  '\n' after the banner text
        sb      t0, SIM+4(s0)               # 2bc: 30540223
        sw      s2, SIM+0(s0)               # 2c0: 31242023  FINISH: prints and ends the run
        ebreak                              # 2c4: 00100073  not reached

# ---- puts(a0 = NUL-terminated string) through SIM_PUTC
puts:
        lbu     t0, 0(a0)                   # 2c8: 00054283
        beq     t0, zero, .Lputs_end        # 2cc: 00028863
        sw      t0, SIM+4(s0)               # 2d0: 30542223
        addi    a0, a0, 1                   # 2d4: 00150513
        jal     zero, puts                  # 2d8: ff1ff06f
.Lputs_end:
        jalr    zero, 0(ra)                 # 2dc: 00008067

# ---- uart_putc(a0): wait while busy, then write DATA
uart_putc:
        lw      t0, UART+4(s0)              # 2e0: 20442283
        bne     t0, zero, uart_putc         # 2e4: fe029ee3
        sw      a0, UART+0(s0)              # 2e8: 20a42023
        jalr    zero, 0(ra)                 # 2ec: 00008067

# ---- csum(a0 = words, a1 = count) -> a0: acc = rotl(acc, 5) ^ word
csum:
        addi    sp, sp, -16                 # 2f0: ff010113
        sw      ra, 12(sp)                  # 2f4: 00112623
        sw      s4, 8(sp)                   # 2f8: 01412423
        sw      s5, 4(sp)                   # 2fc: 01512223
        addi    s4, a0, 0                   # 300: 00050a13
        addi    s5, a1, 0                   # 304: 00058a93
        addi    a2, zero, 0                 # 308: 00000613
.Lcsum_loop:
        jal     ra, rotl5                   # 30c: 030000ef
        lw      t0, 0(s4)                   # 310: 000a2283
        xor     a2, a2, t0                  # 314: 00564633
        addi    s4, s4, 4                   # 318: 004a0a13
        addi    s5, s5, -1                  # 31c: fffa8a93
        blt     zero, s5, .Lcsum_loop       # 320: ff5046e3
        addi    a0, a2, 0                   # 324: 00060513
        lw      s5, 4(sp)                   # 328: 00412a83
        lw      s4, 8(sp)                   # 32c: 00812a03
        lw      ra, 12(sp)                  # 330: 00c12083
        addi    sp, sp, 16                  # 334: 01010113
        jalr    zero, 0(ra)                 # 338: 00008067

# ---- rotl5(a2) -> a2, clobbers t6
rotl5:
        slli    t6, a2, 5                   # 33c: 00561f93
        srli    a2, a2, 27                  # 340: 01b65613
        or      a2, a2, t6                  # 344: 01f66633
        jalr    zero, 0(ra)                 # 348: 00008067

banner:                                 # 18 characters, NUL, one pad byte
        .ascii  "weft soc: rv32i up"
        .byte   0, 0
