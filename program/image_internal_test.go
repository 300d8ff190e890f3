package program

import (
	"bytes"
	"reflect"
	"strings"
	"testing"

	"github.com/weft-hdl/weft/sir"
)

// imageSchemas pins the schema fingerprint of each ImageVersion: when the
// encoded types change shape, bump ImageVersion and add its line.
var imageSchemas = map[int]uint64{
	1: 0x6f2bbae0c05e3c34,
	2: 0x7d646c165ce7dc7c,
	3: 0xeb9246fc71f41d51,
	4: 0xee8550448a66ca46,
	5: 0x26266c517ef8bcb0,
}

func TestImageSchema(t *testing.T) {
	want, ok := imageSchemas[ImageVersion]
	if !ok || want != imageSchema() {
		t.Fatalf("the encoded types changed shape (schema %016x, pinned %016x for ImageVersion %d): bump ImageVersion and pin the new schema in imageSchemas\n%s",
			imageSchema(), want, ImageVersion, schemaText())
	}
}

// TestImageMirrorsProgram checks that the wire types have the fields of
// the types they stand for, in order, with an int for each *sir.Unit.
func TestImageMirrorsProgram(t *testing.T) {
	unitType := reflect.TypeFor[*sir.Unit]()
	mirror := map[reflect.Type]reflect.Type{
		reflect.TypeFor[Program]():     reflect.TypeFor[wireProgram](),
		reflect.TypeFor[Event]():       reflect.TypeFor[wireEvent](),
		reflect.TypeFor[Tick]():        reflect.TypeFor[wireTick](),
		reflect.TypeFor[Parallel]():    reflect.TypeFor[wireParallel](),
		reflect.TypeFor[Partitioned](): reflect.TypeFor[wirePartitioned](),
		reflect.TypeFor[Task]():        reflect.TypeFor[wireTask](),
		reflect.TypeFor[LaneTick]():    reflect.TypeFor[wireLaneTick](),
	}
	// same reports whether wire type w stands for type o.
	var same func(o, w reflect.Type) bool
	same = func(o, w reflect.Type) bool {
		switch {
		case o == unitType:
			return w.Kind() == reflect.Int
		case mirror[o] != nil:
			return mirror[o] == w
		case o.Kind() == reflect.Pointer && mirror[o.Elem()] != nil && w.Kind() == reflect.Struct:
			return mirror[o.Elem()] == w // a task is a value on the wire
		case o.Kind() != w.Kind():
			return false
		case o.Kind() == reflect.Pointer || o.Kind() == reflect.Slice:
			return same(o.Elem(), w.Elem())
		}
		return o == w
	}
	for o, w := range mirror {
		var of []reflect.StructField
		for i := range o.NumField() {
			if f := o.Field(i); f.IsExported() && f.Tag.Get("msgpack") != "-" {
				of = append(of, f)
			}
		}
		var wf []reflect.StructField
		for i := range w.NumField() {
			if f := w.Field(i); !(w == reflect.TypeFor[wireProgram]() && f.Name == "Units") {
				wf = append(wf, f)
			}
		}
		if len(of) != len(wf) {
			t.Errorf("%s has %d encoded fields, %s %d", o, len(of), w, len(wf))
			continue
		}
		for i := range of {
			if of[i].Name != wf[i].Name || !same(of[i].Type, wf[i].Type) {
				t.Errorf("%s.%s (%s) is %s.%s (%s) on the wire", o, of[i].Name, of[i].Type, w, wf[i].Name, wf[i].Type)
			}
		}
	}
}

