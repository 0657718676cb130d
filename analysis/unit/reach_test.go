package unit

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/extern-lsp/extern-lsp/analysis/workspace"
)

// The header functions a kernel's code names are reached (calls,
// methods by name, a callback passed along, a constructor and destructor
// by the type's name, a functor's operator(), a macro's body by its use);
// a library function nothing names is not; the entry file is reached
// whole; a unit with no kernel, or whose kernel includes a header no
// search finds, reaches everything.
func TestReached(t *testing.T) {
	root := writeTree(t, map[string]string{
		"lib.h": `#pragma once
#define POST(x) post_impl(x)
__aicore__ inline void helper(__gm__ int *p) { inner(p); }
__aicore__ inline void inner(__gm__ int *p) { *p = 1; }
__aicore__ inline void callback(__gm__ int *p) { *p = 2; }
__aicore__ inline void post_impl(__gm__ int *p) { *p = 3; }
__aicore__ inline void unused(__gm__ int *p) { *p = 4; }
__aicore__ inline void unused_too(__gm__ int *p) { unused(p); }
class Pipe {
 public:
  __aicore__ Pipe() { init_pipe(); }
  __aicore__ ~Pipe() { drain_pipe(); }
  __aicore__ void Process() { step(); }
  __aicore__ void operator()(int i) { functor_body(i); }
};
__aicore__ inline void init_pipe() {}
__aicore__ inline void drain_pipe() {}
__aicore__ inline void step() {}
__aicore__ inline void functor_body(int i) {}
template <typename F> __aicore__ inline void apply(F f, __gm__ int *p) { f(p); }
`,
		"k.cpp": `#include "lib.h"
__aicore__ inline void own_unused(__gm__ int *p) { *p = 5; }
extern "C" __global__ __aicore__ void k(__gm__ int *p) {
  helper(p);
  apply(callback, p);
  POST(p);
  Pipe pipe;
  pipe.Process();
  Pipe run;
  run(3);
}
`,
		"hidden.cpp": `#include "lib.h"
#include "impl/not_in_tree.h"
extern "C" __global__ __aicore__ void h(__gm__ int *p) { run_hidden(p); }
`,
		"rt.cpp": `#include "tensor.h"
#include "intrinsic.h"
#include "lib.h"
extern "C" __aicore__ void kernel_entry(__gm__ int64_t *args) { helper((__gm__ int *)args[0]); }
`,
		"std.cpp": `#include "tensor.h"
#include "lib.h"
extern "C" __global__ __aicore__ void s(__gm__ int *p) { helper(p); }
`,
		"lone.cpp": `#include "lib.h"
__aicore__ inline void not_a_kernel(__gm__ int *p) { helper(p); }
`,
	})
	ws := workspace.New(root)
	u := (*Store)(nil).ForEntry(context.Background(), ws, filepath.Join(root, "k.cpp"))
	if u == nil {
		t.Fatal("no unit")
	}
	r := u.Reached()
	fs := u.FuncIndex()
	for name, want := range map[string]bool{
		"helper": true, "inner": true, "callback": true, "post_impl": true, "apply": true,
		"Pipe": true, "~Pipe": true, "Process": true, "init_pipe": true, "drain_pipe": true, "step": true,
		"operator()": true, "functor_body": true, "own_unused": true, "k": true,
		"unused": false, "unused_too": false,
	} {
		defs := fs.Lookup(name)
		if len(defs) == 0 {
			t.Errorf("%s: not indexed", name)
			continue
		}
		for _, d := range defs {
			if got := r.Func(d.Node); got != want {
				t.Errorf("%s: reached %v, want %v", name, got, want)
			}
			body := d.Node.ChildByField("body")
			if got := r.At(d.File, body.Start+1); got != want {
				t.Errorf("%s: At %v, want %v", name, got, want)
			}
		}
	}
	// Outside any function: reached.
	if lib := u.File(filepath.Join(root, "lib.h")); !r.At(lib, 0) {
		t.Error("file scope of lib.h not reached")
	}
	// Reached code behind a header no search finds: that code may call
	// anything.
	hidden := (*Store)(nil).ForEntry(context.Background(), ws, filepath.Join(root, "hidden.cpp"))
	for _, d := range hidden.FuncIndex().Lookup("unused") {
		if !hidden.Reached().Func(d.Node) {
			t.Error("a unit whose kernel includes an unresolved header must reach everything")
		}
	}
	// The runtime's kernel headers, absent from a kernel tree built
	// against the runtime, hide no code of a runtime-ABI kernel; in a
	// standalone kernel the same names are unknown project headers.
	rt := (*Store)(nil).ForEntry(context.Background(), ws, filepath.Join(root, "rt.cpp"))
	for _, d := range rt.FuncIndex().Lookup("unused") {
		if rt.Reached().Func(d.Node) {
			t.Error("a runtime-ABI kernel including the runtime's intrinsic.h must not reach everything")
		}
	}
	std := (*Store)(nil).ForEntry(context.Background(), ws, filepath.Join(root, "std.cpp"))
	for _, d := range std.FuncIndex().Lookup("unused") {
		if !std.Reached().Func(d.Node) {
			t.Error("a standalone kernel including an unresolved tensor.h must reach everything")
		}
	}
	// No kernel and no args entry: everything.
	lone := (*Store)(nil).ForEntry(context.Background(), ws, filepath.Join(root, "lone.cpp"))
	if lone == nil {
		t.Fatal("no unit of lone.cpp")
	}
	for _, d := range lone.FuncIndex().Lookup("unused") {
		if !lone.Reached().Func(d.Node) {
			t.Error("a unit with no kernel must reach everything")
		}
	}
}
