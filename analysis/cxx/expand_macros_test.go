package cxx

import "testing"

// The preprocessor's expansion of an instantiation: a list macro applying
// a kernel macro per type, the parameters pasted and stringized, a
// parameter list behind an object-like macro, a macro naming itself.
func TestExpandMacros(t *testing.T) {
	defs := map[string]*Macro{}
	for _, d := range []struct{ name, params, body string }{
		{"TYPES_DEF", "func", "func(float); func(half)"},
		{"ARGS_DEF", "", "GM_ADDR x, int32_t n"},
		{"ARGS_CALL", "", "x, n"},
		{"GLOBAL_DEF", "k", `extern "C" __global__ __aicore__ void k(ARGS_DEF) { k##_inner(ARGS_CALL); } META(#k)`},
		{"BATCH_DEF", "type", "__aicore__ inline void op_##type##_inner(ARGS_DEF) { run<type>(ARGS_CALL); } GLOBAL_DEF(op_##type)"},
		{"CALL", "NAME, ...", "NAME(__VA_ARGS__)"},
		{"SELF", "", "SELF + 1"},
	} {
		m := &Macro{Name: d.name, Body: d.body, FuncLike: d.params != ""}
		switch d.params {
		case "":
		case "NAME, ...":
			m.Params = []string{"NAME", "__VA_ARGS__"}
		default:
			m.Params = []string{d.params}
		}
		defs[d.name] = m
	}
	def := func(name string) *Macro { return defs[name] }
	for in, want := range map[string]string{
		"TYPES_DEF(BATCH_DEF);": `__aicore__ inline void op_float_inner(GM_ADDR x, int32_t n) { run<float>(x, n); } extern "C" __global__ __aicore__ void op_float(GM_ADDR x, int32_t n) { op_float_inner(x, n); } META("op_float"); __aicore__ inline void op_half_inner(GM_ADDR x, int32_t n) { run<half>(x, n); } extern "C" __global__ __aicore__ void op_half(GM_ADDR x, int32_t n) { op_half_inner(x, n); } META("op_half");`,
		"CALL(dcci, p, 1)":      "dcci(p, 1)",
		"SELF":                  "SELF + 1",
	} {
		got, ok := ExpandMacros(in, def)
		if !ok || got != want {
			t.Errorf("%s:\n got %s\nwant %s", in, got, want)
		}
	}
}
