package unit

import (
	"fmt"
	"strings"

	"github.com/extern-lsp/extern-lsp/analysis/cxx"
	"github.com/extern-lsp/extern-lsp/grammar"
)

// Whether two nodes can run in one execution, and why not: the one
// answer the rules ask, each with the strength its premise needs. Two
// TPipes (EXT003) or an effect and a read (EXT001, EXT009) clash only on
// a core that runs both: ApartInRun. A flag id and the SyncAll reserving
// it (EXT005) clash on any core of a launch running either, so they are
// apart only when the compile (or a value every core of the launch reads
// alike, such as a tiling key: Launched) chooses between them:
// (*Exec).Apart; EXT014's two sets of one flag likewise. Two
// returns that together let every core leave (EXT011): Complements.

// Apart says why two nodes never run in one execution.
type Apart uint8

const (
	Together      Apart = iota // no reason found: some execution may run both
	PPBranch                   // other branches of an #if test
	OneIf                      // the two sides of one if
	SameTest                   // ifs on one test taken each way, on names the function never assigns
	CompileChoice              // a compile-time choice taken each way on every path to them
)

// Test is one condition a node runs under in its function.
type Test struct {
	// Key is the test normalised (no blanks or outer parentheses; `!x`
	// is x not holding, `a >= b` is a < b not holding), On whether it
	// holds where the node runs.
	Key string
	On  bool
	// If is the if statement or #if/#elif/#ifdef node; Alt says the
	// node is in its alternative; Cond is the expression tested.
	If   *grammar.Node
	Alt  bool
	Cond *grammar.Node
	// Whole marks a taken conjunction's own test, listed besides its
	// conjuncts.
	Whole bool
	// Case is the label of the switch case the node runs in ("default"),
	// "" for an if or #if: If is then the switch, Key its value's text,
	// On true. A case control can fall into from the one above is none.
	Case string
}

// PP reports whether t is a preprocessor test.
func (t Test) PP() bool { return strings.HasPrefix(t.If.Kind(), "preproc") }

// TestsOf lists the tests n runs under in fn, innermost first: each if
// and #if branch up to fn, a taken `&&` also as its conjuncts. limit > 0
// stops after that many if statements (complete false).
func TestsOf(n, fn *grammar.Node, limit int) (out []Test, complete bool) {
	ifs := 0
	for child, q := n, n.Parent(); q != nil && q != fn; child, q = q, q.Parent() {
		field := child.Field()
		var cond *grammar.Node
		switch q.Kind() {
		case "if_statement":
			if field != "consequence" && field != "alternative" {
				continue
			}
			if ifs++; limit > 0 && ifs > limit {
				return out, false
			}
			cond = cxx.ConditionOf(q)
		case "preproc_if", "preproc_elif":
			if field == "condition" {
				continue
			}
			cond = q.ChildByField("condition")
		case "preproc_ifdef":
			name := q.ChildByField("name")
			if field == "name" || name == nil {
				continue
			}
			on := field != "alternative"
			if strings.HasPrefix(q.Text(), "#ifndef") {
				on = !on
			}
			out = append(out, Test{Key: "defined(" + name.Text() + ")", On: on, If: q, Alt: field == "alternative", Cond: name})
			continue
		case "case_statement":
			sw := q.Parent().Parent()
			if field == "value" || sw == nil || sw.Kind() != "switch_statement" || fallsInto(q) {
				continue
			}
			label := "default"
			if v := q.ChildByField("value"); v != nil {
				label = strings.Join(strings.Fields(v.Text()), "")
			}
			if cond = cxx.ConditionOf(sw); cond != nil {
				key, _ := testKey(cond.Text())
				out = append(out, Test{Key: key, On: true, If: sw, Cond: cond, Case: label})
			}
			continue
		default:
			continue
		}
		if cond != nil {
			out = addTests(out, cond, field != "alternative", Test{If: q, Alt: field == "alternative"})
		}
	}
	return out, true
}

