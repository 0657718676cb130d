package grammar

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// A source parsed in pieces has the nodes of the whole parse: the same
// kinds, fields, flags, spans and shape. The pieces here are a few KB of
// every C++ fixture the repo ships (namespaces, templates, macros, #if).
func TestChunkedParseMatchesWhole(t *testing.T) {
	var b strings.Builder
	for _, root := range []string{"../testdata", "../analysis/rules/testdata", "../examples"} {
		filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
			if l, ok := LangOf(p); err == nil && !d.IsDir() && ok && l == CPP {
				src, _ := os.ReadFile(p)
				b.Write(src)
				b.WriteString("\n")
			}
			return nil
		})
	}
	for i := 0; i < 200; i++ {
		fmt.Fprintf(&b, "template <typename T>\nstruct S%d {\n  T v[%d];\n};\nextern \"C\" __global__ __aicore__ void k%d(__gm__ int64_t *args) {\n  if (args[0]) { S%d<float> s; }\n}\n", i, i+1, i, i)
		// A raw string's lines are no code: none is cut after.
		fmt.Fprintf(&b, "static const char *info%d = R\"x(\n  \"a\": {1};\n  (b\n)x\";\n", i)
	}
	src := []byte(b.String())
	whole, err := ParseFile(context.Background(), nil, "all.cpp", src, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer func(n, m int) { chunkBytes, chunkAfter = n, m }(chunkBytes, chunkAfter)
	chunkBytes, chunkAfter = 4<<10, 8<<10
	parsed, _ := Mask(src)
	if cuts := topLevelSplits(parsed, chunkBytes); len(cuts) < 10 {
		t.Fatalf("only %d cuts in %d bytes", len(cuts), len(src))
	}
	pieces, err := ParseFile(context.Background(), nil, "all.cpp", src, nil)
	if err != nil {
		t.Fatal(err)
	}
	if pieces.Tree.ts != nil {
		t.Fatal("a source parsed in pieces keeps a C tree")
	}
	t.Logf("%d bytes, %d nodes, %d cuts", len(src), len(whole.Tree.Nodes), len(topLevelSplits(parsed, chunkBytes)))
	sameNodes(t, whole.Tree.Nodes, pieces.Tree.Nodes)
}

