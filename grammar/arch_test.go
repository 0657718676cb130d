package grammar

import (
	"strings"
	"testing"
)

func TestScanArch(t *testing.T) {
	src := `int shared;
#if defined(__NPU_ARCH__) && __NPU_ARCH__ == 3510
int a5_only;
#elif __NPU_ARCH__ == 2201
int a2a3_only;
#else
int other;
#endif
#ifndef __DAV_C310__
int not_a5;
#endif
#ifdef __DAV_C220_VEC__
int c220_vec;
#endif
#if defined(__DAV_VEC__)
int any_vec;
#endif
#if defined(__DAV_C310__)
int c310;
#else
int not_c310;
#endif
#ifdef __DAV_C220_VEC__
int lane = sub_block_id();
#else
int lane = 0;
#endif
`
	m := ScanArch(ScanGuards([]byte(src)))
	at := func(marker string) Arch { return m.At(uint32(strings.Index(src, marker))) }
	for marker, want := range map[string]Arch{
		"shared": ArchAny, "a5_only": ArchA5, "a2a3_only": ArchA2A3, "other": ArchNone,
		"not_a5": ArchA2A3, "c220_vec": ArchA2A3, "any_vec": ArchAny, "c310": ArchA5, "not_c310": ArchA2A3,
	} {
		if got := at(marker); got != want {
			t.Errorf("%s: got %v, want %v", marker, got, want)
		}
	}
	var got []string
	for _, e := range m.Evidence {
		got = append(got, e.Arch.String()+" "+e.Cond)
	}
	// The #else of the C310 test compiles for A2/A3: that group supports
	// both chips.
	want := []string{"a5 defined(__NPU_ARCH__) && __NPU_ARCH__ == 3510", "a2a3 __NPU_ARCH__ == 2201", "a2a3 __DAV_C220_VEC__",
		"a5 defined(__DAV_C310__)", "a2a3 defined(__DAV_C310__)",
		// A core split on the dav-c220 macros: its #else is A2/A3's cube.
		"a2a3 __DAV_C220_VEC__"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("evidence %q, want %q", got, want)
	}
}

// The dav-c220 core model does not compile Ascend 950's branches.
func TestC310BranchNotInC220Cores(t *testing.T) {
	src := "#if defined(__DAV_C310__)\nint a5;\n#else\nint c220;\n#endif\n"
	g := ScanGuards([]byte(src))
	if c := g.CoresAt(uint32(strings.Index(src, "a5;"))); c != None {
		t.Errorf("C310 branch: cores %v, want none", c)
	}
	if c := g.CoresAt(uint32(strings.Index(src, "c220;"))); c != Both {
		t.Errorf("its #else: cores %v, want both", c)
	}
}

// A file whose conditionals name A5 alone is judged as A5's compiles: its
// A5 branch runs on both cores, a branch no A5 compile takes on none.
func TestA5OnlyFileInA5Cores(t *testing.T) {
	src := "void f() {\n#if __NPU_ARCH__ == 3510\n  a5();\n#endif\n#if __NPU_ARCH__ != 3510\n  other();\n#endif\n#ifdef __DAV_VEC__\n  vec();\n#endif\n}\n"
	g := ScanGuards([]byte(src))
	for marker, want := range map[string]Cores{"a5()": Both, "other()": None, "vec()": AIV, "}": Both} {
		if c := g.CoresAt(uint32(strings.LastIndex(src, marker))); c != want {
			t.Errorf("%s: cores %v, want %v", marker, c, want)
		}
	}
}

// A dav-c220 core split whose #else holds no code (`(void)args;`) or
// stops the compile (`#error`) names A2/A3 alone; one whose #else holds
// code compiles for other chips too.
func TestScanArchEmptyElse(t *testing.T) {
	for _, c := range []struct {
		body string
		want string
	}{
		{"  (void)args; // unused elsewhere\n", "a2a3 defined(__DAV_C220_CUBE__)|a2a3 defined(__DAV_C220_VEC__)"},
		{"  /* nothing */ ;\n", "a2a3 defined(__DAV_C220_CUBE__)|a2a3 defined(__DAV_C220_VEC__)"},
		{"  HostStub(args);\n", "a2a3 defined(__DAV_C220_CUBE__)|a2a3 defined(__DAV_C220_VEC__)|a5 defined(__DAV_C220_CUBE__)"},
		// Other chips stop at an #error: the file is A2/A3's alone.
		{"#error \"build for dav-c220-cube or dav-c220-vec\"\n", "a2a3 defined(__DAV_C220_CUBE__)|a2a3 defined(__DAV_C220_VEC__)"},
		// An #error under a condition of its own stops only some of them.
		{"#ifdef STRICT\n#error \"strict\"\n#endif\n  HostStub(args);\n", "a2a3 defined(__DAV_C220_CUBE__)|a2a3 defined(__DAV_C220_VEC__)|a5 defined(__DAV_C220_CUBE__)"},
	} {
		src := "void k(int64_t *args) {\n#if defined(__DAV_C220_CUBE__)\n  Cube(args);\n#elif defined(__DAV_C220_VEC__)\n  Vec(args);\n#else\n" + c.body + "#endif\n}\n"
		m := ScanArchSrc(ScanGuards([]byte(src)), []byte(src))
		var got []string
		for _, e := range m.Evidence {
			got = append(got, e.Arch.String()+" "+e.Cond)
		}
		if strings.Join(got, "|") != c.want {
			t.Errorf("%q: evidence %q, want %q", c.body, got, c.want)
		}
	}
}