// fallsInto reports whether control can fall into case c from the case
// above it: that one ends in no break, return, continue or goto (`case 3:
// case 4: C();`, or a body that runs on).
func fallsInto(c *grammar.Node) bool {
	prev := c.PrevSibling()
	for prev != nil && prev.Kind() == "comment" {
		prev = prev.PrevSibling()
	}
	if prev == nil || prev.Kind() != "case_statement" {
		return false
	}
	last := prev
	for {
		kids := last.NamedChildren()
		i := len(kids) - 1
		for i >= 0 && kids[i].Kind() == "comment" {
			i--
		}
		if i < 0 || kids[i].Field() == "value" {
			return true
		}
		switch last = kids[i]; last.Kind() {
		case "break_statement", "return_statement", "continue_statement", "goto_statement", "throw_statement":
			return false
		case "compound_statement":
		default:
			return true
		}
	}
}

// addTests appends test e holding (on) to out: a taken `&&` as its
// conjuncts and itself, a comparison keyed one way round.
func addTests(out []Test, e *grammar.Node, on bool, at Test) []Test {
	e = cxx.Unparen(e)
	if e == nil {
		return out
	}
	at.Cond = e
	if op := e.ChildByField("operator"); e.Kind() == "binary_expression" && op != nil {
		l, r := e.ChildByField("left"), e.ChildByField("right")
		switch k := op.Kind(); k {
		case "&&":
			if on {
				out = addTests(out, l, true, at)
				out = addTests(out, r, true, at)
				at.Whole = true
			}
		case "<", ">=", ">", "<=", "==", "!=":
			// a >= b is the negation of a < b: one key for both.
			at.Key, _ = testKey(l.Text() + sameWay[k] + r.Text())
			at.On = on == (k == "<" || k == ">" || k == "==")
			return append(out, at)
		}
	}
	var pos bool
	at.Key, pos = testKey(e.Text())
	at.On = on == pos
	return append(out, at)
}

var sameWay = map[string]string{"<": "<", ">=": "<", ">": ">", "<=": ">", "==": "==", "!=": "=="}

// testKey normalises a test: no spaces or outer parentheses, a leading
// `!` read as the other branch.
func testKey(t string) (string, bool) {
	t = strings.Join(strings.Fields(t), "")
	on := true
	for {
		switch {
		case strings.HasPrefix(t, "!"):
			t, on = t[1:], !on
		case strings.HasPrefix(t, "(") && strings.HasSuffix(t, ")") && balanced(t[1:len(t)-1]):
			t = t[1 : len(t)-1]
		default:
			return t, on
		}
	}
}

func balanced(s string) bool {
	d := 0
	for _, c := range s {
		switch c {
		case '(':
			d++
		case ')':
			if d--; d < 0 {
				return false
			}
		}
	}
	return d == 0
}

// ApartInRun says why no one core's run of fn reaches both a and b: they
// sit in other branches of an #if, on the two sides of one if or in two
// cases of one switch, or under ifs (switches) testing one condition each
// way (on other labels) whose names fn never assigns (`if (incy == 1)
// DataCopyPad(y[i], ...);` then `if (incy != 1) y.GetValue(j);`, incy set
// once in Init). Other cores may run the other.
func ApartInRun(a, b, fn *grammar.Node) Apart {
	ta, _ := TestsOf(a, fn, 0)
	if len(ta) == 0 {
		return Together
	}
	tb, _ := TestsOf(b, fn, 0)
	for _, y := range tb {
		for _, x := range ta {
			otherCase := x.Case != "" && y.Case != "" && x.Case != y.Case
			switch {
			case x.If == y.If && (x.Alt != y.Alt || otherCase) && !x.PP():
				return OneIf
			case x.If == y.If && x.Alt != y.Alt, x.Key == y.Key && x.On != y.On && x.PP() && y.PP():
				return PPBranch
			case x.Key != y.Key || x.On == y.On && !otherCase || y.PP():
			default:
				names := map[string]bool{}
				x.Cond.Walk(func(n *grammar.Node) bool {
					if k := n.Kind(); k == "identifier" || k == "field_identifier" {
						names[n.Text()] = true
					}
					return true
				})
				if !AssignsAny(fn, names) {
					return SameTest
				}
			}
		}
	}
	return Together
}

