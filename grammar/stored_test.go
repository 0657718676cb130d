package grammar

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"reflect"
	"strings"
	"testing"
)

// A file read back from its stored nodes is the file its parse gave: the
// same nodes and the same masks, guards, lines and includes, for C++ (a
// source parsed whole and one over batchChunkAfter parsed in pieces, with
// qualifiers, an include guard and a parse error) and Python.
func TestStoredTreeIsTheParse(t *testing.T) {
	var big strings.Builder
	big.WriteString("#ifndef K_H\n#define K_H\n#include \"a.h\"\n#include <b.h>\n")
	for i := 0; big.Len() <= batchChunkAfter*2; i++ {
		fmt.Fprintf(&big, "extern \"C\" __global__ __aicore__ void k%d(__gm__ int64_t *args) {\n  for (int i = 0; i < %d; i++) { if (args[i]) { args[i] = i; } }\n}\n", i, i+1)
	}
	big.WriteString("#endif\n")
	for _, c := range []struct{ path, src string }{
		{"k.h", big.String()},
		{"e.cpp", "#include \"x.h\"\n__aicore__ inline void f(__gm__ int *p) { p[0] = ; }\n"},
		{"s.py", "import pypto\n@pl.jit.extern\ndef k(x):\n    return x\n"},
	} {
		src := []byte(c.src)
		parsed, err := ParseFile(context.Background(), NewBatchParser(CPP), c.path, src, nil)
		if err != nil {
			t.Fatal(err)
		}
		read, ok := FileFromStored(c.path, bytes.Clone(src), bytes.Join(Stored(parsed), nil))
		if !ok {
			t.Fatalf("%s: its stored tree was refused", c.path)
		}
		sameNodes(t, parsed.Tree.Nodes, read.Tree.Nodes)
		for _, f := range []*File{parsed, read} {
			f.Tree, f.Src = nil, nil
		}
		if !reflect.DeepEqual(parsed, read) {
			t.Fatalf("%s: read back\n%+v\nparsed\n%+v", c.path, read, parsed)
		}
	}
}

// Stored bytes that are not a well-formed tree of the text are refused
// (the caller parses), never read into a tree a walk could run off.
func TestStoredTreeRefusesDamage(t *testing.T) {
	src := []byte("__aicore__ inline void f(__gm__ int *p) { if (p) { p[0] = 1; } }\n")
	f, err := ParseFile(context.Background(), nil, "f.cpp", src, nil)
	if err != nil {
		t.Fatal(err)
	}
	good := bytes.Join(Stored(f), nil)
	if _, ok := FileFromStored("f.cpp", src, good); !ok {
		t.Fatal("the good bytes were refused")
	}
	flip := func(at int) []byte { d := bytes.Clone(good); d[at] ^= 0x40; return d }
	// Damage with a checksum made to agree.
	resum := func(at int, bits byte) []byte {
		d := bytes.Clone(good)
		d[at] ^= bits
		binary.LittleEndian.PutUint32(d[8:], crc32.ChecksumIEEE(d[storedHeader:]))
		return d
	}
	nodesEnd := storedHeader + len(f.Tree.Nodes)*nodeSize
	for name, data := range map[string][]byte{
		"cut short":           good[:len(good)-3],
		"no header":           good[:storedHeader-1],
		"another tag":         flip(0),
		"node bit flipped":    flip(storedHeader + 5),
		"relinked":            resum(storedHeader+nodeSize+8, 0x7),
		"mask past the text":  resum(nodesEnd+8, 0x70),
		"masks miscounted":    resum(nodesEnd, 0x3),
		"more nodes than are": resum(4, 0x1),
	} {
		if _, ok := FileFromStored("f.cpp", src, data); ok {
			t.Errorf("%s: read as a tree", name)
		}
	}
	// The same nodes are no tree of a shorter text, nor of a Python file.
	if _, ok := FileFromStored("f.cpp", src[:len(src)/2], good); ok {
		t.Error("read as the tree of a shorter text")
	}
	if _, ok := FileFromStored("f.py", src, good); ok {
		t.Error("C++ nodes read as a Python tree")
	}
}
