package rules

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/extern-lsp/extern-lsp/analysis"
	"github.com/extern-lsp/extern-lsp/analysis/cxx"
	"github.com/extern-lsp/extern-lsp/analysis/unit"
	"github.com/extern-lsp/extern-lsp/grammar"
)

// GMFalseSharing flags scalar GM stores whose per-core slots share a
// 64-byte cache line.
var GMFalseSharing = register(&analysis.Analyzer{
	Code:     "EXT013",
	Name:     "gm-false-sharing",
	Severity: analysis.SeverityWarning,
	Lang:     grammar.CPP,
	Premise:  analysis.PremiseHardware,
	Shares:   analysis.SharesGM,
	Fixable:  true,
	Doc: analysis.Doc{
		Summary: "cores scalar-store into GM slots closer than 64 bytes: each write-back carries the whole cache line and the last core to flush wins",
		What: "Flags a scalar store (not in a SIMT vector function, `__simt_vf__`, whose stores take the vector unit's SIMT path) through a `__gm__` pointer (`out[i] = v`, `slots[i].x = v`, `+=`, `++`, " +
			"`GlobalTensor::SetValue(i, v)`, `g(i) = v`) whose index is a linear function of a core id: `get_block_idx(args)`, " +
			"`GetBlockIdx()`, `get_sub_block_id(args)`, `GetSubBlockIdx()`, `get_subblockid()`, `block_idx`, a " +
			"variable or member assigned from one (`blockIdx * kStride + lane`, a constructor's `idx_(GetBlockIdx())`), " +
			"the index of a grid-stride loop starting at one and stepping by the core count (`for (r = idx; r < n; r += " +
			"GetBlockNum())`, or a local set to one before a `while` loop whose body ends in `r += GetBlockNum();`: the cores take " +
			"neighbouring items in turn), or a helper that returns one, or " +
			"whose pointer is a local carved at such an offset (`row = base + idx * kColumns; row[0] = v`, also stored through a " +
			"cast of it, `*reinterpret_cast<volatile __gm__ int32_t *>(row) = v`, " +
			"`row = (__gm__ int32_t *)stats + idx * kColumns`, where the cast says what the offset counts, " +
			"`GlobalTensor<T> rowGm = baseGm[idx * kColumns]`, or a GlobalTensor its class binds once, " +
			"`rowGm.SetGlobalBuffer((__gm__ int32_t *)stats + idx * kColumns, kColumns)`), or returned by a helper whose one " +
			"statement returns such an address (`rec = RecOf(base, block)` with `return base + block * kRec;`: its parameters read " +
			"as the call's arguments), or a helper's pointer parameter every call hands such an address (a helper's return too: " +
			"`Put(SlotOf(base, blk), v)`), none of them on one core " +
			"alone (`PutHalf(halves + blk, v)` storing `rec->value`; the callers of a header's helper are in the files including it), " +
			"a parameter counting as a core id when every call hands it one (the calls of the file, and " +
			"for a header's helper those of the files including it: `PutRecord(recs_, block_, v)`), or from a table entry read at a core id when the function also reads the " +
			"next core's entry (`start = offs.GetValue(id)`, `end = offs.GetValue(id + 1)`, a store at `start + i`: the ranges touch, so the " +
			"elements at each boundary are one apart; a parameter is followed to what the file's calls pass), when " +
			"some core id's step times the element size is below 64 bytes. Strides and element sizes are resolved " +
			"through constants (`kBytes / sizeof(int32_t)`), scalar types, type aliases (`using OutT = float;`, one target) and the unit's structs (`alignas(64)` and padding " +
			"fields count); the terms of one core id add up (`r * 3 + r` steps 4). A grid-stride loop's runtime stride " +
			"(`q(r * n + r)`: n + 1 elements) is judged at the least value the tests around the store leave it (the `else` of " +
			"`if (n < 16)`, the `then` of `if (n >= 16)`, what follows `if (n < 16) return;`; 1 when nothing bounds it): an SVD " +
			"kernel's history fixed exactly this diagonal, for matrices under 16 rows, by letting one core store it. " +
			"Silent when a size is not constant or another stride is not (a core's own block at a runtime size, " +
			"`partial[blockIdx * n]`), when the store is guarded so one core " +
			"writes (`if (blockIdx == 0)`, an earlier `if (blockIdx != 0) return;`), for DMA writes " +
			"(`DataCopy`), which write whole blocks from UB, and for a slot at a block id of a kernel every host launch " +
			"of which starts one block (no neighbouring block: in a mixed kernel only `block_idx` counts blocks). " +
			"The launches are read from the host code naming the kernel (`k<<<n, …>>>`, `ACLRT_LAUNCH_KERNEL(k)(n, …)`, " +
			"`aclrtlaunch_k(n, …)`), through wrappers passing their own parameter on (`void k_do(uint32_t n, …) { k<<<n, …>>>(…); }`) " +
			"to what their callers pass: a number, a `#define`, or a local or constant the host file only assigns numbers; " +
			"a kernel a host also names in a string (a handle looked up by name) or launches with a count not read that way " +
			"is judged as any.",
		Why: "A scalar store goes through the core's data cache, and `dcci(..., CACHELINE_OUT)` writes the whole " +
			"64-byte line back to GM, including the bytes of the line this core never wrote, as they were when the " +
			"core loaded the line. When several cores' slots share a line, each core's write-back overwrites the " +
			"others' slots with its stale copy: the last core to flush wins and the others' values are lost (a " +
			"partial sum of zero, a flag that never flips). Give each core a slot of at least one cache line.",
		Example: "__gm__ float *partial = ...;\npartial[get_block_idx(args)] = sum;   // 4-byte slots: 16 cores per line\n" +
			"dcci(&partial[get_block_idx(args)], SINGLE_CACHE_LINE, CACHELINE_OUT);",
		UseInstead: "constexpr uint32_t kSlotElems = 64 / sizeof(float);   // one cache line per core\n" +
			"partial[get_block_idx(args) * kSlotElems] = sum;",
		FixSafety: "Display only: a sketch that pads each slot to a cache line, by raising the stride constant the index " +
			"is multiplied by, by multiplying a bare core id by the elements per line, or by adding `alignas(64)` to " +
			"the slot struct. Whoever reads the slots (the host, another task) must use the same stride, and the " +
			"buffer must be large enough.",
		Guide: "§4 (scalar GM stores, dcci), facts: Scalar reads from GM",
	},
	Run: runGMFalseSharing,
})

const cacheLine = 64

// coreGetters return the calling core's id within the launch or cluster.
var coreGetters = map[string]bool{"get_block_idx": true, "GetBlockIdx": true, "get_sub_block_id": true,
	"GetSubBlockIdx": true, "get_subblockid": true}

func isCoreGetter(n *grammar.Node) bool {
	if n.Kind() == "identifier" && n.Text() == "block_idx" {
		return true
	}
	c, ok := cxx.AsCall(n)
	return ok && coreGetters[c.Name]
}

func runGMFalseSharing(pass *analysis.Pass) {
	gm := pass.Closure().GM()
	accs := gm.Accesses()
	if len(accs) == 0 {
		return
	}
	var fs *falseSharing
	for i := range accs {
		if pass.Stopped() {
			return
		}
		a := &accs[i]
		if a.Kind == cxx.Read || a.Func() == nil || pass.Cores(a.Node) == grammar.None || a.Func().Kind() == "function_definition" && notScalarCode(pass.File, a.Func()) {
			continue
		}
		idx, elemType := storeIndex(a)
		if idx == nil && a.Via != cxx.ViaDeref && a.Via != cxx.ViaArrow {
			continue
		}
		if fs == nil {
			fs = &falseSharing{pass: pass, funcs: pass.Closure().FuncIndex(), gm: gm}
		}
		// The slot a core stores to moves with the index and with the
		// pointer it indexes, when that pointer is a row carved at a core
		// id (`row = base + idx * kColumns`).
		var slots []slotStep
		if idx != nil {
			terms, ok := fs.linear(a.Func(), idx, 0)
			if !ok {
				continue
			}
			if len(terms) > 0 {
				size, sdef := fs.elemSize(elemType)
				if size <= 0 {
					continue
				}
				for _, t := range terms {
					slots = append(slots, slotStep{t, size, elemType, sdef, nil})
				}
			}
		}
		row, ok := fs.rowOf(a)
		if !ok {
			continue
		}
		slots = append(slots, row...)
		if fs.launched(a.Func()) == 1 {
			// One block: no other block's slot to share a line with.
			slots = slices.DeleteFunc(slots, func(t slotStep) bool { return blockID(t.id, pass.Mixed()) })
		}
		if len(slots) == 0 {
			continue
		}
		// Each slot's least step: a runtime stride at the least value a
		// guard around the store leaves it (symStep).
		var min slotStep
		minStep := int64(-1)
		for _, t := range slots {
			n, ok := s13step(fs, a, t)
			if ok && n > 0 && (minStep < 0 || n*t.size < minStep*min.size) {
				min, minStep = t, n
			}
		}
		if minStep <= 0 || minStep*min.size >= cacheLine {
			continue
		}
		if fs.singleWriter(a.Func(), a.Node) {
			continue
		}
		pass.Report(fs.diagnostic(a, idx, min))
	}
}

