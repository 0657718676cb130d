package unit

import (
	"context"
	"maps"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/extern-lsp/extern-lsp/analysis/cxx"
	"github.com/extern-lsp/extern-lsp/analysis/workspace"
	"github.com/extern-lsp/extern-lsp/grammar"
)

// The variance model answers one question for the synchronisation rules: can a
// value (a branch condition) differ between the cores that meet at a
// barrier or a flag? EXT011 asks it for every core of the launch, EXT010
// for the two vector lanes of one cluster. A value differs when it reads a
// core's identity (block, sub-block, lane id), directly or through locals,
// members, helper returns and parameters, or memory each core reads for
// itself; a value built only from constants, template arguments, args
// slots, tiling fields and core counts is the same everywhere.

// variance is the set of reasons a value can differ between cores.
type Variance uint8

const (
	// varBlock: reads the block id (`get_block_idx(args)`, `GetBlockIdx()`):
	// differs between blocks; the cube and the two lanes of one block
	// agree.
	VarBlock Variance = 1 << iota
	// varLane: reads the sub-block (vector lane) id: differs between the
	// two lanes of one block.
	VarLane
	// varNamed: a parameter or member no definition in the unit gives a
	// value, named for the core's own id (`blockIdx_`, `coreId`).
	VarNamed
	// varData: read from a buffer each core holds for itself (its UB).
	VarData
	// varOpaque: computed by a call the unit does not define.
	VarOpaque
)

// perCore is every reason a value can differ between the cores of the
// launch, as far as the analysis can see.
const PerCore = VarBlock | VarLane | VarNamed | VarData

// laneGetters read the vector lane id within a cluster; blockGetters the
// block id (shared by the cube and its two lanes); uniformGetters values
// every core of the task reads alike.
var (
	laneGetters    = map[string]bool{"get_sub_block_id": true, "GetSubBlockIdx": true, "get_subblockid": true}
	blockGetters   = map[string]bool{"get_block_idx": true, "GetBlockIdx": true}
	uniformGetters = map[string]bool{"get_block_num": true, "GetBlockNum": true, "get_subblockdim": true,
		"GetSubBlockNum": true, "get_sub_block_num": true, "GetTaskRation": true, "GetTaskRatio": true,
		"GetSysWorkSpacePtr": true}
	// pureCalls compute their result from their arguments alone.
	pureCalls = map[string]bool{"static_cast": true, "reinterpret_cast": true, "const_cast": true, "from_u64": true,
		"bit_cast": true, "min": true, "max": true, "Min": true, "Max": true, "abs": true, "CeilDiv": true,
		"DivCeil": true, "Ceil": true, "CeilAlign": true, "AlignUp": true, "Align": true, "RoundUp": true,
		"RoundDown": true, "sizeof": true, "likely": true, "unlikely": true,
		// Tests the launch's one tiling key against its argument; the user
		// part of the launch's workspace argument.
		"TILING_KEY_IS": true, "GetUserWorkspace": true}
)

// varianceKey is a unit's variance model.
var varianceKey = &UnitKey[*variances]{
	Name: "unit.variance",
	Compute: func(ctx context.Context, u *Unit) *variances {
		m := &variances{u: u, consts: u.Consts(), funcs: u.FuncIndex(),
			files: map[*grammar.Tree]*grammar.File{}, memo: map[vkey]Variance{}, partial: map[vkey]Variance{}, busy: map[vkey]bool{},
			locals: map[*grammar.Node]*fnLocals{}}
		for _, f := range u.CodeFiles() {
			m.files[f.Tree] = f
		}
		return m
	},
}

// Variance returns the unit's variance model, its work counted by spend
// (a rule's Pass.Spend: the expressions it visits are steps of the rule
// asking).
func (u *Unit) Variance(spend func(n int) bool) *VarianceModel {
	return &VarianceModel{variances: Fact(u, varianceKey), spend: spend}
}

// KnownCall reports whether the variance model knows what a call of name
// returns without its definition: a core's id, a count every core reads
// alike, or a function of its arguments.
func KnownCall(name string) bool {
	return laneGetters[name] || blockGetters[name] || uniformGetters[name] || pureCalls[name]
}

// varianceModel is a rule's view of the closure's variances: the
// expressions it visits to answer are steps of the rule asking (the
// model is the file's own, asked by its rules in their order, so the
// count is the same on every run), and a question past the rule's steps
// is left unanswered, not remembered.
type VarianceModel struct {
	*variances
	spend func(n int) bool
}

// variances computes variances lazily; it is shared by every pass on the
// unit, so one lock guards it.
type variances struct {
	u      *Unit
	consts *cxx.Resolver
	funcs  *cxx.Funcs
	files  map[*grammar.Tree]*grammar.File

	mu      sync.Mutex
	memo    map[vkey]Variance
	partial map[vkey]Variance
	busy    map[vkey]bool
	locals  map[*grammar.Node]*fnLocals
	members map[string][]memberDef
	fields  map[*grammar.Node]map[string]bool // class body -> its data members
	bases   map[string][]string               // class -> the classes it derives from
	callers map[string][]*grammar.Node
	counts  map[string]workspace.LaunchCount // nil: not read yet
	others  map[string]workspace.LaunchCount // fields the host launches another count past
	// asked is the function of the expression Getter was asked about;
	// kernels the kernels reaching each function (nil: any), exec the
	// unit's callers (kernelsOf).
	asked   *grammar.Node
	kernels map[*grammar.Node]map[*grammar.Node]bool
	exec    *Exec
	cuts    int
	// stopped is set once the asking rule's steps are spent: nothing
	// computed after it is remembered.
	stopped bool
}

// vkey memoizes one question: a function's returns, a local declaration,
// a parameter or a member (by name), in a context.
type vkey struct {
	kind byte
	n    *grammar.Node
	s    string
}

// memoized answers the question key once. A question met again while it
// is being answered (a cycle through assignments or calls) counts as
// uniform there, and answers computed through such a cut are not kept:
// they may miss what the rest of the cycle adds. Until the outermost
// question is answered they are reused as they are (partial), so each
// question is computed once per outermost one: recomputing them made
// the members of a large class assigned from each other exponential (a
// 60 KB flash-attention header ran for minutes). Variances only union,
// so the outermost answer still collects everything its questions reach.
func (m *VarianceModel) memoized(key vkey, compute func() Variance) Variance {
	if v, ok := m.memo[key]; ok {
		return v
	}
	if v, ok := m.partial[key]; ok {
		m.cuts++ // an answer built on a partial one is partial too
		return v
	}
	if m.busy[key] {
		m.cuts++
		return 0
	}
	m.busy[key] = true
	cuts := m.cuts
	v := compute()
	delete(m.busy, key)
	switch {
	case m.stopped:
	case m.cuts == cuts || len(m.busy) == 0:
		m.memo[key] = v
	default:
		m.partial[key] = v
	}
	if len(m.busy) == 0 {
		clear(m.partial)
	}
	return v
}

// maxVarianceDepth bounds the hops between functions (callers, callees,
// member definitions) one question follows.
const maxVarianceDepth = 6

// vctx is where an expression is evaluated: its function, the cores that
// compile it, and the variances of the function's parameters when a
// caller bound them (nil: from the function's callers).
type vctx struct {
	fn     *grammar.Node
	cores  grammar.Cores
	params map[string]Variance
	// self is the variance of the object a method runs on, when the call
	// being followed names it (a local object, a parameter, or a field of
	// the object the caller itself runs on): the method's reads of its
	// class's fields read that object's state, not every object's
	// fields of that name.
	self  Variance
	bound bool
}

