package grammar

import (
	"encoding/binary"
	"hash/crc32"
	"unsafe"
)

// A tree stored outside the process (a server's parse cache, read again
// when it starts on the same files) is its nodes as they lie in memory,
// after a header: a tag, the node count and a checksum of the nodes. The
// text, its masks, guards, lines and includes are derived again from the
// source, as a parse derives them.
const (
	storedTag    = "XLT1"
	storedHeader = 12
)

// StoredNodes returns the header and the nodes of t as stored; the nodes
// are t's memory, not a copy: write them before t is released.
func StoredNodes(t *Tree) (header, nodes []byte) {
	nodes = unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(t.Nodes))), len(t.Nodes)*nodeSize)
	header = make([]byte, storedHeader)
	copy(header, storedTag)
	binary.LittleEndian.PutUint32(header[4:], uint32(len(t.Nodes)))
	binary.LittleEndian.PutUint32(header[8:], crc32.ChecksumIEEE(nodes))
	return header, nodes
}

// FileFromStored is ParseFile(path, src) given the stored nodes of src's
// tree (StoredNodes) instead of a parse; ok is false when data is not a
// well-formed tree of a text of src's length in path's language (a file
// cut short or written by another build), and the caller parses then.
func FileFromStored(path string, src, data []byte) (f *File, ok bool) {
	if IsBinary(src) || len(data) < storedHeader || string(data[:4]) != storedTag {
		return nil, false
	}
	n := int(binary.LittleEndian.Uint32(data[4:]))
	body := data[storedHeader:]
	if n < 1 || n > maxNodes || len(body) != n*nodeSize || crc32.ChecksumIEEE(body) != binary.LittleEndian.Uint32(data[8:]) {
		return nil, false
	}
	lang, _ := LangOf(path)
	masked, masks := src, []Span(nil)
	if lang == CPP {
		masked, masks = Mask(src)
	}
	f, _ = newFile(path, lang, src, masked, masks, NewLines(src))
	t := &Tree{Src: src, names: lang.info().names, lines: f.Lines}
	t.Nodes = newNodes(t, n)
	copy(unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(t.Nodes))), len(body)), body)
	if !wellFormed(t, lang) {
		return nil, false
	}
	f.Tree = t
	return f, true
}

// wellFormed checks what the walks rely on: each node's index, a subtree
// inside its parent's, kinds the language has and offsets inside the text.
func wellFormed(t *Tree, lang Lang) bool {
	nodes, symbols := t.Nodes, len(t.names.symbols)
	python := lang == Python
	for i := range nodes {
		nd := &nodes[i]
		last, p := int(nd.last()), int(nd.parent())
		switch {
		case int(nd.index()) != i, last < i, last >= len(nodes),
			int(nd.kind()) >= symbols, nd.flags()&flagPython != 0 != python, nd.up&pythonUp != 0 != python,
			nd.Start > nd.End, int(nd.End) > len(t.Src),
			i == 0 && (p != -1 || last != len(nodes)-1),
			i > 0 && (p < 0 || p >= i || last > int(nodes[p].last())):
			return false
		}
	}
	return true
}
