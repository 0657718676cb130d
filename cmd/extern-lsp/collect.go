package main

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"

	"github.com/extern-lsp/extern-lsp/analysis/workspace"
	"github.com/extern-lsp/extern-lsp/grammar"
)

// collectFiles expands the command-line paths into source files, skipping
// ignored folders and files the configuration excludes, and picks the
// workspace roots. Each
// file's configuration is loaded on the way, so a bad configuration stops
// the run before anything is checked. known lists every source the walks
// saw; it is nil unless every root was walked without pruning, in which case
// the workspace need not index the roots again.
func (r *checkRun) collectFiles(paths []string) (files, roots, known []string, err error) {
	seen := map[string]bool{}
	walked := true
	add := func(p string) error {
		cfg, err := r.configFor(p)
		if err != nil {
			return err
		}
		if cfg.Excluded(p, false) {
			return nil
		}
		seen[p] = true
		files = append(files, p)
		return nil
	}
	for _, p := range paths {
		abs, err := filepath.Abs(p)
		if err != nil {
			return nil, nil, nil, err
		}
		st, err := os.Stat(abs)
		if err != nil {
			if os.IsNotExist(err) {
				return nil, nil, nil, fmt.Errorf("%s: no such file or directory", p)
			}
			return nil, nil, nil, fmt.Errorf("%s: %v", p, unwrapPath(err))
		}
		if !st.IsDir() {
			if _, ok := grammar.LangOf(abs); !ok {
				return nil, nil, nil, fmt.Errorf("%s: not a C++ or Python source", p)
			}
			if !seen[abs] {
				if err := add(abs); err != nil {
					return nil, nil, nil, err
				}
			}
			roots = append(roots, r.rootFor(abs))
			walked = false
			continue
		}
		root := r.rootFor(abs)
		roots = append(roots, root)
		if root != abs {
			// The walk below covers abs only: let the workspace index the root.
			walked = false
		}
		var walkErr error
		filepath.WalkDir(abs, func(q string, d fs.DirEntry, err error) error {
			if err != nil {
				if q == abs {
					walkErr = fmt.Errorf("%s: %v", p, unwrapPath(err))
				}
				return nil
			}
			if d.IsDir() {
				if q == abs {
					return nil
				}
				if workspace.SkipDir(d.Name()) {
					return filepath.SkipDir
				}
				cfg, err := r.loader.ForDir(q)
				if err != nil {
					walkErr = err
					return filepath.SkipAll
				}
				if cfg.Excluded(q, true) {
					walked = false
					return filepath.SkipDir
				}
				return nil
			}
			if _, ok := grammar.LangOf(q); !ok || seen[q] {
				return nil
			}
			known = append(known, q)
			if err := add(q); err != nil {
				walkErr = err
				return filepath.SkipAll
			}
			return nil
		})
		if walkErr != nil {
			return nil, nil, nil, walkErr
		}
	}
	sort.Strings(files)
	if !walked {
		known = nil
	}
	return files, roots, known, nil
}

// rootFor is the workspace root of a command-line path: --root, else the
// project root (workspace.ProjectRoot, the rule the server and the editor
// clients share).
func (r *checkRun) rootFor(path string) string {
	if r.flags.root != "" {
		return r.flags.root
	}
	return workspace.ProjectRoot(path)
}