func (c vctx) key() string {
	if c.params == nil && !c.bound {
		return ""
	}
	ks := make([]string, 0, len(c.params)+1)
	for k, v := range c.params {
		ks = append(ks, k+"="+strconv.Itoa(int(v)))
	}
	sort.Strings(ks)
	if c.bound {
		ks = append(ks, "self="+strconv.Itoa(int(c.self)))
	}
	return strings.Join(ks, ",")
}

// Condition returns the variance of the test of a deciding construct (an
// if, a loop, a switch, a `?:`) on the given cores: none for `if
// constexpr` and core-type tests.
func (m *VarianceModel) Condition(c *grammar.Node, cores grammar.Cores) Variance {
	// A return deep in an else-if chain is decided by every test before
	// it: each is asked once per return below it.
	key := vkey{'c', c, strconv.Itoa(int(cores))}
	m.mu.Lock()
	v, ok := m.memo[key]
	m.mu.Unlock()
	if ok {
		return v
	}
	v = m.condition(c, cores)
	m.mu.Lock()
	if !m.stopped {
		m.memo[key] = v
	}
	m.mu.Unlock()
	return v
}

func (m *VarianceModel) condition(c *grammar.Node, cores grammar.Cores) Variance {
	if c.Kind() == "if_statement" && c.ChildOfKind("constexpr") != nil {
		return 0
	}
	if _, ok := grammar.CoreCondition(c.ChildByField("condition")); ok {
		return 0
	}
	cond := cxx.ConditionOf(c)
	if cond == nil {
		return VarOpaque
	}
	return m.Expr(cond, cores)
}

