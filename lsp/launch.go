package lsp

import (
	"fmt"
	"slices"
	"strings"

	"go.lsp.dev/protocol"

	"github.com/extern-lsp/extern-lsp/analysis"
	"github.com/extern-lsp/extern-lsp/analysis/cxx"
	"github.com/extern-lsp/extern-lsp/analysis/unit"
	"github.com/extern-lsp/extern-lsp/grammar"
)

// The launch and build models of a unit are shown on its entry: a hover
// on the entry's name, and a code lens above an entry no stub names (a
// stub's entry has the args[] lens). They say why a runtime rule is quiet
// on a standalone kernel.

// kernelEntries are the functions of f a launch starts: extern "C"
// functions taking the args pointer, and `__global__` kernels.
func kernelEntries(f *grammar.File) []*grammar.Node {
	entries, _ := cxx.Entries(f)
	for _, fn := range cxx.Functions(f) {
		if !slices.Contains(entries, fn) && unit.IsKernelFunc(f, fn) {
			entries = append(entries, fn)
		}
	}
	return entries
}

// declStart is where a function's declaration starts: its template header
// or its extern "C" block, when it has one.
func declStart(fn *grammar.Node) uint32 {
	start := fn.Start
	if td := fn.Parent(); td != nil && td.Kind() == "template_declaration" {
		start = td.Start
	}
	if ls := fn.Ancestor("linkage_specification"); ls != nil && ls.Start < start {
		start = ls.Start
	}
	return start
}

// modelsOf returns the models of the units compiling path under the
// project's settings.
func (s *view) modelsOf(path string) analysis.Models {
	opts, _ := s.optionsFor(s.ws, path)
	return analysis.ModelsOf(s.ws, s.ws.Context(path), opts.Settings)
}

// launchMarkdown describes the models of the units rooted at path (the
// entry's own unit first) and which of the rules apply.
func launchMarkdown(ms analysis.Models, path string, rules []*analysis.Analyzer) string {
	var b strings.Builder
	for _, m := range ms {
		if m.Entry != path {
			continue
		}
		fmt.Fprintf(&b, "**launch:** %s: %s\n\n", m.Launch.Launch.Title(), m.Launch.Evidence)
		fmt.Fprintf(&b, "**build:** %s\n\n", m.Build.Describe())
		switch {
		case m.Launch.Launch.RuntimeABI():
			b.WriteString("Every rule applies: the runtime calls this entry per task.")
		case m.Launch.Launch.Device():
			var runtime []string
			for _, a := range rules {
				if a.Premise == analysis.PremiseRuntime {
					runtime = append(runtime, a.Code)
				}
			}
			fmt.Fprintf(&b, "The hardware rules apply; the pypto/simpler runtime's (%s) do not.", strings.Join(runtime, ", "))
			if m.Build.AutoSync {
				var handoff []string
				for _, a := range rules {
					if a.Premise == analysis.PremiseHandoff {
						handoff = append(handoff, a.Code)
					}
				}
				if len(handoff) > 0 {
					fmt.Fprintf(&b, " Nor do the pipe-handoff rules (%s): the compiler inserts those handoffs.", strings.Join(handoff, ", "))
				}
			}
		default:
			b.WriteString("No rule applies: nothing here is built for the device.")
		}
	}
	return b.String()
}

// entryNamedAt is the entry of fns whose declared name covers off, and
// that name.
func entryNamedAt(fns []*grammar.Node, off uint32) (fn, name *grammar.Node) {
	for _, fn := range fns {
		d := cxx.FunctionDeclarator(fn)
		if d == nil {
			continue
		}
		if name := d.ChildByField("declarator"); name != nil && off >= name.Start && off <= name.End {
			return fn, name
		}
	}
	return nil, nil
}

// hoverLaunch answers a hover on the name of a kernel entry.
func (s *view) hoverLaunch(f *grammar.File, off uint32) *protocol.Hover {
	fn, name := entryNamedAt(kernelEntries(f), off)
	if fn == nil {
		// An instantiation line of macro-declared kernels.
		line, _ := f.Lines.Position(off)
		for _, k := range s.macroKernels(f) {
			if md := launchMarkdown(s.modelsOf(f.Path), f.Path, s.opts.Analyzers); k.Line == line && md != "" {
				start, end := f.Lines.LineStart(line), f.Lines.LineEnd(line)
				return markdownHover(f.Lines, start, end, "**`"+strings.Join(k.Names, "`, `")+"`** (declared by this macro instantiation)\n\n"+md)
			}
		}
		return nil
	}
	md := launchMarkdown(s.modelsOf(f.Path), f.Path, s.opts.Analyzers)
	if md == "" {
		return nil
	}
	return markdownHover(f.Lines, name.Start, name.End, "**`"+cxx.FunctionName(fn)+"`**\n\n"+md)
}

// launchLenses are the lenses above the kernel entries of a file no stub
// names: "standalone device kernel · scalar coherence by the compiler".
func (s *view) launchLenses(f *grammar.File) []codeLens {
	var out []codeLens
	for _, m := range s.modelsOf(f.Path) {
		if m.Entry != f.Path {
			continue
		}
		coherence := "scalar coherence left to the author"
		if m.Build.ScalarCoherence {
			coherence = "scalar coherence by the compiler"
		}
		title := m.Launch.Launch.Title() + " · " + coherence
		for _, fn := range kernelEntries(f) {
			start := declStart(fn)
			out = append(out, codeLens{
				Range: rangeOf(f.Lines, start, start),
				// No command: a label (the hover on the entry says more).
				Command: &protocol.Command{Title: title},
			})
		}
		// Kernels a macro instantiation declares, on its line.
		for _, k := range s.macroKernels(f) {
			start := f.Lines.LineStart(k.Line)
			out = append(out, codeLens{Range: rangeOf(f.Lines, start, start), Command: &protocol.Command{Title: strings.Join(k.Names, ", ") + " · " + title}})
		}
	}
	return out
}

// macroKernels are the kernels macro instantiations in f declare, when f
// is the entry of a unit.
func (s *view) macroKernels(f *grammar.File) []unit.MacroKernels {
	if !s.ws.Context(f.Path).Entry {
		return nil
	}
	if u := s.store.ForEntry(s.rctx, s.ws, f.Path); u != nil {
		return u.MacroKernels(f.Path)
	}
	return nil
}
