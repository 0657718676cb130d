package abi

import (
	"fmt"
	"path/filepath"
	"strings"
)

// Markdown renders the args[] table of each stub, for hover and the
// editor's "Show args table".
func Markdown(stubs ...*Stub) string {
	var b strings.Builder
	for i, s := range stubs {
		if i > 0 {
			b.WriteString("\n---\n\n")
		}
		fmt.Fprintf(&b, "**`%s`** (core_type=`%s`%s) in `%s`: %s\n\n", s.Name, coreTypeText(s), dualText(s), filepath.Base(s.File), s.PackText())
		b.WriteString("| args[] | parameter | kind | dir | dtype | signature pos |\n|---:|---|---|---|---|---:|\n")
		for k := 0; k < s.Count(); k++ {
			p, ok := s.BySlot(k)
			if !ok {
				continue
			}
			name := "`" + p.Name + "`"
			if s.Return == p {
				name += " ⟵ returned"
			}
			fmt.Fprintf(&b, "| %d | %s | %s | %s | %s | %d |\n", p.Slot, name, p.Kind, p.Dir, orDash(p.DType), p.Pos)
		}
		if s.Scalars > 0 && s.Tensors > 0 {
			fmt.Fprintf(&b, "\nTensors occupy args[0..%d]; scalars start at args[%d] — packing is tensors first, then scalars, not signature order (guide §2).\n", s.Tensors-1, s.Tensors)
		}
		if s.Return != nil {
			if n := len(s.OutputLike()); n > 1 && !s.MultiReturn {
				fmt.Fprintf(&b, "\nThe single return binds `%s`, the first of %d output-like parameters.\n", s.Return.Name, n)
			}
		}
		includeDirsText(&b, s)
	}
	return b.String()
}

// includeDirsText lists the stub's include_dirs as evaluated: the folders
// searched, and each entry that could not be evaluated with its reason
// (headers found only there are unresolved).
func includeDirsText(b *strings.Builder, s *Stub) {
	if len(s.IncludeDirs) == 0 {
		return
	}
	b.WriteString("\ninclude_dirs:\n")
	seen := map[string]bool{}
	for _, d := range s.IncludeDirs {
		line := "- `" + d.Path + "`"
		if d.Path == "" {
			line = "- not evaluated: `" + d.Expr + "` (" + d.Reason + ")"
		}
		if !seen[line] {
			seen[line] = true
			b.WriteString(line + "\n")
		}
	}
}

func coreTypeText(s *Stub) string {
	if s.CoreType == "" {
		return "?"
	}
	return s.CoreType
}

func dualText(s *Stub) string {
	if s.DualAIVDispatch {
		return ", dual_aiv_dispatch"
	}
	return ""
}

// PackText is "7 tensors + 1 scalar".
func (s *Stub) PackText() string {
	plural := func(n int, w string) string {
		if n == 1 {
			return "1 " + w
		}
		return fmt.Sprintf("%d %ss", n, w)
	}
	return plural(s.Tensors, "tensor") + " + " + plural(s.Scalars, "scalar")
}

func orDash(s string) string {
	if s == "" {
		return "—"
	}
	return s
}
