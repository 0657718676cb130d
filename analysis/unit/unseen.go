package unit

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/extern-lsp/extern-lsp/analysis/cxx"
	"github.com/extern-lsp/extern-lsp/grammar"
)

// Unseen is a construct of a function that the analysis could not see
// into, so a verdict on code after it may be wrong: a macro used as a
// statement whose body it cannot read, or a condition on a template
// argument it does not know.
type Unseen struct {
	File *grammar.File
	Node *grammar.Node
	// Why says what could not be seen, for a message.
	Why string
	// Undefined is set for a macro use whose definition is in no file of
	// the unit (not for one defined but unreadable, nor for a template
	// argument).
	Undefined bool
}

// statementUsesKey lists a file's statements that may be macro uses
// (`NAME(args);`, `NAME;`), in source order.
var statementUsesKey = &FileKey[[]*grammar.Node]{
	Name: "unit.statement-uses",
	Compute: func(ctx context.Context, f *grammar.File) []*grammar.Node {
		var out []*grammar.Node
		if f.Tree == nil || f.Lang != grammar.CPP {
			return nil
		}
		for i := range f.Tree.Nodes {
			n := &f.Tree.Nodes[i]
			if n.Kind() == "expression_statement" && cxx.StatementMacro(n) != "" && cxx.EnclosingDefinition(n) != nil {
				out = append(out, n)
			}
		}
		return out
	},
}

// knownMacros are toolkit macros used as statements that neither leave the
// function nor synchronise anything: tiling accessors, task-type and tiling
// registrations, traces and assertions.
var knownMacros = map[string]bool{
	"KERNEL_TASK_TYPE_DEFAULT": true, "KERNEL_TASK_TYPE": true,
	"GET_TILING_DATA": true, "GET_TILING_DATA_WITH_STRUCT": true, "GET_TILING_DATA_MEMBER": true, "GET_TILING_DATA_PTR_WITH_STRUCT": true,
	"COPY_TILING_WITH_STRUCT": true, "COPY_TILING_WITH_ARRAY": true,
	"REGISTER_TILING_DEFAULT": true, "REGISTER_TILING_FOR_TILINGKEY": true,
	"TRACE_START": true, "TRACE_STOP": true, "ASCENDC_ASSERT": true, "ASSERT": true, "PRINTF": true,
}

// macroLike reports whether a name is spelled like a macro: capitals,
// digits and underscores, with a letter.
func macroLike(name string) bool {
	letter := false
	for i := 0; i < len(name); i++ {
		switch b := name[i]; {
		case b >= 'A' && b <= 'Z':
			letter = true
		case b >= '0' && b <= '9' || b == '_':
		default:
			return false
		}
	}
	return letter && len(name) > 1
}

// ptoInstruction reports whether a capitalised name is a pto-isa tile
// instruction (`TLOAD`, `TMATMUL_ACC`): functions of the toolkit, not
// macros.
func ptoInstruction(u *Unit, name string) bool {
	if len(name) < 3 || name[0] != 'T' {
		return false
	}
	for _, f := range u.Files {
		for _, inc := range f.Includes {
			if strings.HasPrefix(inc.Path, "pto/") || strings.HasPrefix(inc.Path, "pto-") {
				return true
			}
		}
	}
	return false
}

// UnseenBefore lists what the analysis could not see in the function
// around off of f, before off: macros used as statements whose body it
// does not read (no definition in the unit, or one that is not
// statements), and conditions on template arguments it does not know
// that enclose off or hold a return. A fix at off is safe only when this
// is empty.
func (u *Unit) UnseenBefore(f *grammar.File, off uint32) []Unseen {
	if f == nil || f.Tree == nil || f.Lang != grammar.CPP {
		return nil
	}
	at := f.Tree.NodeAt(off, off)
	if at == nil {
		return nil
	}
	fn := at
	if fn.Kind() != "function_definition" {
		fn = cxx.EnclosingDefinition(at)
	}
	if fn == nil {
		return nil
	}
	return u.unseen(f, fn, off)
}