// launchedBlocks returns how many blocks at most every host launch of
// kernel (every kernel for "") of the units compiling the pass's file
// starts (workspace.HostLaunchOf), 0 when the launches of one of them are
// not all read.
func launchedBlocks(pass *analysis.Pass, kernel string) int64 {
	if pass.Ctx == nil || len(pass.Ctx.Units) == 0 {
		return 0
	}
	var n int64
	for _, e := range pass.Ctx.Units {
		b := pass.WS.HostLaunchOf(e, kernel).Blocks
		if b == 0 {
			return 0
		}
		n = max(n, b)
	}
	return n
}

// launched returns how many blocks at most every host launch of the
// kernel fn starts, or of every kernel of the file's units when fn is not
// one (launchedBlocks).
func (s *falseSharing) launched(fn *grammar.Node) int64 {
	if n, ok := s.blocks[fn]; ok {
		return n
	}
	kernel := ""
	if name := cxx.FunctionName(fn); fn.Kind() == "function_definition" && unit.IsKernelFunc(s.pass.File, fn) {
		kernel = name
	}
	if s.blocks == nil {
		s.blocks = map[*grammar.Node]int64{}
	}
	s.blocks[fn] = launchedBlocks(s.pass, kernel)
	return s.blocks[fn]
}

// blockID reports whether core id n counts blocks: in a mixed kernel only
// the builtin `block_idx` (the cluster's id on every core) does, as
// `GetBlockIdx()` counts a block's two vector cores apart.
func blockID(n *grammar.Node, mixed bool) bool {
	if n.Kind() == "identifier" && n.Text() == "block_idx" {
		return true
	}
	if c, ok := cxx.AsCall(n); ok {
		return !mixed && (c.Name == "GetBlockIdx" || c.Name == "get_block_idx")
	}
	return !mixed && !strings.Contains(strings.ToLower(n.Text()), "sub")
}

// slotStep is one core id's step of a store's slot: coef elements of size
// bytes (the element type elemType, the struct sdef when it is one), in
// the index or, for a row pointer (via: its definition), in the pointer.
type slotStep struct {
	coreTerm
	size     int64
	elemType string
	sdef     *grammar.Node
	via      *grammar.Node
}

// rowOf returns the core-id steps of the pointer a store goes through when
// it is a local carved from another GM pointer or tensor at a core-linear
// offset: `p = base + off`, `p = &base[off]`, `GlobalTensor row =
// baseGm[off]`, casts around them. None for any other pointer; ok is false
// when the offset reads a core id in a way the steps cannot say.
func (s *falseSharing) rowOf(a *cxx.Access) ([]slotStep, bool) {
	fn := a.Func()
	// `*reinterpret_cast<volatile __gm__ int32_t *>(slot) = v`: the store
	// is at slot's address, whatever the cast qualifies.
	ptr := cxx.Uncast(a.Ptr())
	if ptr == nil || ptr.Kind() != "identifier" && ptr.Kind() != "field_expression" {
		return nil, true
	}
	def, via := s.definition(fn, ptr), (*grammar.Node)(nil)
	if def == nil {
		def, via = s.globalBuffer(fn, ptr)
	}
	gm := s.gm
	if def == nil {
		// `StoreSlot(slots + blk, v)` storing through its parameter: the
		// address every caller hands in, read in its file's model.
		def, via, gm = s.paramAddress(fn, ptr)
	}
	if def == nil {
		return nil, true
	}
	if via == nil {
		via = def
	}
	e := cxx.Uncast(def)
	if e == nil {
		return nil, true
	}
	if c, ok := cxx.AsCall(e); ok {
		// `slot = SlotOf(base, block)`: the address the helper returns,
		// its parameters read as this call's arguments.
		if r, helper := s.returnedAddress(c); r != nil {
			s.bound = append(s.bound, callBinding{helper: helper, caller: cxx.EnclosingFunction(e), params: cxx.Params(helper), args: c.Args})
			defer func() { s.bound = s.bound[:len(s.bound)-1] }()
			e = cxx.Uncast(r)
		}
	}
	var base, off *grammar.Node
	switch e.Kind() {
	case "binary_expression":
		if op := e.ChildByField("operator"); op != nil && op.Text() == "+" {
			base, off = e.ChildByField("left"), e.ChildByField("right")
			if k, _ := gm.KindOf(base); k != cxx.GMData && s.boundPointer(gm, base) == "" {
				base, off = off, base
			}
		}
	case "pointer_expression":
		if arg := cxx.Unparen(e.ChildByField("argument")); arg != nil && arg.Kind() == "subscript_expression" && strings.HasPrefix(e.Text(), "&") {
			base, off = arg.ChildByField("argument"), cxx.SubscriptIndex(arg)
		}
	case "subscript_expression":
		if k, _ := gm.KindOf(e.ChildByField("argument")); k == cxx.GMGlobalTensor {
			base, off = e.ChildByField("argument"), cxx.SubscriptIndex(e)
		}
	}
	if base == nil || off == nil {
		return nil, true
	}
	k, v := gm.KindOf(base)
	t := ""
	// lenient: a binding the rule long did not follow (a bound buffer, a
	// cast base) whose offset the steps cannot read leaves the store to
	// be judged by its own index.
	lenient := via != def
	switch {
	case k == cxx.GMData && v == nil && cxx.CastType(base) != nil:
		// `(__gm__ int32_t *)stats + idx * kColumns`: the cast says
		// what the offset counts.
		t = cxx.BaseTypeName(cxx.CastType(base))
		lenient = true
	case v == nil && s.boundPointer(gm, base) != "":
		// `return base + core * 8;` in the helper bound to this call:
		// its pointer parameter's type says what the offset counts.
		t = s.boundPointer(gm, base)
		lenient = true
	case v == nil || k != cxx.GMData && k != cxx.GMGlobalTensor:
		return nil, true
	case k == cxx.GMGlobalTensor:
		t = tensorElemType(v)
	default:
		t = v.Type()
	}
	// The offset reads the locals of the function that binds the buffer.
	if f := cxx.EnclosingFunction(off); f != nil {
		fn = f
	}
	terms, ok := s.linear(fn, off, 0)
	if !ok && lenient {
		return nil, true
	}
	if !ok || len(terms) == 0 {
		return nil, ok
	}
	size, sdef := s.elemSize(t)
	if size <= 0 {
		return nil, true
	}
	out := make([]slotStep, 0, len(terms))
	for _, term := range terms {
		out = append(out, slotStep{term, size, t, sdef, via})
	}
	return out, true
}

// paramAddress returns, for a pointer parameter of fn, the address its
// callers hand in when every call of fn in the unit's files passes one
// carved from a GM pointer (`slots + blk`, `&slots[blk]`, or returned so
// by a one-statement helper, `SlotOf(slots, blk)`): the first of
// them, its call, and the GM model of the file making it (this file's, or
// the entry's of a unit compiling this header). nil when fn has no such
// call, some caller passes anything else or sits in a file with no model
// here, or a caller makes the call on one core only (`if (blk == 0)
// StoreSlot(...)`).
func (s *falseSharing) paramAddress(fn, ptr *grammar.Node) (*grammar.Node, *grammar.Node, *cxx.GM) {
	if ptr.Kind() != "identifier" || fn == nil {
		return nil, nil, nil
	}
	k := -1
	for _, p := range cxx.Params(fn) {
		if p.Name == ptr.Text() && p.Pointer {
			k = int(p.Index)
		}
	}
	name := cxx.FunctionName(fn)
	if k < 0 || name == "" {
		return nil, nil, nil
	}
	var first, firstCall *grammar.Node
	var firstGM *cxx.GM
	// The calls of every file compiled with it: a header's helper is
	// called from its includers.
	for _, f := range s.pass.Reach().Files {
		for _, n := range s.pass.Reach().Calls(f).Named(name) {
			c, ok := cxx.AsCall(n)
			caller := cxx.EnclosingFunction(n)
			if !ok || k >= len(c.Args) || caller == nil || s.singleWriter(caller, n) {
				return nil, nil, nil
			}
			arg := cxx.Uncast(c.Args[k])
			carved := false
			switch arg.Kind() {
			case "binary_expression":
				carved = arg.ChildByField("operator") != nil && arg.ChildByField("operator").Text() == "+"
			case "pointer_expression":
				carved = strings.HasPrefix(arg.Text(), "&")
			case "call_expression":
				// `Put(SlotOf(base, block), v)`: the address a helper
				// returns as its one statement (rowOf binds its
				// parameters to this call's arguments).
				if ac, ok := cxx.AsCall(arg); ok {
					r, _ := s.returnedAddress(ac)
					carved = r != nil
				}
			}
			if !carved {
				return nil, nil, nil
			}
			if first == nil {
				first, firstCall = arg, n
				firstGM = s.gmOf(f)
				if firstGM == nil {
					return nil, nil, nil
				}
			}
		}
	}
	return first, firstCall, firstGM
}

