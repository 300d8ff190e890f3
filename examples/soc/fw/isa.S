# isa.S -- self-checking RV32IM instruction test for soc_smp.
#
# Every hart runs every test on its own.  gp holds the number of the test in
# progress (tests are numbered 1, 2, 3, ... in source order by the NEXT
# macro; the listing from build.sh shows "li gp,N" at the start of test N).
# On the first mismatch the hart writes that number to its RESULT register
# and halts; when all pass it writes 0.  Only hart 0 prints, once, at the
# start: "isa: rv32im\n".
#
# Register use inside the tests: x1, x2 operands, x14 result, x5 store value,
# x31 expected value, x30 link of the check routines, x3 (gp) test number.  Assembled with -mno-relax: gp is
# ours, not a global pointer.

        .equ TILE,   0x10000000
        .equ HARTID, 0x00
        .equ NHARTS, 0x04
        .equ CYCLE,  0x0c
        .equ RESULT, 0x10
        .equ SHARED, 0x20000000
        .equ PUTC,   0x00

        .set tn, 0

# start test number tn+1
.macro NEXT
        .set tn, tn + 1
        li      gp, tn
.endm

# register r must hold the constant e; x14, x1 and x2 are compared by the
# shared routines chk_x14/chk_x1/chk_x2 (called through x30) to keep the
# image small, any other register inline
.macro CHECK r, e
        li      x31, \e
        .ifc \r, x14
        jal     x30, chk_x14
        .else
        .ifc \r, x1
        jal     x30, chk_x1
        .else
        .ifc \r, x2
        jal     x30, chk_x2
        .else
        beq     \r, x31, .Lok\@
        j       fail
.Lok\@:
        .endif
        .endif
        .endif
.endm

# register r must hold the address of symbol sym (+ constant)
.macro CHECKA r, sym
        lui     x31, %hi(\sym)
        addi    x31, x31, %lo(\sym)
        beq     \r, x31, .Lok\@
        j       fail
.Lok\@:
.endm

# ---- register-register: rd = a op b, then the rd == rs1, rd == rs2,
#      rs1 == rs2 and rd == x0 shapes
.macro TEST_RR op, e, a, b
        NEXT
        li      x1, \a
        li      x2, \b
        \op     x14, x1, x2
        CHECK   x14, \e
.endm

.macro TEST_RR_SRC1 op, e, a, b          # rd == rs1
        NEXT
        li      x1, \a
        li      x2, \b
        \op     x1, x1, x2
        CHECK   x1, \e
.endm

.macro TEST_RR_SRC2 op, e, a, b          # rd == rs2
        NEXT
        li      x1, \a
        li      x2, \b
        \op     x2, x1, x2
        CHECK   x2, \e
.endm

.macro TEST_RR_SAME op, e, a             # rd == rs1 == rs2
        NEXT
        li      x1, \a
        \op     x1, x1, x1
        CHECK   x1, \e
.endm

.macro TEST_RR_X0 op, a, b               # rd == x0 stays 0
        NEXT
        li      x1, \a
        li      x2, \b
        \op     x0, x1, x2
        CHECK   x0, 0
.endm

# ---- register-immediate: rd = a op imm
.macro TEST_RI op, e, a, imm
        NEXT
        li      x1, \a
        \op     x14, x1, \imm
        CHECK   x14, \e
        \op     x1, x1, \imm             # rd == rs1
        CHECK   x1, \e
.endm

# ---- branches: taken = 1 when op a, b must branch
.macro TEST_BR op, a, b, taken
        NEXT
        li      x1, \a
        li      x2, \b
        \op     x1, x2, .Lt\@
        .if \taken
        j       fail
        .else
        j       .Ld\@
        .endif
.Lt\@:
        .if \taken == 0
        j       fail
        .endif
.Ld\@:
.endm

# ---- loads: rd = op off(base), base = ldata + adj
.macro TEST_LD op, e, off, adj
        NEXT
        la      x1, ldata + \adj
        \op     x14, \off(x1)
        CHECK   x14, \e
.endm

# ---- stores: the word at sbuf+4 starts as 0x11223344; store v with op at
#      off(base), base = sbuf + 4 + adj; the word must become e and its
#      neighbours (guards) stay untouched
.macro TEST_ST op, v, off, adj, e
        NEXT
        la      x2, sbuf
        li      x5, 0x11223344
        sw      x5, 4(x2)
        la      x1, sbuf + 4 + \adj
        li      x5, \v
        \op     x5, \off(x1)
        lw      x14, 4(x2)
        CHECK   x14, \e
        lw      x14, 0(x2)
        CHECK   x14, 0xa5a5a5a5
        lw      x14, 8(x2)
        CHECK   x14, 0x5a5a5a5a
.endm

