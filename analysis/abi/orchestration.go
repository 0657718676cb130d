package abi

import (
	"fmt"
	"regexp"
	"strings"
)

// The generated orchestration .cpp is the ground truth for packing (guide
// §7): each task's `params_tN.add_input/add_output/add_inout/add_no_dep/
// add_scalar(...)` calls are its args[] in order, and `const ChipTensor &x =
// <param>;` shows which buffer a returned value aliases.

// OrchArg is one add_* call of a task.
type OrchArg struct {
	Method string // "input", "output", "inout", "no_dep", "scalar"
	Expr   string // the argument as written
	Line   int    // 1-based
}

// Tensor reports a tensor slot.
func (a OrchArg) Tensor() bool { return a.Method != "scalar" }

// OrchAlias is `const ChipTensor &name = target;`.
type OrchAlias struct {
	Name, Target string
	Line         int
}

// OrchTask is one task's parameter block.
type OrchTask struct {
	Name  string // the kernel, from `// Task N: name` or the submit line's comment
	Var   string // params_tN
	Line  int
	Args  []OrchArg
	Alias *OrchAlias // the return alias bound to one of the task's tensors
}

// Orchestration is a parsed orchestration file.
type Orchestration struct {
	File  string
	Tasks []*OrchTask
}

var (
	orchTaskCommentRE = regexp.MustCompile(`//\s*[Tt]ask\s+\w+\s*:\s*([A-Za-z_]\w*)`)
	orchDeclRE        = regexp.MustCompile(`^\s*(?:[\w:]+)\s+(params_t\w+)\s*;`)
	orchAddRE         = regexp.MustCompile(`\b(params_t\w+)\s*\.\s*add_(input|output|inout|no_dep|scalar)\s*\((.*)\)\s*;`)
	orchSubmitRE      = regexp.MustCompile(`\w*submit\w*\s*\([^;]*\b(params_t\w+)\s*\)\s*;(?:\s*//\s*([A-Za-z_]\w*))?`)
	orchAliasRE       = regexp.MustCompile(`^\s*const\s+(?:[\w:]*Tensor)\s*&\s*(\w+)\s*=\s*([^;]+);`)
)

// ParseOrchestration reads the task blocks of a generated orchestration
// file. It is a line scanner: the generator's output is regular, and a
// file that does not parse as C++ must still be readable.
func ParseOrchestration(path string, src []byte) *Orchestration {
	o := &Orchestration{File: path}
	pending := ""
	byVar := map[string]*OrchTask{}
	var last *OrchTask
	for i, line := range strings.Split(string(src), "\n") {
		ln := i + 1
		if m := orchTaskCommentRE.FindStringSubmatch(line); m != nil && !strings.Contains(line, "params_t") {
			pending = m[1]
			continue
		}
		if m := orchDeclRE.FindStringSubmatch(line); m != nil {
			t := &OrchTask{Name: pending, Var: m[1], Line: ln}
			pending = ""
			o.Tasks = append(o.Tasks, t)
			byVar[m[1]] = t
			last = t
			continue
		}
		if m := orchAddRE.FindStringSubmatch(line); m != nil {
			t := byVar[m[1]]
			if t == nil {
				t = &OrchTask{Name: pending, Var: m[1], Line: ln}
				pending = ""
				o.Tasks = append(o.Tasks, t)
				byVar[m[1]] = t
			}
			t.Args = append(t.Args, OrchArg{Method: m[2], Expr: strings.TrimSpace(m[3]), Line: ln})
			last = t
			continue
		}
		if m := orchSubmitRE.FindStringSubmatch(line); m != nil {
			if t := byVar[m[1]]; t != nil && t.Name == "" && m[2] != "" {
				t.Name = m[2]
			}
			continue
		}
		if m := orchAliasRE.FindStringSubmatch(line); m != nil && last != nil && last.Alias == nil {
			target := strings.TrimSpace(m[2])
			for _, a := range last.Args {
				if a.Tensor() && a.Expr == target {
					last.Alias = &OrchAlias{Name: m[1], Target: target, Line: ln}
					break
				}
			}
		}
	}
	return o
}

// Difference is one disagreement between a stub's table and a task.
type Difference struct {
	Slot    int // -1 for the whole task
	Line    int
	Message string
}

