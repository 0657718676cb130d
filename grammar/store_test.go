package grammar

import (
	"bytes"
	"context"
	"fmt"
	"runtime"
	"strings"
	"testing"
)

// The store's nodes keep their indexes across segments, a rollback drops
// whole segments past it, and finish returns them in order.
func TestNodeStore(t *testing.T) {
	var s nodeStore
	defer s.free()
	write := func(need, n int) {
		room, err := s.room(need)
		if err != nil || len(room) < need {
			t.Fatalf("room %d (%v), want %d", len(room), err, need)
		}
		for i := 0; i < n; i++ {
			room[i].setLinks(int32(s.n+i), int32(s.n+i), -1)
		}
		s.commit(n)
	}
	write(segmentNodes-10, segmentNodes-20) // 20 left: the next piece needs a new segment
	write(100, 50)
	write(segmentNodes*2, 70) // a piece larger than a segment
	if len(s.segs) != 3 {
		t.Fatalf("%d segments, want 3", len(s.segs))
	}
	for _, i := range []int{0, segmentNodes - 21, segmentNodes - 20, segmentNodes + 29, segmentNodes + 99} {
		if got := s.at(i).index(); got != int32(i) {
			t.Fatalf("at(%d) holds node %d", i, got)
		}
	}
	s.truncate(segmentNodes - 20 + 10) // back into the second segment
	if len(s.segs) != 2 || s.n != segmentNodes-10 {
		t.Fatalf("after truncate: %d segments, %d nodes", len(s.segs), s.n)
	}
	write(5, 5)
	nodes := s.finish(&Tree{})
	if len(nodes) != segmentNodes-5 || s.segs != nil {
		t.Fatalf("finish: %d nodes, %d segments left", len(nodes), len(s.segs))
	}
	for i := range nodes {
		if nodes[i].index() != int32(i) {
			t.Fatalf("node %d holds %d", i, nodes[i].index())
		}
	}
}

// A node is all a caller may keep of a parse (a cache of facts, a
// goroutine): it keeps its tree, source and line index alive, whether the
// file was parsed whole or in pieces.
func TestNodeKeepsTree(t *testing.T) {
	defer func(n, m int) { chunkBytes, chunkAfter = n, m }(chunkBytes, chunkAfter)
	var src strings.Builder
	for i := 0; src.Len() < 64<<10; i++ {
		fmt.Fprintf(&src, "void f%d(int a) {\n  g(a, %d);\n}\n", i, i)
	}
	for _, pieces := range []bool{false, true} {
		chunkBytes, chunkAfter = 512<<10, 512<<10
		if pieces {
			chunkBytes, chunkAfter = 4<<10, 8<<10
		}
		n := func() *Node {
			f, err := ParseFile(context.Background(), nil, "k.cpp", []byte(src.String()), nil)
			if err != nil {
				t.Fatal(err)
			}
			if pieces == (f.Tree.ts != nil) {
				t.Fatalf("pieces %v: C tree kept %v", pieces, f.Tree.ts != nil)
			}
			f.Close()
			calls := f.Tree.OfKind("call_expression")
			return calls[len(calls)-1]
		}()
		for i := 0; i < 3; i++ {
			runtime.GC()
		}
		// Other allocations reuse whatever was freed.
		junk := make([][]byte, 0, 1024)
		for i := 0; i < 1024; i++ {
			junk = append(junk, bytes.Repeat([]byte{0xAA}, 256))
		}
		runtime.KeepAlive(junk)
		fn := n.EnclosingFunction()
		if n.Kind() != "call_expression" || !strings.HasPrefix(n.Text(), "g(a, ") || fn == nil || n.Tree() != fn.Tree() ||
			!fn.Contains(n) || n.Parent().Kind() != "expression_statement" || n.StartRow() != uint32(strings.Count(src.String(), "\n")-2) {
			t.Fatalf("pieces %v: the node kept is %s %q in %v, row %d", pieces, n.Kind(), n.Text(), fn != nil, n.StartRow())
		}
	}
}

// OfKind's lists are made on demand under a lock: goroutines sharing a
// parse (units including one header) ask for kinds at once.
func TestOfKindConcurrent(t *testing.T) {
	f, err := ParseFile(context.Background(), nil, "k.cpp", []byte("void f(int a) { g(a); int b = a + 1; return; }\nint h() { return f(2), 3; }\n"), nil)
	if err != nil {
		t.Fatal(err)
	}
	kinds := []string{"call_expression", "identifier", "return_statement", "declaration", "function_definition"}
	want := map[string]int{}
	for _, k := range kinds {
		f.Tree.Root().Walk(func(n *Node) bool {
			if n.IsNamed() && n.Kind() == k {
				want[k]++
			}
			return true
		})
	}
	done := make(chan error)
	for g := 0; g < 8; g++ {
		go func() {
			for i := range kinds {
				k := kinds[(i+g)%len(kinds)]
				if got := len(f.Tree.OfKind(k)); got != want[k] {
					done <- fmt.Errorf("%s: %d nodes, want %d", k, got, want[k])
					return
				}
			}
			done <- nil
		}()
	}
	for g := 0; g < 8; g++ {
		if err := <-done; err != nil {
			t.Error(err)
		}
	}
}
