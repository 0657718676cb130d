package unit

import (
	"context"
	"path/filepath"
	"strings"

	"github.com/extern-lsp/extern-lsp/grammar"
)

// Resolve is the file of the unit an #include of from names (path as
// written between its quotes), or nil: the file next to from first, then a
// file of the unit whose path ends in path (the workspace put it in the
// unit through an include folder), then the file at path itself. It is the
// one answer every model of the unit uses.
func (u *Unit) Resolve(from *grammar.File, path string) *grammar.File {
	if path == "" {
		return nil
	}
	near := filepath.Join(filepath.Dir(from.Path), path)
	for _, f := range u.Files {
		if f.Path == near {
			return f
		}
	}
	rel := filepath.ToSlash(filepath.Clean(path))
	for strings.HasPrefix(rel, "../") {
		rel = rel[3:]
	}
	for _, f := range u.Files {
		if strings.HasSuffix(filepath.ToSlash(f.Path), "/"+rel) || f.Path == path {
			return f
		}
	}
	return nil
}

// UnresolvedInclude is a quoted #include of a unit's file that names no file
// of the unit and no known SDK header: code the analysis could not see.
type UnresolvedInclude struct {
	File    *grammar.File
	Include grammar.Include
}

// sdkHeaders are the quoted includes that name the toolkit (CANN AscendC,
// pto-isa, the runtime's own headers): never in the workspace, and their
// functions are the known device API rather than project code.
var sdkHeaders = []string{"kernel_operator.h", "kernel_tiling/", "lib/", "pto/", "acl/", "aclnn", "tikcfw/", "graph/", "register/", "tiling/", "securec.h", "kernel_macros.h", "kernel_event.h"}

// IsSDKHeader reports whether a quoted include names a toolkit header.
func IsSDKHeader(path string) bool {
	for _, h := range sdkHeaders {
		if strings.HasSuffix(h, "/") && strings.HasPrefix(path, h) || path == h {
			return true
		}
	}
	return false
}

var unresolvedKey = &UnitKey[[]UnresolvedInclude]{
	Name: "unit.unresolved-includes",
	Compute: func(ctx context.Context, u *Unit) []UnresolvedInclude {
		var out []UnresolvedInclude
		for _, f := range u.Files {
			for _, inc := range f.Includes {
				if inc.System || IsSDKHeader(inc.Path) || u.Resolve(f, inc.Path) != nil {
					continue
				}
				out = append(out, UnresolvedInclude{File: f, Include: inc})
			}
		}
		return out
	},
}

// UnresolvedIncludes lists the unit's quoted includes that resolve to no
// file (not counting SDK headers): whatever they declare, the analysis
// cannot see, so a verdict that depends on it must say less.
func (u *Unit) UnresolvedIncludes() []UnresolvedInclude {
	return Fact(u, unresolvedKey)
}