// normName strips the generator's decorations: ext_q, q_tnd, q_ssa, q_ci.
func normName(e string) string {
	e = strings.TrimSpace(strings.TrimPrefix(e, "&"))
	if i := strings.IndexAny(e, "(.["); i >= 0 {
		e = e[:i]
	}
	e = strings.TrimPrefix(e, "ext_")
	for _, suf := range []string{"_tnd", "_ssa", "_ci", "_tensor"} {
		e = strings.TrimSuffix(e, suf)
	}
	return e
}

// Compare reports where a task's packing disagrees with the stub-derived
// table: the number of tensors and scalars, the kind and direction of each
// slot, arguments whose name says they belong to another slot, and a
// return alias bound to a different slot than the stub's return binding.
func Compare(s *Stub, t *OrchTask) []Difference {
	var out []Difference
	tensors, scalars := 0, 0
	for _, a := range t.Args {
		if a.Tensor() {
			tensors++
		} else {
			scalars++
		}
	}
	if tensors != s.Tensors || scalars != s.Scalars {
		out = append(out, Difference{Slot: -1, Line: t.Line, Message: fmt.Sprintf("the task packs %d tensors + %d scalars; the stub declares %d + %d", tensors, scalars, s.Tensors, s.Scalars)})
	}
	seenScalar := false
	for i, a := range t.Args {
		if !a.Tensor() {
			seenScalar = true
		} else if seenScalar {
			out = append(out, Difference{Slot: i, Line: a.Line, Message: fmt.Sprintf("args[%d]: tensor `add_%s(%s)` after a scalar: pypto packs every tensor before the first scalar", i, a.Method, a.Expr)})
		}
		p, ok := s.BySlot(i)
		if !ok {
			out = append(out, Difference{Slot: i, Line: a.Line, Message: fmt.Sprintf("args[%d]: `add_%s(%s)` has no parameter in the stub (it has %d args)", i, a.Method, a.Expr, s.Count())})
			continue
		}
		switch {
		case a.Tensor() != (p.Kind == Tensor):
			out = append(out, Difference{Slot: i, Line: a.Line, Message: fmt.Sprintf("args[%d]: the orchestration passes %s `add_%s(%s)`, the stub has %s `%s` there", i, kindWord(a.Tensor()), a.Method, a.Expr, p.Kind, p.Name)})
			continue
		case a.Tensor() && a.Method != "no_dep" && a.Method != p.Dir.orchMethod():
			out = append(out, Difference{Slot: i, Line: a.Line, Message: fmt.Sprintf("args[%d]: the orchestration passes `add_%s(%s)`, the stub declares `%s` as %s", i, a.Method, a.Expr, p.Name, dirWord(p.Dir))})
		}
		if n := normName(a.Expr); n != p.Name {
			if q, ok := s.Param(n); ok && q.Slot != i {
				out = append(out, Difference{Slot: i, Line: a.Line, Message: fmt.Sprintf("args[%d]: `%s` looks like `%s` (args[%d] in the stub), but the stub has `%s` at args[%d]", i, a.Expr, q.Name, q.Slot, p.Name, i)})
			}
		}
	}
	if t.Alias != nil && s.Return != nil {
		for i, a := range t.Args {
			if !a.Tensor() || a.Expr != t.Alias.Target {
				continue
			}
			if i != s.Return.Slot {
				out = append(out, Difference{Slot: i, Line: t.Alias.Line, Message: fmt.Sprintf("return alias `%s = %s` binds args[%d], but the stub's return binding is args[%d] `%s` (its first output-like parameter)", t.Alias.Name, t.Alias.Target, i, s.Return.Slot, s.Return.Name)})
			} else if q, ok := s.Param(normName(a.Expr)); ok && q != s.Return {
				out = append(out, Difference{Slot: i, Line: t.Alias.Line, Message: fmt.Sprintf("return alias `%s = %s` binds args[%d], the stub's returned `%s`, but the buffer passed there looks like `%s`: downstream tasks read `%s`", t.Alias.Name, t.Alias.Target, i, s.Return.Name, q.Name, a.Expr)})
			}
			break
		}
	}
	return out
}

func kindWord(tensor bool) string {
	if tensor {
		return "a tensor"
	}
	return "a scalar"
}

func dirWord(d Direction) string {
	switch d {
	case Out:
		return "pl.Out"
	case InOut:
		return "pl.InOut"
	}
	return "an input"
}

func (d Direction) orchMethod() string {
	switch d {
	case Out:
		return "output"
	case InOut:
		return "inout"
	}
	return "input"
}
