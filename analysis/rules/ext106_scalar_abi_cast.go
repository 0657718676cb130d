package rules

import (
	"fmt"
	"strings"

	"github.com/extern-lsp/extern-lsp/analysis"
	"github.com/extern-lsp/extern-lsp/analysis/abi"
	"github.com/extern-lsp/extern-lsp/grammar"
)

// ScalarABICast flags scalar slots read with a conversion that contradicts
// their dtype.
var ScalarABICast = register(&analysis.Analyzer{
	Code:     "EXT106",
	Name:     "scalar-abi-cast",
	Severity: analysis.SeverityWarning,
	Lang:     grammar.CPP,
	Premise:  analysis.PremiseRuntime,
	ABI:      true,
	Fixable:  true,
	Doc: analysis.Doc{
		Summary: "a scalar args[] slot is read with a cast that contradicts its pypto dtype",
		What: "For scalar slots whose stub declares a dtype: flags an FP32 slot converted by value (`(float)args[k]`, " +
			"`static_cast<float>(args[k])`, `float x = args[k];`, or after an integer cast that keeps the bits: " +
			"`static_cast<float>(static_cast<uint32_t>(args[k]))`, `float x = static_cast<int32_t>(args[k]);`; not an integer cast kept in an " +
			"integer or a union member for a later bit-cast; or through a helper that converts it, a template one to its type argument, " +
			"`scalar<float>(args, k)`, also when it hands the slot to a decoder of its file, `return Decode<T>::From(args[k]);` or " +
			"`return decode<T>(args[k]);`, whose explicit specialisations, such as a `Decode<float>` that bit-casts, decide their own " +
			"types) and a signed INT8/16/32 slot read as a 64-bit integer " +
			"(`int64_t x = args[k];`, `static_cast<int64_t>(args[k])`, a helper returning the raw 64-bit slot or reading it as " +
			"`int64_t`, `ScalarArg<int64_t>(args, k)`) without " +
			"truncating it first.",
		Why: "A scalar slot holds the value's bits zero-extended to 64. An FP32 scalar must be bit-cast " +
			"(`from_u64<float>(args[k])`): a value conversion turns the bit pattern 0x3F800000 (1.0f) into 1065353216.0f. " +
			"An INT32 scalar must be read as `static_cast<int32_t>(args[k])`: read as 64-bit, -1 becomes 4294967295 — " +
			"a wild offset or loop bound. INDEX and INT64 slots are read directly.",
		Example:    "float scale = (float)args[4];              // FP32 slot\nint64_t n = args[3];                       // INT32 slot",
		UseInstead: "float scale = from_u64<float>(args[4]);\nint64_t n = static_cast<int32_t>(args[3]);",
		FixSafety: "Unsafe: rewrites the read to the bit-cast or the truncating cast. `from_u64<float>` is the runtime's " +
			"helper; a kernel without it needs its own bit-cast. Values that were only ever non-negative read the same " +
			"before and after the INT32 fix.",
		Guide: "§2",
	},
	Run: runScalarABICast,
})

func floatDType(d string) bool {
	switch strings.ToUpper(d) {
	case "FP32", "FLOAT32", "FLOAT", "FP16", "FLOAT16", "BF16", "BFLOAT16", "HALF", "FP64", "DOUBLE":
		return true
	}
	return false
}

func narrowSignedDType(d string) bool {
	switch strings.ToUpper(d) {
	case "INT32", "INT16", "INT8":
		return true
	}
	return false
}

func runScalarABICast(pass *analysis.Pass) {
	type key struct {
		a    *abi.Access
		kind string
	}
	done := map[key]bool{}
	_, uses := fileABI(pass)
	for _, u := range uses {
		if pass.Stopped() {
			return
		}
		a, s, p := u.Acc, u.Stub, u.Param
		if p.Kind != abi.Scalar || a.Use != abi.UseScalar || strings.HasPrefix(a.Cast, "bitcast") {
			continue
		}
		switch {
		case floatDType(p.DType) && abi.IsFloat(a.Cast):
			if done[key{a, "float"}] {
				continue
			}
			done[key{a, "float"}] = true
			reportFloatRead(pass, a, s, p, nil)
		case floatDType(p.DType) && !a.Implicit && a.CastNode != nil && abi.IsInteger(a.Cast) && abi.FloatAfter(pass.File, a.CastNode) != nil:
			// `static_cast<float>(static_cast<uint32_t>(args[k]))`: the
			// integer cast keeps the bits, the float conversion after it
			// converts them as a value.
			if done[key{a, "float"}] {
				continue
			}
			done[key{a, "float"}] = true
			reportFloatRead(pass, a, s, p, abi.FloatAfter(pass.File, a.CastNode))
		case narrowSignedDType(p.DType) && abi.Is64(a.Cast) && !arithmeticUse(a):
			if done[key{a, "int"}] {
				continue
			}
			done[key{a, "int"}] = true
			reportWideIntRead(pass, a, s, p)
		}
	}
}

