package workspace

import (
	"path/filepath"
	"slices"
	"testing"

	"github.com/extern-lsp/extern-lsp/grammar"
)

// TestBuildIncludeDirs: what a CMake list says plainly (set, list APPEND,
// get_filename_component, an included .cmake, quoted and commented
// arguments, -I in compile options) and a make file's -I are include
// folders of the sources under them; what needs a variable from outside
// is counted, not guessed.
func TestBuildIncludeDirs(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{
		"CMakeLists.txt": `project(top)
set(INC_ROOT ${CMAKE_CURRENT_SOURCE_DIR}/inc CACHE PATH "where")
list(APPEND EXTRA_INCS ${INC_ROOT}/a "${INC_ROOT}/b c")
include(${CMAKE_CURRENT_SOURCE_DIR}/cmake/dirs.cmake)
include_directories(BEFORE SYSTEM ${EXTRA_INCS} # a comment (with parens)
    ${NOT_SET}/x)
`,
		"cmake/dirs.cmake": "include_directories(${CMAKE_CURRENT_LIST_DIR}/../listdir)\n",
		"ops/CMakeLists.txt": `get_filename_component(UP ${CMAKE_CURRENT_SOURCE_DIR}/.. ABSOLUTE)
target_compile_options(op PRIVATE -I${UP}/flagged "-I ${PROJECT_SOURCE_DIR}/spaced")
target_include_directories(op PUBLIC $<BUILD_INTERFACE:${UP}/bi> $<INSTALL_INTERFACE:include> rel)
ascendc_include_directories(op_kernels PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/kinc)
`,
		"ops/k/Makefile": "INC := ../../mk\nCFLAGS += -I$(INC) -I$(ASCEND_HOME)/inc\n",
		"ops/k/k.cpp":    "",
	})
	ws := New(root)
	got, skipped := ws.BuildIncludeDirs(filepath.Join(root, "ops", "k"))
	var dirs []string
	for _, d := range got {
		r, _ := filepath.Rel(root, d.Dir)
		dirs = append(dirs, r)
	}
	want := []string{"mk", "flagged", "spaced", "bi", "ops/rel", "ops/kinc", "listdir", "inc/a", "inc/b c"}
	if !slices.Equal(dirs, want) {
		t.Errorf("build dirs of ops/k = %q, want %q", dirs, want)
	}
	if len(skipped) != 2 {
		t.Errorf("skipped %q, want $(ASCEND_HOME)/inc and ${NOT_SET}/x", skipped)
	}
	// Outside the roots the build is not read.
	if got, _ := New().BuildIncludeDirs(filepath.Join(root, "ops", "k")); got != nil {
		t.Errorf("no root: %v", got)
	}
}

// TestResolveSources: each search says it found the file; a quoted
// include no search finds is the tree's one file ending with its path,
// the nearest of several, or (a tie) unresolved and counted as
// ambiguous, whatever order the files are read in.
func TestResolveSources(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{
		"build.sh":              "ccec -I build_inc -c k.cpp\n",
		"build_inc/b.h":         "",
		"cfg/c.h":               "",
		"p/src/k.cpp":           "",
		"p/src/beside.h":        "",
		"lib/one/only.h":        "",
		"p/near/dup.h":          "",
		"q/near/dup.h":          "",
		"x/tie/t.h":             "",
		"y/tie/t.h":             "",
		"third_party/hidden.h":  "",
		"p/kernel_operator.h":   "",
		"lib/kernel_operator.h": "",
		"lib/tiling/tiling_x.h": "",
		"p/sub/../skipdot.h":    "",
	})
	from := filepath.Join(root, "p", "src", "k.cpp")
	cases := []struct {
		inc   string
		src   IncludeSource
		path  string
		cands int
	}{
		{"beside.h", FromFolder, "p/src/beside.h", 0},
		{"c.h", FromConfig, "cfg/c.h", 0},
		{"b.h", FromBuild, "build_inc/b.h", 0},
		{"one/only.h", FromSuffix, "lib/one/only.h", 1},
		{"near/dup.h", FromSuffix, "p/near/dup.h", 2},
		{"tie/t.h", Unresolved, "", 2},
		{"hidden.h", Unresolved, "", 0},
		{"tiling/tiling_x.h", Unresolved, "", 0},
		{"../zz/one/only.h", Unresolved, "", 0},
	}
	for _, order := range [][]int{{0, 1, 2, 3, 4, 5, 6, 7, 8}, {8, 7, 6, 5, 4, 3, 2, 1, 0}} {
		ws := New(root)
		ws.SetIncludeDirs([]string{filepath.Join(root, "cfg")})
		// A file read through an include before the others (a header in a
		// skipped folder) does not join the suffix index.
		if _, err := ws.Source(filepath.Join(root, "third_party", "hidden.h")); err != nil {
			t.Fatal(err)
		}
		for _, i := range order {
			c := cases[i]
			r := ws.Resolve(from, grammar.Include{Path: c.inc})
			path := ""
			if r.Path != "" {
				path, _ = filepath.Rel(root, r.Path)
			}
			if r.Source != c.src || path != c.path || r.Candidates != c.cands {
				t.Errorf("%q: %v %q (%d candidates), want %v %q (%d)", c.inc, r.Source, path, r.Candidates, c.src, c.path, c.cands)
			}
			if c.src == FromBuild && r.By != filepath.Join(root, "build.sh") {
				t.Errorf("%q: named by %q, want build.sh", c.inc, r.By)
			}
			if r.Ambiguous() != (c.src == Unresolved && c.cands > 1) {
				t.Errorf("%q: Ambiguous() = %v", c.inc, r.Ambiguous())
			}
		}
	}
}