# ---- jalr: jump to target .Lt through base = .Lt - off + odd; the link
#      register must point after the jalr
.macro TEST_JALR off, odd
        NEXT
        la      x5, .Lt\@ - \off + \odd
        jalr    x1, \off(x5)
.Lr\@:  j       fail
.Lt\@:  CHECKA  x1, .Lr\@
.endm

        .section .text.start, "ax"
        .globl  _start
_start:
        li      sp, 0x4000
        li      s0, TILE
        li      gp, 0

# ---- banner, hart 0 only
        lw      t0, HARTID(s0)
        bnez    t0, 2f
        la      t1, banner
        li      t2, SHARED
1:      lbu     t3, 0(t1)
        beqz    t3, 2f
        sw      t3, PUTC(t2)
        addi    t1, t1, 1
        j       1b
2:

# ================================================================ tile
        NEXT                            # hartid < nharts, 1 <= nharts <= 16
        lw      t0, HARTID(s0)
        lw      t1, NHARTS(s0)
        bltu    t0, t1, 1f
        j       fail
1:      beqz    t1, 3f
        li      t2, 16
        bleu    t1, t2, 4f
3:      j       fail
4:
        NEXT                            # the cycle counter advances
        lw      t0, CYCLE(s0)
        nop
        lw      t1, CYCLE(s0)
        bltu    t0, t1, 1f
        j       fail
1:

# ================================================================ registers
        NEXT                            # every register holds its own value
        .irp r, 1,2,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31
        li      x\r, 0x01010101 * \r + 0x80000000
        .endr
        li      x30, 0x01010101 * 31 + 0x80000000   # x31 first, x30 as scratch
        beq     x31, x30, 1f
        j       fail
1:      li      x30, 0x01010101 * 30 + 0x80000000   # x30 gets its value back
        .irp r, 1,2,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30
        li      x31, 0x01010101 * \r + 0x80000000
        beq     x\r, x31, 1f
        j       fail
1:
        .endr
        NEXT                            # x0 is hard-wired to zero
        addi    x0, x0, 5
        CHECK   x0, 0
        lui     x0, 0x12345
        CHECK   x0, 0
        la      x1, ldata
        lw      x0, 0(x1)
        CHECK   x0, 0
        li      x1, 123
        add     x2, x0, x1
        CHECK   x2, 123

# ================================================================ lui, auipc
        NEXT
        lui     x14, 0x12345
        CHECK   x14, 0x12345000
        NEXT
        lui     x14, 0xfffff
        CHECK   x14, 0xfffff000
        NEXT
        lui     x14, 0x80000
        CHECK   x14, 0x80000000
        NEXT
        lui     x14, 0
        CHECK   x14, 0
        NEXT
.Lap0:  auipc   x14, 0
        CHECKA  x14, .Lap0
        NEXT
.Lap1:  auipc   x14, 0x12345
        CHECKA  x14, .Lap1 + 0x12345000
        NEXT
        jal     x2, .Lap2
.Lap2:  auipc   x14, 0xfffff            # pc - 4096
        sub     x14, x14, x2
        CHECK   x14, 0xfffff000

# ================================================================ jal, jalr
        NEXT                            # forward
        jal     x1, .Ljf
.Ljr1:  j       fail
.Ljf:   CHECKA  x1, .Ljr1
        NEXT                            # backward
        j       .Ljb2
.Ljb1:  CHECKA  x1, .Ljr2
        j       .Ljb3
.Ljb2:  jal     x1, .Ljb1
.Ljr2:  j       fail
.Ljb3:
        NEXT                            # jal x0 links nothing
        li      x1, 77
        jal     x0, 1f
        j       fail
1:      CHECK   x1, 77
        CHECK   x0, 0

        TEST_JALR 0, 0
        TEST_JALR 8, 0
        TEST_JALR -12, 0
        TEST_JALR 2047, 0
        TEST_JALR -2048, 0
        TEST_JALR 0, 1                  # bit 0 of the target is dropped
        TEST_JALR 5, 0                  # odd offset, even base
        TEST_JALR 4, 1
        NEXT                            # rd == rs1: the target uses the old value
        la      x5, .Ljs
        jalr    x5, 0(x5)
.Ljsr:  j       fail
.Ljs:   CHECKA  x5, .Ljsr
        NEXT                            # call and return through a routine
        li      x1, 0
        li      x14, 0
        jal     ra, addone
        jal     ra, addone
        CHECK   x14, 2

