package rules

import "testing"

// indentLines indents every line, the last one also without its newline,
// in one allocation of the text's size.
func TestIndentLines(t *testing.T) {
	for _, c := range []struct{ indent, lines, want string }{
		{"  ", "dsb(DSB_DDR);\n", "  dsb(DSB_DDR);\n"},
		{"\t", "a;\nb;\n", "\ta;\n\tb;\n"},
		{"    ", "a;\nb;", "    a;\n    b;"},
		{"  ", "", ""},
	} {
		if got := indentLines(c.indent, c.lines); got != c.want {
			t.Errorf("indentLines(%q, %q) = %q, want %q", c.indent, c.lines, got, c.want)
		}
	}
	sketch := "// a\n// b\n// c\n// d\n// e\n"
	if n := testing.AllocsPerRun(10, func() { _ = indentLines("        ", sketch) }); n != 1 {
		t.Errorf("%v allocations, want 1", n)
	}
}
