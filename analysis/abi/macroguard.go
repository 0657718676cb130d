package abi

import (
	"strings"

	"github.com/extern-lsp/extern-lsp/grammar"
)

// knownMacros are evaluated by the guard model (core type, device config,
// simulator) and so never select an ABI.
var knownMacros = map[string]bool{
	"defined": true, "__CCE_AICORE__": true, "__NPU_ARCH__": true, "__CPU_SIM": true, "__CPU_SIM__": true,
	"ASCENDC_CPU_DEBUG": true, "__CCE_KT_TEST__": true, "__cplusplus": true,
}

// abiMacroGuards returns, for a file, the byte ranges of preprocessor
// branches whose condition names a macro the guard model cannot evaluate
// (`#ifdef WITH_ROPE`): an entry may define it before including the file,
// so the branch may belong to one extern only. Include guards are not such
// branches.
func abiMacroGuards(f *grammar.File) [][2]uint32 {
	if f.Guards == nil {
		return nil
	}
	ds := f.Guards.Directives
	var out [][2]uint32
	type open struct {
		idx     int
		unknown bool
		start   uint32
	}
	var stack []open
	branchUnknown := func(i int) bool {
		d := ds[i]
		if d.Kind == "ifndef" && i+1 < len(ds) && ds[i+1].Kind == "define" && strings.TrimSpace(ds[i+1].Cond) != "" &&
			firstWordOf(ds[i+1].Cond) == strings.TrimSpace(d.Cond) {
			return false // include guard
		}
		for _, m := range d.Macros {
			if _, core := grammar.CoreMacros[m.Name]; core || knownMacros[m.Name] {
				continue
			}
			return true
		}
		return false
	}
	for i, d := range ds {
		switch d.Kind {
		case "if", "ifdef", "ifndef":
			stack = append(stack, open{idx: i, unknown: branchUnknown(i), start: d.End})
		case "elif", "else":
			if len(stack) == 0 {
				continue
			}
			top := &stack[len(stack)-1]
			if top.unknown {
				out = append(out, [2]uint32{top.start, d.Start})
			}
			// An #else of an unknown #if is as unknown as the #if.
			top.unknown = top.unknown || d.Kind == "elif" && branchUnknown(i)
			top.start = d.End
		case "endif":
			if len(stack) == 0 {
				continue
			}
			top := stack[len(stack)-1]
			if top.unknown {
				out = append(out, [2]uint32{top.start, d.Start})
			}
			stack = stack[:len(stack)-1]
		}
	}
	return out
}

func firstWordOf(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexAny(s, " \t("); i >= 0 {
		return s[:i]
	}
	return s
}

func inRanges(rs [][2]uint32, off uint32) bool {
	for _, r := range rs {
		if r[0] <= off && off < r[1] {
			return true
		}
	}
	return false
}