# ================================================================ branches
        TEST_BR beq,  0, 0, 1
        TEST_BR beq,  1, 0, 0
        TEST_BR beq,  0xffffffff, 0xffffffff, 1
        TEST_BR beq,  0x80000000, 0x00000000, 0
        TEST_BR bne,  0, 0, 0
        TEST_BR bne,  1, 0, 1
        TEST_BR bne,  0xffffffff, 0xffffffff, 0
        TEST_BR bne,  0x80000000, 0x00000000, 1
        TEST_BR blt,  0, 1, 1
        TEST_BR blt,  1, 0, 0
        TEST_BR blt,  1, 1, 0
        TEST_BR blt,  0xffffffff, 0, 1
        TEST_BR blt,  0, 0xffffffff, 0
        TEST_BR blt,  0x80000000, 0x7fffffff, 1
        TEST_BR blt,  0x7fffffff, 0x80000000, 0
        TEST_BR blt,  0xfffffffe, 0xffffffff, 1
        TEST_BR bge,  0, 1, 0
        TEST_BR bge,  1, 0, 1
        TEST_BR bge,  1, 1, 1
        TEST_BR bge,  0xffffffff, 0, 0
        TEST_BR bge,  0, 0xffffffff, 1
        TEST_BR bge,  0x80000000, 0x7fffffff, 0
        TEST_BR bge,  0x7fffffff, 0x80000000, 1
        TEST_BR bge,  0x80000000, 0x80000000, 1
        TEST_BR bltu, 0, 1, 1
        TEST_BR bltu, 1, 0, 0
        TEST_BR bltu, 1, 1, 0
        TEST_BR bltu, 0xffffffff, 0, 0
        TEST_BR bltu, 0, 0xffffffff, 1
        TEST_BR bltu, 0x80000000, 0x7fffffff, 0
        TEST_BR bltu, 0x7fffffff, 0x80000000, 1
        TEST_BR bltu, 0xfffffffe, 0xffffffff, 1
        TEST_BR bgeu, 0, 1, 0
        TEST_BR bgeu, 1, 0, 1
        TEST_BR bgeu, 1, 1, 1
        TEST_BR bgeu, 0xffffffff, 0, 1
        TEST_BR bgeu, 0, 0xffffffff, 0
        TEST_BR bgeu, 0x80000000, 0x7fffffff, 1
        TEST_BR bgeu, 0x7fffffff, 0x80000000, 0
        TEST_BR bgeu, 0xffffffff, 0xffffffff, 1
        NEXT                            # backward branch: a counted loop
        li      x1, 0
        li      x2, 10
        li      x14, 0
1:      addi    x14, x14, 3
        addi    x1, x1, 1
        bne     x1, x2, 1b
        CHECK   x14, 30
        NEXT                            # rs1 == rs2
        li      x1, -5
        blt     x1, x1, 2f
        bltu    x1, x1, 2f
        bne     x1, x1, 2f
        bge     x1, x1, 1f
2:      j       fail
1:

# ================================================================ loads
# ldata: 7f 01 ff 80 | 00 80 ff 7f | 78 56 34 12 | f0 de bc 9a
        TEST_LD lb,  0x0000007f, 0, 0
        TEST_LD lb,  0x00000001, 1, 0
        TEST_LD lb,  0xffffffff, 2, 0
        TEST_LD lb,  0xffffff80, 3, 0
        TEST_LD lb,  0x00000000, 4, 0
        TEST_LD lb,  0xffffff80, 5, 0
        TEST_LD lb,  0xffffffff, 6, 0
        TEST_LD lb,  0x0000007f, 7, 0
        TEST_LD lbu, 0x0000007f, 0, 0
        TEST_LD lbu, 0x00000001, 1, 0
        TEST_LD lbu, 0x000000ff, 2, 0
        TEST_LD lbu, 0x00000080, 3, 0
        TEST_LD lbu, 0x00000000, 4, 0
        TEST_LD lbu, 0x00000080, 5, 0
        TEST_LD lbu, 0x000000ff, 6, 0
        TEST_LD lbu, 0x0000007f, 7, 0
        TEST_LD lh,  0x0000017f, 0, 0
        TEST_LD lh,  0xffff80ff, 2, 0
        TEST_LD lh,  0xffff8000, 4, 0
        TEST_LD lh,  0x00007fff, 6, 0
        TEST_LD lhu, 0x0000017f, 0, 0
        TEST_LD lhu, 0x000080ff, 2, 0
        TEST_LD lhu, 0x00008000, 4, 0
        TEST_LD lhu, 0x00007fff, 6, 0
        TEST_LD lw,  0x80ff017f, 0, 0
        TEST_LD lw,  0x7fff8000, 4, 0
        TEST_LD lw,  0x12345678, 8, 0
        TEST_LD lw,  0x9abcdef0, 12, 0
        TEST_LD lw,  0x80ff017f, -16, 16     # negative offsets
        TEST_LD lw,  0x12345678, -8, 16
        TEST_LD lh,  0xffff9abc, -2, 16
        TEST_LD lhu, 0x00009abc, -2, 16
        TEST_LD lb,  0xffffffbc, -2, 16
        TEST_LD lbu, 0x000000de, -3, 16
        TEST_LD lb,  0x00000012, -5, 16
        TEST_LD lw,  0x12345678, 2047, 8 - 2047
        TEST_LD lb,  0xffffffde, -2048, 13 + 2048
        NEXT                            # load into the base register
        la      x1, ldata + 8
        lw      x1, 0(x1)
        CHECK   x1, 0x12345678