// boundPointer is the element type of base when it names a pointer
// parameter of the helper whose return rowOf is reading that the call
// hands GM memory (in gm, the caller's model), "" for anything else.
func (s *falseSharing) boundPointer(gm *cxx.GM, base *grammar.Node) string {
	base = cxx.Unparen(base)
	if base != nil && base.Kind() == "binary_expression" {
		// `return scratch + kStatusBase + block * kSlot;`: a constant
		// added to the bound pointer moves every core's slot alike.
		op := base.ChildByField("operator")
		l, r := base.ChildByField("left"), base.ChildByField("right")
		if op == nil || l == nil || r == nil || op.Text() != "+" && op.Text() != "-" {
			return ""
		}
		if _, ok := s.pass.Consts.Eval(r); ok {
			return s.boundPointer(gm, l)
		}
		if _, ok := s.pass.Consts.Eval(l); ok && op.Text() == "+" {
			return s.boundPointer(gm, r)
		}
		return ""
	}
	if len(s.bound) == 0 || base == nil || base.Kind() != "identifier" {
		return ""
	}
	b := s.bound[len(s.bound)-1]
	for _, p := range b.params {
		if p.Name != base.Text() || !p.Pointer || int(p.Index) >= len(b.args) {
			continue
		}
		if k, _ := gm.KindOf(b.args[p.Index]); k != cxx.GMData {
			return ""
		}
		if t := p.Node.ChildByField("type"); t != nil {
			return cxx.BaseTypeName(t)
		}
	}
	return ""
}

// gmOf is the GM model that reads file f: this file's, or that of the unit
// f is the entry of; nil for another header.
func (s *falseSharing) gmOf(f *grammar.File) *cxx.GM {
	if f == s.pass.File {
		return s.gm
	}
	for _, u := range s.pass.Units() {
		if !u.Pseudo && len(u.Files) > 0 && u.Files[0] == f {
			return u.GM()
		}
	}
	return nil
}

// globalBuffer returns the address a GlobalTensor member or local is
// bound to (`xGm.SetGlobalBuffer((__gm__ T *)x + GetBlockIdx() * kLen,
// kLen)`) and that call, when the class of fn (fn itself for a local)
// binds it exactly once; nil otherwise.
func (s *falseSharing) globalBuffer(fn, ptr *grammar.Node) (*grammar.Node, *grammar.Node) {
	if k, _ := s.gm.KindOf(ptr); k != cxx.GMGlobalTensor {
		return nil, nil
	}
	name := strings.TrimPrefix(ptr.Text(), "this->")
	scope := fn.Ancestor("class_specifier", "struct_specifier")
	if scope == nil {
		scope = fn
	}
	var found *grammar.Node
	for _, f := range append([]*grammar.File{s.pass.File}, s.pass.Includes...) {
		if f.Tree != scope.Tree() {
			continue
		}
		for _, n := range s.pass.Closure().Calls(f).Named("SetGlobalBuffer") {
			c, ok := cxx.AsCall(n)
			if !ok || c.Receiver == nil || strings.TrimPrefix(c.Receiver.Text(), "this->") != name || !scope.Contains(n) {
				continue
			}
			if found != nil || len(c.Args) == 0 {
				return nil, nil
			}
			found = n
		}
	}
	if found == nil {
		return nil, nil
	}
	c, _ := cxx.AsCall(found)
	return c.Args[0], found
}

type falseSharing struct {
	pass  *analysis.Pass
	funcs *cxx.Funcs
	gm    *cxx.GM
	// blocks memoizes launched per function.
	blocks map[*grammar.Node]int64
	// onlyOneIn memoizes onlyOne per function.
	onlyOneIn map[*grammar.Node]*onlyOneCode
	defs      map[*grammar.Node]map[string]*localDef
	// aliases memoizes aliasOf.
	aliases map[string]string
	// vm answers which names hold the core count (coreCount).
	vm *unit.VarianceModel
	// bound are the calls whose helper's return is being read: a
	// parameter of the helper stands for the call's argument.
	bound []callBinding
}

// callBinding is a call of a helper that returns an address
// (`SlotOf(base, block)` returning `base + block * kSlot`): its
// parameters are the call's arguments, read in the caller.
type callBinding struct {
	helper, caller *grammar.Node
	params         []cxx.Param
	args           []*grammar.Node
}

// boundArg is the argument a helper parameter stands for at the call
// being read, and the function the argument is read in.
func (s *falseSharing) boundArg(fn, e *grammar.Node) (*grammar.Node, *grammar.Node) {
	for i := len(s.bound) - 1; i >= 0; i-- {
		b := s.bound[i]
		if b.helper != fn {
			continue
		}
		for _, p := range b.params {
			if p.Name == e.Text() && int(p.Index) < len(b.args) {
				return b.args[p.Index], b.caller
			}
		}
	}
	return nil, nil
}

// coreTerm is one core id in an index and the number of elements one step
// of it moves; coefNode is the constant that sets the step, if one does.
type coreTerm struct {
	id       *grammar.Node // the getter or name
	coef     int64
	coefNode *grammar.Node
	// ranged is the read of this core's range start from a table
	// (rangeStart), nil for a slot at the core id itself.
	ranged *grammar.Node
	// syms are the runtime parts of the step (`i * m_ + i`: coef 1 and
	// m_ once): the step is coef plus each k times its symbol's value.
	syms []symPart
	// strided is set for a grid-stride loop's index (strideLoopInit):
	// the cores take neighbouring items in turn, so only the item's
	// size keeps their slots apart.
	strided bool
}

// symPart is k times a value not known before the launch (a size, a
// leading dimension).
type symPart struct {
	k int64
	x *grammar.Node
}

func abs(x int64) int64 {
	if x < 0 {
		return -x
	}
	return x
}

// storeIndex returns the index expression of a store and the element type
// the index counts.
func storeIndex(a *cxx.Access) (*grammar.Node, string) {
	switch a.Via {
	case cxx.ViaSubscript:
		n := a.Node
		for n != nil && n.Kind() == "field_expression" {
			n = cxx.Unparen(n.ChildByField("argument"))
		}
		if n == nil || n.Kind() != "subscript_expression" || a.Var == nil {
			return nil, ""
		}
		return cxx.SubscriptIndex(n), a.Var.Type()
	case cxx.ViaSetValue:
		c, ok := cxx.AsCall(a.Node)
		if !ok || len(c.Args) != 2 || a.Var == nil {
			return nil, ""
		}
		return c.Args[0], tensorElemType(a.Var)
	case cxx.ViaCall:
		// `uGm(i) = v`: GlobalTensor's operator() is a reference to
		// element i.
		c, ok := cxx.AsCall(a.Node)
		if !ok || len(c.Args) != 1 || a.Var == nil {
			return nil, ""
		}
		return c.Args[0], tensorElemType(a.Var)
	}
	return nil, ""
}

// tensorElemType is the element type of a GlobalTensor variable, read from
// its declaration (`GlobalTensor<int32_t> g;`): the model keeps the base
// name of its type only. "" when the declaration does not spell it.
func tensorElemType(v *cxx.Var) string {
	if t := v.Type(); strings.Contains(t, "<") {
		return templateArg(t)
	}
	for d := v.Decl.Parent(); d != nil; d = d.Parent() {
		switch d.Kind() {
		case "declaration", "field_declaration", "parameter_declaration", "optional_parameter_declaration":
			if t := d.ChildByField("type"); t != nil {
				return templateArg(t.Text())
			}
			return ""
		case "compound_statement", "function_definition", "field_declaration_list":
			return ""
		}
	}
	return ""
}

// templateArg is the text between the outer angle brackets of a type.
func templateArg(t string) string {
	if i, j := strings.IndexByte(t, '<'), strings.LastIndexByte(t, '>'); i >= 0 && j > i {
		return strings.TrimSpace(t[i+1 : j])
	}
	return ""
}

