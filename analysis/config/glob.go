package config

import (
	"path"
	"strings"
)

// matchGlob matches a slash-separated relative path against a glob in the
// gitignore spirit: a pattern without a slash matches any single path
// element ("build", "*.gen.cpp"); a pattern with a slash is anchored at the
// configuration's folder, and "**" spans any number of elements. A pattern
// that matches a folder also matches everything below it.
func matchGlob(pattern, rel string) bool {
	pattern = strings.TrimPrefix(pattern, "./")
	pattern = strings.TrimSuffix(pattern, "/")
	parts := strings.Split(rel, "/")
	if !strings.Contains(pattern, "/") && pattern != "**" {
		for _, p := range parts {
			if ok, _ := path.Match(pattern, p); ok {
				return true
			}
		}
		return false
	}
	pat := strings.Split(pattern, "/")
	// Anything below a matched folder is matched too.
	for n := 1; n <= len(parts); n++ {
		if matchParts(pat, parts[:n]) {
			return true
		}
	}
	return false
}

func matchParts(pat, parts []string) bool {
	if len(pat) == 0 {
		return len(parts) == 0
	}
	if pat[0] == "**" {
		for i := 0; i <= len(parts); i++ {
			if matchParts(pat[1:], parts[i:]) {
				return true
			}
		}
		return false
	}
	if len(parts) == 0 {
		return false
	}
	if ok, _ := path.Match(pat[0], parts[0]); !ok {
		return false
	}
	return matchParts(pat[1:], parts[1:])
}

// checkGlob reports a malformed pattern.
func checkGlob(pattern string) error {
	for _, p := range strings.Split(pattern, "/") {
		if p == "**" {
			continue
		}
		if _, err := path.Match(p, ""); err != nil {
			return err
		}
	}
	return nil
}