# ================================================================ stores
        TEST_ST sb, 0xaaaaaa01, 0, 0, 0x11223301
        TEST_ST sb, 0xaaaaaa02, 1, 0, 0x11220244
        TEST_ST sb, 0xaaaaaa03, 2, 0, 0x11033344
        TEST_ST sb, 0xaaaaaa84, 3, 0, 0x84223344
        TEST_ST sh, 0xaaaa8765, 0, 0, 0x11228765
        TEST_ST sh, 0xaaaa8765, 2, 0, 0x87653344
        TEST_ST sw, 0xcafef00d, 0, 0, 0xcafef00d
        TEST_ST sb, 0x000000ff, -5, 8, 0xff223344      # negative offsets
        TEST_ST sh, 0x0000beef, -6, 8, 0xbeef3344
        TEST_ST sw, 0x76543210, -8, 8, 0x76543210
        TEST_ST sw, 0x01234567, 2047, -2047, 0x01234567
        TEST_ST sb, 0x00000055, -2048, 2048 + 1, 0x11225544
        NEXT                            # store then load every width
        la      x1, sbuf + 4
        li      x5, 0x8081c2f3
        sw      x5, 0(x1)
        lh      x14, 2(x1)
        CHECK   x14, 0xffff8081
        lbu     x14, 1(x1)
        CHECK   x14, 0xc2
        sh      x0, 0(x1)
        sb      x0, 3(x1)
        lw      x14, 0(x1)
        CHECK   x14, 0x00810000

