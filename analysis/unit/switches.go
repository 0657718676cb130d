package unit

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/extern-lsp/extern-lsp/analysis/workspace"
)

// MacroSwitch says whether a build of the unit can define name, a macro
// its code tests as a switch (`#ifdef STOP_AFTER_X`): defined when a file
// of the unit #defines it or the workspace says so
// (workspace.MacroSwitchOf: every file's #defines, the build and Python
// files' words); unread when the workspace cannot tell, or a quoted
// #include of the unit names a header no file of the workspace could be
// (it could define the name unseen). Without a workspace (tests) only the
// unit's own files are asked.
func (u *Unit) MacroSwitch(name string) workspace.MacroSwitch {
	d := Fact(u, switchDefsKey)
	switch {
	case d.defined[name]:
		return workspace.MacroSwitch{Defined: true}
	case u.ws == nil:
		return workspace.MacroSwitch{}
	}
	if s := u.ws.MacroSwitchOf(name); s.Defined || s.Unread != "" {
		return s
	}
	return workspace.MacroSwitch{Unread: d.unseen}
}

// switchDefs are the macros a unit's files #define, and the first quoted
// include of the unit that resolved to no file and names none of the
// workspace either (file:line: "path").
type switchDefs struct {
	defined map[string]bool
	unseen  string
}

var switchDefsKey = &UnitKey[switchDefs]{
	Name: "unit.switch-defs",
	Compute: func(ctx context.Context, u *Unit) switchDefs {
		out := switchDefs{defined: map[string]bool{}}
		for _, f := range u.Files {
			if f.Guards == nil {
				continue
			}
			for _, d := range f.Guards.Directives {
				if d.Kind == "define" && len(d.Macros) > 0 {
					out.defined[d.Macros[0].Name] = true
				}
			}
		}
		unresolved := u.UnresolvedIncludes()
		if len(unresolved) == 0 || u.ws == nil {
			return out
		}
		// An include the search did not place (the build's -I was not
		// read) is still a file the workspace's #define scan read when a
		// file of the roots ends with its path.
		known := u.ws.KnownFiles()
		for _, inc := range unresolved {
			if !endsWithKnown(known, inc.Include.Path) {
				out.unseen = fmt.Sprintf("%s:%d: %q", inc.File.Path, inc.Include.Line+1, inc.Include.Path)
				break
			}
		}
		return out
	},
}

// endsWithKnown reports whether one of the known paths ends with include
// path p.
func endsWithKnown(known []string, p string) bool {
	p = "/" + strings.TrimPrefix(filepath.ToSlash(p), "./")
	for _, k := range known {
		if strings.HasSuffix(filepath.ToSlash(k), p) {
			return true
		}
	}
	return false
}
