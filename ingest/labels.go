package ingest

import (
	"bufio"
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/apache/arrow/go/v15/arrow/memory"

	"github.com/benchtrim/benchtrim/table"
)

// fileLabels are the project and version a file's rows get when they do
// not come from its name (labelsFromFileName).
type fileLabels struct{ project, version string }

// splitLabel splits a NAME=FILE argument, benchstat's syntax for naming an
// input, into the label and the path. An argument without '=', one whose
// part before '=' is empty or holds a path separator, and an existing file
// whose name contains '=' are a path with no label.
func splitLabel(arg string) (label, path string) {
	name, file, ok := strings.Cut(arg, "=")
	if !ok || name == "" || file == "" || strings.ContainsAny(name, `/\`) {
		return "", arg
	}
	if _, err := os.Stat(arg); err == nil {
		return "", arg
	}
	return name, file
}

// maxSuiteProbe is the largest file whose benchmarks suiteLabels reads to
// decide whether files are versions of one suite (larger files keep their
// file-name labels; NAME=FILE labels them).
const maxSuiteProbe = 64 << 20

// suiteLabels labels the files of one call as versions of one suite, the
// way benchstat users name their files: args given as NAME=FILE get
// version NAME; without such arguments, two or more regular files of one
// format that hold the same benchmarks (benchmark, params, mode) and whose
// names carry no version (old.txt, new.txt) get version = the file's base
// name without extension. The project of such files is opt.Project, else
// the common prefix of their base names (trimmed of '-', '_', '@', '.'),
// else "suite". It returns the paths with the labels cut off and the
// labels by path (nil when the file-name convention applies). The
// --version flag (opt.Version) turns both off.
func suiteLabels(args []string, opt ReadOptions, mem memory.Allocator) ([]string, map[string]fileLabels) {
	paths := make([]string, len(args))
	named := map[string]string{}
	for i, a := range args {
		label, p := splitLabel(a)
		paths[i] = p
		if label != "" {
			named[p] = label
		}
	}
	if opt.Version != "" {
		return paths, nil
	}
	if len(named) > 0 {
		var stems []string
		for p := range named {
			stems = append(stems, stemOf(p))
		}
		project := commonProject(stems, opt.Project)
		labels := map[string]fileLabels{}
		for p, v := range named {
			labels[p] = fileLabels{project, v}
		}
		return paths, labels
	}
	if len(paths) < 2 || !sameSuite(paths, opt, mem) {
		return paths, nil
	}
	stems := make([]string, len(paths))
	for i, p := range paths {
		stems[i] = stemOf(p)
	}
	project := commonProject(stems, opt.Project)
	labels := map[string]fileLabels{}
	for i, p := range paths {
		labels[p] = fileLabels{project, stems[i]}
	}
	return paths, labels
}

func stemOf(path string) string {
	base := filepath.Base(path)
	return strings.TrimSuffix(base, filepath.Ext(base))
}

// commonProject is project when set, else the longest run of whole
// tokens that every stem starts with (tokens are separated by '-', '_',
// '@', '.' or ' '), trimmed of separators, else "suite": "zap-2024-01-02"
// and "zap-2024-01-03" give "zap-2024-01", "2018-05-01" and "2019-06-01"
// give "suite", not "201".
func commonProject(stems []string, project string) string {
	if project != "" {
		return project
	}
	prefix := stems[0]
	for _, s := range stems[1:] {
		n := 0
		for n < len(prefix) && n < len(s) && prefix[n] == s[n] {
			n++
		}
		prefix = prefix[:n]
	}
	whole := func(s string) bool { return len(s) == len(prefix) || isLabelSeparator(s[len(prefix)]) }
	if prefix != "" && !isLabelSeparator(prefix[len(prefix)-1]) && !allOf(stems, whole) {
		prefix = prefix[:strings.LastIndexAny(prefix, labelSeparators)+1]
	}
	if prefix = strings.Trim(prefix, labelSeparators); prefix == "" {
		return "suite"
	}
	return prefix
}

// labelSeparators separate the tokens of a file name's stem.
const labelSeparators = "-_@. "

func isLabelSeparator(c byte) bool { return strings.IndexByte(labelSeparators, c) >= 0 }

func allOf(xs []string, f func(string) bool) bool {
	for _, x := range xs {
		if !f(x) {
			return false
		}
	}
	return true
}

// sameSuite reports whether paths are regular result files (no canonical
// tables, no "-", no directories, none over maxSuiteProbe) with distinct
// base names that carry no version, of one format, holding the same set of
// benchmarks. It reads them (stopping at the first that differs); a file
// that cannot be read makes it false, and the real read reports why.
func sameSuite(paths []string, opt ReadOptions, mem memory.Allocator) bool {
	stems := map[string]bool{}
	for _, p := range paths {
		fi, err := os.Stat(p)
		if p == "-" || err != nil || !fi.Mode().IsRegular() || fi.Size() > maxSuiteProbe {
			return false
		}
		if canon, err := isCanonicalTable(p); err != nil || canon {
			return false
		}
		s := stemOf(p)
		if _, v := labelsFromFileName(p); v != "" || stems[s] {
			return false
		}
		stems[s] = true
	}
	var format string
	var want []table.Key
	for _, p := range paths {
		f, keys, err := benchmarksOf(p, opt, mem)
		if err != nil || format != "" && f != format || want != nil && !slices.Equal(keys, want) {
			return false
		}
		format, want = f, keys
	}
	return true
}

// benchmarksOf reads the file at path and returns its format and its
// sorted benchmarks (benchmark, params, mode; labels left out).
func benchmarksOf(path string, opt ReadOptions, mem memory.Allocator) (string, []table.Key, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", nil, err
	}
	defer f.Close()
	br := bufio.NewReaderSize(f, 1<<20)
	format, in, err := formatOf(path, f, br, opt)
	if err != nil {
		return "", nil, err
	}
	b := table.NewBuilder(mem, opt.batchRows)
	defer b.Release()
	if err := format.Read(in, Source{File: path}, b, &Summary{}); err != nil {
		return "", nil, err
	}
	t := b.Finish()
	defer t.Release()
	var keys []table.Key
	for _, s := range t.Setups {
		k := table.Key{Benchmark: s.Benchmark, Params: s.Params, Mode: s.Mode}
		if !slices.Contains(keys, k) {
			keys = append(keys, k)
		}
	}
	slices.SortFunc(keys, func(a, b table.Key) int {
		if a.Less(b) {
			return -1
		}
		if b.Less(a) {
			return 1
		}
		return 0
	})
	return format.Name(), keys, nil
}

// formatOf is the format of the file f (br buffers it): opt.Format, or
// detected as ReadFiles detects it (detectFile), and the reader of the
// file from its start.
func formatOf(path string, f io.Reader, br *bufio.Reader, opt ReadOptions) (Format, io.Reader, error) {
	if len(opt.Formats) == 0 {
		return nil, nil, errors.New("no formats")
	}
	if opt.Format != "" {
		format, err := formatByName(opt.Format, opt.Formats)
		return format, br, err
	}
	return detectFile(path, f, br, opt.Formats, func(_ []byte, _ io.Reader, err error) error { return err })
}