// A batch parser (check's: its trees are never reparsed) parses a source
// over batchChunkAfter in pieces, where an editor's parser keeps the whole
// C tree for the next incremental reparse; the nodes are the same.
func TestBatchParserParsesInPieces(t *testing.T) {
	var b strings.Builder
	for i := 0; b.Len() <= batchChunkAfter*2; i++ {
		fmt.Fprintf(&b, "extern \"C\" __global__ __aicore__ void k%d(__gm__ int64_t *args) {\n  for (int i = 0; i < %d; i++) { if (args[i]) { args[i] = i; } }\n}\n", i, i+1)
	}
	src := []byte(b.String())
	if len(src) > chunkAfter {
		t.Fatalf("%d bytes: the editor's parser would cut it too", len(src))
	}
	whole, err := ParseFile(context.Background(), NewParser(CPP), "k.cpp", src, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer whole.Tree.Close()
	if whole.Tree.ts == nil {
		t.Fatal("an editor's parse of a source under chunkAfter keeps no C tree to reparse from")
	}
	// A parser for the other language is replaced by a batch one.
	for _, p := range []*Parser{NewBatchParser(CPP), NewBatchParser(Python)} {
		pieces, err := ParseFile(context.Background(), p, "k.cpp", src, nil)
		if err != nil {
			t.Fatal(err)
		}
		if pieces.Tree.ts != nil {
			t.Fatalf("a batch parse of %d bytes keeps a C tree", len(src))
		}
		sameNodes(t, whole.Tree.Nodes, pieces.Tree.Nodes)
	}
}

// sameNodes fails unless the nodes of a parse in pieces, c, are those of
// the whole parse, w.
func sameNodes(t *testing.T, w, c []Node) {
	t.Helper()
	if len(w) != len(c) {
		t.Fatalf("%d nodes in pieces, %d whole", len(c), len(w))
	}
	for i := range w {
		a, b := &w[i], &c[i]
		if a.Kind() != b.Kind() || a.Field() != b.Field() || a.Start != b.Start || a.End != b.End || a.flags() != b.flags() ||
			a.parent() != b.parent() || a.last() != b.last() || a.index() != b.index() {
			t.Fatalf("node %d: pieces %s %q [%d,%d) parent %d last %d, whole %s %q [%d,%d) parent %d last %d", i,
				b.Kind(), b.Field(), b.Start, b.End, b.parent(), b.last(), a.Kind(), a.Field(), a.Start, a.End, a.parent(), a.last())
		}
	}
}

// A huge function, or a namespace, is parsed in pieces of its body, and
// the nodes are still those of the whole parse: statements of every kind,
// an if without braces before its else, a do without braces, a lambda, a
// local struct, #if blocks, comments before an else, a try and its catch,
// and code before and after the function.
func TestBlockParseMatchesWhole(t *testing.T) {
	stmts := `  int64_t v%[1]d = args[%[1]d] + 1; // a comment; with a semicolon
  if (v%[1]d > 0) v%[1]d = 0;
  /* between */ else v%[1]d = 1;
  do v%[1]d++; while (v%[1]d < 3);
  auto f%[1]d = [&](int x) { return x + v%[1]d; };
  struct S%[1]d { int a; float b; } s%[1]d = {1, 2.0f};
  for (int i = 0; i < 4; ++i) { out[i] = f%[1]d(i); }
#if defined(__DAV_C220_VEC__)
  AscendC::PipeBarrier<PIPE_V>();
#else
  AscendC::PipeBarrier<PIPE_ALL>();
#endif
  switch (v%[1]d) { case 0: out[0] = 1; break; default: break; }
  try { out[1] = 2; }
  catch (...) { out[2] = 3; }
  const char *msg%[1]d = "a ; } { string";
  label%[1]d: out[3] = v%[1]d;
`
	var fn, ns strings.Builder
	fn.WriteString("#include \"kernel_operator.h\"\nstatic int before = 1;\nextern \"C\" __global__ __aicore__ void big(__gm__ int64_t *args) {\n  __gm__ float *out = (__gm__ float *)args[0];\n")
	ns.WriteString("#include \"kernel_operator.h\"\nnamespace kernels {\n")
	for i := 0; fn.Len() < 64<<10; i++ {
		fmt.Fprintf(&fn, stmts, i)
		fmt.Fprintf(&ns, "__aicore__ inline void h%[1]d(__gm__ float *out, __gm__ int64_t *args) {\n", i)
		fmt.Fprintf(&ns, stmts, i)
		ns.WriteString("}\n")
	}
	fn.WriteString("}\n\n")
	ns.WriteString("} // namespace kernels\n")
	defer func(n, m int) { chunkBytes, chunkAfter = n, m }(chunkBytes, chunkAfter)
	for name, src := range map[string][]byte{"function": []byte(fn.String()), "namespace": []byte(ns.String())} {
		t.Run(name, func(t *testing.T) {
			chunkBytes, chunkAfter = 512<<10, 512<<10
			whole, err := ParseFile(context.Background(), nil, "big.cpp", src, nil)
			if err != nil {
				t.Fatal(err)
			}
			if whole.Tree.ts == nil {
				t.Fatal("parsed in pieces at the default sizes")
			}
			chunkBytes, chunkAfter = 2<<10, 4<<10
			parsed, _ := Mask(src)
			if cuts := topLevelSplits(parsed, chunkBytes); len(cuts) > 0 {
				t.Fatalf("%d top-level cuts: the test wants one block", len(cuts))
			}
			if h := hugeIn(parsed, spanTop, chunkBytes, true); h == nil || h.chain || len(h.cuts) < 10 {
				t.Fatalf("no huge block with 10 cuts in %d bytes: %+v", len(src), h)
			}
			pieces, err := ParseFile(context.Background(), nil, "big.cpp", src, nil)
			if err != nil {
				t.Fatal(err)
			}
			if pieces.Tree.ts != nil {
				t.Fatal("the block was parsed whole")
			}
			for i := range whole.Tree.Nodes {
				if n := &whole.Tree.Nodes[i]; n.flags()&(flagError|flagMissing) != 0 {
					t.Fatalf("the source does not parse cleanly at %d: %q", n.Start, src[n.Start:n.End])
				}
			}
			sameNodes(t, whole.Tree.Nodes, pieces.Tree.Nodes)
			// And the block was parsed in pieces, not whole after a
			// piece failed.
			mustParseInRuns(t, parsed, src, 10)
		})
	}
}

// mustParseInRuns fails unless parsed (src masked), one top-level piece,
// parses with at least runs runs of a huge statement.
func mustParseInRuns(t *testing.T, parsed, src []byte, runs int) {
	t.Helper()
	c := &chunker{p: NewParser(CPP), t: &Tree{Src: src, names: CPP.info().names}, src: parsed}
	defer c.nodes.free()
	ok, err := c.parseSpanOr(context.Background(), 0, len(parsed), spanTop, 0, hugeIn(parsed, spanTop, chunkBytes, true))
	if !ok || err != nil || c.runs < runs {
		t.Fatalf("not parsed in runs: %v %v, %d runs", ok, err, c.runs)
	}
}

// TestParseHeapPerByte guards what a parsed file keeps on the Go heap per
// byte of source (nodes, masked text, line index; issue 13 bounds a
// check's memory at 20x its input): a bigger Node, a second copy of the
// text or an index kept with the tree shows here as a count, not as a
// timing. tree-sitter's own tree is C memory and not counted; that it
// never lives whole for a large function is TestBlockParseMatchesWhole's.
func TestParseHeapPerByte(t *testing.T) {
	if testing.Short() {
		t.Skip("a 1 MB parse")
	}
	var b strings.Builder
	b.WriteString("#include \"kernel_operator.h\"\nextern \"C\" __global__ __aicore__ void big(__gm__ int64_t *args) {\n  __gm__ float *out = (__gm__ float *)args[0];\n")
	for i := 0; b.Len() < 1<<20; i++ {
		fmt.Fprintf(&b, "  out[%d] = args[%d] + 1;\n  if (out[%d] > 0) { AscendC::PipeBarrier<PIPE_V>(); }\n  for (int k = 0; k < %d; ++k) { out[k] = k; }\n", i, i%8, i, i%5+1)
	}
	b.WriteString("}\n")
	src := []byte(b.String())
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f, err := ParseFile(context.Background(), nil, "big.cpp", src, nil)
	if err != nil {
		t.Fatal(err)
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	kept := float64(after.HeapAlloc) - float64(before.HeapAlloc)
	perByte := kept / float64(len(src))
	runtime.KeepAlive(f)
	// 9.5 today on this dense code: 20-byte nodes, 0.45 of them per
	// byte, and the line index (24-byte nodes kept 11.4).
	if perByte > 10.5 {
		t.Errorf("a parse keeps %.1f bytes of Go heap per byte of source (%d nodes), want at most 10.5", perByte, len(f.Tree.Nodes))
	} else {
		t.Logf("a parse keeps %.1f bytes of Go heap per byte of source (%d nodes)", perByte, len(f.Tree.Nodes))
	}
}

// Minified code, one line of many declarations, is cut inside its line,
// and its nodes are still those of the whole parse; a struct whose
// declarator follows its `}` is not cut there.
func TestOneLineChunksMatchWhole(t *testing.T) {
	var b strings.Builder
	b.WriteString("#include \"kernel_operator.h\"\n")
	for i := 0; b.Len() < 64<<10; i++ {
		fmt.Fprintf(&b, "__aicore__ inline void h%[1]d(__gm__ int *p) { p[0] = %[1]d; if (p[1]) { p[2] = 1; } else { p[3] = 2; } } struct S%[1]d { int a; } s%[1]d; int g%[1]d = 1; ", i)
	}
	b.WriteString("\n")
	src := []byte(b.String())
	defer func(n, m int) { chunkBytes, chunkAfter = n, m }(chunkBytes, chunkAfter)
	chunkBytes, chunkAfter = 1<<20, 1<<20
	whole, err := ParseFile(context.Background(), nil, "min.cpp", src, nil)
	if err != nil {
		t.Fatal(err)
	}
	chunkBytes, chunkAfter = 2<<10, 4<<10
	parsed, _ := Mask(src)
	cuts := topLevelSplits(parsed, chunkBytes)
	if len(cuts) < 10 || !midLine(parsed, cuts[0]) {
		t.Fatalf("%d cuts in one line of %d bytes", len(cuts), len(src))
	}
	for _, cut := range cuts {
		if rest := bytes.TrimLeft(parsed[cut:], " "); len(rest) > 1 && rest[0] == 's' && rest[1] >= '0' && rest[1] <= '9' {
			t.Fatalf("cut at %d between a struct and its declarator: %q", cut, parsed[cut-10:cut+10])
		}
	}
	pieces, err := ParseFile(context.Background(), nil, "min.cpp", src, nil)
	if err != nil {
		t.Fatal(err)
	}
	if pieces.Tree.ts != nil {
		t.Fatal("the line was parsed whole")
	}
	sameNodes(t, whole.Tree.Nodes, pieces.Tree.Nodes)
}

// A huge statement is parsed in runs of its own, and the nodes are still
// those of the whole parse: an else-if chain cut between links (each if of
// the chain ends where the chain does), with or without a final else, with
// comments and directives between and in its links; a huge block deep in
// loops whose closing lines hold statements; a chain inside a loop; a
// chain among many statements and a link holding a huge block (a run
// holding a huge statement of its own); a switch's body; a chain that is
// none to tree-sitter, or whose else is an inner if's (the statements
// around are cut instead); nested namespaces.
func TestHugeStatementParseMatchesWhole(t *testing.T) {
	const stmts = "  out[%[1]d] = in[%[1]d] + 1;\n  AscendC::SetFlag<AscendC::HardEvent::MTE3_MTE2>(EVENT_ID0);\n  if (out[%[1]d]) { flags[%[1]d] = 2; }\n"
	head := "#include \"kernel_operator.h\"\nextern \"C\" __global__ __aicore__ void big(__gm__ int64_t *args) {\n  int64_t idx = args[0];\n"
	// chain writes an else-if chain of about n bytes; link i's body.
	chain := func(b *strings.Builder, n int, finalElse bool, between func(i int) string, body func(b *strings.Builder, i int)) {
		b.WriteString("  if (idx < 0) {\n    return;\n  }")
		for i, end := 0, b.Len()+n; b.Len() < end; i++ {
			fmt.Fprintf(b, "%s else if (idx == %d) {\n", between(i), i)
			body(b, i)
			b.WriteString("  }")
		}
		if finalElse {
			b.WriteString(" else {\n    out[0] = 0;\n  }")
		}
		b.WriteString("\n")
	}
	plain := func(b *strings.Builder, i int) { fmt.Fprintf(b, stmts, i) }
	// pad writes 400 plain statements: enough around a chain for the
	// statements to be cut into runs of their own.
	pad := func(b *strings.Builder) {
		for i := 0; i < 400; i++ {
			plain(b, i)
		}
	}
	none := func(int) string { return "" }
	gen := map[string]func(b *strings.Builder){
		"chain": func(b *strings.Builder) {
			chain(b, 64<<10, false, none, plain)
			b.WriteString("  AscendC::SyncAll();\n")
		},
		"chain-else": func(b *strings.Builder) {
			chain(b, 64<<10, true, none, plain)
		},
		"chain-comments": func(b *strings.Builder) {
			chain(b, 64<<10, true, func(i int) string {
				switch i % 4 {
				case 1:
					return " // after a link\n  /* before the next */"
				case 2:
					return "\n  // own line\n "
				case 3:
					return " else if (idx == -1) return;\n  else if (idx == -2)\n    out[0] = 1;\n "
				}
				return ""
			}, func(b *strings.Builder, i int) {
				if i%3 == 0 {
					b.WriteString("#if defined(__DAV_C220_VEC__)\n    AscendC::PipeBarrier<PIPE_V>();\n#else\n    AscendC::PipeBarrier<PIPE_ALL>();\n#endif\n")
				}
				fmt.Fprintf(b, "#pragma unroll\n    out[%d] = 1; /* a } in a comment */\n", i)
			})
			b.WriteString("  // after the chain\n  AscendC::SyncAll();\n")
		},
		"chain-directive-between": func(b *strings.Builder) {
			pad(b)
			chain(b, 48<<10, false, func(i int) string {
				if i%50 == 49 {
					return "\n#if 0\n  // gone\n#endif\n "
				}
				return ""
			}, plain)
			pad(b)
		},
		// An else that is not the last link's (but an if's in it): the
		// statements around are cut, the chain is one run.
		"dangling-else": func(b *strings.Builder) {
			pad(b)
			chain(b, 48<<10, false, func(i int) string {
				if i%40 == 39 {
					return " else if (idx == -1) if (out[0]) {\n  }"
				}
				return ""
			}, plain)
			pad(b)
		},
		"switch": func(b *strings.Builder) {
			b.WriteString("  switch (idx) {\n")
			for i := 0; b.Len() < 64<<10; i++ {
				fmt.Fprintf(b, "  case %d:\n", i)
				fmt.Fprintf(b, stmts, i)
				b.WriteString("    break;\n")
			}
			b.WriteString("  default:\n    break;\n  }\n  auto f = [&](int k) {\n")
			for i := 0; i < 100; i++ {
				fmt.Fprintf(b, stmts, i)
			}
			b.WriteString("  };\n  f(1);\n")
		},
		"nest": func(b *strings.Builder) {
			for d := 0; d < 40; d++ {
				fmt.Fprintf(b, "for (int i%[1]d = 0; i%[1]d < 2; ++i%[1]d) {\n", d)
				fmt.Fprintf(b, stmts, d)
			}
			for i := 0; b.Len() < 64<<10; i++ {
				fmt.Fprintf(b, stmts, 100+i)
			}
			for d := 0; d < 40; d++ {
				fmt.Fprintf(b, "  AscendC::DataCopy(outGm[%d], ub, 8);\n}\n", d)
			}
			b.WriteString("  AscendC::SyncAll();\n")
		},
		"chain-in-loop": func(b *strings.Builder) {
			b.WriteString("  for (int k = 0; k < 4; ++k) {\n    while (idx > 0) {\n")
			chain(b, 64<<10, true, none, plain)
			b.WriteString("    out[1] = 2;\n    }\n    out[2] = 3;\n  }\n  AscendC::SyncAll();\n")
		},
		"chain-among-statements": func(b *strings.Builder) {
			pad(b)
			chain(b, 32<<10, false, none, plain)
			pad(b)
		},
		"huge-link": func(b *strings.Builder) {
			chain(b, 128<<10, true, none, func(b *strings.Builder, i int) {
				plain(b, i)
				if i == 20 {
					for j := 0; j < 300; j++ {
						fmt.Fprintf(b, stmts, j)
					}
				}
			})
			b.WriteString("  AscendC::SyncAll();\n")
		},
	}
	defer func(n, m int) { chunkBytes, chunkAfter = n, m }(chunkBytes, chunkAfter)
	for name, g := range gen {
		t.Run(name, func(t *testing.T) {
			var b strings.Builder
			b.WriteString(head)
			g(&b)
			b.WriteString("}\n")
			src := []byte(b.String())
			chunkBytes, chunkAfter = 512<<10, 512<<10
			whole, err := ParseFile(context.Background(), nil, "big.cpp", src, nil)
			if err != nil {
				t.Fatal(err)
			}
			if whole.Tree.ts == nil {
				t.Fatal("parsed in pieces at the default sizes")
			}
			// A directive between links: tree-sitter sees no chain
			// but errors, and the function is parsed whole.
			unclean := name == "chain-directive-between"
			if whole.Tree.HasError() != unclean {
				t.Fatalf("the source parses with errors: %v", whole.Tree.HasError())
			}
			chunkBytes, chunkAfter = 2<<10, 4<<10
			pieces, err := ParseFile(context.Background(), nil, "big.cpp", src, nil)
			if err != nil {
				t.Fatal(err)
			}
			sameNodes(t, whole.Tree.Nodes, pieces.Tree.Nodes)
			if !unclean {
				parsed, _ := Mask(src)
				mustParseInRuns(t, parsed, src, 8)
			}
		})
	}
	t.Run("namespaces", func(t *testing.T) {
		var b strings.Builder
		b.WriteString("namespace a {\nint before;\nnamespace b {\n")
		for i := 0; b.Len() < 64<<10; i++ {
			fmt.Fprintf(&b, "__aicore__ inline void h%[1]d(__gm__ float *out) {\n  out[%[1]d] = 1;\n}\nstruct S%[1]d { int x; };\n", i)
		}
		b.WriteString("} // namespace b\nint after;\n} // namespace a\n")
		src := []byte(b.String())
		chunkBytes, chunkAfter = 512<<10, 512<<10
		whole, err := ParseFile(context.Background(), nil, "ns.cpp", src, nil)
		if err != nil {
			t.Fatal(err)
		}
		chunkBytes, chunkAfter = 2<<10, 4<<10
		pieces, err := ParseFile(context.Background(), nil, "ns.cpp", src, nil)
		if err != nil {
			t.Fatal(err)
		}
		sameNodes(t, whole.Tree.Nodes, pieces.Tree.Nodes)
		parsed, _ := Mask(src)
		mustParseInRuns(t, parsed, src, 8)
	})
}

// A piece ending in a function under twice the piece size, after other
// declarations (helpers and the entry calling them all), parses the
// function in runs: the piece's own parse and each run hold about a
// piece's bytes, not the piece's 1.5 to 2.5 (the piece's C tree is the
// parse's peak), and the nodes are still those of the whole parse.
func TestEntryAfterHelpersParsesInRuns(t *testing.T) {
	var b strings.Builder
	b.WriteString("#include \"kernel_operator.h\"\n")
	n := 0
	for ; b.Len() < 24<<10; n++ {
		fmt.Fprintf(&b, "__aicore__ inline void phase%[1]d(__gm__ int64_t *args) {\n  for (int64_t i = 0; i < args[%[2]d]; ++i) {\n    AscendC::PipeBarrier<PIPE_V>();\n  }\n}\n", n, n%8)
	}
	b.WriteString("extern \"C\" __global__ __aicore__ void big(__gm__ int64_t *args) {\n")
	for i, end := 0, b.Len()+3500; b.Len() < end; i++ {
		fmt.Fprintf(&b, "  phase%d(args);\n", i%n)
	}
	b.WriteString("}\n")
	src := []byte(b.String())
	defer func(n, m int) { chunkBytes, chunkAfter = n, m }(chunkBytes, chunkAfter)
	chunkBytes, chunkAfter = 512<<10, 512<<10
	whole, err := ParseFile(context.Background(), nil, "helpers.cpp", src, nil)
	if err != nil {
		t.Fatal(err)
	}
	chunkBytes, chunkAfter = 2<<10, 4<<10
	parsed, _ := Mask(src)
	cuts := topLevelSplits(parsed, chunkBytes)
	last := parsed[cuts[len(cuts)-1]:]
	entry := bytes.Index(last, []byte("extern"))
	if len(last) <= 2*chunkBytes || entry <= 0 || len(last)-entry >= 2*chunkBytes {
		t.Fatalf("the last piece is %d bytes, its entry at %d: the test wants a piece over twice chunkBytes ending in a function under it", len(last), entry)
	}
	h := hugeIn(last, spanTop, chunkBytes, true)
	if h == nil || h.chain || h.start < entry {
		t.Fatalf("no huge block in the entry: %+v", h)
	}
	// The piece's own parse (all but the runs) and each run.
	slack := 64 // a statement past a cut's mark
	if own := h.cuts[0] + len(last) - h.end; own > chunkBytes+slack {
		t.Errorf("the piece's own parse holds %d bytes", own)
	}
	for k, cut := range h.cuts {
		end := h.end
		if k+1 < len(h.cuts) {
			end = h.cuts[k+1]
		}
		if end-cut > chunkBytes+slack {
			t.Errorf("run %d holds %d bytes", k, end-cut)
		}
	}
	pieces, err := ParseFile(context.Background(), nil, "helpers.cpp", src, nil)
	if err != nil {
		t.Fatal(err)
	}
	sameNodes(t, whole.Tree.Nodes, pieces.Tree.Nodes)
	mustParseInRuns(t, last, src[cuts[len(cuts)-1]:], 1)
}

// A 1 MB source of helpers and the entry calling them parsed in pieces
// grows the C heap by about one piece's tree (1.5 MB), not by one per
// thread the parse ran on (each has its own malloc arena) nor by the last
// piece holding the whole entry: that C heap was most of the parse's peak.
func TestChunkedParseCHeap(t *testing.T) {
	if testing.Short() {
		t.Skip("a 1 MB parse")
	}
	if cHeapArenas() < 0 {
		t.Skip("no glibc malloc statistics")
	}
	var b strings.Builder
	b.WriteString("#include \"kernel_operator.h\"\n")
	n := 0
	for ; b.Len() < 1<<20; n++ {
		fmt.Fprintf(&b, "__aicore__ inline void phase%[1]d(__gm__ int64_t *args, AscendC::GlobalTensor<float> g) {\n  int64_t len = args[%[2]d];\n  for (int64_t i = 0; i < len; ++i) {\n    if (i %% 4 == %[3]d) { g.SetValue(i, 0.0f); }\n    AscendC::PipeBarrier<PIPE_V>();\n  }\n  AscendC::SyncAll<false>();\n}\n", n, n%8+1, n%4)
	}
	b.WriteString("extern \"C\" __global__ __aicore__ void big(__gm__ int64_t *args) {\n  AscendC::GlobalTensor<float> g;\n")
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "  phase%d(args, g);\n", i)
	}
	b.WriteString("}\n")
	src := []byte(b.String())
	before := cHeapArenas()
	f, err := ParseFile(context.Background(), nil, "helpers.cpp", src, nil)
	if err != nil {
		t.Fatal(err)
	}
	if f.Tree.ts != nil {
		t.Fatal("parsed whole")
	}
	// Before: 7 to 12 MB.
	if grown := cHeapArenas() - before; grown > 5<<20 {
		t.Errorf("a parse in pieces grew the C heap by %.1f MB", float64(grown)/(1<<20))
	} else {
		t.Logf("a parse in pieces grew the C heap by %.1f MB", float64(grown)/(1<<20))
	}
}

