package grammar

import (
	"strings"
	"testing"
	"unsafe"
)

// The spans a file keeps are a list of their exact number, and a hidden
// qualifier's text is one shared string however often it is hidden; other
// hidden texts are the source's bytes.
func TestMaskSpansCompact(t *testing.T) {
	var b strings.Builder
	b.WriteString("void g(int a) { CHECK(a, return); }\n")
	for i := range 130 {
		b.WriteString("__aicore__ inline void f" + strings.Repeat("x", i) + "(__gm__ float *a) { a[0] = 1; }\n")
	}
	src := []byte(b.String())
	_, spans := Mask(src)
	// Grown by append, 262 spans would sit in room for 512; a list of
	// their size has only its size class's rounding.
	if cap(spans) > len(spans)+len(spans)/8 {
		t.Errorf("%d spans in room for %d", len(spans), cap(spans))
	}
	first := map[string]*byte{}
	gm := 0
	for _, s := range spans {
		if s.Text != string(src[s.Start:s.End]) {
			t.Fatalf("span %v text %q, source %q", s, s.Text, src[s.Start:s.End])
		}
		if !qualifiers[s.Text] {
			continue
		}
		gm++
		p := unsafe.StringData(s.Text)
		if q, ok := first[s.Text]; ok && q != p {
			t.Errorf("%q at %d is a copy of its own", s.Text, s.Start)
		}
		first[s.Text] = p
	}
	if gm != 260 || len(spans) != 262 {
		t.Errorf("%d qualifiers hidden of %d spans, want 260 of 262", gm, len(spans))
	}
}