// TestUnitCodec round-trips a unit whose instructions set every field
// (reflection sets each in turn, so a field added to sir.Inst and not to
// the codec fails here), and wants every truncation of its code refused.
func TestUnitCodec(t *testing.T) {
	u := sir.NewUnit("all")
	var insts []sir.Inst
	var fill func(v reflect.Value, k int64) bool // sets the k-th settable leaf; false when there are fewer
	fill = func(v reflect.Value, k int64) bool {
		n := int64(0)
		var walk func(v reflect.Value) bool
		walk = func(v reflect.Value) bool {
			switch v.Kind() {
			case reflect.Struct:
				for i := range v.NumField() {
					if walk(v.Field(i)) {
						return true
					}
				}
				return false
			case reflect.Pointer:
				if v.IsNil() {
					v.Set(reflect.New(v.Type().Elem()))
				}
				return walk(v.Elem())
			case reflect.Slice:
				if v.Len() == 0 {
					v.Set(reflect.MakeSlice(v.Type(), 2, 2))
				}
				for i := range v.Len() {
					if walk(v.Index(i)) {
						return true
					}
				}
				return false
			}
			if n++; n-1 != k {
				return false
			}
			switch v.Kind() {
			case reflect.Bool:
				v.SetBool(true)
			case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
				v.SetInt(-k - 100)
			default:
				v.SetUint(uint64(k) + 200)
			}
			return true
		}
		return walk(v)
	}
	for k := int64(0); ; k++ {
		var in sir.Inst
		if !fill(reflect.ValueOf(&in).Elem(), k) {
			break
		}
		insts = append(insts, in)
	}
	if len(insts) < 15 {
		t.Fatalf("only %d fields", len(insts))
	}
	u.NewBlock()
	u.Blocks[0].Insts = insts
	u.Blocks[0].Term = sir.Term{Kind: 7, Cond: -1, Then: 1 << 30, Else: -1 << 31, Status: 1<<32 - 1}
	u.NewReg(64)
	u.Regs[0].Width = -5
	u.NewBlock()
	code, err := appendUnit(nil, u)
	if err != nil {
		t.Fatal(err)
	}
	got, err := readUnit(u.Name, code)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, u) {
		for i := range insts {
			if !reflect.DeepEqual(got.Blocks[0].Insts[i], insts[i]) {
				t.Errorf("inst %d: %+v, want %+v", i, got.Blocks[0].Insts[i], insts[i])
			}
		}
		t.Fatalf("the unit differs after the round trip")
	}
	again, _ := appendUnit(nil, got)
	if !bytes.Equal(code, again) {
		t.Fatal("the code differs after the round trip")
	}
	for n := range len(code) {
		if _, err := readUnit("", code[:n]); err == nil {
			t.Fatalf("code truncated to %d of %d bytes accepted", n, len(code))
		}
	}
	if _, err := readUnit("", append(code, 0)); err == nil {
		t.Fatal("a byte after the code accepted")
	}
}

func TestCheckMsgpack(t *testing.T) {
	for _, tc := range []struct {
		b   []byte
		n   int
		err string
	}{
		{[]byte{0x01, 0xc0}, 2, ""},
		{[]byte{0x92, 0x01, 0xa1, 'x'}, 1, ""},
		{[]byte{0x82, 0x01, 0x02, 0x03, 0x04}, 1, ""},
		{[]byte{0xd4, 0x80, 0x00}, 1, ""}, // fixext1
		{[]byte{0xc7, 0x01, 0x05, 0xaa}, 1, ""},
		{[]byte{0x01}, 2, "claimed"},
		{[]byte{0x01, 0x02}, 1, "after the last value"},
		{[]byte{0xc1}, 1, "invalid type byte"},
		{[]byte{0xdd, 0xff, 0xff, 0xff, 0xff, 0x01}, 1, "claimed"},
		{[]byte{0xdf, 0x80, 0x00, 0x00, 0x00}, 1, "claimed"},
		{[]byte{0xdb, 0x00, 0x00, 0x10, 0x00, 'a'}, 1, "claimed"},
		{[]byte{0xc6, 0xff, 0xff, 0xff, 0xff}, 1, "claimed"},
		{[]byte{0xc9, 0xff, 0xff, 0xff}, 1, "claimed"},
		{[]byte{0xcf, 0x00}, 1, "claimed"},
		{append(make([]byte, 0), []byte(strings.Repeat("\x91", 100)+"\x01")...), 1, "nested"},
	} {
		err := checkMsgpack(tc.b, tc.n)
		if tc.err == "" && err != nil || tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)) {
			t.Errorf("checkMsgpack(% x, %d) = %v, want %q", tc.b, tc.n, err, tc.err)
		}
	}
}