// unseen lists what the analysis could not see in fn before off (all of
// fn when off is past it). The function's list is built once per unit
// and answered by prefix: a fix is judged per finding, and a function
// with thousands of findings must not be rescanned for each.
func (u *Unit) unseen(f *grammar.File, fn *grammar.Node, off uint32) []Unseen {
	fu := Fact(u, unseenKey).of(u, f, fn)
	var out []Unseen
	n := sort.Search(len(fu.macros), func(i int) bool { return fu.macros[i].Node.Start >= off })
	out = append(out, fu.macros[:n]...)
	for _, c := range fu.conds {
		if c.stmt.Start >= off {
			break
		}
		if c.stmt.End > off || c.returns {
			out = append(out, c.Unseen)
		}
	}
	return out
}

// unseenKey memoizes, per function of a unit, what the analysis cannot
// see in it.
var unseenKey = &UnitKey[*unseenIndex]{
	Name: "unit.unseen",
	Compute: func(ctx context.Context, u *Unit) *unseenIndex {
		return &unseenIndex{byFn: map[*grammar.Node]*fnUnseen{}}
	},
}

type unseenIndex struct {
	mu   sync.Mutex
	byFn map[*grammar.Node]*fnUnseen
}

// fnUnseen is what one function hides: statement macros the analysis
// cannot read (in source order) and `if`s on unknown template arguments.
type fnUnseen struct {
	macros []Unseen
	conds  []unseenCond
}

// unseenCond is an `if` on a template argument: it hides what follows
// inside it, and everything after it when it holds a return.
type unseenCond struct {
	Unseen
	stmt    *grammar.Node
	returns bool
}

func (ix *unseenIndex) of(u *Unit, f *grammar.File, fn *grammar.Node) *fnUnseen {
	ix.mu.Lock()
	fu, ok := ix.byFn[fn]
	ix.mu.Unlock()
	if ok {
		return fu
	}
	fu = u.scanUnseen(f, fn, 0)
	ix.mu.Lock()
	ix.byFn[fn] = fu
	ix.mu.Unlock()
	return fu
}

func (u *Unit) scanUnseen(f *grammar.File, fn *grammar.Node, depth int) *fnUnseen {
	fu := &fnUnseen{}
	um := u.Macros()
	var missing []string
	for _, inc := range u.UnresolvedIncludes() {
		missing = append(missing, "`"+inc.Include.Path+"`")
	}
	uses := FileFact(u, f, statementUsesKey)
	for i := sort.Search(len(uses), func(i int) bool { return uses[i].Start >= fn.Start }); i < len(uses) && uses[i].Start < fn.End; i++ {
		s := uses[i]
		if s.End > fn.End {
			continue
		}
		name := cxx.StatementMacro(s)
		// The statement as written and its line, for the few uses that
		// are unseen (made for every use, they were most of the scan).
		at := func() (string, int) {
			line, _ := f.Lines.Position(s.Start)
			return "`" + strings.Join(strings.Fields(strings.TrimSuffix(strings.TrimSpace(s.Text()), ";")), " ") + "`", line + 1
		}
		defs := um.ByName[name]
		switch {
		case len(defs) > 0:
			for _, m := range defs {
				if !m.Opaque {
					continue
				}
				why := "uses a macro whose body extern-lsp cannot read as statements"
				switch u.pastedSeen(s, m, depth) {
				case pastedRead:
					continue
				case pastedLeaves:
					why = "expands to a `return` that extern-lsp does not follow out of the function"
				}
				text, line := at()
				fu.macros = append(fu.macros, Unseen{File: f, Node: s, Why: fmt.Sprintf("%s (line %d) %s", text, line, why)})
				break
			}
		case macroLike(name) && !knownMacros[name] && !ptoInstruction(u, name) && !u.definesFunction(name):
			text, line := at()
			why := fmt.Sprintf("%s (line %d) looks like a macro whose definition is in no file of this extern", text, line)
			if len(missing) > 0 {
				why += " (not found: " + strings.Join(missing, ", ") + ")"
			}
			fu.macros = append(fu.macros, Unseen{File: f, Node: s, Why: why, Undefined: true})
		}
	}
	tps := cxx.TemplateParamNames(fn)
	if len(tps) == 0 {
		return fu
	}
	names := map[string]bool{}
	for _, t := range tps {
		names[t] = true
	}
	consts := u.Consts()
	ifs := u.Nodes(f, "if_statement")
	for i := sort.Search(len(ifs), func(i int) bool { return ifs[i].Start >= fn.Start }); i < len(ifs) && ifs[i].Start < fn.End; i++ {
		n := ifs[i]
		if n.End > fn.End {
			continue
		}
		cond := n.ChildByField("condition")
		if cond == nil {
			continue
		}
		if _, ok := grammar.CoreCondition(cond); ok {
			continue
		}
		param := mentionedName(cond, names)
		if param == "" {
			continue
		}
		if _, ok := consts.Eval(cond); ok {
			continue
		}
		line, _ := f.Lines.Position(n.Start)
		fu.conds = append(fu.conds, unseenCond{
			Unseen:  Unseen{File: f, Node: cond, Why: fmt.Sprintf("the condition `%s` (line %d) depends on the template argument `%s`, which extern-lsp does not know here", strings.Join(strings.Fields(cond.Text()), " "), line+1, param)},
			stmt:    n,
			returns: holdsReturn(n),
		})
	}
	return fu
}