# ================================================================ ALU
        TEST_RR add , 0x00000000, 0x00000000, 0x00000000
        TEST_RR add , 0x00000002, 0x00000001, 0x00000001
        TEST_RR add , 0x0000000a, 0x00000003, 0x00000007
        TEST_RR add , 0x80000000, 0x7fffffff, 0x00000001
        TEST_RR add , 0x00000000, 0xffffffff, 0x00000001
        TEST_RR add , 0x00000000, 0x80000000, 0x80000000
        TEST_RR add , 0x00000000, 0x12345678, 0xedcba988
        TEST_RR sub , 0x00000000, 0x00000000, 0x00000000
        TEST_RR sub , 0x00000004, 0x00000007, 0x00000003
        TEST_RR sub , 0xfffffffc, 0x00000003, 0x00000007
        TEST_RR sub , 0x7fffffff, 0x80000000, 0x00000001
        TEST_RR sub , 0x00000001, 0x00000000, 0xffffffff
        TEST_RR sub , 0x80000000, 0x7fffffff, 0xffffffff
        TEST_RR sll , 0x00000001, 0x00000001, 0x00000000
        TEST_RR sll , 0x00000002, 0x00000001, 0x00000001
        TEST_RR sll , 0x80000000, 0x00000001, 0x0000001f
        TEST_RR sll , 0x23456780, 0x12345678, 0x00000004
        TEST_RR sll , 0xfffffffe, 0xffffffff, 0x00000021
        TEST_RR sll , 0x87654321, 0x87654321, 0xffffffe0
        TEST_RR sll , 0x80000000, 0x87654321, 0x0000003f
        TEST_RR srl , 0x80000000, 0x80000000, 0x00000000
        TEST_RR srl , 0x40000000, 0x80000000, 0x00000001
        TEST_RR srl , 0x00000001, 0x80000000, 0x0000001f
        TEST_RR srl , 0x08765432, 0x87654321, 0x00000004
        TEST_RR srl , 0x7fffffff, 0xffffffff, 0x00000021
        TEST_RR srl , 0x87654321, 0x87654321, 0xffffffe0
        TEST_RR srl , 0x00000001, 0x87654321, 0x0000003f
        TEST_RR sra , 0x80000000, 0x80000000, 0x00000000
        TEST_RR sra , 0xc0000000, 0x80000000, 0x00000001
        TEST_RR sra , 0xffffffff, 0x80000000, 0x0000001f
        TEST_RR sra , 0xf8765432, 0x87654321, 0x00000004
        TEST_RR sra , 0x3fffffff, 0x7fffffff, 0x00000021
        TEST_RR sra , 0x87654321, 0x87654321, 0xffffffe0
        TEST_RR sra , 0xffffffff, 0x87654321, 0x0000003f
        TEST_RR sra , 0x00000000, 0x07654321, 0x0000003f
        TEST_RR slt , 0x00000000, 0x00000000, 0x00000000
        TEST_RR slt , 0x00000001, 0x00000001, 0x00000002
        TEST_RR slt , 0x00000000, 0x00000002, 0x00000001
        TEST_RR slt , 0x00000001, 0xffffffff, 0x00000001
        TEST_RR slt , 0x00000000, 0x00000001, 0xffffffff
        TEST_RR slt , 0x00000001, 0x80000000, 0x7fffffff
        TEST_RR slt , 0x00000000, 0x7fffffff, 0x80000000
        TEST_RR slt , 0x00000001, 0xfffffffe, 0xffffffff
        TEST_RR sltu, 0x00000000, 0x00000000, 0x00000000
        TEST_RR sltu, 0x00000001, 0x00000001, 0x00000002
        TEST_RR sltu, 0x00000000, 0x00000002, 0x00000001
        TEST_RR sltu, 0x00000000, 0xffffffff, 0x00000001
        TEST_RR sltu, 0x00000001, 0x00000001, 0xffffffff
        TEST_RR sltu, 0x00000000, 0x80000000, 0x7fffffff
        TEST_RR sltu, 0x00000001, 0x7fffffff, 0x80000000
        TEST_RR sltu, 0x00000001, 0x00000000, 0xffffffff
        TEST_RR xor , 0xf0f0f0f0, 0xff00ff00, 0x0ff00ff0
        TEST_RR xor , 0xedcba987, 0xffffffff, 0x12345678
        TEST_RR xor , 0x00000000, 0x00000000, 0x00000000
        TEST_RR or  , 0xfff0fff0, 0xff00ff00, 0x0ff00ff0
        TEST_RR or  , 0x00000000, 0x00000000, 0x00000000
        TEST_RR or  , 0x80000011, 0x80000001, 0x00000010
        TEST_RR and , 0x0f000f00, 0xff00ff00, 0x0ff00ff0
        TEST_RR and , 0x12345678, 0xffffffff, 0x12345678
        TEST_RR and , 0x00000000, 0x55555555, 0xaaaaaaaa

        TEST_RI addi , 0x00000000, 0x00000000, 0
        TEST_RI addi , 0x00000002, 0x00000001, 1
        TEST_RI addi , 0xfffff803, 0x00000003, -2048
        TEST_RI addi , 0x80000000, 0x7fffffff, 1
        TEST_RI addi , 0x000007fe, 0xffffffff, 2047
        TEST_RI addi , 0x7fffffff, 0x80000000, -1
        TEST_RI addi , 0x00000000, 0x00000005, -5
        TEST_RI slti , 0x00000000, 0x00000000, 0
        TEST_RI slti , 0x00000001, 0x00000001, 2
        TEST_RI slti , 0x00000001, 0xffffffff, 0
        TEST_RI slti , 0x00000000, 0x00000001, -1
        TEST_RI slti , 0x00000001, 0x80000000, -2048
        TEST_RI slti , 0x00000000, 0x7fffffff, 2047
        TEST_RI slti , 0x00000001, 0xfffff7ff, -2048
        TEST_RI sltiu, 0x00000001, 0x00000000, 1
        TEST_RI sltiu, 0x00000000, 0x00000001, 1
        TEST_RI sltiu, 0x00000001, 0x00000000, -1
        TEST_RI sltiu, 0x00000001, 0xfffffffe, -1
        TEST_RI sltiu, 0x00000000, 0xffffffff, -1
        TEST_RI sltiu, 0x00000000, 0x000007ff, 2047
        TEST_RI sltiu, 0x00000000, 0x00000800, 2047
        TEST_RI xori , 0xedcba987, 0x12345678, -1
        TEST_RI xori , 0x12345187, 0x12345678, 2047
        TEST_RI xori , 0x00ff0700, 0xff00ff00, -2048
        TEST_RI ori  , 0xffffffff, 0x12345678, -1
        TEST_RI ori  , 0x12345678, 0x12345000, 1656
        TEST_RI ori  , 0xfffff800, 0x00000000, -2048
        TEST_RI andi , 0x12345678, 0x12345678, -1
        TEST_RI andi , 0x00000678, 0x12345678, 2047
        TEST_RI andi , 0xfffff800, 0xffffffff, -2048
        TEST_RI andi , 0x00000000, 0x12345678, 0
        TEST_RI slli , 0x00000001, 0x00000001, 0
        TEST_RI slli , 0x00000002, 0x00000001, 1
        TEST_RI slli , 0x80000000, 0x00000001, 31
        TEST_RI slli , 0x45678000, 0x12345678, 12
        TEST_RI srli , 0x80000000, 0x80000000, 0
        TEST_RI srli , 0x40000000, 0x80000000, 1
        TEST_RI srli , 0x00000001, 0x80000000, 31
        TEST_RI srli , 0x00087654, 0x87654321, 12
        TEST_RI srai , 0x80000000, 0x80000000, 0
        TEST_RI srai , 0xc0000000, 0x80000000, 1
        TEST_RI srai , 0xffffffff, 0x80000000, 31
        TEST_RI srai , 0xfff87654, 0x87654321, 12
        TEST_RI srai , 0x00000001, 0x7fffffff, 30

