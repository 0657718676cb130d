package analysis

import (
	"context"
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"github.com/extern-lsp/extern-lsp/analysis/cxx"
	"github.com/extern-lsp/extern-lsp/grammar"
)

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
	Name: "analysis.unresolved-includes",
	Compute: func(ctx context.Context, u *Unit) []UnresolvedInclude {
		var out []UnresolvedInclude
		for _, f := range u.Files {
			for _, inc := range f.Includes {
				if inc.System || IsSDKHeader(inc.Path) || u.resolves(inc.Path) {
					continue
				}
				out = append(out, UnresolvedInclude{File: f, Include: inc})
			}
		}
		return out
	},
}

// resolves reports whether some file of the unit is what an include path
// names (the workspace resolved it when it built the unit).
func (u *Unit) resolves(path string) bool {
	rel := filepath.ToSlash(filepath.Clean(path))
	for strings.HasPrefix(rel, "../") {
		rel = rel[3:]
	}
	suffix := "/" + rel
	for _, f := range u.Files {
		if strings.HasSuffix(f.Path, suffix) || f.Path == path {
			return true
		}
	}
	return false
}

// UnresolvedIncludes lists the unit's quoted includes that resolve to no
// file (not counting SDK headers): whatever they declare, the analysis
// cannot see, so a verdict that depends on it must say less.
func (u *Unit) UnresolvedIncludes() []UnresolvedInclude {
	return UnitFactOf(context.Background(), u, unresolvedKey)
}

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
	Name: "analysis.statement-uses",
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
	fu := UnitFactOf(context.Background(), u, unseenKey).of(u, f, fn)
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
	Name: "analysis.unseen",
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
	fu = u.scanUnseen(f, fn)
	ix.mu.Lock()
	ix.byFn[fn] = fu
	ix.mu.Unlock()
	return fu
}

func (u *Unit) scanUnseen(f *grammar.File, fn *grammar.Node) *fnUnseen {
	ctx := context.Background()
	fu := &fnUnseen{}
	um := u.Macros()
	var missing []string
	for _, inc := range u.UnresolvedIncludes() {
		missing = append(missing, "`"+inc.Include.Path+"`")
	}
	uses := FileFactIn(ctx, u, f, statementUsesKey)
	for i := sort.Search(len(uses), func(i int) bool { return uses[i].Start >= fn.Start }); i < len(uses) && uses[i].Start < fn.End; i++ {
		s := uses[i]
		if s.End > fn.End {
			continue
		}
		name := cxx.StatementMacro(s)
		text := "`" + strings.Join(strings.Fields(strings.TrimSuffix(strings.TrimSpace(s.Text()), ";")), " ") + "`"
		line, _ := f.Lines.Position(s.Start)
		defs := um.ByName[name]
		switch {
		case len(defs) > 0:
			for _, m := range defs {
				if m.Opaque {
					fu.macros = append(fu.macros, Unseen{File: f, Node: s, Why: fmt.Sprintf("%s (line %d) uses a macro whose body extern-lsp cannot read as statements", text, line+1)})
					break
				}
			}
		case macroLike(name) && !knownMacros[name] && !ptoInstruction(u, name) && !u.definesFunction(name):
			why := fmt.Sprintf("%s (line %d) looks like a macro whose definition is in no file of this extern", text, line+1)
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
	ifs := FileFactIn(ctx, u, f, nodeIndexKey).get("if_statement")
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

// demoteUnseen offers a finding's safe fixes as unsafe when something
// before it in its function is out of the analysis's sight (a macro it
// cannot read, a condition on an unknown template argument): that
// construct may already have done what the fix adds, or made the fixed
// code wrong (a cube that returned inside a macro never meets
// `SyncAll<false>()`). The message says why.
func (p *Pass) demoteUnseen(d *Diagnostic) {
	safe := false
	for _, fx := range d.Fixes {
		safe = safe || fx.Applicability == Safe && len(fx.Edits) > 0
	}
	if !safe || d.Code == InternalCode {
		return
	}
	f := p.fileAt(d.File)
	if f == nil {
		return
	}
	us := p.Reach().UnseenBefore(f, d.Start)
	if len(us) == 0 {
		return
	}
	for i := range d.Fixes {
		if d.Fixes[i].Applicability == Safe {
			d.Fixes[i].Applicability = Unsafe
		}
	}
	d.Unseen = us
	more := ""
	if len(us) > 1 {
		more = fmt.Sprintf(" (and %d more)", len(us)-1)
	}
	d.Message = CapMessage(d.Message + "; the fix is offered as unsafe: " + us[0].Why + more + ", and it may change what this code does")
	for _, u := range us {
		d.Related = append(d.Related, Related{File: u.File.Path, Start: u.Node.Start, End: u.Node.End, Message: CapMessage("extern-lsp could not see into this: " + u.Why)})
	}
}

// fileAt is the pass's file or the included file at path.
func (p *Pass) fileAt(path string) *grammar.File {
	if path == p.File.Path {
		return p.File
	}
	for _, inc := range p.Includes {
		if inc.Path == path {
			return inc
		}
	}
	return nil
}

// Sight counts what the analysis of a file could not see.
type Sight struct {
	// UndefinedMacros are statement uses of macro-like names with no
	// definition in any file of the unit.
	UndefinedMacros int
	// UnreadMacros are statement uses of macros the unit defines with a
	// body the analysis cannot read as statements.
	UnreadMacros int
	// TemplateConditions are conditions on template arguments the
	// analysis does not know with a return under them (the code after
	// them may not run on some instantiation).
	TemplateConditions int
}

// Add adds o's counts to s.
func (s *Sight) Add(o Sight) {
	s.UndefinedMacros += o.UndefinedMacros
	s.UnreadMacros += o.UnreadMacros
	s.TemplateConditions += o.TemplateConditions
}

// sight counts what the analysis could not see in the pass's file.
func (p *Pass) sight() Sight {
	var s Sight
	if p.File.Lang != grammar.CPP || p.File.Tree == nil {
		return s
	}
	u := p.Reach()
	for _, fn := range p.Nodes("function_definition") {
		if p.Context().Err() != nil {
			break
		}
		if cxx.EnclosingDefinition(fn) != nil {
			continue
		}
		for _, x := range u.unseen(p.File, fn, fn.End) {
			switch {
			case x.Undefined:
				s.UndefinedMacros++
			case x.Node.Kind() == "expression_statement":
				s.UnreadMacros++
			default:
				s.TemplateConditions++
			}
		}
	}
	return s
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
