package cxx

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/extern-lsp/extern-lsp/grammar"
)

// TestFuncsByNameIsStableSort: the unit's index merges its files' runs by
// name; the result is a stable sort of the files' definitions in file
// order (a name defined in several files, and several times in one, keeps
// that order).
func TestFuncsByNameIsStableSort(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 9))
	names := []string{"a", "b", "helper", "Init", "run", "z"}
	for trial := range 20 {
		var files []*grammar.File
		for i := range rng.IntN(9) + 1 {
			var src strings.Builder
			for j := range rng.IntN(7) {
				fmt.Fprintf(&src, "void %s() { int v%d = %d; }\n", names[rng.IntN(len(names))], j, i)
			}
			f, err := grammar.ParseFile(context.Background(), nil, fmt.Sprintf("/f%d.cpp", i), []byte(src.String()), nil)
			if err != nil {
				t.Fatal(err)
			}
			files = append(files, f)
		}
		var want []FuncDef
		for _, f := range files {
			want = append(want, IndexFileFuncs(f).defs...)
		}
		slices.SortStableFunc(want, func(a, b FuncDef) int { return strings.Compare(a.Name, b.Name) })
		if got := FuncsOf(nil, files...).byName; !slices.Equal(got, want) {
			t.Fatalf("trial %d: by name %v, want %v", trial, got, want)
		}
	}
}