// linear decomposes an index into core-id terms with constant steps;
// other additive terms (a base offset, a loop index) are dropped: they
// move every core alike. ok is false when a core id is scaled by something
// that is not constant, or used non-linearly.
func (s *falseSharing) linear(fn, e *grammar.Node, depth int) ([]coreTerm, bool) {
	e = cxx.Unparen(e)
	if e == nil || depth > 6 {
		return nil, false
	}
	if isCoreGetter(e) {
		return []coreTerm{{id: e, coef: 1}}, true
	}
	if e.Kind() == "identifier" && s.definition(fn, e) == nil {
		if arg, caller := s.boundArg(fn, e); arg != nil {
			return s.linear(caller, arg, depth+1)
		}
		if terms, ok := s.fromCallers(fn, e, depth); ok {
			return terms, true
		}
	}
	if !s.mentionsCore(fn, e, depth) {
		return nil, true
	}
	switch e.Kind() {
	case "subscript_expression":
		return s.rangeStart(fn, e, depth)
	case "identifier", "field_expression":
		if def := s.definition(fn, e); def != nil {
			return s.linear(cxx.EnclosingFunction(def), def, depth+1)
		}
		if init := strideLoopInit(e, s.coreCount); init != nil {
			// A grid-stride loop (`for (i = idx; i < n; i += num)`):
			// on every pass the cores' i are as far apart as at the
			// start.
			terms, ok := s.linear(fn, init, depth+1)
			for i := range terms {
				terms[i].strided = true
			}
			return terms, ok
		}
		if s.coreMember(e) {
			return []coreTerm{{id: e, coef: 1}}, true
		}
		return nil, false
	case "cast_expression":
		return s.linear(fn, e.ChildByField("value"), depth)
	case "call_expression":
		c, _ := cxx.AsCall(e)
		if (c.Name == "static_cast" || c.Name == "uint32_t" || c.Name == "int32_t" || c.Name == "int64_t" || c.Name == "uint64_t") && len(c.Args) == 1 {
			return s.linear(fn, c.Args[0], depth)
		}
		if r := s.returned(c); r != nil {
			return s.linear(cxx.EnclosingFunction(r), r, depth+1)
		}
		return s.rangeStart(fn, e, depth)
	case "binary_expression":
		op := e.ChildByField("operator")
		l, r := e.ChildByField("left"), e.ChildByField("right")
		if op == nil {
			return nil, false
		}
		switch op.Text() {
		case "+", "-":
			lt, ok := s.linear(fn, l, depth)
			if !ok {
				return nil, false
			}
			rt, ok := s.linear(fn, r, depth)
			if !ok {
				return nil, false
			}
			if op.Text() == "-" {
				for i := range rt {
					rt[i].coef = -rt[i].coef
					for j := range rt[i].syms {
						rt[i].syms[j].k = -rt[i].syms[j].k
					}
				}
			}
			return mergeTerms(append(lt, rt...)), true
		case "*", "<<":
			for _, side := range [][2]*grammar.Node{{l, r}, {r, l}} {
				k, ok := s.pass.Consts.Eval(side[1])
				if !ok {
					continue
				}
				if op.Text() == "<<" {
					if side[1] != r || k < 0 || k > 30 {
						continue
					}
					k = 1 << k
				}
				terms, ok := s.linear(fn, side[0], depth)
				if !ok {
					return nil, false
				}
				for i := range terms {
					terms[i].coef *= k
					for j := range terms[i].syms {
						terms[i].syms[j].k *= k
					}
					if terms[i].coefNode == nil && cxx.NamedConstant(s.pass.Consts, side[1]) != nil {
						terms[i].coefNode = side[1]
					}
				}
				return terms, true
			}
			if op.Text() != "*" {
				return nil, false
			}
			// A runtime stride (`i * m_`, a leading dimension): the step
			// is the value, which a guard may bound (symStep).
			for _, side := range [][2]*grammar.Node{{l, r}, {r, l}} {
				if s.mentionsCore(fn, side[1], depth) || !runtimeValue(fn, side[1]) {
					continue
				}
				terms, ok := s.linear(fn, side[0], depth)
				if !ok || len(terms) == 0 {
					continue
				}
				for i := range terms {
					if len(terms[i].syms) > 0 || terms[i].ranged != nil {
						return nil, false
					}
					terms[i].syms = []symPart{{k: terms[i].coef, x: side[1]}}
					terms[i].coef, terms[i].coefNode = 0, nil
				}
				return terms, true
			}
		}
	}
	return nil, false
}

// mergeTerms adds up the terms of one core id (`i * m_ + i` steps m_ + 1
// elements, not 1): each term alone is not the slot's step.
func mergeTerms(ts []coreTerm) []coreTerm {
	var out []coreTerm
	for _, t := range ts {
		j := slices.IndexFunc(out, func(u coreTerm) bool {
			return u.ranged == nil && t.ranged == nil && u.id.Text() == t.id.Text()
		})
		if j < 0 {
			out = append(out, t)
			continue
		}
		out[j].coef += t.coef
		out[j].strided = out[j].strided || t.strided
		out[j].syms = append(slices.Clip(out[j].syms), t.syms...)
		if out[j].coefNode != t.coefNode {
			out[j].coefNode = nil
		}
	}
	return out
}

// tableRead returns the table and index of a read of one element
// (`t.GetValue(i)`, `t[i]`), nil for another expression.
func tableRead(e *grammar.Node) (*grammar.Node, *grammar.Node) {
	switch e.Kind() {
	case "subscript_expression":
		return e.ChildByField("argument"), cxx.SubscriptIndex(e)
	case "call_expression":
		c, ok := cxx.AsCall(e)
		if f := e.ChildByField("function"); ok && c.Name == "GetValue" && len(c.Args) == 1 && f.Kind() == "field_expression" {
			return f.ChildByField("argument"), c.Args[0]
		}
	}
	return nil, nil
}

// rangeStart returns the core term of a read of a GM table at a core id
// (`start = t.GetValue(id)`) in a function that also reads the next
// core's entry (`t.GetValue(id + 1)`): the start of this core's range of
// a partition whose end is where the next core's range starts, so the
// elements at the boundary are one apart (coreTerm.ranged).
func (s *falseSharing) rangeStart(fn, e *grammar.Node, depth int) ([]coreTerm, bool) {
	tbl, idx := tableRead(e)
	if tbl == nil || idx == nil || fn == nil {
		return nil, false
	}
	if k, _ := s.gm.KindOf(tbl); k != cxx.GMData && k != cxx.GMGlobalTensor {
		return nil, false
	}
	terms, ok := s.linear(fn, idx, depth+1)
	if !ok || len(terms) != 1 || terms[0].coef != 1 {
		return nil, false
	}
	next := false
	fn.Walk(func(n *grammar.Node) bool {
		if t, i := tableRead(n); !next && t != nil && i != nil && t.Text() == tbl.Text() {
			if i = cxx.Unparen(i); i.Kind() == "binary_expression" && i.ChildByField("operator").Text() == "+" {
				l, r := i.ChildByField("left"), i.ChildByField("right")
				one, ok := s.pass.Consts.Eval(r)
				next = ok && one == 1 && l.Text() == idx.Text()
			}
		}
		return !next
	})
	if !next {
		return nil, false
	}
	return []coreTerm{{id: terms[0].id, coef: 1, ranged: e}}, true
}

// fromCallers returns the core terms of parameter e of fn as the calls of
// fn in the file pass it (every call whose argument reads a core id the
// same way), ok false when it is no parameter or no call passes one.
func (s *falseSharing) fromCallers(fn, e *grammar.Node, depth int) ([]coreTerm, bool) {
	if fn == nil || depth > 3 || fn.Kind() != "function_definition" {
		return nil, false
	}
	k := -1
	for _, p := range cxx.Params(fn) {
		if p.Name == e.Text() {
			k = int(p.Index)
		}
	}
	name := cxx.FunctionName(fn)
	if k < 0 || name == "" {
		return nil, false
	}
	var out []coreTerm
	var calls []*grammar.Node
	// The calls of the file, and of the files compiled with it when the
	// helper is a header's (its callers are its includers').
	files := []*grammar.File{s.pass.File}
	if fn.Tree() == s.pass.File.Tree && !isUnitEntry(s.pass) {
		files = append(files, s.pass.Reach().Headers()...)
	}
	for _, f := range files {
		calls = append(calls, s.pass.Reach().Calls(f).Named(name)...)
	}
	for _, n := range calls {
		c, _ := cxx.AsCall(n)
		if k >= len(c.Args) {
			return nil, false
		}
		terms, ok := s.linear(cxx.EnclosingFunction(n), c.Args[k], depth+1)
		if !ok || len(terms) == 0 {
			return nil, false
		}
		out = append(out, terms...)
	}
	return out, len(out) > 0
}

