package analysis

import (
	"sort"
	"sync"

	"github.com/extern-lsp/extern-lsp/grammar"
)

// Facts memoizes per-file knowledge several rules need (the flag calls of a
// file, whether its extern uses the hardware SyncAll, ...), so it is
// computed once per file however many rules ask.
type Facts struct {
	mu sync.Mutex
	m  map[string]any
}

// Get returns the fact under key, computing it on first use.
func (f *Facts) Get(key string, compute func() any) any {
	f.mu.Lock()
	if v, ok := f.m[key]; ok {
		f.mu.Unlock()
		return v
	}
	f.mu.Unlock()
	v := compute()
	f.mu.Lock()
	if f.m == nil {
		f.m = map[string]any{}
	}
	f.m[key] = v
	f.mu.Unlock()
	return v
}

func sortNodes(ns []*grammar.Node) {
	sort.Slice(ns, func(i, j int) bool { return ns[i].Index() < ns[j].Index() })
}
