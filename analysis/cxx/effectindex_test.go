package cxx

import "testing"

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