// mentionsCore reports whether an expression reads a core id (directly,
// through a name assigned from one, or a helper returning one).
func (s *falseSharing) mentionsCore(fn, e *grammar.Node, depth int) bool {
	ds := e.Descendants()
	for i := range ds {
		n := &ds[i]
		if isCoreGetter(n) {
			return true
		}
		switch n.Kind() {
		case "identifier", "field_identifier":
			if coreNames(s.pass)[n.Text()] {
				return true
			}
			if arg, caller := s.boundArg(fn, n); arg != nil && depth < 4 && s.mentionsCore(caller, arg, depth+1) {
				return true
			}
			if n.Kind() == "identifier" && depth < 3 && s.isParam(fn, n.Text()) && s.definition(fn, n) == nil {
				// A parameter every call hands a core id.
				if terms, ok := s.fromCallers(fn, n, depth+1); ok && len(terms) > 0 {
					return true
				}
			}
		case "call_expression":
			if c, ok := cxx.AsCall(n); ok && depth < 4 {
				if r := s.returned(c); r != nil && s.mentionsCore(cxx.EnclosingFunction(r), r, depth+1) {
					return true
				}
			}
		}
	}
	return false
}

// definition returns the initializer of a local variable that the
// function never assigns again, so its value is that expression.
func (s *falseSharing) definition(fn, e *grammar.Node) *grammar.Node {
	if fn == nil || e.Kind() != "identifier" {
		return nil
	}
	d := s.defsIn(fn)[string(e.Bytes())]
	if d == nil || d.again || d.init == nil || d.init.Start > e.Start {
		return nil
	}
	init := d.init
	if init.Kind() == "initializer_list" {
		if c := init.NamedChildren(); len(c) == 1 {
			return c[0]
		}
		return nil
	}
	return init
}

// localDef is what a function does to one name: its initializer, and
// whether it is declared again or written (assigned, incremented).
type localDef struct {
	init  *grammar.Node
	again bool
}

// defsIn is the locals fn initializes, each with whether it is declared
// again or written (assigned, incremented) anywhere in fn, from one walk of
// fn per check: a walk per store was quadratic in the function (85% of the
// CPU of a 1 MB function).
func (s *falseSharing) defsIn(fn *grammar.Node) map[string]*localDef {
	if defs, ok := s.defs[fn]; ok {
		return defs
	}
	defs := map[string]*localDef{}
	var written []*grammar.Node
	ds := fn.Descendants()
	for i := range ds {
		n := &ds[i]
		switch n.Kind() {
		case "init_declarator":
			d := n.ChildByField("declarator")
			for d != nil && d.Kind() == "pointer_declarator" {
				d = d.ChildByField("declarator")
			}
			if d != nil && d.Kind() == "identifier" {
				if def := defs[d.Text()]; def == nil {
					defs[d.Text()] = &localDef{init: n.ChildByField("value")}
				} else if def.init != nil {
					def.again = true
				} else {
					def.init = n.ChildByField("value")
				}
			}
		case "assignment_expression", "update_expression":
			t := n.ChildByField("left")
			if t == nil {
				t = n.ChildByField("argument")
			}
			if t != nil {
				written = append(written, t)
			}
		}
	}
	for _, t := range written {
		if def := defs[string(t.Bytes())]; def != nil {
			def.again = true
		}
	}
	if s.defs == nil {
		s.defs = map[*grammar.Node]map[string]*localDef{}
	}
	s.defs[fn] = defs
	return defs
}

// coreMember reports whether a name (a member, a global) is assigned
// directly from a core getter somewhere in the unit.
func (s *falseSharing) coreMember(e *grammar.Node) bool {
	name := e.Text()
	if e.Kind() == "field_expression" {
		f := e.ChildByField("field")
		if f == nil {
			return false
		}
		name = f.Text()
	}
	return coreDirect(s.pass)[name]
}

// returned is the return expression of a helper defined in the unit whose
// body is that one return (`uint32_t CoreId() { return GetBlockIdx(); }`).
func (s *falseSharing) returned(c cxx.Call) *grammar.Node {
	r, helper := s.oneReturn(c)
	if helper == nil || len(cxx.Params(helper)) != 0 {
		return nil
	}
	return r
}

// isParam reports whether fn has a parameter named name.
func (s *falseSharing) isParam(fn *grammar.Node, name string) bool {
	return fn != nil && fn.Kind() == "function_definition" && isParam(fn, name)
}

// returnedAddress is the expression a helper of the unit returns as its
// one statement, `return base + block * kSlot;`, and the helper, for a
// call whose name one definition holds.
func (s *falseSharing) returnedAddress(c cxx.Call) (*grammar.Node, *grammar.Node) {
	if c.Receiver != nil {
		return nil, nil
	}
	return s.oneReturn(c)
}

// oneReturn is the expression returned by the one definition of c's name
// whose body is that return alone, and the definition.
func (s *falseSharing) oneReturn(c cxx.Call) (*grammar.Node, *grammar.Node) {
	defs := s.funcs.Lookup(c.Name)
	if len(defs) != 1 {
		return nil, nil
	}
	body := defs[0].Body()
	if body == nil {
		return nil, nil
	}
	var stmts []*grammar.Node
	for _, k := range body.NamedChildren() {
		if k.Kind() != "comment" {
			stmts = append(stmts, k)
		}
	}
	if len(stmts) != 1 || stmts[0].Kind() != "return_statement" {
		return nil, nil
	}
	if v := stmts[0].NamedChildren(); len(v) == 1 {
		return v[0], defs[0].Node
	}
	return nil, nil
}

var alignasRE = regexp.MustCompile(`alignas\s*\(\s*(\w+)\s*\)`)

// elemSize is the size of an element type: a scalar, or a struct of the
// unit (returned too) whose fields are scalars or arrays of them, padded
// to its alignment; 0 when unknown.
func (s *falseSharing) elemSize(t string) (int64, *grammar.Node) {
	t = cxx.BaseName(strings.TrimSpace(strings.TrimPrefix(t, "const ")))
	// `using OutT = float;`: chains of aliases, a few deep.
	for range 4 {
		if _, ok := cxx.ScalarSizes[t]; ok {
			break
		}
		a := s.aliasOf(t)
		if a == "" {
			break
		}
		t = cxx.BaseName(strings.TrimSpace(strings.TrimPrefix(a, "const ")))
	}
	if n, ok := cxx.ScalarSizes[t]; ok {
		return n, nil
	}
	def := s.structDef(t)
	if def == nil {
		return 0, nil
	}
	body := def.ChildByField("body")
	if body == nil {
		return 0, nil
	}
	var size, align int64 = 0, 1
	for _, f := range body.NamedChildren() {
		switch f.Kind() {
		case "comment", "access_specifier", "function_definition", "declaration":
			continue
		case "field_declaration":
		default:
			return 0, nil
		}
		if strings.Contains(f.Text(), "static") {
			continue
		}
		ft := f.ChildByField("type")
		if ft == nil {
			return 0, nil
		}
		fsz, ok := cxx.ScalarSizes[cxx.BaseName(ft.Text())]
		if !ok {
			return 0, nil
		}
		for _, d := range f.ChildrenByField("declarator") {
			count := int64(1)
			for d != nil && d.Kind() == "array_declarator" {
				n, ok := s.pass.Consts.Eval(d.ChildByField("size"))
				if !ok {
					return 0, nil
				}
				count *= n
				d = d.ChildByField("declarator")
			}
			if fsz > align {
				align = fsz
			}
			size = (size+fsz-1)/fsz*fsz + fsz*count
		}
	}
	head := def.Text()[:body.Start-def.Start]
	if m := alignasRE.FindStringSubmatch(head); m != nil {
		if v, ok := s.pass.Consts.EvalText(m[1]); ok && v > align {
			align = v
		}
	}
	size = (size + align - 1) / align * align
	return size, def
}

// aliasOf is the type a `using name = T;` or `typedef T name;` of the
// unit's files names, "" when none does, when it names a pointer, or when
// two of them disagree (an alias per build or per class has no one size).
func (s *falseSharing) aliasOf(name string) string {
	if v, ok := s.aliases[name]; ok {
		return v
	}
	target, seen := "", false
	for _, f := range append([]*grammar.File{s.pass.File}, s.pass.Includes...) {
		for _, k := range [...]string{"alias_declaration", "type_definition"} {
			for _, n := range f.Tree.OfKind(k) {
				var nm, t *grammar.Node
				if k == "alias_declaration" {
					nm, t = n.ChildByField("name"), n.ChildByField("type")
					if t != nil && t.ChildByField("declarator") != nil {
						t = nil
					}
				} else {
					nm, t = n.ChildByField("declarator"), n.ChildByField("type")
				}
				if nm == nil || nm.Kind() != "type_identifier" || nm.Text() != name {
					continue
				}
				tt := ""
				if t != nil {
					tt = strings.Join(strings.Fields(t.Text()), " ")
				}
				if seen && tt != target || tt == "" {
					tt = ""
				}
				target, seen = tt, true
				if tt == "" {
					break
				}
			}
		}
	}
	if s.aliases == nil {
		s.aliases = map[string]string{}
	}
	s.aliases[name] = target
	return target
}

