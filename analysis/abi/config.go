package abi

import (
	"bytes"

	"github.com/extern-lsp/extern-lsp/grammar"
)

// ConfigIncludeDirs reads the include folders a runtime kernel
// configuration gives its per-core kernels: the `include_dirs` and
// `extra_include_dirs` of each entry of an `"incores": [...]` list
// (simpler's `CALLABLE = {"incores": [{"source": ..., "extra_include_dirs":
// [...]}]}`), evaluated as a stub's include_dirs are. Entries that cannot
// be evaluated (an environment variable) carry their reason and no path.
func ConfigIncludeDirs(f *grammar.File) []Source {
	if f == nil || f.Lang != grammar.Python || f.Tree == nil || !bytes.Contains(f.Src, []byte("incores")) {
		return nil
	}
	var env *env
	var out []Source
	for _, pair := range f.Tree.OfKind("pair") {
		if pyKey(pair) != "incores" {
			continue
		}
		list := pair.ChildByField("value")
		if list == nil || list.Kind() != "list" {
			continue
		}
		for _, entry := range list.NamedChildren() {
			if entry.Kind() != "dictionary" {
				continue
			}
			for _, kv := range entry.NamedChildren() {
				key := pyKey(kv)
				if kv.Kind() != "pair" || key != "include_dirs" && key != "extra_include_dirs" {
					continue
				}
				val := kv.ChildByField("value")
				if val == nil || val.Kind() == "none" {
					continue
				}
				if env == nil {
					env = newEnv(f)
				}
				for _, it := range env.paths(val) {
					src := Source{Keyword: key, Path: it.val, Reason: string(it.why), Start: val.Start, End: val.End}
					if it.node != nil {
						src.Expr = clip(it.node.Text())
					}
					if it.why != "" {
						src.Path = ""
					}
					out = append(out, src)
				}
			}
		}
	}
	return out
}

// pyKey is a dictionary pair's key when it is a plain string literal
// (`"incores"`), "" otherwise.
func pyKey(pair *grammar.Node) string {
	if pair == nil || pair.Kind() != "pair" {
		return ""
	}
	k := pair.ChildByField("key")
	if k == nil || k.Kind() != "string" {
		return ""
	}
	t := k.Text()
	if len(t) < 2 || t[0] != t[len(t)-1] || t[0] != '"' && t[0] != '\'' {
		return ""
	}
	return t[1 : len(t)-1]
}
