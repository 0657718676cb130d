package cxx

import (
	"testing"

	"github.com/extern-lsp/extern-lsp/grammar"
)

// An index's position lists are 16 bits wide up to 1<<16 effects and 32
// bits past that; both read back what was set.
func TestPositionsWidths(t *testing.T) {
	for _, max := range []int{10, 1 << 16, 1<<16 + 1} {
		v := makePositions(4, max)
		if wide := v.p32 != nil; wide != (max > 1<<16-1) {
			t.Errorf("max %d: 32 bits %v", max, wide)
		}
		for k, i := range []int32{0, 3, 3, int32(max) - 1} {
			v.set(k, i)
		}
		if v.len() != 4 || v.at(3) != int32(max)-1 || v.search(3) != 1 || v.search(4) != 3 || v.search(int32(max)) != 4 {
			t.Errorf("max %d: %v", max, v)
		}
		if s := v.slice(1, 3); s.len() != 2 || s.at(0) != 3 || s.at(1) != 3 {
			t.Errorf("max %d: slice %v", max, s)
		}
	}
	if (positions{}).len() != 0 {
		t.Error("an empty list is empty")
	}
}

// A list's fact ids are 16 bits wide while they fit, 32 bits past that.
func TestEffectListIDWidths(t *testing.T) {
	var n1, n2 grammar.Node
	for _, top := range []uint32{7, 1 << 20} {
		var b effectBuilder
		b.add(&n1, 3)
		b.add(&n1, top)
		b.add(&n2, 5)
		l := b.list(&factTable{})
		if wide := l.ids.p32 != nil; wide != (top > 1<<16) {
			t.Errorf("top %d: 32 bits %v", top, wide)
		}
		if l.Len() != 3 || l.id(0) != 3 || l.id(1) != top || l.id(2) != 5 || l.at(1) != &n1 || l.at(2) != &n2 || len(l.runs) != 2 {
			t.Errorf("top %d: %+v", top, l)
		}
	}
}
