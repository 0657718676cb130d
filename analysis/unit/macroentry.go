package unit

import (
	"context"

	"github.com/extern-lsp/extern-lsp/analysis/cxx"
	"github.com/extern-lsp/extern-lsp/grammar"
)

// expansionsKey holds, for each file of a unit whose code instantiates a
// kernel macro (`TYPES_DEF(BATCH_DEF);`), the kernels the instantiations
// declare, expanded with the unit's #defines and parsed: a file with the
// holder's path whose functions stand on the instantiations' lines. The
// function indexes read them as the unit's code, so each instantiated
// kernel is an entry whose body calls what the macro's body calls.
var expansionsKey = &UnitKey[[]*grammar.File]{
	Name: "unit.macro-expansions",
	Compute: func(ctx context.Context, u *Unit) []*grammar.File {
		um := u.Macros()
		def := um.definition
		var names []string
		for name := range um.ByName {
			names = append(names, name)
		}
		kernel := cxx.KernelMacros(names, def)
		if len(kernel) == 0 {
			return nil
		}
		var out []*grammar.File
		for _, f := range u.Files {
			if ctx.Err() != nil {
				break
			}
			text := cxx.Instantiations(f, def, kernel)
			if text == "" {
				continue
			}
			if ef, err := grammar.ParseFile(ctx, nil, f.Path, []byte(text), nil); err == nil {
				ef.Tree.Close()
				out = append(out, ef)
			}
		}
		return out
	},
}

// MacroDefinition is the one definition of name the unit compiles (nil
// for none, or for several that differ).
func (u *Unit) MacroDefinition(name string) *cxx.Macro { return u.Macros().definition(name) }

// definition is the one definition of name the unit compiles (nil for
// none, or for several that differ: which one the build takes is
// unknown).
func (um *UnitMacros) definition(name string) *cxx.Macro {
	var out *cxx.Macro
	for _, m := range um.ByName[name] {
		if !um.compiled(m) {
			continue
		}
		if out != nil && (out.Body != m.Body || out.FuncLike != m.FuncLike) {
			return nil
		}
		out = m
	}
	return out
}

// MacroKernels are the kernels the instantiations in the file at path
// declare (expansionsKey), by the line of their instantiation: what the
// editor shows on that line in place of an entry's declaration.
func (u *Unit) MacroKernels(path string) []MacroKernels {
	var out []MacroKernels
	for _, ef := range Fact(u, expansionsKey) {
		if ef.Path != path {
			continue
		}
		for _, fn := range cxx.Functions(ef) {
			if !IsKernelFunc(ef, fn) {
				continue
			}
			line, _ := ef.Lines.Position(fn.Start)
			if n := len(out); n > 0 && out[n-1].Line == line {
				out[n-1].Names = append(out[n-1].Names, cxx.FunctionName(fn))
			} else {
				out = append(out, MacroKernels{Line: line, Names: []string{cxx.FunctionName(fn)}})
			}
		}
	}
	return out
}

// MacroKernels are the kernels one instantiation line declares.
type MacroKernels struct {
	Line  int
	Names []string
}
