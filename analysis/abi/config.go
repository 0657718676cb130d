package abi

import (
	"bytes"
	"iter"
	"slices"

	"github.com/extern-lsp/extern-lsp/grammar"
)

// ConfigIncludeDirs reads the include folders a runtime kernel
// configuration gives its per-core kernels: the `include_dirs` and
// `extra_include_dirs` of each kernel entry (configKernelDicts) and those
// given beside an `"incores": [...]` list, for all of its entries
// (simpler's `CALLABLE = {"incores": [{"source": ..., "extra_include_dirs":
// [...]}]}`), evaluated as a stub's include_dirs are. Entries that cannot
// be evaluated (an environment variable) carry their reason and no path.
func ConfigIncludeDirs(f *grammar.File) []Source {
	if f == nil || f.Lang != grammar.Python || f.Tree == nil || !bytes.Contains(f.Src, []byte("include_dirs")) {
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
	var dicts []*grammar.Node
	for dict, list := range incores(f) {
		// Folders given beside the list are every entry's.
		if dict != nil && dict.Kind() == "dictionary" {
			dicts = append(dicts, dict)
		}
		for _, entry := range list.NamedChildren() {
			if entry.Kind() == "dictionary" {
				dicts = append(dicts, entry)
			}
		}
	}
	for _, k := range configKernelDicts(f) {
		if !slices.Contains(dicts, k.dict) {
			dicts = append(dicts, k.dict)
		}
	}
	slices.SortFunc(dicts, func(a, b *grammar.Node) int { return int(a.Start) - int(b.Start) })
	for _, d := range dicts {
		read(d)
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

// ConfigKernel is one per-core kernel a runtime kernel configuration
// names: its source's absolute path, the core type it is built for ("" when
// the entry names none), and the line naming it.
type ConfigKernel struct {
	Path string
	Core string
	Line int
}

// ConfigKernels reads the per-core kernels of a Python file's runtime
// kernel configurations (configKernelDicts), their sources evaluated as
// include folders are (`str(_KERNELS_ROOT / "aiv" / "k.cpp")`). A source
// listed once per core type is built for both.
func ConfigKernels(f *grammar.File) []ConfigKernel {
	var env *env
	var out []ConfigKernel
	for _, k := range configKernelDicts(f) {
		if env == nil {
			env = newEnv(f)
		}
		if its := env.paths(k.source); len(its) == 1 && its[0].why == "" {
			// The line of the `"source"` key.
			at := k.source.Start
			if pair := k.source.Parent(); pair != nil {
				at = pair.Start
			}
			out = append(out, ConfigKernel{Path: its[0].val, Core: k.core, Line: 1 + bytes.Count(f.Src[:at], []byte("\n"))})
		}
	}
	return out
}

// configKernel is a dictionary describing one per-core kernel.
type configKernel struct {
	dict, source *grammar.Node
	core         string
}

// configKernelDicts finds the dictionaries of a configuration that
// describe a per-core kernel, in source order: each entry of an
// `"incores": [...]` list naming a source (simpler's), and wherever it
// sits a dictionary with a `"source"` and a `"core_type"` of "aic" or
// "aiv" (an older configuration's `KERNELS = [{...}]`, a single `CALLABLE
// = {...}`). The orchestration's dictionary names a source but no core
// type: it runs on the AICPU.
func configKernelDicts(f *grammar.File) []configKernel {
	if f == nil || f.Lang != grammar.Python || f.Tree == nil {
		return nil
	}
	lists, cores := bytes.Contains(f.Src, []byte("incores")), bytes.Contains(f.Src, []byte("core_type"))
	if !lists && !cores {
		return nil
	}
	read := func(dict *grammar.Node) configKernel {
		k := configKernel{dict: dict}
		for _, kv := range dict.NamedChildren() {
			switch pyKey(kv) {
			case "source":
				k.source = kv.ChildByField("value")
			case "core_type":
				k.core = pyLiteral(kv.ChildByField("value"))
			}
		}
		if k.core != "aic" && k.core != "aiv" {
			k.core = ""
		}
		return k
	}
	var out []configKernel
	listed := map[*grammar.Node]bool{}
	if lists {
		for _, list := range incores(f) {
			for _, entry := range list.NamedChildren() {
				if entry.Kind() != "dictionary" {
					continue
				}
				listed[entry] = true
				if k := read(entry); k.source != nil {
					out = append(out, k)
				}
			}
		}
	}
	if cores {
		for _, dict := range f.Tree.OfKind("dictionary") {
			if k := read(dict); !listed[dict] && k.source != nil && k.core != "" {
				out = append(out, k)
			}
		}
	}
	slices.SortFunc(out, func(a, b configKernel) int { return int(a.dict.Start) - int(b.dict.Start) })
	return out
}

// pyKey is a dictionary pair's key when it is a plain string literal
// (`"incores"`), "" otherwise.
func pyKey(pair *grammar.Node) string {
	if pair == nil || pair.Kind() != "pair" {
		return ""
	}
	return pyLiteral(pair.ChildByField("key"))
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