// AssignsAny reports whether scope assigns or steps one of names (a
// variable or a member).
func AssignsAny(scope *grammar.Node, names map[string]bool) bool {
	if len(names) == 0 {
		return false
	}
	for _, kind := range []string{"update_expression", "assignment_expression"} {
		for _, e := range scope.Tree().OfKind(kind) {
			target := e.ChildByField("argument")
			if kind == "assignment_expression" {
				target = e.ChildByField("left")
			}
			if target != nil && target.Kind() == "field_expression" {
				target = target.ChildByField("field") // `this->i++`: the member
			}
			if target != nil && names[target.Text()] && scope.Contains(e) {
				return true
			}
		}
	}
	return false
}

// Literals are the if tests a statement runs under in its function, each
// conjunct of a taken test on its own, as key -> whether it holds.
type Literals map[string]bool

// LiteralsOf lists n's, nil deeper than 8 ifs (an else-if chain: each
// statement would list the whole chain).
func LiteralsOf(n, fn *grammar.Node) Literals {
	ts, ok := TestsOf(n, fn, 8)
	if !ok {
		return nil
	}
	out := Literals{}
	for _, t := range ts {
		if !t.Whole && !t.PP() && t.Case == "" {
			out[t.Key] = t.On
		}
	}
	return out
}

// Complements reports whether a and b are the same tests but for one
// each takes the other way: where the tests they share hold, one of the
// two runs, whichever way the last goes (`if (idx >= n && !det)` and `if
// (idx < n) { if (!det) ... }`).
func (a Literals) Complements(b Literals) bool {
	if len(a) != len(b) {
		return false
	}
	flipped := 0
	for k, v := range a {
		w, ok := b[k]
		switch {
		case !ok:
			return false
		case v != w:
			flipped++
		}
	}
	return flipped == 1
}

// Exec answers which compile-time choices a node of a unit runs under,
// along its callers, memoized for one rule's run.
type Exec struct {
	u      *Unit
	funcs  *cxx.Funcs
	consts *cxx.Resolver
	files  map[*grammar.Tree]*grammar.File
	byFn   map[*grammar.Node][]choices
	vm     *VarianceModel // nil: no launch choices (Launched)
	on     map[*grammar.Node]grammar.Cores
}

// choice is one compile-time choice: the test (scoped to the class or
// function whose template parameters it reads) and the branch taken, or
// the kernel entry ("entry", name).
type choice struct{ key, value string }

type choices []choice

// maxPaths bounds the alternatives kept for one node; past it the node
// is taken to run on every path.
const maxPaths = 64

// Exec returns a fresh compile-choice answer for u.
func (u *Unit) Exec() *Exec {
	x := &Exec{u: u, funcs: u.FuncIndex(), consts: u.Consts(), files: map[*grammar.Tree]*grammar.File{},
		byFn: map[*grammar.Node][]choices{}}
	for _, f := range u.CodeFiles() {
		x.files[f.Tree] = f
	}
	return x
}

// Apart reports CompileChoice when no core of one launch runs both a and
// b: on every pair of ways to reach them a compile-time choice (#if, `if
// constexpr`, a test of template parameters, constants or tiling keys
// alone, the kernel entry) goes each way (`if constexpr (det) SyncAll();
// else HandMadeBarrier();`, one kernel of a file not running another's
// code; with Launched, a kernel entry's switch on its tiling key).
func (x *Exec) Apart(a, b *grammar.Node) Apart {
	pa, pb := x.of(a, 0), x.of(b, 0)
	for _, p := range pa {
		for _, q := range pb {
			if !p.contradicts(q) {
				return Together
			}
		}
	}
	return CompileChoice
}

func (g choices) contradicts(h choices) bool {
	for _, x := range g {
		for _, y := range h {
			if x.key == y.key && x.value != y.value {
				return true
			}
		}
	}
	return false
}

// of returns the paths to n: its own choices, joined with each path to
// its function.
func (x *Exec) of(n *grammar.Node, depth int) []choices {
	fn := cxx.EnclosingFunction(n)
	local := x.local(n, fn)
	if fn == nil {
		return []choices{local}
	}
	above := x.function(fn, depth)
	out := make([]choices, 0, len(above))
	for _, a := range above {
		out = append(out, append(append(choices(nil), local...), a...))
	}
	return out
}