func (s *falseSharing) structDef(name string) *grammar.Node {
	for _, f := range append([]*grammar.File{s.pass.File}, s.pass.Includes...) {
		for i := range f.Tree.Nodes {
			n := &f.Tree.Nodes[i]
			if (n.Kind() == "struct_specifier" || n.Kind() == "class_specifier") && n.ChildByField("body") != nil {
				if nm := n.ChildByField("name"); nm != nil && nm.Text() == name {
					return n
				}
			}
		}
	}
	return nil
}

// fileOf is the unit file whose tree holds n.
func (s *falseSharing) fileOf(n *grammar.Node) *grammar.File {
	for _, f := range append([]*grammar.File{s.pass.File}, s.pass.Includes...) {
		if f.Tree == n.Tree() {
			return f
		}
	}
	return nil
}

// singleWriter reports whether a store runs on one core only: under a
// condition that tests a core id for equality, or after a return taken by
// every core but one (`if (id != 0) return;`, `if (id > 0) return;`).
func (s *falseSharing) singleWriter(fn, n *grammar.Node) bool {
	o := s.onlyOne(fn)
	k := sort.Search(len(o.branches), func(k int) bool { return o.branches[k][1] > n.Start })
	return k < len(o.branches) && o.branches[k][0] <= n.Start || o.from <= n.Start
}

// onlyOneCode is where a function runs on one core only.
type onlyOneCode struct {
	// branches are the branches taken by one core (the consequence of an
	// `if` testing a core id with ==, the alternative of one testing !=),
	// joined where they overlap, in source order.
	branches [][2]uint32
	// from is the end of the first `if` that tests a core id for
	// inequality (`id != 0`, `id > 0`) around one of fn's own returns:
	// one core runs what follows.
	from uint32
}

// onlyOne finds where fn runs on one core only in one walk of it: a test
// around a return ends before a store exactly when it does not contain it,
// and the branches nest, so every store is answered by a lookup (a walk up
// the tree per store, and a scan of the returns, each walking up the tree,
// are quadratic in the size of the function).
func (s *falseSharing) onlyOne(fn *grammar.Node) *onlyOneCode {
	if v, ok := s.onlyOneIn[fn]; ok {
		return v
	}
	o := &onlyOneCode{from: ^uint32(0)}
	type frame struct {
		last         int
		test, nested bool
	}
	var stack []frame
	var tests []uint32 // ends of the tests around the walk, outermost first
	nested := 0
	ds := fn.Descendants()
	for k := 1; k < len(ds); k++ {
		n := &ds[k]
		for len(stack) > 0 && stack[len(stack)-1].last < n.Index() {
			f := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if f.test {
				tests = tests[:len(tests)-1]
			}
			if f.nested {
				nested--
			}
		}
		f := frame{last: n.Index() + len(n.Descendants()) - 1}
		if p := n.Parent(); p != nil && p.Kind() == "if_statement" && cxx.IsConditionOf(p, n) {
			if cond := cxx.ConditionOf(p); cond != nil {
				if s.testsCore(fn, cond, "!=") || s.testsCore(fn, cond, ">") {
					tests = append(tests, p.End)
					f.test = true
				}
				if n.Field() == "consequence" && s.testsCore(fn, cond, "==") || n.Field() == "alternative" && s.testsCore(fn, cond, "!=") {
					if l := len(o.branches); l > 0 && o.branches[l-1][1] > n.Start {
						o.branches[l-1][1] = max(o.branches[l-1][1], n.End)
					} else {
						o.branches = append(o.branches, [2]uint32{n.Start, n.End})
					}
				}
			}
		}
		if n.Kind() == "return_statement" && nested == 0 && len(tests) > 0 {
			// The innermost test ends first.
			o.from = min(o.from, tests[len(tests)-1])
		}
		if n.Kind() == "function_definition" || n.Kind() == "lambda_expression" {
			f.nested = true
			nested++
		}
		stack = append(stack, f)
	}
	if s.onlyOneIn == nil {
		s.onlyOneIn = map[*grammar.Node]*onlyOneCode{}
	}
	s.onlyOneIn[fn] = o
	return o
}

// testsCore reports whether cond holds a comparison `op` with a core id on
// one side (for ">", a core id above a constant).
func (s *falseSharing) testsCore(fn, cond *grammar.Node, op string) bool {
	ds := cond.Descendants()
	for i := range ds {
		b := &ds[i]
		if b.Kind() != "binary_expression" {
			continue
		}
		o := b.ChildByField("operator")
		if o == nil {
			continue
		}
		l, r := b.ChildByField("left"), b.ChildByField("right")
		if l == nil || r == nil {
			continue
		}
		switch {
		case o.Text() == op && (op == "==" || op == "!="):
			if s.mentionsCore(fn, l, 0) || s.mentionsCore(fn, r, 0) {
				return true
			}
		case op == ">" && (o.Text() == ">" || o.Text() == ">="):
			if _, ok := s.pass.Consts.Eval(r); ok && s.mentionsCore(fn, l, 0) {
				return true
			}
		}
	}
	return false
}

func (s *falseSharing) diagnostic(a *cxx.Access, idx *grammar.Node, st slotStep) analysis.Diagnostic {
	t, size := st.coreTerm, st.size
	if len(t.syms) > 0 {
		d := s.symDiagnostic(a, st)
		if run := s.runCounter(a, idx); run != "" && len(t.syms) == 1 {
			// A core's slots are a run (`y[yBase + i]` over i): its
			// ends meet the next core's even when the stride is long.
			d.Message = strings.Replace(d.Message, "; let one core store",
				fmt.Sprintf("; each core also stores a run of slots (over `%s`): where a run reaches the end of its core's `%s` elements, it shares that line with the next core's first unless `%s` × %d bytes is a whole number of 64-byte lines; let one core store",
					run, shortText(t.syms[0].x), shortText(t.syms[0].x), size), 1)
		}
		return d
	}
	step := abs(t.coef) * size
	per := cacheLine / step
	through := ""
	if st.via != nil {
		through = fmt.Sprintf(", through `%s = %s`", a.Root(), shortText(st.via))
		if st.via.Kind() == "call_expression" {
			through = fmt.Sprintf(", through `%s`", shortText(st.via))
		}
		idx = st.via
	}
	msg := fmt.Sprintf("`%s` stores to a GM slot %d bytes from the next core's (`%s` steps %d × %d-byte `%s`%s): "+
		"%d cores' slots share a 64-byte cache line, and each core's write-back (`dcci(..., CACHELINE_OUT)`) writes "+
		"the whole line, so the last core to flush wins and the others' values are lost; pad each slot to 64 bytes",
		shortText(a.Node), step, shortText(t.id), abs(t.coef), size, cxx.BaseName(st.elemType), through, per)
	if t.ranged != nil {
		tbl, at := tableRead(t.ranged)
		msg = fmt.Sprintf("`%s` stores into this core's range of %d-byte `%s` elements, which starts at `%s` and ends where "+
			"the next core's starts (`%s` is read at `%s + 1` too): the elements at each boundary share a 64-byte cache line, "+
			"and each core's write-back (`dcci(..., CACHELINE_OUT)`) writes the whole line, so the last core to flush wins "+
			"and the others' values are lost; align each range to 64 bytes, or write the boundary lines by DMA",
			shortText(a.Node), size, cxx.BaseName(st.elemType), shortText(t.ranged), shortText(tbl), shortText(at))
	}
	d := analysis.Diagnostic{Start: a.Node.Start, End: a.Node.End, Message: msg}
	if t.ranged != nil {
		return d
	}
	if fix, ok := s.padFix(idx, t, size, st.sdef); ok {
		d.Fixes = []analysis.Fix{fix}
	}
	return d
}

// padFix sketches a cache line per slot: the stride constant raised, a
// bare core id scaled, or the slot struct aligned.
func (s *falseSharing) padFix(idx *grammar.Node, t coreTerm, size int64, sdef *grammar.Node) (analysis.Fix, bool) {
	need := (cacheLine + size - 1) / size
	if sdef != nil {
		kw := sdef.FirstChild()
		if kw == nil {
			return analysis.Fix{}, false
		}
		name, f := sdef.ChildByField("name"), s.fileOf(sdef)
		if name == nil || f == nil {
			return analysis.Fix{}, false
		}
		return analysis.Fix{
			Title:         fmt.Sprintf("Align `%s` to a cache line (alignas(64))", name.Text()),
			Applicability: analysis.DisplayOnly,
			Edits:         []analysis.TextEdit{{File: f.Path, Start: kw.End, End: kw.End, NewText: " alignas(64)"}},
		}, true
	}
	if t.coefNode != nil {
		def := cxx.NamedConstant(s.pass.Consts, t.coefNode)
		if def == nil {
			return analysis.Fix{}, false
		}
		cur := abs(t.coef)
		k, _ := s.pass.Consts.Eval(t.coefNode)
		if k == 0 {
			return analysis.Fix{}, false
		}
		to := k * ((need + cur - 1) / cur)
		edits, ok := defEdits(s.pass, def, false, to, 0)
		if !ok {
			return analysis.Fix{}, false
		}
		return analysis.Fix{
			Title:         fmt.Sprintf("Raise `%s` to %d (a 64-byte slot per core)", def.Name, to),
			Applicability: analysis.DisplayOnly,
			Edits:         edits,
		}, true
	}
	if t.coef != 1 || t.id.Tree() != s.pass.File.Tree || !idx.Contains(t.id) {
		return analysis.Fix{}, false
	}
	text := t.id.Text() + " * " + strconv.FormatInt(need, 10)
	return analysis.Fix{
		Title:         fmt.Sprintf("Index `%s` (%d elements, 64 bytes, per core)", text, need),
		Applicability: analysis.DisplayOnly,
		Edits:         []analysis.TextEdit{{File: s.pass.File.Path, Start: t.id.Start, End: t.id.End, NewText: "(" + text + ")"}},
	}, true
}

