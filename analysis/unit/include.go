package unit

import (
	"context"

	"github.com/extern-lsp/extern-lsp/analysis/workspace"
	"github.com/extern-lsp/extern-lsp/grammar"
)

// Resolve is the file of the unit an #include of from names, or nil: the
// file workspace.ResolveInclude finds (the one include resolution), when
// it is a file of the unit.
func (u *Unit) Resolve(from *grammar.File, inc grammar.Include) *grammar.File {
	if u.ws == nil || inc.Path == "" {
		return nil
	}
	if p := u.ws.ResolveInclude(from.Path, inc); p != "" {
		return u.File(p)
	}
	return nil
}

// UnresolvedInclude is a quoted #include of a unit's file that names no file
// of the unit and no known SDK header (nor, in runtime-ABI code, one of
// the runtime's kernel headers): code the analysis could not see.
type UnresolvedInclude struct {
	File    *grammar.File
	Include grammar.Include
}

var unresolvedKey = &UnitKey[[]UnresolvedInclude]{
	Name: "unit.unresolved-includes",
	Compute: func(ctx context.Context, u *Unit) []UnresolvedInclude {
		var out []UnresolvedInclude
		runtime := -1
		for _, f := range u.Files {
			for _, inc := range f.Includes {
				if inc.System || workspace.IsSDKHeader(inc.Path) || u.Resolve(f, inc) != nil {
					continue
				}
				if workspace.IsRuntimeHeader(inc.Path) {
					if runtime < 0 {
						runtime = 0
						if u.ws != nil && LaunchOfEntry(u.ws, u.Entry).Launch.RuntimeABI() {
							runtime = 1
						}
					}
					if runtime == 1 {
						continue
					}
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
