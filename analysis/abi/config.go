package abi

import (
	"bytes"
	"iter"

	"github.com/extern-lsp/extern-lsp/grammar"
)

// ConfigIncludeDirs reads the include folders a runtime kernel
// configuration gives its per-core kernels: the `include_dirs` and
// `extra_include_dirs` of each entry of an `"incores": [...]` list
// (simpler's `CALLABLE = {"incores": [{"source": ..., "extra_include_dirs":
// [...]}]}`), and those given beside the list, for all of them,
// evaluated as a stub's include_dirs are. Entries that cannot
// be evaluated (an environment variable) carry their reason and no path.
func ConfigIncludeDirs(f *grammar.File) []Source {
	if f == nil || f.Lang != grammar.Python || f.Tree == nil || !bytes.Contains(f.Src, []byte("incores")) {
		return nil
	}
	var env *env
	var out []Source
	// read adds the include folders of one dictionary's own pairs.
	read := func(dict *grammar.Node) {
		for _, kv := range dict.NamedChildren() {
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
	for dict, list := range incores(f) {
		// Folders given beside the list are every entry's.
		if dict != nil && dict.Kind() == "dictionary" {
			read(dict)
		}
		for _, entry := range list.NamedChildren() {
			if entry.Kind() == "dictionary" {
				read(entry)
			}
		}
	}
	return out
}

// incores yields each `"incores": [...]` list of a configuration, with
// the node holding its pair (the configuration's dictionary).
func incores(f *grammar.File) iter.Seq2[*grammar.Node, *grammar.Node] {
	return func(yield func(*grammar.Node, *grammar.Node) bool) {
		for _, pair := range f.Tree.OfKind("pair") {
			list := pair.ChildByField("value")
			if pyKey(pair) != "incores" || list == nil || list.Kind() != "list" {
				continue
			}
			if !yield(pair.Parent(), list) {
				return
			}
		}
	}
}

// pyKey is a dictionary pair's key when it is a plain string literal
// (`"incores"`), "" otherwise.
func pyKey(pair *grammar.Node) string {
	if pair == nil || pair.Kind() != "pair" {
		return ""
	}
	return pyLiteral(pair.ChildByField("key"))
}

// ConfigKernelCores reads the core type a runtime kernel configuration
// gives each source of its `"incores"` list (`{"source":
// "kernels/aiv/x.cpp", "core_type": "aiv"}`): the source's absolute path
// (evaluated as include folders are) to the core types named for it
// ("aic", "aiv"; a source listed once per core type is built for both).
func ConfigKernelCores(f *grammar.File) map[string][]string {
	if f == nil || f.Lang != grammar.Python || f.Tree == nil || !bytes.Contains(f.Src, []byte("core_type")) {
		return nil
	}
	var env *env
	var out map[string][]string
	for _, list := range incores(f) {
		for _, entry := range list.NamedChildren() {
			if entry.Kind() != "dictionary" {
				continue
			}
			var src *grammar.Node
			core := ""
			for _, kv := range entry.NamedChildren() {
				switch pyKey(kv) {
				case "source":
					src = kv.ChildByField("value")
				case "core_type":
					core = pyLiteral(kv.ChildByField("value"))
				}
			}
			if src == nil || core != "aic" && core != "aiv" {
				continue
			}
			if env == nil {
				env = newEnv(f)
			}
			if its := env.paths(src); len(its) == 1 && its[0].why == "" {
				if out == nil {
					out = map[string][]string{}
				}
				out[its[0].val] = append(out[its[0].val], core)
			}
		}
	}
	return out
}

// pyLiteral is a plain string literal's text, "" for anything else.
func pyLiteral(n *grammar.Node) string {
	if n == nil || n.Kind() != "string" {
		return ""
	}
	t := n.Text()
	if len(t) < 2 || t[0] != t[len(t)-1] || t[0] != '"' && t[0] != '\'' {
		return ""
	}
	return t[1 : len(t)-1]
}
