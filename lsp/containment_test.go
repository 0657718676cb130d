package lsp

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"go.lsp.dev/protocol"

	"github.com/extern-lsp/extern-lsp/analysis/analysistest"
)

// TestEditsStayInsideTheFolders: whatever the editor has open, the server
// offers no code action, fix-all, rename or renumbering that edits a file
// outside its workspace folders (resolved through symlinks), in each
// layout such a file can be reached by; edits inside stay offered.
func TestEditsStayInsideTheFolders(t *testing.T) {
	ws, _ := filepath.Abs(filepath.Join("..", "testdata", "editors", "ws"))
	syncall, _ := filepath.Abs(filepath.Join("..", "analysis", "rules", "testdata", "ext005", "syncall"))
	kernel := filepath.Join("kernels", "scale_add.cpp")

	// copyFile copies src to dst, creating dst's folder.
	copyFile := func(t *testing.T, src, dst string) {
		data, err := os.ReadFile(src)
		if err != nil {
			t.Fatal(err)
		}
		os.MkdirAll(filepath.Dir(dst), 0o755)
		if err := os.WriteFile(dst, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// moveOut moves root/rel to out/rel and leaves a symlink to it.
	moveOut := func(t *testing.T, root, out, rel string) {
		src, dst := filepath.Join(root, rel), filepath.Join(out, rel)
		os.MkdirAll(filepath.Dir(dst), 0o755)
		if err := os.Rename(src, dst); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(dst, src); err != nil {
			t.Fatal(err)
		}
	}
	// tree copies src to base/ws (the root) and moves the paths named
	// out of it, to base/out, leaving symlinks to them.
	tree := func(t *testing.T, src string, out ...string) (base, root string) {
		base = t.TempDir()
		root = filepath.Join(base, "ws")
		analysistest.CopyTree(t, src, root)
		for _, rel := range out {
			moveOut(t, root, filepath.Join(base, "out"), rel)
		}
		return base, root
	}
	type session struct {
		c    *testClient
		root string
		log  *syncBuffer
	}
	start := func(t *testing.T, root string) *session {
		log := &syncBuffer{}
		c := startServer(t, Options{Log: log})
		c.initialize([]string{root}, map[string]any{})
		t.Cleanup(func() {
			if !t.Failed() {
				c.shutdown()
			}
		})
		return &session{c: c, root: root, log: log}
	}
	// allActions asks for every code action of a whole document.
	allActions := func(s *session, b *buffer) []json.RawMessage {
		var out []json.RawMessage
		s.c.call("textDocument/codeAction", map[string]any{"textDocument": map[string]any{"uri": b.uri},
			"range":   protocol.Range{End: protocol.Position{Line: 10000}},
			"context": map[string]any{"diagnostics": []any{}}}, &out)
		return out
	}
	// outsideEdits are the files actions edit outside the root.
	outsideEdits := func(t *testing.T, s *session, actions []json.RawMessage) (outside, inside []string) {
		realRoot, err := filepath.EvalSymlinks(s.root)
		if err != nil {
			t.Fatal(err)
		}
		for _, raw := range actions {
			var a struct {
				Edit *struct {
					Changes         map[string]json.RawMessage `json:"changes"`
					DocumentChanges []struct {
						TextDocument struct{ URI string } `json:"textDocument"`
					} `json:"documentChanges"`
				} `json:"edit"`
			}
			json.Unmarshal(raw, &a)
			if a.Edit == nil {
				continue
			}
			var uris []string
			for u := range a.Edit.Changes {
				uris = append(uris, u)
			}
			for _, d := range a.Edit.DocumentChanges {
				uris = append(uris, d.TextDocument.URI)
			}
			for _, u := range uris {
				p := pathOf(u)
				real, err := filepath.EvalSymlinks(p)
				if err != nil || real != realRoot && !strings.HasPrefix(real, realRoot+string(filepath.Separator)) || !strings.HasPrefix(p, s.root+string(filepath.Separator)) {
					outside = append(outside, p)
				} else {
					inside = append(inside, p)
				}
			}
		}
		return outside, inside
	}
	// noOutsideEdits opens the files (the first is asked for its actions)
	// and checks that its findings are there and no action edits outside.
	noOutsideEdits := func(t *testing.T, s *session, paths ...string) {
		var bufs []*buffer
		for _, p := range paths {
			bufs = append(bufs, s.c.open(p))
		}
		ds := s.c.diagnosticsFor(bufs[0].uri, 1)
		if len(ds) == 0 {
			t.Fatalf("no findings in %s: the layout tests nothing", paths[0])
		}
		for _, b := range bufs {
			if out, _ := outsideEdits(t, s, allActions(s, b)); len(out) > 0 {
				t.Errorf("actions of %s edit files outside %s: %v", filepath.Base(b.uri), s.root, out)
			}
		}
	}
	// rename renames the stub parameter lhs from pos in b.
	rename := func(s *session, b *buffer, pos protocol.Position) wireMsg {
		return s.c.request("textDocument/rename", map[string]any{"textDocument": map[string]any{"uri": b.uri}, "position": pos, "newName": "left"})
	}
	// stubOutside opens the kernel (and with py the stub) of ws with its
	// stub linked from outside, and checks a rename from at is refused.
	stubOutside := func(t *testing.T, py bool, at func(k, py *buffer) (*buffer, protocol.Position)) {
		_, root := tree(t, ws, "scale_add.py")
		s := start(t, root)
		k := s.c.open(filepath.Join(root, kernel))
		var p *buffer
		if py {
			p = s.c.open(filepath.Join(root, "scale_add.py"))
		}
		s.c.diagnosticsFor(k.uri, 1)
		b, pos := at(k, p)
		if m := rename(s, b, pos); m.Error == nil || !strings.Contains(m.Error.Message, "outside the workspace folders") {
			t.Errorf("rename from %s of a stub linked from outside: %+v %s", filepath.Base(b.uri), m.Error, m.Result)
		}
	}
	// reorder swaps the stub's lhs and rhs in the editor and returns the
	// refactor actions offered on its definition.
	reorder := func(t *testing.T, s *session, py *buffer) []json.RawMessage {
		a, b := "lhs: pl.Tensor[[1024], pl.FP32]", "rhs: pl.Tensor[[1024], pl.FP32]"
		pa, pb := find(t, py.text, a, 0), find(t, py.text, b, 0)
		s.c.edit(py, []protocol.TextEdit{
			{Range: protocol.Range{Start: pa, End: protocol.Position{Line: pa.Line, Character: pa.Character + uint32(len(a))}}, NewText: b},
			{Range: protocol.Range{Start: pb, End: protocol.Position{Line: pb.Line, Character: pb.Character + uint32(len(b))}}, NewText: a},
		})
		var out []json.RawMessage
		def := find(t, py.text, "def scale_add", 0)
		s.c.call("textDocument/codeAction", map[string]any{"textDocument": map[string]any{"uri": py.uri},
			"range": protocol.Range{Start: def, End: def}, "context": map[string]any{"diagnostics": []any{}, "only": []string{"refactor"}}}, &out)
		return out
	}

	t.Run("outside file opened directly", func(t *testing.T) {
		base, root := tree(t, ws)
		copyFile(t, filepath.Join(ws, kernel), filepath.Join(base, "elsewhere", "k.cpp"))
		noOutsideEdits(t, start(t, root), filepath.Join(base, "elsewhere", "k.cpp"))
	})
	t.Run("in-root symlink to an outside file", func(t *testing.T) {
		_, root := tree(t, ws, kernel)
		noOutsideEdits(t, start(t, root), filepath.Join(root, kernel))
	})
	t.Run("symlinked folder", func(t *testing.T) {
		_, root := tree(t, ws, "kernels")
		noOutsideEdits(t, start(t, root), filepath.Join(root, kernel))
	})
	t.Run("outside header through a symlink", func(t *testing.T) {
		_, root := tree(t, syncall, "flags.h")
		noOutsideEdits(t, start(t, root), filepath.Join(root, "entry.cpp"))
	})
	t.Run("outside header through a symlink, open", func(t *testing.T) {
		_, root := tree(t, syncall, "flags.h")
		noOutsideEdits(t, start(t, root), filepath.Join(root, "entry.cpp"), filepath.Join(root, "flags.h"))
	})
	t.Run("outside header through ../, open", func(t *testing.T) {
		base, root := tree(t, syncall)
		entry := filepath.Join(root, "entry.cpp")
		src, _ := os.ReadFile(entry)
		os.WriteFile(entry, bytes.Replace(src, []byte(`#include "flags.h"`), []byte(`#include "../shared/flags.h"`), 1), 0o644)
		os.MkdirAll(filepath.Join(base, "shared"), 0o755)
		os.Rename(filepath.Join(root, "flags.h"), filepath.Join(base, "shared", "flags.h"))
		noOutsideEdits(t, start(t, root), entry, filepath.Join(base, "shared", "flags.h"))
	})
	t.Run("outside stub, open: rename refused", func(t *testing.T) {
		stubOutside(t, true, func(_, py *buffer) (*buffer, protocol.Position) { return py, find(t, py.text, "lhs: pl", 0) })
	})
	t.Run("outside stub, from the kernel: rename refused", func(t *testing.T) {
		stubOutside(t, false, func(k, _ *buffer) (*buffer, protocol.Position) { return k, find(t, k.text, "args[1]", 0) })
	})
	t.Run("kernel in a symlinked folder: renumbering not offered", func(t *testing.T) {
		_, root := tree(t, ws, "kernels")
		s := start(t, root)
		k := s.c.open(filepath.Join(root, kernel))
		py := s.c.open(filepath.Join(root, "scale_add.py"))
		s.c.diagnosticsFor(k.uri, 1)
		if got := reorder(t, s, py); len(got) != 0 {
			t.Errorf("renumbering offered for a kernel outside: %s", got)
		}
		if !strings.Contains(s.log.String(), "renumbering of scale_add not offered: it would edit "+filepath.Join(root, kernel)) {
			t.Errorf("the log does not say why the renumbering was not offered:\n%s", s.log.String())
		}
	})
	t.Run("root through a symlink: everything inside offered", func(t *testing.T) {
		base := t.TempDir()
		analysistest.CopyTree(t, ws, filepath.Join(base, "real"))
		root := filepath.Join(base, "link")
		if err := os.Symlink(filepath.Join(base, "real"), root); err != nil {
			t.Fatal(err)
		}
		s := start(t, root)
		k := s.c.open(filepath.Join(root, kernel))
		py := s.c.open(filepath.Join(root, "scale_add.py"))
		s.c.diagnosticsFor(k.uri, 1)
		out, in := outsideEdits(t, s, allActions(s, k))
		if len(out) > 0 || len(in) == 0 {
			t.Errorf("kernel actions: outside %v, inside %v; want edits inside only", out, in)
		}
		if m := rename(s, py, find(t, py.text, "lhs: pl", 0)); m.Error != nil {
			t.Errorf("rename inside: %+v", m.Error)
		}
		if got := reorder(t, s, py); len(got) != 1 {
			t.Errorf("renumbering inside: %s", got)
		}
	})
}

// syncBuffer is a log writer tests read while the server writes.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