// Expr returns the variance of an expression on the given cores.
func (m *VarianceModel) Expr(e *grammar.Node, cores grammar.Cores) Variance {
	if e == nil {
		return 0
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	m.stopped = false
	return m.expr(vctx{fn: cxx.EnclosingFunction(e), cores: cores}, e, 0)
}

func (m *VarianceModel) fileOf(n *grammar.Node) *grammar.File { return m.files[n.Tree()] }

func (m *VarianceModel) coresOf(n *grammar.Node) grammar.Cores {
	if f := m.fileOf(n); f != nil {
		return f.CoresOf(n)
	}
	return grammar.Both
}

func (m *VarianceModel) expr(c vctx, e *grammar.Node, depth int) Variance {
	if e == nil {
		return 0
	}
	if m.stopped || m.spend != nil && m.spend(1) {
		m.stopped = true
		return VarOpaque
	}
	switch e.Kind() {
	case "number_literal", "true", "false", "nullptr", "char_literal", "string_literal", "this",
		"sizeof_expression", "alignof_expression", "qualified_identifier", "comment", "primitive_type",
		"type_descriptor", "type_identifier", "sized_type_specifier", "template_type":
		return 0
	case "identifier":
		return m.name(c, e, depth)
	case "field_expression":
		return m.field(c, e, depth)
	case "call_expression":
		return m.call(c, e, depth)
	case "lambda_expression":
		return VarOpaque
	case "parameter_list":
		// A constructor's arguments read as a function declaration's
		// parameters: each names a variable in its type's place.
		var v Variance
		for _, p := range e.NamedChildren() {
			t := p.ChildByField("type")
			switch {
			case p.Kind() == "comment":
			case p.Kind() == "parameter_declaration" && p.ChildByField("declarator") == nil && t != nil && t.Kind() == "type_identifier":
				v |= m.name(c, t, depth)
			default:
				v |= VarOpaque
			}
		}
		return v
	}
	if _, ok := m.consts.Eval(e); ok {
		return 0
	}
	var v Variance
	for _, k := range e.NamedChildren() {
		v |= m.expr(c, k, depth)
	}
	return v
}

// name is the variance of an identifier read at e.
func (m *VarianceModel) name(c vctx, e *grammar.Node, depth int) Variance {
	name := e.Text()
	if c.fn != nil {
		if cxx.IsTemplateParam(c.fn, name) {
			return 0
		}
		locals := m.localsOf(c.fn)
		if d := locals.declFor(name, e); d != nil {
			return m.local(c, d, "", depth)
		}
		for i, p := range locals.params {
			if p.Name == name {
				return m.param(c, i, name, depth)
			}
		}
	}
	if _, ok := m.consts.Eval(e); ok {
		return 0
	}
	if c.bound && m.isField(c.fn, name) {
		return c.self
	}
	return m.member(name, depth)
}

// field is the variance of `obj.f` / `p->f`: the object's, and the
// member's own definitions in the unit.
func (m *VarianceModel) field(c vctx, e *grammar.Node, depth int) Variance {
	f := e.ChildByField("field")
	if f == nil {
		return m.expr(c, e.ChildByField("argument"), depth)
	}
	// A local struct's field (`t.key`) holds what is stored in that field
	// or in the whole object, not what its other fields hold.
	var v Variance
	a := cxx.Unparen(e.ChildByField("argument"))
	if a != nil && a.Kind() == "this" && c.bound {
		return c.self
	}
	if a != nil && a.Kind() == "identifier" && c.fn != nil && dotField(e) {
		if d := m.localsOf(c.fn).declFor(a.Text(), a); d != nil && d.object {
			// `x.f` of a local object: what was stored in x or its
			// field f, not what any object's field f was given.
			return m.local(c, d, f.Text(), depth)
		}
	}
	if v, ok := m.objectState(c, a, depth); ok && dotField(e) {
		// Likewise of a parameter, or a field of the bound object.
		return v
	}
	if a != nil && a.Kind() == "identifier" && c.fn != nil && !cxx.IsTemplateParam(c.fn, a.Text()) {
		if d := m.localsOf(c.fn).declFor(a.Text(), a); d != nil {
			v = m.local(c, d, f.Text(), depth)
		} else {
			v = m.expr(c, a, depth)
		}
	} else {
		v = m.expr(c, e.ChildByField("argument"), depth)
	}
	return v | m.member(f.Text(), depth)
}

// dotField reports whether a field expression reads a member of an
// object (`x.f`), not of a pointee (`p->f`).
func dotField(e *grammar.Node) bool {
	op := e.ChildByField("operator")
	return op != nil && op.Text() == "."
}

// objectState is the variance of the object e names when the model sees
// every write to it: a local object (declared by value in the function:
// its initializer, assignments, and the writes of the unit's methods run
// on it or handed it), a parameter (what its callers pass), or a field of
// the object the function itself runs on when that is bound. ok is false
// for anything else (a member of an unbound object, a pointee).
func (m *VarianceModel) objectState(c vctx, e *grammar.Node, depth int) (Variance, bool) {
	if e == nil || c.fn == nil {
		return 0, false
	}
	switch e.Kind() {
	case "identifier":
		name := e.Text()
		if cxx.IsTemplateParam(c.fn, name) {
			return 0, false
		}
		locals := m.localsOf(c.fn)
		if d := locals.declFor(name, e); d != nil {
			if !d.object {
				return 0, false
			}
			return m.local(c, d, "", depth), true
		}
		for i, p := range locals.params {
			if p.Name == name {
				if p.Pointer {
					return 0, false
				}
				return m.param(c, i, name, depth), true
			}
		}
		if c.bound && m.isField(c.fn, name) {
			return c.self, true
		}
	case "field_expression":
		if dotField(e) {
			return m.objectState(c, cxx.Unparen(e.ChildByField("argument")), depth)
		}
		if a := cxx.Unparen(e.ChildByField("argument")); a != nil && a.Kind() == "this" && c.bound {
			return c.self, true
		}
	case "this":
		if c.bound {
			return c.self, true
		}
	}
	return 0, false
}

func (m *VarianceModel) call(c vctx, e *grammar.Node, depth int) Variance {
	call, ok := cxx.AsCall(e)
	if !ok {
		return VarOpaque
	}
	switch {
	case laneGetters[call.Name]:
		return VarLane
	case blockGetters[call.Name]:
		return VarBlock
	case uniformGetters[call.Name]:
		return 0
	}
	var args Variance
	for _, a := range call.Args {
		args |= m.expr(c, a, depth)
	}
	if pureCalls[call.Name] {
		return args
	}
	var recv Variance
	if call.Receiver != nil {
		recv = m.expr(c, call.Receiver, depth)
		if call.Name == "GetValue" && m.localBuffer(call.Receiver) {
			// A LocalTensor lives in this core's own UB.
			return recv | args | VarData
		}
	}
	defs := m.funcs.Callees(call)
	if len(defs) == 0 {
		return recv | args | VarOpaque
	}
	if depth >= maxVarianceDepth {
		return recv | args | VarOpaque
	}
	v := recv
	self, known := m.objectState(c, cxx.Unparen(call.Receiver), depth)
	for _, d := range defs {
		ctx := vctx{fn: d.Node, cores: c.cores, params: m.bind(c, call, d.Node, depth)}
		if known && m.inClass(d.Node) != nil {
			ctx.self, ctx.bound = self, true
		}
		v |= m.returns(ctx, depth+1)
	}
	return v
}

// bind is the variances of a callee's parameters at a call.
func (m *VarianceModel) bind(c vctx, call cxx.Call, fn *grammar.Node, depth int) map[string]Variance {
	bound := map[string]Variance{}
	for i, p := range cxx.Params(fn) {
		if p.Name == "" {
			continue
		}
		if i < len(call.Args) {
			bound[p.Name] = m.expr(c, call.Args[i], depth)
		} else {
			bound[p.Name] = 0 // a default argument: a constant
		}
	}
	return bound
}

// objectWrite is the variance a call can store into a local object: as
// the object a method of the unit runs on (arg < 0: what the method
// assigns to its class's fields, or changes through a method it runs on
// one of them), or handed to a function of the unit as argument arg
// (what it assigns to that parameter's fields, or changes through a
// method it runs on it). A call of a function the unit does not define
// stores nothing the model sees (as before: an SDK method's own state),
// and ok is false.
func (m *VarianceModel) objectWrite(c vctx, at *grammar.Node, arg int, depth int) (v Variance, ok bool) {
	call, isCall := cxx.AsCall(at)
	if !isCall || depth >= maxVarianceDepth {
		return 0, false
	}
	for _, d := range m.funcs.Callees(call) {
		ctx := vctx{fn: d.Node, cores: c.cores, params: m.bind(c, call, d.Node, depth)}
		target := ""
		if arg < 0 {
			// The method's reads of its own fields read this object's
			// state, whose other writes the union already holds.
			ctx.bound = m.inClass(d.Node) != nil
		} else {
			ps := cxx.Params(d.Node)
			if arg >= len(ps) || ps[arg].Name == "" || !cxx.MutableRefParam(ps[arg].Node) {
				continue // a copy, or a const view: the callee cannot change the object
			}
			target = ps[arg].Name
			if self, known := m.objectState(c, cxx.Unparen(call.Receiver), depth); known && m.inClass(d.Node) != nil {
				ctx.self, ctx.bound = self, true
			}
		}
		v |= m.writesIn(ctx, target, depth+1)
		ok = true
	}
	return v, ok
}

// writesIn is the variance of what function c.fn stores into target (a
// parameter's name) or, for "", into its class's fields: the values of
// the assignments to it, the conditions they sit under, and what the
// unit's methods it runs on it store.
func (m *VarianceModel) writesIn(c vctx, target string, depth int) Variance {
	return m.memoized(vkey{'w', c.fn, target + "@" + strconv.Itoa(int(c.cores)) + "#" + c.key()}, func() Variance {
		body := c.fn.ChildByField("body")
		if body == nil {
			return 0
		}
		hits := func(root string, viaThis bool) bool {
			if target != "" {
				return root == target
			}
			return viaThis || root != "" && m.isField(c.fn, root) && !m.declaredIn(c.fn, root)
		}
		var v Variance
		body.Walk(func(n *grammar.Node) bool {
			switch n.Kind() {
			case "lambda_expression":
				return false
			case "assignment_expression", "update_expression":
				t, val := n.ChildByField("left"), n.ChildByField("right")
				if n.Kind() == "update_expression" {
					t, val = n.ChildByField("argument"), n.ChildByField("argument")
				}
				if root, viaThis := writtenObject(t); hits(root, viaThis) {
					v |= m.expr(c, val, depth) | m.controlOf(c, n, depth, nil)
				}
			case "call_expression":
				call, ok := cxx.AsCall(n)
				if !ok || call.Receiver == nil {
					return true
				}
				if root, viaThis := writtenObject(call.Receiver); hits(root, viaThis) {
					for _, a := range call.Args {
						v |= m.expr(c, a, depth)
					}
					w, _ := m.objectWrite(c, n, -1, depth)
					v |= m.controlOf(c, n, depth, nil) | w
				}
			}
			return true
		})
		return v
	})
}

// writtenObject is the variable an assignment target or a method's
// receiver belongs to: the root of `x`, `x.f`, `x[i]`, `x.f.g`; viaThis
// for `this->f`.
func writtenObject(t *grammar.Node) (string, bool) {
	for t = cxx.Unparen(t); t != nil; t = cxx.Unparen(t) {
		switch t.Kind() {
		case "identifier":
			return t.Text(), false
		case "this":
			return "", true
		case "subscript_expression":
			t = t.ChildByField("argument")
		case "field_expression":
			a := cxx.Unparen(t.ChildByField("argument"))
			if !dotField(t) {
				return "", a != nil && a.Kind() == "this"
			}
			t = a
		default:
			return "", false
		}
	}
	return "", false
}

// inClass is the body of the class a method is defined in (in place),
// nil for a free function or one defined outside its class.
func (m *VarianceModel) inClass(fn *grammar.Node) *grammar.Node {
	for p := fn.Parent(); p != nil; p = p.Parent() {
		switch p.Kind() {
		case "field_declaration_list":
			return p
		case "template_declaration":
			continue
		default:
			return nil
		}
	}
	return nil
}

// isField reports whether name is a data member declared in the body of
// the class method fn is defined in.
func (m *VarianceModel) isField(fn *grammar.Node, name string) bool {
	body := m.inClass(fn)
	if body == nil {
		return false
	}
	if m.fields == nil {
		m.fields = map[*grammar.Node]map[string]bool{}
	}
	fs, ok := m.fields[body]
	if !ok {
		fs = map[string]bool{}
		for _, d := range body.NamedChildren() {
			if d.Kind() != "field_declaration" {
				continue
			}
			for _, k := range d.NamedChildren() {
				if k.Field() == "declarator" {
					if n := cxx.DeclaredName(k); n != "" {
						fs[n] = true
					}
				}
			}
		}
		m.fields[body] = fs
	}
	return fs[name]
}

// returns is the variance of what a function returns in context c.
func (m *VarianceModel) returns(c vctx, depth int) Variance {
	return m.memoized(vkey{'r', c.fn, c.key()}, func() Variance {
		var v Variance
		var rets []*grammar.Node
		if body := c.fn.ChildByField("body"); body != nil {
			body.Walk(func(n *grammar.Node) bool {
				switch n.Kind() {
				case "lambda_expression":
					return false
				case "return_statement":
					if m.coresOf(n)&c.cores != 0 {
						rets = append(rets, n)
					}
					return false
				}
				return true
			})
		}
		for _, n := range rets {
			for _, k := range n.NamedChildren() {
				v |= m.expr(c, k, depth)
			}
			// A return under a per-core condition returns per core,
			// unless every return from that test on gives one constant
			// (`if (lane != 0) return true; ...; return true;`).
			v |= m.controlOf(c, n, depth, func(k *grammar.Node) bool { return m.oneConstantFrom(rets, k) })
		}
		return v
	})
}

// oneConstantFrom reports whether the returns at or after construct k
// all return the same constant.
func (m *VarianceModel) oneConstantFrom(rets []*grammar.Node, k *grammar.Node) bool {
	first, seen := int64(0), false
	for _, r := range rets {
		if r.Start < k.Start {
			continue
		}
		var x *grammar.Node
		for _, k := range r.NamedChildren() {
			if k.Kind() != "comment" {
				x = k
				break
			}
		}
		if x == nil {
			return false
		}
		val, ok := m.consts.Eval(x)
		if !ok || seen && val != first {
			return false
		}
		first, seen = val, true
	}
	return seen
}

// controlOf is the variance of the conditions n sits under in c's
// function, but those skip says do not decide: which of several
// definitions runs depends on them.
func (m *VarianceModel) controlOf(c vctx, n *grammar.Node, depth int, skip func(*grammar.Node) bool) Variance {
	var v Variance
	for _, k := range cxx.Conditions(n, c.fn) {
		if skip != nil && skip(k) {
			continue
		}
		switch k.Kind() {
		case "if_statement":
			if k.ChildOfKind("constexpr") != nil {
				continue
			}
			if _, ok := grammar.CoreCondition(k.ChildByField("condition")); ok {
				continue
			}
		}
		v |= m.expr(c, cxx.ConditionOf(k), depth)
	}
	return v
}

// local is the variance of a local declaration: its initializer and every
// assignment to it, with the conditions the assignments sit under; with
// field, only those storing that field or the whole object.
func (m *VarianceModel) local(c vctx, d *localDecl, field string, depth int) Variance {
	return m.memoized(vkey{'l', d.decl, c.key() + "@" + strconv.Itoa(int(c.cores)) + "." + field}, func() Variance {
		var v Variance
		if d.init != nil {
			if w, ok := m.returnedField(c, d.init, field, depth); ok {
				v |= w
			} else {
				v |= m.expr(c, d.init, depth)
			}
		}
		for _, a := range d.defs {
			if m.coresOf(a.at)&c.cores == 0 || field != "" && a.field != "" && a.field != field {
				continue
			}
			if a.call {
				if w, ok := m.objectWrite(c, a.at, a.arg, depth); ok {
					v |= w | m.controlOf(c, a.at, depth, nil)
				}
				continue
			}
			if a.value == nil {
				v |= VarOpaque
			} else {
				v |= m.expr(c, a.value, depth)
			}
			v |= m.controlOf(c, a.at, depth, nil)
		}
		return v
	})
}

// returnedField is the variance of field of an object initialised from a
// call (`Ctx c = Decode(args);`) of a unit function that returns one local
// object (`Ctx c; c.rows = args[4]; c.blk = get_block_idx(args); return
// c;`): what the callee stores in that field or the whole object, not in
// its other fields. ok is false for any other initialiser.
func (m *VarianceModel) returnedField(c vctx, init *grammar.Node, field string, depth int) (Variance, bool) {
	call, ok := cxx.AsCall(cxx.Unparen(init))
	if field == "" || !ok || depth >= maxVarianceDepth {
		return 0, false
	}
	defs := m.funcs.Callees(call)
	if len(defs) != 1 || defs[0].Node.ChildByField("body") == nil {
		return 0, false
	}
	fn := defs[0].Node
	locals := m.localsOf(fn)
	var ret *localDecl
	for _, r := range fn.Inside(fn.Tree().OfKind("return_statement")) {
		if cxx.EnclosingFunction(r) != fn {
			continue
		}
		e := r.NamedChildren()
		if len(e) != 1 || e[0].Kind() != "identifier" {
			return 0, false
		}
		d := locals.declFor(e[0].Text(), e[0])
		if d == nil || !d.object || ret != nil && ret != d {
			return 0, false
		}
		ret = d
	}
	if ret == nil {
		return 0, false
	}
	return m.local(vctx{fn: fn, cores: c.cores}, ret, field, depth+1), true
}

// param is the variance of fn's parameter i: bound by the caller being
// followed, else the union of the arguments of every call of fn in the
// unit, else (no call found) none unless its name says it is the core's id.
func (m *VarianceModel) param(c vctx, i int, name string, depth int) Variance {
	if c.params != nil {
		return c.params[name]
	}
	return m.memoized(vkey{'p', c.fn, strconv.Itoa(i) + "@" + strconv.Itoa(int(c.cores))}, func() Variance {
		var v Variance
		if coreIdentityName(name) {
			v |= VarNamed
		}
		if depth < maxVarianceDepth {
			for _, site := range m.callSites(cxx.FunctionName(c.fn)) {
				call, ok := cxx.AsCall(site)
				if !ok || i >= len(call.Args) || m.coresOf(site)&c.cores == 0 {
					continue
				}
				caller := cxx.EnclosingFunction(site)
				if caller == nil || caller == c.fn {
					continue
				}
				v |= m.expr(vctx{fn: caller, cores: c.cores}, call.Args[i], depth+1)
			}
		}
		return v
	})
}

// member is the variance of a member or global by name: the values the
// unit assigns to it (in any function, in constructor initializer lists),
// or, when nothing does, none unless its name says it is the core's id.
func (m *VarianceModel) member(name string, depth int) Variance {
	if depth >= maxVarianceDepth {
		return 0 // as for a member nothing sets
	}
	return m.memoized(vkey{'m', nil, name}, func() Variance {
		var v Variance
		if coreIdentityName(name) {
			v |= VarNamed
		}
		for _, d := range m.memberDefs()[name] {
			c := vctx{fn: cxx.EnclosingFunction(d.at), cores: m.coresOf(d.at)}
			if d.value == nil {
				v |= VarOpaque
				continue
			}
			v |= m.expr(c, d.value, depth+1)
			if c.fn != nil {
				v |= m.controlOf(c, d.at, depth+1, nil)
			}
		}
		return v
	})
}

// localBuffer reports whether a GetValue receiver is a LocalTensor.
func (m *VarianceModel) localBuffer(recv *grammar.Node) bool {
	name := ""
	switch r := cxx.Unparen(recv); r.Kind() {
	case "identifier":
		name = r.Text()
	case "field_expression":
		if f := r.ChildByField("field"); f != nil {
			name = f.Text()
		}
	case "subscript_expression":
		return m.localBuffer(r.ChildByField("argument"))
	}
	for _, t := range m.funcs.TypesOf(name) {
		if strings.Contains(t, "LocalTensor") {
			return true
		}
	}
	return false
}

// callSites lists the calls of a name in the unit's files.
func (m *VarianceModel) callSites(name string) []*grammar.Node {
	if name == "" {
		return nil
	}
	if m.callers == nil {
		m.callers = map[string][]*grammar.Node{}
	}
	if s, ok := m.callers[name]; ok {
		return s
	}
	var out []*grammar.Node
	for _, f := range m.u.CodeFiles() {
		out = append(out, m.u.Calls(f).Named(name)...)
	}
	m.callers[name] = out
	return out
}

// memberDef is one assignment to a member or global.
type memberDef struct{ at, value *grammar.Node }

// memberDefs indexes the unit's definitions of names that are not locals
// of the function making them: `x_ = v`, `this->x_ = v`, `ctx.x = v`,
// `: x_(v)`.
func (m *VarianceModel) memberDefs() map[string][]memberDef {
	if m.members != nil {
		return m.members
	}
	m.members = map[string][]memberDef{}
	for _, f := range m.u.CodeFiles() {
		for _, n := range m.u.Nodes(f, "assignment_expression", "update_expression", "field_initializer") {
			var target, value *grammar.Node
			switch n.Kind() {
			case "assignment_expression":
				target, value = n.ChildByField("left"), n.ChildByField("right")
			case "update_expression":
				target, value = n.ChildByField("argument"), n.ChildByField("argument")
			case "field_initializer":
				kids := n.NamedChildren()
				if len(kids) < 2 {
					continue
				}
				target, value = kids[0], kids[len(kids)-1]
			}
			name := ""
			switch t := cxx.Unparen(target); {
			case t == nil:
			case t.Kind() == "identifier" || t.Kind() == "field_identifier":
				name = t.Text()
				if fn := cxx.EnclosingFunction(n); fn != nil && n.Kind() != "field_initializer" && m.declaredIn(fn, name) {
					continue
				}
			case t.Kind() == "field_expression":
				if fi := t.ChildByField("field"); fi != nil {
					name = fi.Text()
				}
			}
			if name != "" {
				m.members[name] = append(m.members[name], memberDef{at: n, value: value})
			}
		}
	}
	return m.members
}

func (m *VarianceModel) declaredIn(fn *grammar.Node, name string) bool {
	locals := m.localsOf(fn)
	if len(locals.byName[name]) > 0 {
		return true
	}
	for _, p := range locals.params {
		if p.Name == name {
			return true
		}
	}
	return false
}

// fnLocals are the local declarations of one function.
type fnLocals struct {
	byName map[string][]*localDecl
	// params are the function's parameters (cxx.Params), asked per name
	// read.
	params []cxx.Param
}

// localDecl is one declaration of a local and the definitions that reach
// it: its initializer, then the assignments in its scope.
type localDecl struct {
	decl  *grammar.Node // the declarator's declaration or for-range loop
	scope *grammar.Node // the block it is visible in
	init  *grammar.Node
	defs  []localDef
	// object: declared by value of a class type (`Dim2 pos(a, b);`,
	// `Iter it;`): the calls that may change it are among its defs.
	object bool
}

// localDef is an assignment (value nil: written through its address,
// value unknown); field names the field of the object it stores (`x.f.g
// = v`: f), "" for the whole object.
type localDef struct {
	at, value *grammar.Node
	field     string
	// call: at is a call of the unit that may change an object (arg:
	// the object is its argument arg; -1, the object it runs on).
	call bool
	arg  int
}

// declFor returns the declaration of name a use at e reads: the last one
// before e whose scope holds e.
func (l *fnLocals) declFor(name string, e *grammar.Node) *localDecl {
	var best *localDecl
	for _, d := range l.byName[name] {
		if d.decl.Start < e.Start && d.scope.Contains(e) {
			best = d
		}
	}
	return best
}

func (m *VarianceModel) localsOf(fn *grammar.Node) *fnLocals {
	if l := m.locals[fn]; l != nil {
		return l
	}
	l := &fnLocals{byName: map[string][]*localDecl{}, params: cxx.Params(fn)}
	m.locals[fn] = l
	body := fn.ChildByField("body")
	if body == nil {
		return l
	}
	var assigns []localDef
	var targets []string
	body.Walk(func(n *grammar.Node) bool {
		switch n.Kind() {
		case "lambda_expression":
			return false
		case "declaration", "for_range_loop":
			scope := n.Parent()
			if n.Kind() == "for_range_loop" {
				scope = n
			} else if scope != nil && scope.Kind() == "condition_clause" {
				scope = scope.Parent() // `if (auto x = ...)`: the if statement
			}
			if scope == nil {
				return true
			}
			for _, d := range n.NamedChildren() {
				var name string
				var init *grammar.Node
				switch {
				case n.Kind() == "for_range_loop" && d.Field() == "declarator":
					name, init = cxx.DeclaredName(d), n.ChildByField("right")
				case n.Kind() == "declaration" && d.Kind() == "init_declarator":
					name, init = cxx.DeclaredName(d.ChildByField("declarator")), d.ChildByField("value")
				case n.Kind() == "declaration" && d.Kind() == "function_declarator":
					// `Walker w(whole, step);` parses as a function
					// declaration: it constructs w from those names.
					name, init = cxx.DeclaredName(d.ChildByField("declarator")), d.ChildByField("parameters")
				case n.Kind() == "declaration" && d.Field() == "declarator":
					name = cxx.DeclaredName(d)
				}
				if name != "" {
					l.byName[name] = append(l.byName[name], &localDecl{decl: n, scope: scope, init: init, object: n.Kind() == "declaration" && objectDecl(n, d)})
				}
			}
		case "assignment_expression", "update_expression":
			t := n.ChildByField("left")
			v := n.ChildByField("right")
			if n.Kind() == "update_expression" {
				t = n.ChildByField("argument")
				v = t
			}
			if name, idx, field := assignedLocal(t); name != "" {
				if idx != nil {
					// `buf[i] = v`: which element holds v depends on i.
					assigns = append(assigns, localDef{at: n, value: idx, field: field})
					targets = append(targets, name)
				}
				if n.Kind() == "assignment_expression" && n.ChildByField("operator") != nil && n.ChildByField("operator").Text() != "=" {
					assigns = append(assigns, localDef{at: n, value: t, field: field})
					targets = append(targets, name)
				}
				assigns = append(assigns, localDef{at: n, value: v, field: field})
				targets = append(targets, name)
			}
		case "call_expression":
			// A method the unit defines run on a local object, or a
			// function handed one, may change it (kept for objects only).
			if c, ok := cxx.AsCall(n); ok {
				if c.Receiver != nil {
					if root, _ := writtenObject(c.Receiver); root != "" {
						assigns = append(assigns, localDef{at: n, call: true, arg: -1})
						targets = append(targets, root)
					}
				}
				for i, a := range c.Args {
					if a = cxx.Unparen(a); a != nil && a.Kind() == "identifier" {
						assigns = append(assigns, localDef{at: n, call: true, arg: i})
						targets = append(targets, a.Text())
					}
				}
			}
		case "pointer_expression":
			// `f(&x)`: the callee may write x.
			if op := n.ChildByField("operator"); op != nil && op.Text() == "&" {
				if a := cxx.Unparen(n.ChildByField("argument")); a != nil && a.Kind() == "identifier" {
					assigns = append(assigns, localDef{at: n})
					targets = append(targets, a.Text())
				}
			}
		}
		return true
	})
	for i, a := range assigns {
		for _, d := range l.byName[targets[i]] {
			if a.call && !d.object {
				continue
			}
			if d.scope.Contains(a.at) && d.decl.Start < a.at.Start {
				d.defs = append(d.defs, a)
			}
		}
	}
	return l
}

// assignedLocal is the variable an assignment target writes: `x`, `x[i]`
// (with its index, the last index seen), `x.f` (the object x, field f).
func assignedLocal(t *grammar.Node) (string, *grammar.Node, string) {
	t = cxx.Unparen(t)
	var idx *grammar.Node
	field := ""
	for t != nil {
		switch t.Kind() {
		case "identifier":
			return t.Text(), idx, field
		case "subscript_expression":
			idx = t.ChildByField("indices")
			field = "" // `x.f[i].g`: an element, not a field of x
			t = cxx.Unparen(t.ChildByField("argument"))
		case "field_expression":
			if op := t.ChildByField("operator"); op != nil && op.Text() == "->" {
				return "", nil, "" // writes the pointee, not the pointer
			}
			if f := t.ChildByField("field"); f != nil {
				field = f.Text()
			}
			t = cxx.Unparen(t.ChildByField("argument"))
		default:
			return "", nil, ""
		}
	}
	return "", nil, ""
}

// coreIdentityName reports whether a variable's name says it holds the
// core's, block's or lane's own id.
func coreIdentityName(name string) bool {
	l := strings.ToLower(strings.ReplaceAll(name, "_", ""))
	// Counts and sizes of the grid are the same on every core.
	for _, k := range []string{"num", "count", "cnt", "dim", "size", "total", "per", "len"} {
		if strings.Contains(l, k) {
			return false
		}
	}
	for _, k := range []string{"blockidx", "blockid", "coreidx", "coreid", "subblock", "lane", "aividx", "aicidx", "vecidx", "cubeidx"} {
		if strings.Contains(l, k) {
			return true
		}
	}
	return false
}

// Getter returns the topology getter (`GetBlockIdx`, `GetBlockNum`, ...)
// whose value e holds: a call of it, a cast of one, or a local or member
// every definition of which in the unit is one; "" otherwise. A tiling
// field no code of the unit sets reads as ".field", a product of two
// such values (or constants) as "a*b", a kernel parameter the host
// launches a block per share of S of as "work/S" (paramGetter).
func (m *VarianceModel) Getter(e *grammar.Node) string {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.asked = cxx.EnclosingFunction(e)
	return m.getter(m.asked, e, 0)
}

func (m *VarianceModel) getter(fn, e *grammar.Node, depth int) string {
	if e != nil && (e.Kind() == "argument_list" || e.Kind() == "initializer_list") {
		// A constructor's `cores_(GetBlockNum())` gives the member its
		// one argument.
		if kids := e.NamedChildren(); len(kids) == 1 {
			e = kids[0]
		}
	}
	e = cxx.Uncast(e)
	if e == nil || depth > 3 {
		return ""
	}
	var values, fns []*grammar.Node
	name := ""
	switch e.Kind() {
	case "call_expression":
		if c, ok := cxx.AsCall(e); ok && c.Receiver == nil && len(c.Args) == 0 && (blockGetters[c.Name] || uniformGetters[c.Name]) {
			return c.Name
		}
		if c, ok := cxx.AsCall(e); ok && c.Receiver == nil && len(c.Args) == 1 && c.Args[0].Kind() == "identifier" &&
			(c.Name == "get_block_idx" || c.Name == "get_block_num") {
			// The runtime's task getters, `get_block_idx(args)` and
			// `get_block_num(args)`: the task's block id and count.
			return c.Name
		}
		return ""
	case "binary_expression":
		if t, p, ok := ceilQuotient(e); ok {
			// `(t + p - 1) / p`: t in shares of p, rounded up.
			if a, b := m.getter(fn, t, depth), m.getter(fn, p, depth); a != "" && b != "" {
				return "ceil(" + a + "/" + b + ")"
			}
		}
		if op := e.ChildByField("operator"); op != nil && op.Text() == "*" {
			if a, b := m.factor(fn, e.ChildByField("left"), depth), m.factor(fn, e.ChildByField("right"), depth); a != "" && b != "" {
				_, ab := m.launchCounts()[a[1:]+"*"+b[1:]]
				_, ba := m.launchCounts()[b[1:]+"*"+a[1:]]
				if a[0] == '.' && b[0] == '.' && (ab || ba) {
					return "GetBlockNum" // the host launches A*B blocks
				}
				return a + "*" + b
			}
		}
		return ""
	case "identifier":
		name = e.Text()
		if fn != nil {
			if d := m.localsOf(fn).declFor(name, e); d != nil {
				if d.init != nil {
					values, fns = append(values, d.init), append(fns, fn)
				}
				for _, a := range d.defs {
					if a.call {
						continue // an object's method call: not a getter's value
					}
					values, fns = append(values, a.value), append(fns, fn)
				}
				return m.sameGetter(fns, values, depth)
			}
			if m.declaredIn(fn, name) {
				return m.paramGetter(fn, name, depth)
			}
		}
		if name == "block_idx" && len(m.memberDefs()[name]) == 0 {
			return name // the compiler's builtin: the cluster's block id
		}
	case "field_expression":
		if f := e.ChildByField("field"); f != nil {
			name = f.Text()
			if _, ok := m.launchCounts()[name]; ok {
				// The host launches as many blocks as this tiling
				// field says: it is the block count.
				return "GetBlockNum"
			}
		}
	}
	if name == "" {
		return ""
	}
	// A member of the class or of one it derives from or that derives
	// from it: another class's member of the name is another variable.
	cls := ""
	if fn != nil {
		cls = cxx.ClassOf(fn)
	}
	for _, d := range m.memberDefs()[name] {
		at := cxx.EnclosingFunction(d.at)
		if at == nil || m.related(cls, cxx.ClassOf(at)) {
			values, fns = append(values, d.value), append(fns, at)
		}
	}
	if len(m.memberDefs()[name]) == 0 && blockIdentityName(name) {
		// Set by no code the unit sees (a base class whose header did
		// not resolve) and named for the block id: read as that id, as
		// the variance reads it (VarNamed).
		return "GetBlockIdx"
	}
	if len(values) == 0 && e.Kind() == "field_expression" {
		return "." + name
	}
	return m.sameGetter(fns, values, depth)
}

// paramGetter is the getter parameter name of fn holds: for a kernel's,
// the block count when every host launch passes it the launch's own
// count (workspace.HostLaunch.CountArgs), "work/S" when every launch
// starts a block per share of S of it, rounded up (CeilArgs); for
// another function's, the getter every call of fn passes it, among the
// calls a kernel running the asked function can make (a kernel launched
// on one block may pass the same helper another value).
func (m *VarianceModel) paramGetter(fn *grammar.Node, name string, depth int) string {
	i := slices.IndexFunc(m.localsOf(fn).params, func(p cxx.Param) bool { return p.Name == name })
	f := m.fileOf(fn)
	if i < 0 || f == nil || m.u.ws == nil {
		return "" // a local declared after the use, or no workspace
	}
	if IsKernelFunc(f, fn) {
		l := m.u.ws.HostLaunchOf(f.Path, cxx.FunctionName(fn))
		if slices.Contains(l.CountArgs, i) {
			return "GetBlockNum"
		}
		if share, ok := l.CeilArgs[i]; ok {
			return "work/" + strconv.FormatInt(share, 10)
		}
		return ""
	}
	var values, fns []*grammar.Node
	for _, site := range m.callSites(cxx.FunctionName(fn)) {
		call, ok := cxx.AsCall(site)
		caller := cxx.EnclosingFunction(site)
		if !ok || caller == nil || !m.execOf().calls(site, fn) || !m.sameKernel(caller) {
			continue
		}
		if i >= len(call.Args) {
			return "" // a default argument
		}
		values, fns = append(values, call.Args[i]), append(fns, caller)
	}
	return m.sameGetter(fns, values, depth)
}

func (m *VarianceModel) execOf() *Exec {
	if m.exec == nil {
		m.exec = m.u.Exec()
	}
	return m.exec
}

// SameKernel reports whether some kernel of the unit runs the functions
// of both a and b (true when either is reached by no kernel the unit
// shows).
func (m *VarianceModel) SameKernel(a, b *grammar.Node) bool {
	fa, fb := cxx.EnclosingFunction(a), cxx.EnclosingFunction(b)
	if fa == nil || fb == nil {
		return true
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.kernelsMeet(fa, fb)
}

// kernelsMeet reports whether a kernel of the unit runs both fa and fb
// (true when either is reached by no kernel the unit shows).
func (m *VarianceModel) kernelsMeet(fa, fb *grammar.Node) bool {
	ka, kb := m.kernelsOf(fa, 0), m.kernelsOf(fb, 0)
	if ka == nil || kb == nil {
		return true
	}
	for k := range ka {
		if kb[k] {
			return true
		}
	}
	return false
}

// sameKernel reports whether a kernel that runs the asked function can
// run fn too (true when either is reached by no kernel the unit shows).
func (m *VarianceModel) sameKernel(fn *grammar.Node) bool {
	if m.asked == nil {
		return true
	}
	return m.kernelsMeet(m.asked, fn)
}

// kernelsOf returns the kernel functions of the unit whose calls reach
// fn, nil for any (no caller found, too deep, a recursion).
func (m *VarianceModel) kernelsOf(fn *grammar.Node, depth int) map[*grammar.Node]bool {
	if k, ok := m.kernels[fn]; ok {
		return k
	}
	if m.kernels == nil {
		m.kernels = map[*grammar.Node]map[*grammar.Node]bool{}
	}
	m.kernels[fn] = nil // a recursion: any
	var out map[*grammar.Node]bool
	f := m.fileOf(fn)
	switch {
	case f != nil && IsKernelFunc(f, fn):
		out = map[*grammar.Node]bool{fn: true}
	case f != nil && depth < maxVarianceDepth:
		out = map[*grammar.Node]bool{}
		for _, site := range m.callSites(cxx.FunctionName(fn)) {
			caller := cxx.EnclosingFunction(site)
			if caller == nil || !m.execOf().calls(site, fn) {
				continue
			}
			k := m.kernelsOf(caller, depth+1)
			if k == nil {
				out = nil
				break
			}
			maps.Copy(out, k)
		}
		if len(out) == 0 {
			out = nil
		}
	}
	m.kernels[fn] = out
	return out
}

// ceilQuotient reports whether e is `(t + p - 1) / p` (or `(p + t - 1) /
// p`), and returns t and p.
func ceilQuotient(e *grammar.Node) (t, p *grammar.Node, ok bool) {
	op := e.ChildByField("operator")
	if op == nil || op.Text() != "/" {
		return nil, nil, false
	}
	p = e.ChildByField("right")
	sub := cxx.Unparen(e.ChildByField("left"))
	if sub == nil || sub.Kind() != "binary_expression" || sub.ChildByField("operator").Text() != "-" || sub.ChildByField("right").Text() != "1" {
		return nil, nil, false
	}
	add := cxx.Unparen(sub.ChildByField("left"))
	if add == nil || add.Kind() != "binary_expression" || add.ChildByField("operator").Text() != "+" {
		return nil, nil, false
	}
	l, r := add.ChildByField("left"), add.ChildByField("right")
	if r.Text() == p.Text() {
		return l, p, true
	}
	if l.Text() == p.Text() {
		return r, p, true
	}
	return nil, nil, false
}

// blockIdentityName reports whether a name says it holds the block's own
// id, not a lane's or a core type's.
func blockIdentityName(name string) bool {
	l := strings.ToLower(name)
	return coreIdentityName(name) && !strings.Contains(l, "sub") && !strings.Contains(l, "lane") &&
		!strings.Contains(l, "vec") && !strings.Contains(l, "aiv") && !strings.Contains(l, "aic") && !strings.Contains(l, "cube")
}

// launchCounts are the tiling fields the unit's host code sets to its
// launch's block count (workspace.LaunchCounts).
func (m *VarianceModel) launchCounts() map[string]workspace.LaunchCount {
	if m.counts == nil {
		m.counts, m.others = map[string]workspace.LaunchCount{}, map[string]workspace.LaunchCount{}
		if m.u.ws != nil && m.u.Entry != "" {
			paths := make([]string, len(m.u.Files))
			for i, f := range m.u.Files {
				paths[i] = f.Path
			}
			counts := m.u.ws.LaunchCounts(filepath.Dir(m.u.Entry), paths)
			if len(counts) == 0 {
				counts = m.hostCounts()
			}
			for f, c := range counts {
				if c.Other {
					m.others[f] = c
				} else {
					m.counts[f] = c
				}
			}
		}
	}
	return m.counts
}

// hostCounts are the launch counts host code outside an operator's
// op_host gives the one kernel file of the unit (workspace.HostLaunchOf:
// `k<<<n, …>>>` and wrappers passing n on), none when another file
// defines kernels too.
func (m *VarianceModel) hostCounts() map[string]workspace.LaunchCount {
	var out map[string]workspace.LaunchCount
	kernels := 0
	for _, f := range m.u.Files {
		if l := m.u.ws.HostLaunchOf(f.Path, ""); l.Kernels > 0 {
			out = l.Counts
			kernels++
		}
	}
	if kernels != 1 {
		return nil
	}
	return out
}

// factor is a product's operand as getter reads it, a constant as its
// value.
func (m *VarianceModel) factor(fn, e *grammar.Node, depth int) string {
	if v, ok := m.consts.Eval(e); ok {
		return strconv.FormatInt(v, 10)
	}
	return m.getter(fn, e, depth+1)
}

// LaunchedWithin reports whether bound is a constant n and every host
// launch of the kernels that run e's function starts at most n blocks
// (LaunchedBlocks): no launched block's id reaches n.
func (m *VarianceModel) LaunchedWithin(e, bound *grammar.Node) bool {
	b := m.LaunchedBlocks(e)
	m.mu.Lock()
	n, ok := m.consts.Eval(bound)
	m.mu.Unlock()
	return ok && b > 0 && b <= n
}

// LaunchedBlocks returns how many blocks at most every host launch of
// the kernels that run e's function starts (workspace.HostLaunch.Blocks,
// read per kernel), 0 when one is not known.
func (m *VarianceModel) LaunchedBlocks(e *grammar.Node) int64 {
	fn := cxx.EnclosingFunction(e)
	if fn == nil || m.u.ws == nil {
		return 0
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	ks := m.kernelsOf(fn, 0)
	var out int64
	for k := range ks {
		b := m.u.ws.HostLaunchOf(m.fileOf(k).Path, cxx.FunctionName(k)).Blocks
		if b == 0 {
			return 0
		}
		out = max(out, b)
	}
	return out
}

// OneBlock reports whether one block alone runs e's function in every
// kernel that runs it: the host launches a single block, or the kernel
// sends every other block home before it does anything (`if
// (GetBlockIdx() != 0) return;` among the guards it opens with). No other
// core of the launch then reads what that code stores.
func (m *VarianceModel) OneBlock(e *grammar.Node) bool {
	fn := cxx.EnclosingFunction(e)
	if fn == nil {
		return false
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	ks := m.kernelsOf(fn, 0)
	if len(ks) == 0 {
		return false
	}
	for k := range ks {
		if m.u.ws != nil && m.u.ws.HostLaunchOf(m.fileOf(k).Path, cxx.FunctionName(k)).Blocks == 1 {
			continue
		}
		if !m.blockZeroGate(k) {
			return false
		}
	}
	return true
}

// blockZeroGate reports whether kernel k opens with guards (declarations
// and `if (...) return;`) one of which returns on every block but block 0.
func (m *VarianceModel) blockZeroGate(k *grammar.Node) bool {
	body := k.ChildByField("body")
	if body == nil {
		return false
	}
	m.asked = k
	for _, st := range body.NamedChildren() {
		switch st.Kind() {
		case "comment", "declaration":
			continue
		case "if_statement":
			if st.ChildByField("alternative") != nil || !returnsOnly(st.ChildByField("consequence")) {
				return false
			}
			if c := st.ChildByField("condition"); c != nil && m.otherBlocks(k, c, 0) {
				return true
			}
		default:
			return false
		}
	}
	return false
}

// returnsOnly reports whether s is a plain `return;` (or a block of one).
func returnsOnly(s *grammar.Node) bool {
	if s != nil && s.Kind() == "compound_statement" {
		kids := s.NamedChildren()
		if len(kids) != 1 {
			return false
		}
		s = kids[0]
	}
	return s != nil && s.Kind() == "return_statement" && len(s.NamedChildren()) == 0
}

// otherBlocks reports whether condition c holds on every block but block
// 0: `GetBlockIdx() != 0`, `> 0`, `>= 1`, or a disjunction with one.
func (m *VarianceModel) otherBlocks(fn, c *grammar.Node, depth int) bool {
	if c.Kind() == "condition_clause" {
		if v := c.ChildByField("value"); v != nil {
			c = v
		}
	}
	c = cxx.Unparen(c)
	if c == nil || c.Kind() != "binary_expression" || depth > 4 {
		return false
	}
	l, r := c.ChildByField("left"), c.ChildByField("right")
	op := c.ChildByField("operator")
	if l == nil || r == nil || op == nil {
		return false
	}
	switch op.Text() {
	case "||":
		return m.otherBlocks(fn, l, depth+1) || m.otherBlocks(fn, r, depth+1)
	case "!=":
		return m.blockIdx(fn, l) && isLiteral(r, 0) || m.blockIdx(fn, r) && isLiteral(l, 0)
	case ">":
		return m.blockIdx(fn, l) && isLiteral(r, 0)
	case ">=":
		return m.blockIdx(fn, l) && isLiteral(r, 1)
	}
	return false
}

// blockIdx reports whether e holds the block id.
func (m *VarianceModel) blockIdx(fn, e *grammar.Node) bool {
	g := m.getter(fn, e, 0)
	return blockGetters[g] || g == "block_idx"
}

// isLiteral reports whether e is the integer literal v (`0`, `0u`, `1U`).
func isLiteral(e *grammar.Node, v int64) bool {
	e = cxx.Unparen(e)
	if e == nil || e.Kind() != "number_literal" {
		return false
	}
	n, ok := cxx.ParseInt(e.Text())
	return ok && n == v
}

// LaunchedUnder reports whether the unit's host code launches at most
// the rounded-up quotient of tiling fields total by per (LaunchCounts).
func (m *VarianceModel) LaunchedUnder(total, per string) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	_, ok := m.launchCounts()[total+"/"+per]
	return ok
}

// LaunchedPast returns where the unit's host code stores tiling field f
// but launches another count (LaunchCounts' Other).
func (m *VarianceModel) LaunchedPast(f string) (workspace.LaunchCount, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.launchCounts()
	c, ok := m.others[f]
	return c, ok
}

// SplitShare reports whether the host tiling beside the unit's kernel
// gives every block it launches at least one unit of tiling field f
// (workspace.SplitShares).
func (m *VarianceModel) SplitShare(f string) bool {
	if m.u.ws == nil || m.u.Entry == "" {
		return false
	}
	return m.u.ws.SplitShares(m.u.Entry)[f]
}

// SizedLaunch returns a launch of the unit's host code when every count
// it binds to a tiling field is sized from the work (LaunchCount.Sized):
// whether a launched block can get an empty share is that code's
// arithmetic.
func (m *VarianceModel) SizedLaunch() (workspace.LaunchCount, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out workspace.LaunchCount
	min := false
	for _, f := range slices.Sorted(maps.Keys(m.launchCounts())) {
		c := m.counts[f]
		if !c.Sized {
			return c, false
		}
		if out.File == "" {
			out = c
		}
		min = min || c.Min
	}
	out.Min = min
	return out, out.File != ""
}

// related reports whether classes a and b are one, or one derives from
// the other (by the unit's class definitions); an unknown class (a free
// function) is related to all.
func (m *VarianceModel) related(a, b string) bool {
	return a == "" || b == "" || a == b || m.derives(a, b, 0) || m.derives(b, a, 0)
}

func (m *VarianceModel) derives(a, b string, depth int) bool {
	if m.bases == nil {
		m.bases = map[string][]string{}
		for _, f := range m.u.CodeFiles() {
			for _, n := range m.u.Nodes(f, "class_specifier", "struct_specifier") {
				name := n.ChildByField("name")
				for _, k := range n.NamedChildren() {
					if name == nil || k.Kind() != "base_class_clause" {
						continue
					}
					for _, t := range k.NamedChildren() {
						if t.Kind() != "access_specifier" && t.Kind() != "comment" {
							m.bases[cxx.BaseName(name.Text())] = append(m.bases[cxx.BaseName(name.Text())], cxx.BaseName(t.Text()))
						}
					}
				}
			}
		}
	}
	for _, base := range m.bases[a] {
		if base == b || depth < 8 && m.derives(base, b, depth+1) {
			return true
		}
	}
	return false
}

// sameGetter is the getter every value holds, "" when they differ.
func (m *VarianceModel) sameGetter(fns, values []*grammar.Node, depth int) string {
	out := ""
	for i, v := range values {
		g := ""
		if v != nil {
			g = m.getter(fns[i], v, depth+1)
		}
		if g == "" || out != "" && g != out {
			return ""
		}
		out = g
	}
	return out
}

// ZeroMember reports whether e reads a member no code of the unit assigns
// (no `x = v`, `obj.x = v` or `: x(v)`) whose declarations all initialise
// it to zero or false (`bool enabled = false;`): it holds that constant.
func (m *VarianceModel) ZeroMember(e *grammar.Node) bool {
	e = cxx.Unparen(e)
	name := ""
	switch {
	case e == nil:
	case e.Kind() == "field_expression" && e.ChildByField("field") != nil:
		name = e.ChildByField("field").Text()
	case e.Kind() == "identifier":
		name = e.Text()
		if fn := cxx.EnclosingFunction(e); fn != nil && m.declaredIn(fn, name) {
			return false
		}
	}
	if name == "" {
		return false
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if len(m.memberDefs()[name]) > 0 {
		return false
	}
	found := false
	for _, f := range m.u.CodeFiles() {
		for _, d := range m.u.Nodes(f, "field_declaration") {
			for _, k := range d.ChildrenByField("declarator") {
				if cxx.DeclaredName(k) != name {
					continue
				}
				v, ok := m.consts.Eval(d.ChildByField("default_value"))
				if !ok || v != 0 {
					return false
				}
				found = true
			}
		}
	}
	return found
}

// objectDecl reports whether declarator d of declaration n declares an
// object of a class type by value (not a pointer, reference or array,
// nor a number).
func objectDecl(n, d *grammar.Node) bool {
	switch t := n.ChildByField("type"); {
	case t == nil:
		return false
	case t.Kind() == "type_identifier" || t.Kind() == "template_type" || t.Kind() == "qualified_identifier":
	default:
		return false
	}
	switch d.Kind() {
	case "init_declarator":
		d = d.ChildByField("declarator")
	case "function_declarator":
		return true // `T x(a, b);` in a body: constructed from a and b
	}
	return d != nil && d.Kind() == "identifier"
}
