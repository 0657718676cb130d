package engine

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"runtime/trace"
	"slices"
	"sort"
	"sync"
	"sync/atomic"

	"github.com/extern-lsp/extern-lsp/analysis"
	"github.com/extern-lsp/extern-lsp/analysis/config"
	"github.com/extern-lsp/extern-lsp/analysis/fsys"
	"github.com/extern-lsp/extern-lsp/analysis/unit"
	"github.com/extern-lsp/extern-lsp/analysis/workspace"
	"github.com/extern-lsp/extern-lsp/grammar"
)

// Checker runs the rules over the files of a run (`check PATH...`, or one
// document read from stdin), each file under its own configuration with
// the front end's Overrides on top.
type Checker struct {
	// Analyzers are the rules (nil: every rule).
	Analyzers []*analysis.Analyzer
	Loader    *config.Loader
	Overrides Overrides
	// Jobs is the number of files checked in parallel.
	Jobs int
	// Steps is the step budget of each rule in a file, and a tenth of each
	// fact's they share (0: analysis.DefaultSteps). A check has no time limit:
	// its findings are the same under any load and with any Jobs.
	Steps int64
	// Syntax has each result say whether its file parses cleanly
	// (FileResult.ParseErrors), from the parse the rules read: a file no
	// rule reads is not parsed for it (FileResult.Unparsed), so the
	// figures cost what the check does.
	Syntax bool
	// IncludeDirs are searched for #includes (the compile's -I)
	// before the include-dirs of the configurations the run loads.
	IncludeDirs []string
	// RootFor picks the workspace root of a path given to Collect or
	// Document (nil: workspace.ProjectRoot).
	RootFor func(path string) string
	// Uncapped lists every finding, whatever max-findings-per-rule says:
	// for runs that need them all (fixes, baselines), then cap what they
	// show with analysis.CapFindings and FindingsCap.
	Uncapped bool

	// WS and Files are set by Collect or Document.
	WS    *workspace.Workspace
	Files []string

	// unlisted are the folders Collect's walk could not list; buildFiles
	// the build files it met (workspace.Seed).
	unlisted   []workspace.Problem
	buildFiles []string

	mu    sync.Mutex
	cfgOf map[string]*config.Config
	opts  map[*config.Config]*analysis.Options
}

// FileResult is one file's findings, or why it could not be read.
type FileResult struct {
	Path  string
	Diags []analysis.Diagnostic
	Err   error
	// BadUTF8Line and BadUTF8Col (1-based) are where the text stops being
	// UTF-8, if it does (it is checked as is).
	BadUTF8Line, BadUTF8Col int
	// Sight counts what the analysis of the file could not see.
	Sight analysis.Sight
	// ParseErrors is set, with Checker.Syntax, when the file's tree holds
	// ERROR or MISSING nodes.
	ParseErrors bool
	// Unparsed is set, with Checker.Syntax, when no rule read the file's
	// parse (a C++ file no extern compiles): whether it parses is not
	// known.
	Unparsed bool
}

func (c *Checker) rootFor(path string) string {
	if c.RootFor != nil {
		return c.RootFor(path)
	}
	return workspace.ProjectRoot(path)
}

// ConfigFor returns (and remembers) the configuration of a file.
func (c *Checker) ConfigFor(path string) (*config.Config, error) {
	cfg, err := c.Loader.ForFile(path)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	if c.cfgOf == nil {
		c.cfgOf = map[string]*config.Config{}
	}
	c.cfgOf[path] = cfg
	c.mu.Unlock()
	return cfg, nil
}

// OptionsFor returns the driver options of a file: its configuration with
// the overrides on top (computed once per configuration).
func (c *Checker) OptionsFor(path string) analysis.Options {
	c.mu.Lock()
	defer c.mu.Unlock()
	cfg := c.cfgOf[path]
	if cfg == nil {
		cfg = c.Loader.Default()
	}
	if o, ok := c.opts[cfg]; ok {
		return *o
	}
	o := c.Overrides.Options(cfg, c.Analyzers)
	if c.Uncapped {
		o.MaxFindingsPerRule = 0
	}
	if c.opts == nil {
		c.opts = map[*config.Config]*analysis.Options{}
	}
	c.opts[cfg] = &o
	return o
}

// FindingsCap is the max-findings-per-rule of a file: its configuration's
// with the overrides on top (0: no cap).
func (c *Checker) FindingsCap(path string) int {
	cfg, err := c.Loader.ForFile(path)
	if err != nil {
		cfg = c.Loader.Default()
	}
	return c.Overrides.Apply(cfg).FindingsCap()
}