# ================================================================ M extension
        TEST_RR mul   , 0x00000000, 0x00000000, 0x00000000
        TEST_RR mul   , 0x00000015, 0x00000003, 0x00000007
        TEST_RR mul   , 0xffffffeb, 0xfffffffd, 0x00000007
        TEST_RR mul   , 0xffffffeb, 0x00000003, 0xfffffff9
        TEST_RR mul   , 0x00000015, 0xfffffffd, 0xfffffff9
        TEST_RR mul   , 0x00000000, 0x80000000, 0x80000000
        TEST_RR mul   , 0x80000000, 0x80000000, 0xffffffff
        TEST_RR mul   , 0x00000001, 0xffffffff, 0xffffffff
        TEST_RR mul   , 0x00000001, 0x7fffffff, 0x7fffffff
        TEST_RR mul   , 0x242d2080, 0x12345678, 0x9abcdef0
        TEST_RR mul   , 0xffffffff, 0xffffffff, 0x00000001
        TEST_RR mul   , 0xffffffff, 0x00000001, 0xffffffff
        TEST_RR mul   , 0x00000000, 0xdeadbeef, 0x00000000
        TEST_RR mulh  , 0x00000000, 0x00000000, 0x00000000
        TEST_RR mulh  , 0x00000000, 0x00000003, 0x00000007
        TEST_RR mulh  , 0xffffffff, 0xfffffffd, 0x00000007
        TEST_RR mulh  , 0xffffffff, 0x00000003, 0xfffffff9
        TEST_RR mulh  , 0x00000000, 0xfffffffd, 0xfffffff9
        TEST_RR mulh  , 0x40000000, 0x80000000, 0x80000000
        TEST_RR mulh  , 0x00000000, 0x80000000, 0xffffffff
        TEST_RR mulh  , 0x00000000, 0xffffffff, 0xffffffff
        TEST_RR mulh  , 0x3fffffff, 0x7fffffff, 0x7fffffff
        TEST_RR mulh  , 0xf8cc93d6, 0x12345678, 0x9abcdef0
        TEST_RR mulh  , 0xffffffff, 0xffffffff, 0x00000001
        TEST_RR mulh  , 0xffffffff, 0x00000001, 0xffffffff
        TEST_RR mulh  , 0x00000000, 0xdeadbeef, 0x00000000
        TEST_RR mulhsu, 0x00000000, 0x00000000, 0x00000000
        TEST_RR mulhsu, 0x00000000, 0x00000003, 0x00000007
        TEST_RR mulhsu, 0xffffffff, 0xfffffffd, 0x00000007
        TEST_RR mulhsu, 0x00000002, 0x00000003, 0xfffffff9
        TEST_RR mulhsu, 0xfffffffd, 0xfffffffd, 0xfffffff9
        TEST_RR mulhsu, 0xc0000000, 0x80000000, 0x80000000
        TEST_RR mulhsu, 0x80000000, 0x80000000, 0xffffffff
        TEST_RR mulhsu, 0xffffffff, 0xffffffff, 0xffffffff
        TEST_RR mulhsu, 0x3fffffff, 0x7fffffff, 0x7fffffff
        TEST_RR mulhsu, 0x0b00ea4e, 0x12345678, 0x9abcdef0
        TEST_RR mulhsu, 0xffffffff, 0xffffffff, 0x00000001
        TEST_RR mulhsu, 0x00000000, 0x00000001, 0xffffffff
        TEST_RR mulhsu, 0x00000000, 0xdeadbeef, 0x00000000
        TEST_RR mulhu , 0x00000000, 0x00000000, 0x00000000
        TEST_RR mulhu , 0x00000000, 0x00000003, 0x00000007
        TEST_RR mulhu , 0x00000006, 0xfffffffd, 0x00000007
        TEST_RR mulhu , 0x00000002, 0x00000003, 0xfffffff9
        TEST_RR mulhu , 0xfffffff6, 0xfffffffd, 0xfffffff9
        TEST_RR mulhu , 0x40000000, 0x80000000, 0x80000000
        TEST_RR mulhu , 0x7fffffff, 0x80000000, 0xffffffff
        TEST_RR mulhu , 0xfffffffe, 0xffffffff, 0xffffffff
        TEST_RR mulhu , 0x3fffffff, 0x7fffffff, 0x7fffffff
        TEST_RR mulhu , 0x0b00ea4e, 0x12345678, 0x9abcdef0
        TEST_RR mulhu , 0x00000000, 0xffffffff, 0x00000001
        TEST_RR mulhu , 0x00000000, 0x00000001, 0xffffffff
        TEST_RR mulhu , 0x00000000, 0xdeadbeef, 0x00000000
        TEST_RR div   , 0x00000003, 0x00000014, 0x00000006
        TEST_RR div   , 0xfffffffd, 0xffffffec, 0x00000006
        TEST_RR div   , 0xfffffffd, 0x00000014, 0xfffffffa
        TEST_RR div   , 0x00000003, 0xffffffec, 0xfffffffa
        TEST_RR div   , 0x00000001, 0x00000007, 0x00000007
        TEST_RR div   , 0x00000000, 0x00000000, 0x00000005
        TEST_RR div   , 0xffffffff, 0x00000005, 0x00000000
        TEST_RR div   , 0xffffffff, 0xfffffffb, 0x00000000
        TEST_RR div   , 0xffffffff, 0x00000000, 0x00000000
        TEST_RR div   , 0x80000000, 0x80000000, 0xffffffff
        TEST_RR div   , 0x80000000, 0x80000000, 0x00000001
        TEST_RR div   , 0xc0000000, 0x80000000, 0x00000002
        TEST_RR div   , 0x80000001, 0x7fffffff, 0xffffffff
        TEST_RR div   , 0x00000001, 0xffffffff, 0xffffffff
        TEST_RR div   , 0xffffffff, 0x00000001, 0xffffffff
        TEST_RR div   , 0xfffff000, 0xfedcba98, 0x00001234
        TEST_RR div   , 0x00001249, 0x12345678, 0x0000fedc
        TEST_RR divu  , 0x00000003, 0x00000014, 0x00000006
        TEST_RR divu  , 0x2aaaaaa7, 0xffffffec, 0x00000006
        TEST_RR divu  , 0x00000000, 0x00000014, 0xfffffffa
        TEST_RR divu  , 0x00000000, 0xffffffec, 0xfffffffa
        TEST_RR divu  , 0x00000001, 0x00000007, 0x00000007
        TEST_RR divu  , 0x00000000, 0x00000000, 0x00000005
        TEST_RR divu  , 0xffffffff, 0x00000005, 0x00000000
        TEST_RR divu  , 0xffffffff, 0xfffffffb, 0x00000000
        TEST_RR divu  , 0xffffffff, 0x00000000, 0x00000000
        TEST_RR divu  , 0x00000000, 0x80000000, 0xffffffff
        TEST_RR divu  , 0x80000000, 0x80000000, 0x00000001
        TEST_RR divu  , 0x40000000, 0x80000000, 0x00000002
        TEST_RR divu  , 0x00000000, 0x7fffffff, 0xffffffff
        TEST_RR divu  , 0x00000001, 0xffffffff, 0xffffffff
        TEST_RR divu  , 0x00000000, 0x00000001, 0xffffffff
        TEST_RR divu  , 0x000e0042, 0xfedcba98, 0x00001234
        TEST_RR divu  , 0x00001249, 0x12345678, 0x0000fedc
        TEST_RR rem   , 0x00000002, 0x00000014, 0x00000006
        TEST_RR rem   , 0xfffffffe, 0xffffffec, 0x00000006
        TEST_RR rem   , 0x00000002, 0x00000014, 0xfffffffa
        TEST_RR rem   , 0xfffffffe, 0xffffffec, 0xfffffffa
        TEST_RR rem   , 0x00000000, 0x00000007, 0x00000007
        TEST_RR rem   , 0x00000000, 0x00000000, 0x00000005
        TEST_RR rem   , 0x00000005, 0x00000005, 0x00000000
        TEST_RR rem   , 0xfffffffb, 0xfffffffb, 0x00000000
        TEST_RR rem   , 0x00000000, 0x00000000, 0x00000000
        TEST_RR rem   , 0x00000000, 0x80000000, 0xffffffff
        TEST_RR rem   , 0x00000000, 0x80000000, 0x00000001
        TEST_RR rem   , 0x00000000, 0x80000000, 0x00000002
        TEST_RR rem   , 0x00000000, 0x7fffffff, 0xffffffff
        TEST_RR rem   , 0x00000000, 0xffffffff, 0xffffffff
        TEST_RR rem   , 0x00000000, 0x00000001, 0xffffffff
        TEST_RR rem   , 0xfffffa98, 0xfedcba98, 0x00001234
        TEST_RR rem   , 0x000031bc, 0x12345678, 0x0000fedc
        TEST_RR remu  , 0x00000002, 0x00000014, 0x00000006
        TEST_RR remu  , 0x00000002, 0xffffffec, 0x00000006
        TEST_RR remu  , 0x00000014, 0x00000014, 0xfffffffa
        TEST_RR remu  , 0xffffffec, 0xffffffec, 0xfffffffa
        TEST_RR remu  , 0x00000000, 0x00000007, 0x00000007
        TEST_RR remu  , 0x00000000, 0x00000000, 0x00000005
        TEST_RR remu  , 0x00000005, 0x00000005, 0x00000000
        TEST_RR remu  , 0xfffffffb, 0xfffffffb, 0x00000000
        TEST_RR remu  , 0x00000000, 0x00000000, 0x00000000
        TEST_RR remu  , 0x80000000, 0x80000000, 0xffffffff
        TEST_RR remu  , 0x00000000, 0x80000000, 0x00000001
        TEST_RR remu  , 0x00000000, 0x80000000, 0x00000002
        TEST_RR remu  , 0x7fffffff, 0x7fffffff, 0xffffffff
        TEST_RR remu  , 0x00000000, 0xffffffff, 0xffffffff
        TEST_RR remu  , 0x00000001, 0x00000001, 0xffffffff
        TEST_RR remu  , 0x00000930, 0xfedcba98, 0x00001234
        TEST_RR remu  , 0x000031bc, 0x12345678, 0x0000fedc
