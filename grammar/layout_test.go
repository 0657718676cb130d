package grammar

import (
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"

	sitter "github.com/smacker/go-tree-sitter"
)

// TestTreeSitterLayout pins what the node storage assumes of the
// tree-sitter that go.mod's go-tree-sitter compiles in (flatten.go
// restates its C structs and declares its functions rather than include
// its headers, and reads two of go-tree-sitter's Go structs through
// unsafe): an upgrade that changes any of it fails here, not in a walk
// that reads the wrong bytes.
func TestTreeSitterLayout(t *testing.T) {
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "github.com/smacker/go-tree-sitter").Output()
	if err != nil {
		t.Skipf("no module directory for go-tree-sitter: %v", err)
	}
	api, err := os.ReadFile(filepath.Join(strings.TrimSpace(string(out)), "api.h"))
	if err != nil {
		t.Fatal(err)
	}
	ours, err := os.ReadFile("flatten.go")
	if err != nil {
		t.Fatal(err)
	}
	// The structs: the same fields, in order, of the same types.
	structs := map[string]string{"XPoint": "TSPoint", "XNode": "TSNode", "XCursor": "TSTreeCursor"}
	for x, ts := range structs {
		mine := regexp.MustCompile(`typedef struct \{([^}]*)\} ` + x + `;`).FindSubmatch(ours)
		theirs := regexp.MustCompile(`typedef struct ` + ts + ` \{([^}]*)\} ` + ts + `;`).FindSubmatch(api)
		if mine == nil || theirs == nil {
			t.Fatalf("%s / %s: declaration not found (ours %v, api.h %v)", x, ts, mine != nil, theirs != nil)
		}
		if a, b := cFields(string(mine[1])), cFields(string(theirs[1])); !reflect.DeepEqual(a, b) {
			t.Errorf("%s is %v, tree-sitter's %s is %v", x, a, ts, b)
		}
	}
	// The functions: each extern of flatten.go is declared so in api.h.
	sig := func(s string) string {
		for x, ts := range structs {
			s = regexp.MustCompile(`\b`+x+`\b`).ReplaceAllString(s, ts)
		}
		s = regexp.MustCompile(`\b(TSSymbol|TSFieldId)\b`).ReplaceAllString(s, "uint16_t")
		s = regexp.MustCompile(`\b(self|node|goal_byte|symbol|id)\b`).ReplaceAllString(s, "")
		return strings.Join(strings.Fields(strings.ReplaceAll(s, "*", " * ")), " ")
	}
	declared := map[string]string{}
	for _, m := range regexp.MustCompile(`(?m)^([A-Za-z_][^;(]*\b(ts_\w+)\([^)]*\));`).FindAllStringSubmatch(string(api), -1) {
		declared[m[2]] = sig(m[1])
	}
	externs := regexp.MustCompile(`(?m)^extern ([^;(]*\b(ts_\w+)\([^)]*\));`).FindAllStringSubmatch(string(ours), -1)
	if len(externs) < 10 {
		t.Fatalf("found %d externs in flatten.go", len(externs))
	}
	for _, m := range externs {
		if got, want := sig(m[1]), declared[m[2]]; got != want {
			t.Errorf("flatten.go declares %q, api.h %q", got, want)
		}
	}
	// The Go structs read through unsafe: sitter.Language holds the
	// TSLanguage pointer as its only field, sitter.BaseTree the TSTree
	// pointer as its first.
	lang := reflect.TypeFor[sitter.Language]()
	if lang.NumField() != 1 || lang.Field(0).Type.Kind() != reflect.UnsafePointer {
		t.Errorf("sitter.Language is %v, want one unsafe.Pointer", lang)
	}
	base := reflect.TypeFor[sitter.BaseTree]()
	if f := base.Field(0); f.Offset != 0 || f.Type.Kind() != reflect.Pointer {
		t.Errorf("sitter.BaseTree's first field is %s %v, want the TSTree pointer", f.Name, f.Type)
	}
}

// cFields lists a C struct body's fields as "type name" with spaces
// normalised.
func cFields(body string) []string {
	var out []string
	for _, decl := range strings.Split(body, ";") {
		decl = strings.Join(strings.Fields(strings.ReplaceAll(decl, "*", " * ")), " ")
		if decl == "" {
			continue
		}
		// `uint32_t start, end` declares two fields of one type.
		parts := strings.Split(decl, ",")
		typ := parts[0][:strings.LastIndex(parts[0], " ")]
		out = append(out, parts[0])
		for _, p := range parts[1:] {
			out = append(out, typ+" "+strings.TrimSpace(p))
		}
	}
	return out
}