// function returns the paths to fn: the kernel entry it is, or those of
// each call of it in the unit.
func (x *Exec) function(fn *grammar.Node, depth int) []choices {
	if g, ok := x.byFn[fn]; ok {
		return g
	}
	x.byFn[fn] = []choices{nil} // a recursive call: any path
	var out []choices
	name := cxx.FunctionName(fn)
	if f := x.files[fn.Tree()]; f != nil && IsKernelFunc(f, fn) {
		out = []choices{{{"entry", name}}}
	} else if depth < 6 && name != "" {
		for _, f := range x.u.CodeFiles() {
			for _, site := range x.u.Calls(f).Named(name) {
				if !x.calls(site, fn) {
					continue
				}
				out = append(out, x.of(site, depth+1)...)
				if len(out) > maxPaths {
					out = nil
					break
				}
			}
		}
	}
	if len(out) == 0 {
		out = []choices{nil} // no caller found, or too many paths: any
	}
	x.byFn[fn] = out
	return out
}

// CalledOn returns the cores that run fn: those whose guards hold around
// its calls in the unit, along its callers (every core for a kernel
// entry, a function called nowhere, or past a few callers).
func (x *Exec) CalledOn(fn *grammar.Node) grammar.Cores {
	return x.calledOn(fn, 0)
}

func (x *Exec) calledOn(fn *grammar.Node, depth int) grammar.Cores {
	if c, ok := x.on[fn]; ok {
		return c
	}
	if x.on == nil {
		x.on = map[*grammar.Node]grammar.Cores{}
	}
	x.on[fn] = grammar.Both // a recursive call: any
	out := grammar.None
	name := cxx.FunctionName(fn)
	if f := x.files[fn.Tree()]; f == nil || IsKernelFunc(f, fn) || depth >= 6 || name == "" {
		out = grammar.Both
	} else {
		for _, f := range x.u.CodeFiles() {
			for _, site := range x.u.Calls(f).Named(name) {
				if out == grammar.Both {
					break
				}
				if x.calls(site, fn) {
					c := f.CoresOf(site)
					if caller := cxx.EnclosingFunction(site); caller != nil {
						c &= x.calledOn(caller, depth+1)
					}
					out |= c
				}
			}
		}
		if out == grammar.None {
			out = grammar.Both // no caller found
		}
	}
	x.on[fn] = out
	return out
}

// calls reports whether call site may call fn: a method of another class
// is not called through an object declared of this one's, nor
// unqualified from a class that has its own method of that name.
func (x *Exec) calls(site, fn *grammar.Node) bool {
	c, ok := cxx.AsCall(site)
	caller := cxx.EnclosingFunction(site)
	if !ok || caller == nil || caller == fn {
		return false
	}
	cls := cxx.ClassOf(fn)
	if cls == "" {
		return c.Receiver == nil
	}
	r := cxx.Unparen(c.Receiver)
	switch {
	case r == nil || r.Kind() == "this":
		from := cxx.ClassOf(caller)
		if from == "" || from == cls {
			return true
		}
		for _, d := range x.funcs.Lookup(c.Name) {
			if cxx.ClassOf(d.Node) == from {
				return false
			}
		}
		return true
	case r.Kind() == "identifier":
		t := localType(caller, r)
		if t == "" || t == "auto" {
			return true
		}
		// `ns::Kernel<T> op;` calls the Kernel of namespace ns, not a
		// class of that name in another namespace.
		ns, own := namespaceOf(t), cxx.EnclosingNamespace(fn)
		return cxx.BaseName(t) == cls && (ns == "" || own == "" || ns == own)
	}
	return true
}

// localType is the type a local named like r is declared with before r
// in fn (`ns::Kernel<T, 2> op;`), "" when none is.
func localType(fn, r *grammar.Node) string {
	d, _ := cxx.LocalDecl(r.Text(), r, fn)
	if d == nil {
		return ""
	}
	if t := d.Parent().ChildByField("type"); t != nil {
		return t.Text()
	}
	return ""
}

// namespaceOf is the innermost scope qualifying a type's name
// ("a::ns::Kernel<T>" -> "ns"), "" when it has none.
func namespaceOf(t string) string {
	if i := strings.IndexByte(t, '<'); i >= 0 {
		t = t[:i]
	}
	i := strings.LastIndex(t, "::")
	if i < 0 {
		return ""
	}
	return cxx.BaseName(t[:i])
}