// arithmeticUse: the value only takes part in arithmetic, whose result
// width the surrounding code decides.
func arithmeticUse(a *abi.Access) bool {
	if a.CastNode == nil {
		return false
	}
	switch a.CastNode.Kind() {
	case "init_declarator", "cast_expression", "call_expression":
		return false
	}
	return true
}

// reportFloatRead reports an FP32 slot read converted by value: by its
// own cast, or by conv after an integer cast that kept the bits.
func reportFloatRead(pass *analysis.Pass, a *abi.Access, s *abi.Stub, p *abi.Param, conv *grammar.Node) {
	read := "a value conversion"
	if conv != nil {
		read = "`" + clipText(conv.Text()) + "` (an integer cast that keeps the bits, then a conversion to float)"
	} else if a.CastNode == nil && a.Via != "" && a.Via != "args[]" {
		read = "the helper `" + a.Via + "`, a value conversion,"
	} else if a.CastNode != nil {
		read = "`" + clipText(a.CastNode.Text()) + "`"
	}
	msg := fmt.Sprintf("args[%d] is %s scalar `%s` of extern `%s`: the slot holds the float's bits zero-extended to 64, "+
		"and %s converts that bit pattern as an integer value; bit-cast it with `from_u64<float>(...)`", p.Slot, p.DType, p.Name, s.Name, read)
	d := analysis.Diagnostic{Start: a.Start, End: a.End, Message: msg,
		Related: []analysis.Related{paramRelated(s, p, fmt.Sprintf("`%s: %s`", p.Name, p.Type))}}
	if a.Node != nil {
		d.Start, d.End = a.Node.Start, a.Node.End
	}
	if p.DType == "FP32" || p.DType == "FLOAT32" {
		if e, ok := floatFixEdit(a); ok {
			d.Fixes = []analysis.Fix{{Title: "Bit-cast the slot: `from_u64<float>(...)`", Applicability: analysis.Unsafe, Edits: []analysis.TextEdit{e}}}
		}
	}
	pass.Report(d)
}

func floatFixEdit(a *abi.Access) (analysis.TextEdit, bool) {
	if a.CastNode == nil || a.Value == nil {
		return analysis.TextEdit{}, false
	}
	switch a.CastNode.Kind() {
	case "cast_expression", "call_expression":
		return analysis.TextEdit{Start: a.CastNode.Start, End: a.CastNode.End, NewText: "from_u64<float>(" + a.Value.Text() + ")"}, true
	case "init_declarator":
		return analysis.TextEdit{Start: a.Value.Start, End: a.Value.End, NewText: "from_u64<float>(" + a.Value.Text() + ")"}, true
	}
	return analysis.TextEdit{}, false
}

func reportWideIntRead(pass *analysis.Pass, a *abi.Access, s *abi.Stub, p *abi.Param) {
	how := "as `" + a.Cast + "`"
	if a.CastNode == nil && a.Via != "args[]" {
		how = fmt.Sprintf("through `%s`, which returns the raw 64-bit slot", a.Via)
		if a.Cast != "" {
			how = fmt.Sprintf("through `%s`, which reads it as `%s`", a.Via, a.Cast)
		}
	}
	msg := fmt.Sprintf("args[%d] is %s scalar `%s` of extern `%s`: the slot holds the value zero-extended to 64 bits, "+
		"so reading it %s turns negative values into large positive ones; truncate first: `static_cast<int32_t>(...)`", p.Slot, p.DType, p.Name, s.Name, how)
	d := analysis.Diagnostic{Start: a.Start, End: a.End, Message: msg,
		Related: []analysis.Related{paramRelated(s, p, fmt.Sprintf("`%s: %s`", p.Name, p.Type))}}
	if a.Node != nil {
		d.Start, d.End = a.Node.Start, a.Node.End
		ct := "int32_t"
		switch strings.ToUpper(p.DType) {
		case "INT16":
			ct = "int16_t"
		case "INT8":
			ct = "int8_t"
		}
		d.Fixes = []analysis.Fix{{Title: "Truncate the slot: `static_cast<" + ct + ">(...)`", Applicability: analysis.Unsafe,
			Edits: []analysis.TextEdit{{Start: a.Node.Start, End: a.Node.End, NewText: "static_cast<" + ct + ">(" + a.Node.Text() + ")"}}}}
	}
	pass.Report(d)
}
