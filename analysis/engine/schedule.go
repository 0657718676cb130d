package engine

import (
	"sort"
	"sync"
)

// schedule hands the files of a run to the workers group by group: the
// files that read a common file (a header, a unit's entry) form a group,
// and a worker checks the files of its group before it starts a group
// nobody has. Two workers in one group wait on each other: the second
// needs the parses and unit facts the first is computing. Two workers in
// two groups share nothing. A worker with no group left helps the group
// under way with the most files left.
//
// The heaviest groups (bytes read) start first, so the run ends on light
// ones. Order costs no memory: a group's parses are released as soon as
// its own files are checked, whatever ran before.
type schedule struct {
	mu sync.Mutex
	// groups are the files (indexes) of each group not yet handed out, in
	// path order; groups[:started] have been.
	groups  [][]int
	started int
	// on is the group each worker is on (-1: none yet).
	on []int
}

// newSchedule groups n files by what they read: reads(i) lists the files
// checking the i-th reads (unit.Releaser.Reads), size the bytes of one.
func newSchedule(n int, reads func(i int) []string, size func(path string) int64, jobs int) *schedule {
	// Union-find over files: i joins the group of the first file that
	// read anything it reads.
	parent := make([]int, n)
	root := func(i int) int {
		for parent[i] != i {
			parent[i] = parent[parent[i]]
			i = parent[i]
		}
		return i
	}
	firstReader := map[string]int{}
	for i := range n {
		parent[i] = i
		for _, q := range reads(i) {
			if j, ok := firstReader[q]; ok {
				if a, b := root(i), root(j); a != b {
					parent[max(a, b)] = min(a, b)
				}
				continue
			}
			firstReader[q] = i
		}
	}
	byRoot := map[int]int{}
	var groups [][]int
	var weight []int64
	for i := range n {
		r := root(i)
		g, ok := byRoot[r]
		if !ok {
			g = len(groups)
			byRoot[r] = g
			groups = append(groups, nil)
			weight = append(weight, 0)
		}
		groups[g] = append(groups[g], i)
	}
	for q, i := range firstReader {
		weight[byRoot[root(i)]] += size(q)
	}
	order := make([]int, len(groups))
	for g := range order {
		order[g] = g
	}
	// Stable: equal groups keep the path order of their first files.
	sort.SliceStable(order, func(a, b int) bool { return weight[order[a]] > weight[order[b]] })
	s := &schedule{groups: make([][]int, len(groups)), on: make([]int, max(jobs, 1))}
	for k, g := range order {
		s.groups[k] = groups[g]
	}
	for w := range s.on {
		s.on[w] = -1
	}
	return s
}

// next returns the next file for worker w, or false when none is left.
func (s *schedule) next(w int) (int, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	g := s.on[w]
	if g < 0 || len(s.groups[g]) == 0 {
		switch {
		case s.started < len(s.groups):
			g = s.started
			s.started++
		default:
			g = -1
			for k := range s.started {
				if len(s.groups[k]) > 0 && (g < 0 || len(s.groups[k]) > len(s.groups[g])) {
					g = k
				}
			}
			if g < 0 {
				return 0, false
			}
		}
		s.on[w] = g
	}
	i := s.groups[g][0]
	s.groups[g] = s.groups[g][1:]
	return i, true
}

// sizes are the numbers of files of the groups.
func (s *schedule) sizes() []int {
	out := make([]int, len(s.groups))
	for g, fs := range s.groups {
		out[g] = len(fs)
	}
	return out
}
