# crt0.S -- start-up code of the C programs (smp, bench).
#
# Every core runs this same image from its own local RAM.  The image is
# loaded in place by $readmemh, so .data needs no copy; .bss is zeroed here.
# main's return value goes to the tile's RESULT register (0 = pass), then the
# core halts on ebreak.

        .section .text.start, "ax"
        .globl  _start
_start:
        la      sp, __stack_top
        la      t0, __bss_start
        la      t1, __bss_end
1:      bgeu    t0, t1, 2f
        sw      zero, 0(t0)
        addi    t0, t0, 4
        j       1b
2:      li      ra, 0
        call    main
        li      t0, 0x10000000
        sw      a0, 0x10(t0)            # RESULT
3:      ebreak
        j       3b