// coreNames are the variables and members the unit assigns from a core id
// (directly or through another such name).
func coreNames(pass *analysis.Pass) map[string]bool {
	return unit.Fact(coreNamesUnit(pass), coreNamesKey).all
}

// coreDirect are the names assigned a bare core getter.
func coreDirect(pass *analysis.Pass) map[string]bool {
	return unit.Fact(coreNamesUnit(pass), coreNamesKey).direct
}

// coreNamesUnit is where the core-id names are read: the file and its
// includes for an entry; for a header, also its includers' files, where
// the members its helpers are handed are set (`block_ = get_block_idx(
// args)` in the kernel class calling `StorePartial(base, block_, ...)`).
func coreNamesUnit(pass *analysis.Pass) *unit.Unit {
	if isUnitEntry(pass) {
		return pass.Closure()
	}
	return pass.Reach()
}

type coreNameSet struct{ all, direct map[string]bool }

var coreNamesKey = &unit.UnitKey[coreNameSet]{
	Name: "rules.coreNames",
	Compute: func(ctx context.Context, u *unit.Unit) coreNameSet {
		defs := u.NameDefs()
		direct := map[string]bool{}
		reads := func(names map[string]bool, e *grammar.Node) bool {
			ds := e.Descendants()
			for i := range ds {
				n := &ds[i]
				if isCoreGetter(n) || (n.Kind() == "identifier" || n.Kind() == "field_identifier") && names[n.Text()] {
					return true
				}
			}
			return false
		}
		all := derivedNames(defs, reads, func(name string, d unit.NameDef) {
			// `block_ = static_cast<uint32_t>(get_block_idx(args))`: a
			// cast keeps the core id.
			if v := cxx.Uncast(d.Value); v != nil && isCoreGetter(v) {
				direct[name] = true
			}
		})
		return coreNameSet{all: all, direct: direct}
	},
}

// s13step is the least number of elements slot t steps per core: its
// constant part, plus, for the index of a grid-stride loop (the cores
// take neighbouring items: `for (r = idx; r < n; r += num) q[r * n + r]
// = v`), each runtime part at the least value the guards around the store
// leave it (at least 1: a size). ok is false when a part can lower the
// step (a negative multiple), and for a runtime step of another index.
func s13step(fs *falseSharing, a *cxx.Access, t slotStep) (int64, bool) {
	if len(t.syms) == 0 {
		return abs(t.coef), true
	}
	if !t.strided {
		// A core's own block at a runtime size (`partial[blockIdx *
		// n]`): a size per core, usually a share of the whole, is not
		// judged.
		return 0, false
	}
	n := t.coef
	for _, p := range t.syms {
		if p.k <= 0 {
			return 0, false
		}
		n += p.k * fs.lowerBound(a.Func(), a.Node, p.x)
	}
	return n, n > 0
}

// lowerBound is the least value of x where n runs, from the tests around
// it: the then of `x >= K` or `x > K`, the else of `x < K` or `x <= K`
// (`if (m_ < 16) { one core } else { every core }`), and what follows an
// `if (x < K) return;` in fn's body; 1 (a size) when nothing bounds it.
func (s *falseSharing) lowerBound(fn, n, x *grammar.Node) int64 {
	name := symName(x)
	lb := int64(1)
	if name == "" {
		return lb
	}
	for c, p := n, n.Parent(); p != nil && c != fn; c, p = p, p.Parent() {
		if p.Kind() != "if_statement" {
			continue
		}
		cond := cxx.ConditionOf(p)
		switch c.Field() {
		case "consequence":
			lb = max(lb, s.boundIn(cond, name, true))
		case "alternative":
			lb = max(lb, s.boundIn(cond, name, false))
		}
	}
	// An early return: `if (x < K) return;` before n in fn's body.
	if body := fn.ChildByField("body"); body != nil {
		for _, st := range body.NamedChildren() {
			if st.Start >= n.Start {
				break
			}
			if st.Kind() != "if_statement" || st.ChildByField("alternative") != nil || !endsInReturn(st.ChildByField("consequence")) {
				continue
			}
			lb = max(lb, s.boundIn(cxx.ConditionOf(st), name, false))
		}
	}
	return lb
}

// endsInReturn reports whether a branch is a return or a block ending in
// one.
func endsInReturn(b *grammar.Node) bool {
	if b == nil {
		return false
	}
	if b.Kind() == "compound_statement" {
		kids := b.NamedChildren()
		for len(kids) > 0 && kids[len(kids)-1].Kind() == "comment" {
			kids = kids[:len(kids)-1]
		}
		if len(kids) == 0 {
			return false
		}
		b = kids[len(kids)-1]
	}
	return b.Kind() == "return_statement"
}

// symName is the name a runtime stride is read through (`m_`,
// `this->m_`, `tiling.n`), "" for another expression.
func symName(x *grammar.Node) string {
	x = cxx.Unparen(x)
	for x != nil && x.Kind() == "cast_expression" {
		x = cxx.Unparen(x.ChildByField("value"))
	}
	if x == nil {
		return ""
	}
	switch x.Kind() {
	case "identifier", "field_expression", "qualified_identifier":
		return strings.TrimPrefix(strings.Join(strings.Fields(x.Text()), ""), "this->")
	}
	return ""
}

// boundIn is the least value of the name that cond (when holds) or its
// negation leaves: a comparison with a constant, or, when it holds, any
// operand of an `&&`; 1 when it says nothing.
func (s *falseSharing) boundIn(cond *grammar.Node, name string, holds bool) int64 {
	cond = cxx.Unparen(cond)
	if cond == nil || cond.Kind() != "binary_expression" {
		return 1
	}
	op := cond.ChildByField("operator")
	l, r := cond.ChildByField("left"), cond.ChildByField("right")
	if op == nil || l == nil || r == nil {
		return 1
	}
	o := op.Text()
	if o == "&&" {
		if !holds {
			return 1
		}
		return max(s.boundIn(l, name, true), s.boundIn(r, name, true))
	}
	if symName(l) != name {
		// `K > x` is `x < K`.
		l, r = r, l
		switch o {
		case "<":
			o = ">"
		case ">":
			o = "<"
		case "<=":
			o = ">="
		case ">=":
			o = "<="
		}
	}
	k, ok := s.pass.Consts.Eval(r)
	if symName(l) != name || !ok {
		return 1
	}
	if !holds {
		switch o {
		case "<":
			o = ">="
		case "<=":
			o = ">"
		case ">":
			o = "<="
		case ">=":
			o = "<"
		default:
			return 1
		}
	}
	switch o {
	case ">=", "==":
		return max(k, 1)
	case ">":
		return max(k+1, 1)
	}
	return 1
}

// strideLoopInit is the start of a grid-stride loop over name e whose
// body holds e: `for (int i = idx; i < n; i += num)`, or a local
// initialised before a `while` whose body ends in `i += num;` (the cyclic
// form), where the update adds the core count (count) and is the only
// write of the index in the loop, so the cores take neighbouring items in
// turn. A loop over a core's own range (`++i`) is not one.
func strideLoopInit(e *grammar.Node, count func(*grammar.Node) bool) *grammar.Node {
	name := e.Text()
	for p := e.Parent(); p != nil && p.Kind() != "function_definition"; p = p.Parent() {
		switch p.Kind() {
		case "for_statement":
			init := p.ChildByField("initializer")
			if init == nil || init.Kind() != "declaration" {
				continue
			}
			var value *grammar.Node
			for _, d := range init.ChildrenByField("declarator") {
				if d.Kind() == "init_declarator" && cxx.DeclaredName(d) == name {
					value = d.ChildByField("value")
				}
			}
			if value == nil {
				continue
			}
			up := cxx.Unparen(p.ChildByField("update"))
			if up == nil {
				return nil
			}
			if step := addedTo(up, name); step == nil || !count(step) {
				return nil
			}
			if body := p.ChildByField("body"); body != nil && len(cxx.WritesOf(body, name)) > 0 {
				return nil
			}
			return value
		case "while_statement":
			if v := cyclicInit(p, e, count); v != nil {
				return v
			}
		}
	}
	return nil
}

