package engine

import (
	"slices"
	"testing"
)

func TestScheduleGroupsByWhatFilesRead(t *testing.T) {
	// Files 0-2 read unit a (0 and 2 through its entry, 1 through a
	// header), 3 reads unit b, 4 reads nothing another file reads, 5 and
	// 6 read unit c, which is the heaviest.
	reads := [][]string{
		{"a/entry.cpp", "a/h.h"},
		{"a/h.h"},
		{"a/rope.cpp", "a/h.h"},
		{"b/entry.cpp"},
		{"lone.h"},
		{"c/entry.cpp", "c/big.h"},
		{"c/big.h"},
	}
	size := func(p string) int64 {
		if p == "c/big.h" {
			return 1000
		}
		return 10
	}
	s := newSchedule(len(reads), func(i int) []string { return reads[i] }, size, 2)
	want := [][]int{{5, 6}, {0, 1, 2}, {3}, {4}}
	if !slices.EqualFunc(s.groups, want, slices.Equal) {
		t.Fatalf("groups %v, want %v (heaviest first, then by first file)", s.groups, want)
	}

	// Worker 0 stays in its group; worker 1 starts the next one.
	var got [2][]int
	take := func(w int) bool {
		i, ok := s.next(w)
		if ok {
			got[w] = append(got[w], i)
		}
		return ok
	}
	take(0)
	take(1)
	take(0)
	take(1)
	if !slices.Equal(got[0], []int{5, 6}) || !slices.Equal(got[1], []int{0, 1}) {
		t.Fatalf("worker 0 took %v, worker 1 took %v: want [5 6] and [0 1]", got[0], got[1])
	}
	// Worker 0, done with its group, starts the next unstarted ones, then
	// helps worker 1's group; every file is handed out once.
	for take(0) {
	}
	if !slices.Equal(got[0], []int{5, 6, 3, 4, 2}) {
		t.Fatalf("worker 0 took %v, want [5 6 3 4 2]", got[0])
	}
	if take(1) {
		t.Fatalf("a file handed out twice: %v", got)
	}
}
