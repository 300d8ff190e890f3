package cores

// CPU is a Go model of one cores_cpu, cycle for cycle: a reference for the
// RTL's specs, written from the instruction set in rtl/cores.sv.
type CPU struct {
	Seed uint32
	PC   uint8
	R    [8]uint32
	CRC  uint32
}

// Reset is the state the asynchronous reset sets.
func (c *CPU) Reset() {
	c.PC, c.CRC = 0, 0xffff_ffff
	for i := range c.R {
		c.R[i] = c.Seed * uint32(i+1)
	}
}

// program is the ROM as {op, rd, rs, imm}; pc 0's imm is the low six bits
// of the seed, and pc 12 to 15 hold the last entry.
var program = [13][4]uint16{
	{0x0, 1, 0, 0}, {0x6, 2, 2, 0}, {0x5, 3, 2, 0}, {0x4, 3, 1, 0},
	{0x1, 4, 3, 0}, {0x3, 5, 4, 7}, {0x2, 5, 3, 0}, {0x8, 6, 5, 0},
	{0x1, 7, 6, 0}, {0x1, 1, 2, 0}, {0x3, 1, 1, 26}, {0x7, 1, 0, 1},
	{0x7, 7, 0, 0},
}

// insn is the program ROM's word at PC.
func (c *CPU) insn() uint16 {
	e := program[min(int(c.PC), len(program)-1)]
	if c.PC == 0 {
		e[3] = uint16(c.Seed)
	}
	return e[0]<<12 | e[1]<<9 | e[2]<<6 | e[3]&0x3f
}

// Step is one rising clock edge with input in.
func (c *CPU) Step(in uint32) {
	insn := c.insn()
	op, rd := insn>>12, (insn>>9)&7
	a, b, imm := c.R[rd], c.R[(insn>>6)&7], uint32(insn&0x3f)
	var res uint32
	taken := false
	switch op {
	case 0x0:
		res = b + imm
	case 0x1:
		res = a + b
	case 0x2:
		res = a ^ b
	case 0x3:
		res = b << (insn & 0x1f)
	case 0x4:
		res = a * b
	case 0x5:
		res = (b<<1 | b>>31) ^ c.Seed
	case 0x6:
		res = in ^ b
	case 0x7:
		res, taken = a, a != 0
	default:
		res = a - b
	}
	crc := c.CRC ^ res
	for range 32 {
		if crc&1 != 0 {
			crc = crc>>1 ^ 0xedb8_8320
		} else {
			crc >>= 1
		}
	}
	if taken {
		c.PC = uint8(insn & 0xf)
	} else {
		c.PC = (c.PC + 1) & 0xf
	}
	c.CRC = crc
	if op != 0x7 {
		c.R[rd] = res
	}
}

// Sum is the design's output: the XOR of the cores' CRCs.
func Sum(cpus []CPU) uint32 {
	var s uint32
	for i := range cpus {
		s ^= cpus[i].CRC
	}
	return s
}
