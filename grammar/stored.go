package grammar

import (
	"encoding/binary"
	"hash/crc32"
	"unsafe"
)

// A tree stored outside the process (a server's parse cache, read again
// when it starts on the same files) is its nodes as they lie in memory,
// then its file's masked qualifiers, after a header: a tag, the node
// count and a checksum of the rest. The text's guards, lines and includes
// are derived again from the source, as a parse derives them.
const (
	storedTag    = "XLT2"
	storedHeader = 12
)

// Stored returns f's tree as stored, in pieces to write one after the
// other; the nodes are the tree's memory, not a copy: write them before
// the tree is released.
func Stored(f *File) [][]byte {
	t := f.Tree
	nodes := unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(t.Nodes))), len(t.Nodes)*nodeSize)
	masks := binary.LittleEndian.AppendUint32(nil, uint32(len(f.Masks)))
	for _, m := range f.Masks {
		masks = binary.LittleEndian.AppendUint32(masks, m.Start)
		masks = binary.LittleEndian.AppendUint32(masks, m.End)
		masks = binary.LittleEndian.AppendUint32(masks, uint32(len(m.Text)))
		masks = append(masks, m.Text...)
	}
	header := make([]byte, storedHeader)
	copy(header, storedTag)
	binary.LittleEndian.PutUint32(header[4:], uint32(len(t.Nodes)))
	binary.LittleEndian.PutUint32(header[8:], crc32.Update(crc32.ChecksumIEEE(nodes), crc32.IEEETable, masks))
	return [][]byte{header, nodes, masks}
}

// FileFromStored is ParseFile(path, src) given what Stored wrote of src's
// parse instead of a parse; ok is false when data is not a well-formed
// tree of a text of src's length in path's language (a file cut short or
// written by another build), and the caller parses then.
func FileFromStored(path string, src, data []byte) (f *File, ok bool) {
	if IsBinary(src) || len(data) < storedHeader || string(data[:4]) != storedTag ||
		crc32.ChecksumIEEE(data[storedHeader:]) != binary.LittleEndian.Uint32(data[8:]) {
		return nil, false
	}
	n := int(binary.LittleEndian.Uint32(data[4:]))
	body := data[storedHeader:]
	if n < 1 || n > maxNodes || len(body) < n*nodeSize {
		return nil, false
	}
	lang, _ := LangOf(path)
	masks, ok := storedMasks(body[n*nodeSize:], len(src))
	if !ok || lang != CPP && masks != nil {
		return nil, false
	}
	f, _ = newFile(path, lang, src, nil, masks, NewLines(src))
	t := &Tree{Src: src, names: lang.info().names, lines: f.Lines}
	t.Nodes = newNodes(t, n)
	copy(unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(t.Nodes))), n*nodeSize), body)
	if !wellFormed(t, lang) {
		return nil, false
	}
	f.Tree = t
	return f, true
}

// storedMasks reads the masks Stored wrote (nil for none, as Mask gives):
// in text order, apart, inside a text of size bytes.
func storedMasks(b []byte, size int) (masks []Span, ok bool) {
	if len(b) < 4 {
		return nil, false
	}
	k := int(binary.LittleEndian.Uint32(b))
	b = b[4:]
	if k > len(b)/12 {
		return nil, false
	}
	end := uint32(0)
	for range k {
		if len(b) < 12 {
			return nil, false
		}
		m := Span{Start: binary.LittleEndian.Uint32(b), End: binary.LittleEndian.Uint32(b[4:])}
		l := int(binary.LittleEndian.Uint32(b[8:]))
		if m.Start < end || m.End <= m.Start || int(m.End) > size || l > len(b)-12 {
			return nil, false
		}
		m.Text = spanText(b[12 : 12+l])
		b = b[12+l:]
		end = m.End
		masks = append(masks, m)
	}
	return masks, len(b) == 0
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
