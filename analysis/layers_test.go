package analysis

import (
	"go/ast"
	"go/build"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
)

// layers are the package's files from the bottom up: a file uses only
// what it or a file before it declares (types, functions, methods,
// fields, constants, variables), so each can be read knowing only the
// ones before it. A new file takes its place here.
var layers = []string{
	"analysis.go",   // findings: Diagnostic, Fix, Severity, edits
	"settings.go",   // the project's rule settings
	"imported.go",   // generated and vendored files
	"suppress.go",   // suppression comments
	"load_linux.go", // the load average: Linux
	"load_bsd.go",   // macOS and the BSDs
	"load_other.go", // elsewhere, unknown
	"steps.go",      // the step budget of a rule
	"limit.go",      // the findings cap
	"premise.go",    // launch and build models, rule premises
	"pass.go",       // Analyzer and Pass: a rule, its view of a file and its units
	"driver.go",     // running the rules on one file
}

// TestLayers fails on a reference from a file of the package to something
// a file above it declares.
func TestLayers(t *testing.T) {
	fset := token.NewFileSet()
	names, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	var files []*ast.File
	for _, n := range names {
		// Files for other systems would redeclare this one's.
		if ok, err := build.Default.MatchFile(".", n); strings.HasSuffix(n, "_test.go") || err != nil || !ok {
			continue
		}
		if !slices.Contains(layers, n) {
			t.Errorf("%s is not in layers: place it there", n)
		}
		src, err := os.ReadFile(n)
		if err != nil {
			t.Fatal(err)
		}
		f, err := parser.ParseFile(fset, n, src, 0)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	info := &types.Info{Uses: map[*ast.Ident]types.Object{}}
	conf := types.Config{Importer: importer.ForCompiler(fset, "source", nil)}
	pkg, err := conf.Check("analysis", fset, files, info)
	if err != nil {
		t.Fatal(err)
	}
	rank := map[string]int{}
	for i, n := range layers {
		rank[n] = i
	}
	up := map[string]map[string]bool{}
	for id, obj := range info.Uses {
		if obj == nil || obj.Pkg() != pkg || !declaredAtTop(pkg, obj) {
			continue
		}
		from := fset.Position(id.Pos()).Filename
		to := fset.Position(obj.Pos()).Filename
		if rank[to] > rank[from] {
			k := from + " uses " + to
			if up[k] == nil {
				up[k] = map[string]bool{}
			}
			up[k][obj.Name()] = true
		}
	}
	var out []string
	for k, ns := range up {
		var names []string
		for n := range ns {
			names = append(names, n)
		}
		sort.Strings(names)
		out = append(out, k+": "+strings.Join(names, ", "))
	}
	sort.Strings(out)
	for _, o := range out {
		t.Errorf("upward reference: %s (move the declaration down or the use up; see layers)", o)
	}
}

// declaredAtTop reports whether obj is declared at the package level, or
// is a field or method (of a package-level type): not a local name.
func declaredAtTop(pkg *types.Package, obj types.Object) bool {
	switch o := obj.(type) {
	case *types.Var:
		return o.IsField() || o.Parent() == pkg.Scope()
	case *types.Func:
		return true
	}
	return obj.Parent() == pkg.Scope()
}