// local lists the compile-time choices of the tests n runs under in fn:
// #if groups, ifs and switches decided when the kernel is compiled, and
// those the kernel entry decides once per launch (launchChoice).
func (x *Exec) local(n, fn *grammar.Node) choices {
	var out choices
	ts, _ := TestsOf(n, fn, 0)
	for _, t := range ts {
		if x.vm != nil && coreTest(t) {
			// The cube and the vector cores of one launch take the two
			// ways of a core-type test.
			continue
		}
		switch {
		case t.PP():
			out = append(out, choice{"#" + t.Key, t.way()})
		case x.compileTime(t.If, fn):
			out = append(out, choice{scope(fn) + t.Key, t.way()})
		case x.launchChoice(t.If, fn):
			out = append(out, choice{fmt.Sprintf("@%p:%d", t.If.Tree(), t.If.Start), t.way()})
		}
	}
	return out
}

// way names the branch t takes: a case's label, or whether the test holds.
func (t Test) way() string {
	if t.Case != "" {
		return "case " + t.Case
	}
	if t.On {
		return "1"
	}
	return "0"
}

// Launched makes x also take as choices the ifs and switches of a kernel
// entry that every core of a launch decides alike, once (launchChoice),
// as vm judges their values: a `switch (tiling.key)` running one kernel
// class per launch.
func (x *Exec) Launched(vm *VarianceModel) *Exec {
	x.vm = vm
	return x
}

// coreTest reports whether t tests the core type, in whole or in part
// (`#ifdef __DAV_C220_CUBE__`, `if (ASCEND_IS_AIV && k == 1)`).
func coreTest(t Test) bool {
	if t.PP() {
		for name := range grammar.CoreMacros {
			if strings.Contains(t.Key, name) {
				return true
			}
		}
		return false
	}
	found := false
	if cond := t.If.ChildByField("condition"); cond != nil {
		cond.Walk(func(n *grammar.Node) bool {
			_, core := grammar.CoreCondition(n)
			found = found || core
			return !found
		})
	}
	return found
}

// launchChoice reports whether if or switch q of fn goes one way on every
// core of a launch: fn is the kernel entry (called once per core), q is
// in no loop of it, and its test reads nothing that differs between cores
// or that the unit cannot see (tiling fields, arguments, core counts).
func (x *Exec) launchChoice(q, fn *grammar.Node) bool {
	if x.vm == nil || fn == nil {
		return false
	}
	if f := x.files[fn.Tree()]; f == nil || !IsKernelFunc(f, fn) {
		return false
	}
	for p := q.Parent(); p != nil && p != fn; p = p.Parent() {
		switch p.Kind() {
		case "for_statement", "for_range_loop", "while_statement", "do_statement", "lambda_expression":
			return false
		}
	}
	return x.vm.Condition(q, grammar.Both)&(PerCore|VarOpaque) == 0
}

// compileTime reports whether if statement q is decided when the kernel
// is compiled: `if constexpr`, or a test of template parameters,
// constants and tiling keys (`TILING_KEY_IS(k)`) alone.
func (x *Exec) compileTime(q, fn *grammar.Node) bool {
	if q.ChildOfKind("constexpr") != nil {
		return true
	}
	cond := cxx.ConditionOf(q)
	if cond == nil {
		return false
	}
	ok := true
	cond.Walk(func(n *grammar.Node) bool {
		switch n.Kind() {
		case "call_expression":
			c, isCall := cxx.AsCall(n)
			ok = ok && isCall && c.Receiver == nil && strings.HasPrefix(c.Name, "TILING_KEY_")
			return false
		case "identifier":
			if _, known := x.consts.Eval(n); !known && (fn == nil || !cxx.IsTemplateParam(fn, n.Text())) {
				ok = false
			}
		case "field_expression", "subscript_expression", "pointer_expression", "assignment_expression", "update_expression":
			ok = false
		}
		return ok
	})
	return ok
}

// scope names what a test's template parameters belong to: the class of
// a method (its out-of-class definitions share them), else the function.
func scope(fn *grammar.Node) string {
	if fn == nil {
		return ""
	}
	if cls := cxx.ClassOf(fn); cls != "" {
		return cls + ":"
	}
	return cxx.FunctionName(fn) + ":"
}