// maxPastedDepth bounds how deep pastedSeen looks through instances
// that use other pasting macros.
const maxPastedDepth = 4

// How much of a use of a pasting macro the analysis read (pastedSeen).
const (
	pastedUnread = iota
	pastedRead
	pastedLeaves
)

// pastedSeen says whether the statement s, a use of the pasting macro m,
// is read whole (pastedRead): the unit parsed its instance
// (cxx.PastedShadows), nothing in the instance is unseen, and it does not
// leave the function (pastedLeaves: the exit model reads the returns of
// the other macros' bodies only).
func (u *Unit) pastedSeen(s *grammar.Node, m *cxx.Macro, depth int) int {
	if !m.Pastes() || depth >= maxPastedDepth {
		return pastedUnread
	}
	e := s.NamedChildren()
	if len(e) == 0 {
		return pastedUnread
	}
	c, ok := cxx.AsCall(e[0])
	if !ok {
		return pastedUnread
	}
	d, ok := u.FuncIndex().PastedInstance(c)
	if !ok {
		return pastedUnread
	}
	leaves := false
	d.Node.Walk(func(n *grammar.Node) bool {
		switch n.Kind() {
		case "lambda_expression":
			return false
		case "return_statement", "goto_statement", "co_return_statement":
			leaves = true
		}
		return !leaves
	})
	if leaves {
		return pastedLeaves
	}
	if inner := u.scanUnseen(d.File, d.Node, depth+1); len(inner.macros)+len(inner.conds) > 0 {
		return pastedUnread
	}
	return pastedRead
}

// mentionedName returns the first identifier under n that names one of
// names.
func mentionedName(n *grammar.Node, names map[string]bool) string {
	found := ""
	n.Walk(func(c *grammar.Node) bool {
		if found != "" {
			return false
		}
		if (c.Kind() == "identifier" || c.Kind() == "type_identifier") && names[c.Text()] {
			found = c.Text()
		}
		return true
	})
	return found
}

func holdsReturn(n *grammar.Node) bool {
	ds := n.Descendants()
	for i := range ds {
		if ds[i].Kind() == "return_statement" {
			return true
		}
	}
	return false
}

// definesFunction reports whether a file of the unit defines a function
// called name (a capitalised helper, `PTOAS__DCCI_SINGLE_CACHE_LINE(p)`,
// is no macro).
func (u *Unit) definesFunction(name string) bool {
	for _, f := range u.Files {
		if u.Funcs(f).Defines(name) {
			return true
		}
	}
	return false
}

// UnseenIn lists what the analysis could not see anywhere in fn of f.
func (u *Unit) UnseenIn(f *grammar.File, fn *grammar.Node) []Unseen { return u.unseen(f, fn, fn.End) }