// Document sets up a run over one document whose text is src (not read
// from disk), e.g. `check --stdin-filename PATH -`.
func (c *Checker) Document(path string, src []byte) error {
	abs, err := filepath.Abs(path)
	if err != nil {
		return err
	}
	if _, ok := grammar.LangOf(abs); !ok {
		return fmt.Errorf("%s: not a C++ or Python file name", path)
	}
	if _, err := c.ConfigFor(abs); err != nil {
		return err
	}
	c.Files = []string{abs}
	c.WS = c.newWorkspace(c.rootFor(abs))
	c.WS.SetOverlay(abs, src, 1)
	c.WS.SetIncludeDirs(c.includeDirs())
	c.WS.SetBuildIncludes(c.buildIncludes())
	return nil
}

// Collect sets up a run over paths (files and folders): it expands them
// into source files, skipping ignored folders and files the configuration
// excludes, and picks the workspace roots. Each file's configuration is
// loaded on the way, so a bad configuration stops the run before anything
// is checked.
func (c *Checker) Collect(paths []string) error {
	defer trace.StartRegion(context.Background(), "collect").End()
	files, roots, known, err := c.collect(paths)
	if err != nil {
		return err
	}
	c.Files = files
	c.WS = c.newWorkspace(roots...)
	for _, p := range c.unlisted {
		c.WS.AddProblem(p.Path, p.Err)
	}
	c.WS.SetIncludeDirs(c.includeDirs())
	c.WS.SetBuildIncludes(c.buildIncludes())
	if known != nil {
		// Every root was walked without pruning: the workspace need not
		// index them again.
		c.WS.Seed(known, c.buildFiles)
	}
	return nil
}

// Select narrows the run to some files of the workspace Collect made
// (`abi` checks the files of an extern's compile), loading their
// configurations.
func (c *Checker) Select(files []string) error {
	for _, f := range files {
		if _, err := c.ConfigFor(f); err != nil {
			return err
		}
	}
	c.Files = files
	return nil
}

// includeDirs are the IncludeDirs, then the include-dirs of every
// configuration the run loaded.
func (c *Checker) includeDirs() []string {
	dirs := append([]string(nil), c.IncludeDirs...)
	// A set, not a scan of the list: a configuration of 100,000 folders
	// took 25 s to list.
	seen := make(map[string]bool, len(dirs))
	for _, d := range dirs {
		seen[d] = true
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, p := range slices.Sorted(maps.Keys(c.cfgOf)) {
		for _, d := range c.cfgOf[p].IncludeDirs {
			if !seen[d] {
				seen[d] = true
				dirs = append(dirs, d)
			}
		}
	}
	return dirs
}

// buildIncludes is build-includes: on when a configuration the run
// loaded (or the default) says so.
func (c *Checker) buildIncludes() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	on := len(c.cfgOf) == 0 && config.DefaultBuildIncludes
	for _, cfg := range c.cfgOf {
		on = on || cfg.BuildIncludesOn()
	}
	return on
}

// newWorkspace makes the run's workspace, reading each file under its
// configuration's size cap.
func (c *Checker) newWorkspace(roots ...string) *workspace.Workspace {
	ws := workspace.New(roots...)
	ws.SetLimits(func(path string) int64 {
		cfg, err := c.Loader.ForFile(path)
		if err != nil {
			cfg = nil
		}
		return cfg.FileSizeLimit()
	}, 0)
	return ws
}