// cyclicInit is the start of the index e of a `while` loop w whose body
// ends in `e += count;`: the value of the local's declaration before w
// when nothing else writes it after that.
func cyclicInit(w, e *grammar.Node, count func(*grammar.Node) bool) *grammar.Node {
	name := e.Text()
	body := w.ChildByField("body")
	if body == nil || body.Kind() != "compound_statement" || !body.Contains(e) {
		return nil
	}
	kids := body.NamedChildren()
	for len(kids) > 0 && kids[len(kids)-1].Kind() == "comment" {
		kids = kids[:len(kids)-1]
	}
	if len(kids) == 0 || kids[len(kids)-1].Kind() != "expression_statement" || e.Start >= kids[len(kids)-1].Start {
		return nil
	}
	st := kids[len(kids)-1].NamedChildren()
	if len(st) != 1 || cxx.Unparen(st[0]).Kind() != "assignment_expression" {
		return nil
	}
	up := st[0]
	if step := addedTo(cxx.Unparen(up), name); step == nil || !count(step) {
		return nil
	}
	fn := cxx.EnclosingFunction(w)
	if fn == nil {
		return nil
	}
	decl, scope := cxx.LocalDecl(name, w, fn)
	if decl == nil || decl.Kind() != "init_declarator" {
		return nil
	}
	for _, wr := range cxx.WritesOf(scope, name) {
		if wr.Start >= decl.End && !up.Contains(wr) {
			return nil
		}
	}
	v := decl.ChildByField("value")
	if v != nil && (v.Kind() == "initializer_list" || v.Kind() == "argument_list") {
		if c := v.NamedChildren(); len(c) == 1 {
			return c[0]
		}
		return nil
	}
	return v
}

// addedTo returns k of an update that adds k to name (`i += k`, `i = i
// + k`, k not reading name), nil for any other.
func addedTo(up *grammar.Node, name string) *grammar.Node {
	if up.Kind() != "assignment_expression" {
		return nil
	}
	l, r, op := up.ChildByField("left"), up.ChildByField("right"), up.ChildByField("operator")
	if l == nil || r == nil || op == nil || cxx.Unparen(l).Text() != name {
		return nil
	}
	switch op.Text() {
	case "+=":
		if !mentionsName(r, name) {
			return r
		}
	case "=":
		r = cxx.Unparen(r)
		if r.Kind() != "binary_expression" || r.ChildByField("operator").Text() != "+" {
			return nil
		}
		a, b := cxx.Unparen(r.ChildByField("left")), cxx.Unparen(r.ChildByField("right"))
		if a.Text() == name && !mentionsName(b, name) {
			return b
		}
		if b.Text() == name && !mentionsName(a, name) {
			return a
		}
	}
	return nil
}

// coreCount reports whether e holds the launch's core count
// (`GetBlockNum()`, `get_block_num(args)`, or a local or member every
// definition of which is one: VarianceModel.Getter).
func (s *falseSharing) coreCount(e *grammar.Node) bool {
	if s.vm == nil {
		s.vm = s.pass.Closure().Variance(s.pass.Spend)
	}
	switch s.vm.Getter(e) {
	case "GetBlockNum", "get_block_num":
		return true
	}
	return false
}

func mentionsName(e *grammar.Node, name string) bool {
	found := false
	e.Walk(func(n *grammar.Node) bool {
		if n.Kind() == "identifier" && n.Text() == name {
			found = true
		}
		return !found
	})
	return found
}

// runCounter is the counter of a `for` loop around store a that its index
// idx reads, itself or through a local's one definition (`yo = yBase +
// i; y[yo + 1] = v`): the core stores a run of slots; "" for none.
func (s *falseSharing) runCounter(a *cxx.Access, idx *grammar.Node) string {
	if idx == nil {
		return ""
	}
	counters := map[string]bool{}
	for p := a.Node.Parent(); p != nil && p != a.Func(); p = p.Parent() {
		if p.Kind() != "for_statement" {
			continue
		}
		if init := p.ChildByField("initializer"); init != nil && !s.mentionsCore(a.Func(), init, 0) {
			// Not a grid-stride loop (`for (r = core; ...; r += cores)`):
			// its counter is the core's slot, not a run.
			init.Walk(func(n *grammar.Node) bool {
				if n.Kind() == "init_declarator" {
					if d := n.ChildByField("declarator"); d != nil && d.Kind() == "identifier" {
						counters[d.Text()] = true
					}
				}
				return true
			})
		}
	}
	if len(counters) == 0 {
		return ""
	}
	found := ""
	var read func(e *grammar.Node, depth int)
	read = func(e *grammar.Node, depth int) {
		e.Walk(func(n *grammar.Node) bool {
			if found != "" || n.Kind() != "identifier" {
				return found == ""
			}
			if counters[n.Text()] {
				found = n.Text()
			} else if depth == 0 {
				if def := s.definition(a.Func(), n); def != nil {
					read(def, 1)
				}
			}
			return found == ""
		})
	}
	read(idx, 0)
	return found
}

// symDiagnostic reports a slot whose step is a runtime value: how small
// the value may get before cores share a line.
func (s *falseSharing) symDiagnostic(a *cxx.Access, st slotStep) analysis.Diagnostic {
	t, size := st.coreTerm, st.size
	var parts []string
	for _, p := range t.syms {
		x := shortText(p.x)
		if p.k != 1 {
			x = fmt.Sprintf("%d × %s", p.k, x)
		}
		parts = append(parts, x)
	}
	if t.coef != 0 {
		parts = append(parts, strconv.FormatInt(t.coef, 10))
	}
	step := strings.Join(parts, " + ")
	least, _ := s13step(s, a, st)
	need := (cacheLine + size - 1) / size
	bound := ""
	if len(t.syms) == 1 {
		p := t.syms[0]
		// The least value of the symbol that gives a whole line.
		v := (need - t.coef + p.k - 1) / p.k
		bound = fmt.Sprintf(" while `%s` is below %d", shortText(p.x), v)
	}
	msg := fmt.Sprintf("`%s` stores to a GM slot %s × %d bytes from the next core's (`%s` steps %s %d-byte `%s` elements), "+
		"a runtime stride nothing around the store keeps at 64 bytes or more: %s (as little as %d bytes here) two or more cores' slots share a 64-byte cache line, "+
		"and each core's write-back (`dcci(..., CACHELINE_OUT)`, or the line's eviction) writes the whole line, so the last core to write it back wins and the others' values are lost; "+
		"let one core store when the stride is under 64 bytes, or pad the slots",
		shortText(a.Node), "("+step+")", size, shortText(t.id), step, size, cxx.BaseName(st.elemType), strings.TrimSpace(bound), least*size)
	return analysis.Diagnostic{Start: a.Node.Start, End: a.Node.End, Message: msg}
}

// runtimeValue reports whether x is a value the launch decides: a field
// (`tiling->n`, `cfg.rows`), or a parameter, local or non-static member
// the unit declares, not `constexpr`. A name the unit does not declare
// (a constant of a header that did not resolve) may be any constant.
func runtimeValue(fn, x *grammar.Node) bool {
	x = cxx.Uncast(x)
	for x != nil && x.Kind() == "call_expression" {
		// `static_cast<uint64_t>(n)`
		c, ok := cxx.AsCall(x)
		if !ok || len(c.Args) != 1 || !strings.HasSuffix(c.Name, "_cast") && !strings.HasSuffix(c.Name, "_t") {
			return false
		}
		x = cxx.Uncast(c.Args[0])
	}
	if x == nil || fn == nil {
		return false
	}
	switch x.Kind() {
	case "field_expression":
		return true
	case "identifier":
	default:
		return false
	}
	name := x.Text()
	for _, p := range cxx.Params(fn) {
		if p.Name == name {
			return true
		}
	}
	declared := func(scope *grammar.Node, kinds ...string) bool {
		found := false
		scope.Walk(func(n *grammar.Node) bool {
			if found {
				return false
			}
			if slices.Contains(kinds, n.Kind()) && !strings.Contains(n.Text(), "constexpr") && !strings.HasPrefix(n.Text(), "static") {
				for _, d := range n.ChildrenByField("declarator") {
					if cxx.DeclaredName(d) == name {
						found = true
					}
				}
			}
			return n.Kind() != "lambda_expression"
		})
		return found
	}
	if declared(fn, "declaration") {
		return true
	}
	if cls := fn.Ancestor("class_specifier", "struct_specifier"); cls != nil {
		if body := cls.ChildByField("body"); body != nil && declared(body, "field_declaration") {
			return true
		}
	}
	return false
}
