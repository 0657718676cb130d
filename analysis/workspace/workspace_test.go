package workspace

import (
	"path/filepath"
	"reflect"
	"testing"
)

func TestContextAndKinds(t *testing.T) {
	root, _ := filepath.Abs("testdata/ws")
	w := New(root)
	p := func(rel string) string { return filepath.Join(root, rel) }

	body := w.Context(p("kernels/common/body.hpp"))
	if !body.Extern || body.Entry {
		t.Fatalf("body.hpp: %+v", body)
	}
	wantUnits := []string{p("kernels/attn/entry.cpp"), p("kernels/attn/vec_entry.cpp")}
	if !reflect.DeepEqual(body.Units, wantUnits) {
		t.Errorf("units %v, want %v", body.Units, wantUnits)
	}
	// entry.cpp has cube evidence and includes vector evidence: mixed. The
	// header takes the most demanding kind of its units.
	if body.Kind != KindMixed {
		t.Errorf("body kind %s", body.Kind)
	}
	if k, src := w.UnitKind(p("kernels/attn/vec_entry.cpp")); k != KindAIV || src != "heuristic" {
		t.Errorf("vec_entry kind %s %s", k, src)
	}
	tiles := w.Context(p("kernels/common/tiles.hpp"))
	if !tiles.Extern || len(tiles.Units) != 2 {
		t.Errorf("transitive include: %+v", tiles)
	}
	if c := w.Context(p("other/plain.cpp")); c.Extern {
		t.Errorf("plain.cpp is not an extern source: %+v", c)
	}

	w.SetKindOverride(func(entry string) (Kind, bool) {
		return KindAIV, entry == p("kernels/attn/entry.cpp")
	})
	if k, src := w.UnitKind(p("kernels/attn/entry.cpp")); k != KindAIV || src != "stub" {
		t.Errorf("override: %s %s", k, src)
	}

	// An overlay that drops the include detaches the header from that unit.
	w.SetOverlay(p("kernels/attn/vec_entry.cpp"), []byte(`extern "C" __global__ __aicore__ void vec_entry(__gm__ int64_t *args) {}`), 2)
	if got := w.Context(p("kernels/common/body.hpp")).Units; len(got) != 1 {
		t.Errorf("after overlay, units %v", got)
	}
	if w.Version(p("kernels/attn/vec_entry.cpp")) != 2 {
		t.Error("overlay version")
	}
	w.ClearOverlay(p("kernels/attn/vec_entry.cpp"))
	if got := w.Context(p("kernels/common/body.hpp")).Units; len(got) != 2 {
		t.Errorf("after clearing overlay, units %v", got)
	}
}

func TestClosureToleratesMissingHeaders(t *testing.T) {
	root, _ := filepath.Abs("testdata/ws")
	w := New(root)
	got := w.Closure(filepath.Join(root, "kernels/attn/entry.cpp"))
	if len(got) != 3 {
		t.Errorf("closure %v", got)
	}
	f, err := w.File(got[1])
	if err != nil || f == nil {
		t.Fatal(err)
	}
	if _, err := w.File(filepath.Join(root, "missing.cpp")); err == nil {
		t.Error("missing file should fail")
	}
}