func (c *Checker) collect(paths []string) (files, roots, known []string, err error) {
	seen := map[string]bool{}
	walked := true
	add := func(p string) error {
		cfg, err := c.ConfigFor(p)
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
			return nil, nil, nil, fmt.Errorf("%s: %v", p, UnwrapPath(err))
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
			roots = append(roots, c.rootFor(abs))
			walked = false
			continue
		}
		root := c.rootFor(abs)
		roots = append(roots, root)
		if root != abs {
			// The walk below covers abs only: let the workspace index the root.
			walked = false
		}
		var walkErr error
		// The folders are listed, and their configurations loaded, by
		// c.Jobs goroutines; the walk then reads them in order.
		tree := workspace.ListTree(abs, c.Jobs, func(q string, d fs.DirEntry) bool {
			if workspace.SkipDir(d.Name()) {
				return false
			}
			cfg, err := c.Loader.ForDir(q)
			return err == nil && !cfg.Excluded(q, true)
		})
		tree.WalkDir(abs, func(q string, d fs.DirEntry, err error) error {
			if err != nil {
				if q == abs {
					walkErr = fmt.Errorf("%s: %v", p, UnwrapPath(err))
				} else {
					// An unreadable folder: reported, the walk goes on.
					c.unlisted = append(c.unlisted, workspace.Problem{Path: q, Err: err})
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
				cfg, err := c.Loader.ForDir(q)
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
			if workspace.IsBuildFile(d.Name()) {
				c.buildFiles = append(c.buildFiles, q)
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

// Check runs the rules over every file in parallel; progress, when set,
// hears the number of files done. Binary files have no findings; any other
// unreadable file has its error in its result.
func (c *Checker) Check(ctx context.Context, progress func(done int)) []FileResult {
	jobs := max(c.Jobs, 1)
	results := make([]FileResult, len(c.Files))
	var wg sync.WaitGroup
	var n atomic.Int64
	// One fact store for the run: a header's facts and a unit's are
	// computed once however many files of the unit are checked, on any
	// number of workers.
	store := unit.NewStore()
	// The tree is read by every worker first: what NewReleaser derives
	// from it would otherwise be read by one goroutine alone.
	trace.WithRegion(ctx, "preload", func() { c.WS.Preload(c.Files, jobs) })
	// A unit's files are checked close together (schedule), so its
	// parses are released soon after.
	var release *unit.Releaser
	trace.WithRegion(ctx, "readers", func() { release = unit.NewReleaser(c.WS, store, c.Files, nil, jobs) })
	var sched *schedule
	trace.WithRegion(ctx, "schedule", func() { sched = newSchedule(len(c.Files), release.Reads, c.sourceSize, jobs) })
	if trace.IsEnabled() {
		trace.Logf(ctx, "schedule", "%d files in %d groups, the largest of %d", len(c.Files), len(sched.groups), slices.Max(append([]int{0}, sched.sizes()...)))
	}
	defer trace.StartRegion(ctx, "workers").End()
	for w := 0; w < jobs; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i, ok := sched.next(w)
				if !ok {
					return
				}
				path := c.Files[i]
				opts := c.OptionsFor(path)
				opts.Store = store
				// A file's own facts are not read after its run.
				opts.DropFacts = true
				var sight analysis.Sight
				opts.Sight = &sight
				if opts.Steps == 0 {
					opts.Steps = c.Steps
				}
				r := trace.StartRegion(ctx, "file")
				if trace.IsEnabled() {
					trace.Log(ctx, "file", path)
				}
				d, err := Analyse(ctx, c.WS, path, opts)
				r.End()
				if errors.Is(err, grammar.ErrBinary) {
					err = nulError(c.WS, path)
				}
				results[i] = FileResult{Path: path, Diags: d, Err: err, Sight: sight}
				if c.Syntax && err == nil {
					// Before release.Done: the parse the rules read. A C++
					// file no extern compiles was not parsed (whether
					// another file's unit holds its parse at this moment
					// depends on the order of the workers: not asked).
					if l, _ := grammar.LangOf(path); l == grammar.CPP && !c.WS.Context(path).Extern {
						results[i].Unparsed = true
					} else if f, ferr := c.WS.File(path); ferr == nil && f.Tree != nil {
						results[i].ParseErrors = f.Tree.HasError()
					}
				}
				if src, serr := c.WS.Source(path); serr == nil {
					results[i].BadUTF8Line, results[i].BadUTF8Col = fsys.InvalidUTF8(src)
				}
				release.Done(i)
				if progress != nil {
					progress(int(n.Add(1)))
				}
			}
		}()
	}
	wg.Wait()
	return results
}

// nulError says where a source file holds a NUL byte: the parser reads no
// further, so the file is reported as not checked rather than silently
// passing with no findings.
func nulError(ws *workspace.Workspace, path string) error {
	src, _ := ws.Source(path)
	i := bytes.IndexByte(src, 0)
	line := 1 + bytes.Count(src[:max(i, 0)], []byte("\n"))
	col := i - bytes.LastIndexByte(src[:max(i, 0)], '\n')
	return fmt.Errorf("a NUL byte at line %d, column %d: not a text file; not checked", line, col)
}

// Analyse is the one door into the analysis of one file: Check runs each
// of its files through it, and a front end that keeps its own workspace
// and fact store (the server's publish, pull, workspace diagnostics and
// fix-all) calls it directly. Its options come from the same
// configuration and Overrides (Overrides.Options). Check sets no time
// limit (Options.Budget); the server does. A binary file is
// grammar.ErrBinary: check reports where, the server shows one info
// (analysis.BinaryNote).
func Analyse(ctx context.Context, ws *workspace.Workspace, path string, opts analysis.Options) ([]analysis.Diagnostic, error) {
	return analysis.RunContext(ctx, ws, path, opts)
}

// sourceSize is the length of a file's text (0 when unreadable).
func (c *Checker) sourceSize(path string) int64 {
	src, err := c.WS.Source(path)
	if err != nil {
		return 0
	}
	return int64(len(src))
}

// UnwrapPath drops the operation and path of an *os.PathError (the caller
// names the file itself).
func UnwrapPath(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// Recheck is the fix recheck of the run: a file is analysed under its own
// configuration with the overrides on top, every finding listed.
func (c *Checker) Recheck() *Recheck {
	return &Recheck{Run: func(ctx context.Context, ws *workspace.Workspace, path string, store *unit.Store) ([]analysis.Diagnostic, error) {
		c.mu.Lock()
		_, known := c.cfgOf[path]
		c.mu.Unlock()
		if !known {
			c.ConfigFor(path)
		}
		opts := c.OptionsFor(path)
		opts.Store = store
		opts.MaxFindingsPerRule = 0
		d, err := Analyse(ctx, ws, path, opts)
		if errors.Is(err, grammar.ErrBinary) {
			err = nil
		}
		return d, err
	}}
}