// A tree is followed by a trim of the C heap when it holds more text than
// a piece (a huge statement's head of many loop levels: the runs after it
// are smaller), not when it holds more nodes than a piece usually does (a
// piece of tables, a node every byte or two: the next piece is as big, and
// a trim after every piece costs a fifth of the parse).
func TestTrimAfterLargeTrees(t *testing.T) {
	defer func(n int) { chunkBytes = n }(chunkBytes)
	chunkBytes = 2 << 10
	parse := func(src string, h *huge) int {
		t.Helper()
		c := &chunker{p: NewParser(CPP), t: &Tree{Src: []byte(src), names: CPP.info().names}, src: []byte(src)}
		defer c.nodes.free()
		if ok, err := c.parseSpanOr(context.Background(), 0, len(src), spanTop, 0, h); !ok || err != nil {
			t.Fatalf("not parsed: %v %v", ok, err)
		}
		return c.trims
	}
	var b strings.Builder
	for i := 0; b.Len() < chunkBytes*5/4; i++ {
		fmt.Fprintf(&b, "static const int t%d[] = {", i)
		for j := 0; j < 40; j++ {
			fmt.Fprintf(&b, "%d,", j%10)
		}
		b.WriteString("};\n")
	}
	if n := parse(b.String(), nil); n != 0 {
		t.Errorf("%d trims after a piece of tables", n)
	}
	b.Reset()
	b.WriteString("void big(int *out, int *in) {\n")
	for d := 0; d < 80; d++ {
		fmt.Fprintf(&b, "for (int i%[1]d = 0; i%[1]d < 2; ++i%[1]d) {\n  out[%[1]d] = in[%[1]d] + 1;\n", d)
	}
	for i := 0; i < 1000; i++ {
		fmt.Fprintf(&b, "  out[%d] = in[%d] * 2;\n", i, i)
	}
	for d := 0; d < 80; d++ {
		fmt.Fprintf(&b, "  out[%d] = 0;\n}\n", d)
	}
	b.WriteString("}\n")
	src := b.String()
	h := hugeIn([]byte(src), spanTop, chunkBytes, true)
	if h == nil || h.cuts[0]+len(src)-h.end <= chunkBytes*3/2 {
		t.Fatalf("no huge block after a head of over 1.5 pieces: %+v", h)
	}
	if n := parse(src, h); n != 1 {
		t.Errorf("%d trims after a head of many loop levels and its runs, want 1", n)
	}
}