# ================================================================ operand aliasing
        TEST_RR_SRC1 add  , 0x8765555a, 0x87654321, 0x00001239
        TEST_RR_SRC1 sub  , 0x876530e8, 0x87654321, 0x00001239
        TEST_RR_SRC1 sll  , 0x42000000, 0x87654321, 0x00001239
        TEST_RR_SRC1 sra  , 0xffffffc3, 0x87654321, 0x00001239
        TEST_RR_SRC1 xor  , 0x87655118, 0x87654321, 0x00001239
        TEST_RR_SRC1 mul  , 0x44444459, 0x87654321, 0x00001239
        TEST_RR_SRC1 mulh , 0xfffff76a, 0x87654321, 0x00001239
        TEST_RR_SRC1 div  , 0xfff961b2, 0x87654321, 0x00001239
        TEST_RR_SRC1 remu , 0x00000fc9, 0x87654321, 0x00001239
        TEST_RR_SRC2 add  , 0x8765555a, 0x87654321, 0x00001239
        TEST_RR_SRC2 sub  , 0x876530e8, 0x87654321, 0x00001239
        TEST_RR_SRC2 sll  , 0x42000000, 0x87654321, 0x00001239
        TEST_RR_SRC2 sra  , 0xffffffc3, 0x87654321, 0x00001239
        TEST_RR_SRC2 sltu , 0x00000000, 0x87654321, 0x00001239
        TEST_RR_SRC2 mul  , 0x44444459, 0x87654321, 0x00001239
        TEST_RR_SRC2 mulhu, 0x000009a3, 0x87654321, 0x00001239
        TEST_RR_SRC2 div  , 0xfff961b2, 0x87654321, 0x00001239
        TEST_RR_SRC2 rem  , 0xfffffe7f, 0x87654321, 0x00001239
        TEST_RR_SAME add  , 0x0eca8642, 0x87654321
        TEST_RR_SAME sub  , 0x00000000, 0x87654321
        TEST_RR_SAME xor  , 0x00000000, 0x87654321
        TEST_RR_SAME sll  , 0x0eca8642, 0x87654321
        TEST_RR_SAME slt  , 0x00000000, 0x87654321
        TEST_RR_SAME mul  , 0xd7a44a41, 0x87654321
        TEST_RR_SAME mulh , 0x38d16e98, 0x87654321
        TEST_RR_SAME div  , 0x00000001, 0x87654321
        TEST_RR_SAME remu , 0x00000000, 0x87654321
        TEST_RR_X0   add  , 0x87654321, 0x00001239
        TEST_RR_X0   sll  , 0x87654321, 0x00001239
        TEST_RR_X0   mul  , 0x87654321, 0x00001239
        TEST_RR_X0   div  , 0x87654321, 0x00001239
        TEST_RR_X0   rem  , 0x87654321, 0x00001239
# ================================================================ done
        NEXT                            # the test count reached the end
        CHECK   gp, tn
        li      t0, TILE
        sw      zero, RESULT(t0)
        ebreak
1:      j       1b

fail:   li      t0, TILE
        sw      gp, RESULT(t0)
        ebreak
1:      j       1b

addone: addi    x14, x14, 1
        jalr    x0, 0(ra)

chk_x14: bne    x14, x31, fail
        jalr    x0, 0(x30)
chk_x1: bne     x1, x31, fail
        jalr    x0, 0(x30)
chk_x2: bne     x2, x31, fail
        jalr    x0, 0(x30)

        .section .rodata
banner: .asciz  "isa: rv32im\n"

        .data
        .p2align 2
ldata:  .word   0x80ff017f, 0x7fff8000, 0x12345678, 0x9abcdef0
sbuf:   .word   0xa5a5a5a5, 0x11223344, 0x5a5a5a5a
