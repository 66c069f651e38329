package ingest

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/memory"

	"github.com/benchtrim/benchtrim/table"
	"github.com/benchtrim/benchtrim/tablefile"
)

// formatByName returns the format of formats called name.
func formatByName(name string, formats []Format) (Format, error) {
	var names []string
	for _, f := range formats {
		if f.Name() == name {
			return f, nil
		}
		names = append(names, f.Name())
	}
	return nil, fmt.Errorf("unknown format %q (known: %s)", name, strings.Join(names, ", "))
}

// sniffBytes is how much of a file detect looks at.
const sniffBytes = 64 << 10

// detect picks the format of formats whose Sniff accepts head. It is an
// error when none or more than one does.
func detect(file string, head []byte, formats []Format) (Format, error) {
	var hits []Format
	for _, f := range formats {
		if f.Sniff(head) {
			hits = append(hits, f)
		}
	}
	switch len(hits) {
	case 1:
		return hits[0], nil
	case 0:
		if len(bytes.TrimSpace(head)) == 0 {
			return nil, &ParseError{File: file, Msg: "empty file (a JMH run that aborted leaves a 0-byte result file)"}
		}
		return nil, &ParseError{File: file, Msg: "unrecognised format (not JMH JSON, µOpTime Go or Java CSV, go test -bench output, pa CSV or duetprocess CSV; use --format to force one)"}
	}
	names := make([]string, len(hits))
	for i, f := range hits {
		names[i] = f.Name()
	}
	return nil, &ParseError{File: file, Msg: "ambiguous format, could be " + strings.Join(names, " or ") + "; use --format"}
}

// diagnose explains why detect found no format for a file (detectErr):
// a git conflict marker in head is reported at its line; otherwise the file
// is read with the format whose Likely score of head is highest (when one
// format alone has it) and that reader's *ParseError is returned, noting
// that the format was guessed. When no format is likely, or the likeliest
// reads the file without error, detectErr is returned (naming the
// likeliest format); when several formats are equally likely, the error
// names them all.
func diagnose(file string, head []byte, r io.Reader, formats []Format, detectErr error, mem memory.Allocator) error {
	var pe *ParseError
	if !errors.As(detectErr, &pe) || strings.HasPrefix(pe.Msg, "ambiguous") || len(bytes.TrimSpace(head)) == 0 {
		return detectErr
	}
	if line, text := conflictMarker(head); line > 0 {
		return &ParseError{File: file, Line: line, Msg: fmt.Sprintf("git merge conflict marker %q: the file holds an unresolved merge; resolve it (keep one side) and read it again", text)}
	}
	var best Format
	var tied []string
	bestScore := 0
	for _, f := range formats {
		switch score := f.Likely(head); {
		case score > bestScore:
			best, bestScore, tied = f, score, []string{f.Name()}
		case score == bestScore && score > 0:
			tied = append(tied, f.Name())
		}
	}
	if best == nil {
		return detectErr
	}
	if len(tied) > 1 {
		return &ParseError{File: file, Msg: fmt.Sprintf("unrecognised format; it looks equally like %s (use --format %s)",
			strings.Join(tied, " and "), strings.Join(tied, " or --format "))}
	}
	b := table.NewBuilder(mem, 0)
	defer b.Release()
	var scratch Summary
	err := best.Read(r, Source{File: file}, b, &scratch)
	if errors.As(err, &pe) {
		guessed := *pe
		guessed.Msg += fmt.Sprintf(" (read as %s, the likeliest format)", best.Name())
		return &guessed
	}
	if err != nil {
		return err
	}
	return &ParseError{File: file, Msg: fmt.Sprintf("unrecognised format; it looks most like %s (use --format %s to read it as such)", best.Name(), best.Name())}
}

// ReadOptions controls ReadFiles.
type ReadOptions struct {
	// Formats are the result-file formats ReadFiles detects among (in this
	// order; detection messages name them in it) and Format picks from.
	// all.Formats() (package format/all) lists benchtrim's readers.
	// Without formats, ReadFiles reads canonical table files only.
	Formats []Format
	// Format forces a format of Formats by name; "" detects it per file.
	Format string
	// Project and Version override the labels taken from file names.
	Project, Version string
	// instance and trial stamp rows of formats without those levels.
	instance, trial int32
	// Allocator for the table (memory.DefaultAllocator when nil).
	Allocator memory.Allocator
	// batchRows per Arrow record (table.DefaultBatchRows when 0).
	batchRows int
	// OnFile, when set, is called after each file with its row count.
	OnFile func(path string, rows int64)
	// Stdin is read for the path "-" (os.Stdin when nil).
	Stdin io.Reader
	// RunsAs says what the files of one run (one project, version,
	// benchmark, params and mode in several files) are to each other:
	// RunsPooled ("", the default) keeps each file's instance, trial and
	// fork numbers, so rows of equal numbers pool into one fork (warned
	// about as KindPooledRuns); RunsInstances numbers each later file's
	// instances of a run past the largest an earlier file has (daily
	// recordings of one release are its instances, as µOpTime's repeated
	// runs on one machine are).
	RunsAs string
	// Shard, when set, is the shard a sharded analysis reads: Stream
	// reads of a Parquet table written by shard only the row groups that
	// may hold it (tablefile.ScanFileShard).
	Shard *tablefile.ShardPart

	// instances numbers named instances across the files of one call.
	instances *Instances
	// runIDs numbers the runs of the file being read (table.RunIDs).
	runIDs *table.RunIDs
	// labels are the labels of files named NAME=FILE or read as versions
	// of one suite (suiteLabels), by path.
	labels map[string]fileLabels
}

// The values of ReadOptions.RunsAs.
const (
	RunsPooled    = "pooled"
	RunsInstances = "instances"
)

// FileResult says what one file contributed.
type FileResult struct {
	Path   string
	Format string
	Rows   int64
}

// ReadFiles reads result files into one canonical table. Canonical table
// files (.arrow, .parquet, and .csv files whose header is the canonical
// one) are loaded as they are; other files go through their format reader,
// and a directory through the DirFormat that recognises it (a duetbench
// output directory) or fails naming it. Readers that number named
// instances (duet environments) number them across all paths alike
// (Source.Instances).
// Skipped and suspicious items are counted in the returned Summary; the
// first file that cannot be read ends the call with its error. A file no
// format recognises fails with the likeliest format's own error (see
// Format.Likely), e.g. "x.csv:1: header separated by ';', not ','", or
// with a git conflict marker's line.
func ReadFiles(paths []string, opt ReadOptions) (*table.Table, *Summary, []FileResult, error) {
	out := &table.Table{}
	st, err := readFiles(paths, opt, nil, out)
	if err != nil {
		out.Release()
		return nil, st.Report, st.Files, err
	}
	return out, st.Report, st.Files, nil
}

// Streamed is what Stream read: everything ReadFiles returns but the rows,
// which went to the sink, and their Stats.
type Streamed struct {
	Setups []table.Setup
	Report *Summary
	Files  []FileResult
	Stats  *table.Stats
}

// Stream reads like ReadFiles but hands each Arrow record to sink as soon
// as a reader has built it (sink does not keep it unless it retains it),
// so memory stays bounded by a batch and per-run bookkeeping rather than
// by the table: each file's records are checked (Builder.SetCheckedSink) before
// they reach sink. Canonical table files are loaded whole first, then
// handed on. A sink error ends the call with that error; a file that fails
// ends it with its *ParseError, after earlier records of the file may have
// reached sink (write them to a temporary file and drop it on error, as
// tablefile.Stream does).
func Stream(paths []string, opt ReadOptions, sink func(arrow.Record) error) (*Streamed, error) {
	acc := &table.Table{}
	st, err := readFiles(paths, opt, sink, acc)
	st.Setups = acc.Setups
	return st, err
}

// readFiles reads paths into out (sink == nil) or hands their records to
// sink and only the setups to out.
func readFiles(paths []string, opt ReadOptions, sink func(arrow.Record) error, out *table.Table) (*Streamed, error) {
	mem := opt.Allocator
	if mem == nil {
		mem = memory.DefaultAllocator
	}
	st := &Streamed{Report: &Summary{}, Stats: &table.Stats{}}
	rep := st.Report
	paths, opt.labels = suiteLabels(paths, opt, mem)
	if err := checkDistinct(paths); err != nil {
		return st, err
	}
	// Before any file is read: a second "-" would otherwise read an
	// exhausted standard input and be reported as an empty (aborted) file.
	if i := slices.Index(paths, "-"); i >= 0 && slices.Contains(paths[i+1:], "-") {
		return st, fmt.Errorf("standard input (-) given twice")
	}
	if opt.RunsAs != "" && opt.RunsAs != RunsPooled && opt.RunsAs != RunsInstances {
		return st, fmt.Errorf("runs-as %q: want %s or %s", opt.RunsAs, RunsPooled, RunsInstances)
	}
	// instancesOf is the largest instance of each run in the files read so
	// far, when later files' instances of a run follow them (RunsInstances).
	var instancesOf map[table.Key]int32
	if opt.RunsAs == RunsInstances {
		instancesOf = map[table.Key]int32{}
	}
	opt.instances = &Instances{}
	for _, path := range paths {
		// One numbering of the file's runs for its Builder, checked sink and
		// Stats: each key is stored once.
		opt.runIDs = &table.RunIDs{}
		fileStats := &table.Stats{File: int32(len(st.Files)), RunIDs: opt.runIDs}
		shift := instanceShift(instancesOf, mem)
		var fileSink func(arrow.Record) error
		if sink != nil {
			fileSink = func(rec arrow.Record) error {
				if shift != nil {
					shifted, err := shift(rec)
					if err != nil {
						return &ParseError{File: path, Msg: err.Error()}
					}
					defer shifted.Release()
					rec = shifted
				}
				fileStats.Add(rec)
				return sink(rec)
			}
		}
		var t *table.Table
		var format string
		var err error
		if isCanonical, err2 := isCanonicalTable(path); err2 != nil {
			return st, err2
		} else if isCanonical {
			format = "table"
			screen := &tableScreen{path: path, rep: rep}
			if sink == nil {
				if t, err = tablefile.ReadFile(path, mem); err == nil {
					t, err = screen.table(t)
				}
			} else {
				// Record by record: a table file larger than memory streams.
				var setups []table.Setup
				screened := func(rec arrow.Record) error { return screen.record(rec, fileSink) }
				if setups, err = tablefile.ScanFileShard(path, mem, opt.Shard, screened); err == nil {
					t = &table.Table{Setups: setups}
				}
			}
		} else if isDir(path) {
			t, format, err = readDirectory(path, opt, mem, rep, fileSink)
		} else {
			t, format, err = readResultFile(path, opt, mem, rep, fileSink)
		}
		if err != nil {
			if t != nil {
				t.Release()
			}
			return st, err
		}
		if sink == nil {
			for i, rec := range t.Records {
				if shift != nil {
					shifted, err := shift(rec)
					if err != nil {
						t.Release()
						return st, &ParseError{File: path, Msg: err.Error()}
					}
					rec.Release()
					t.Records[i], rec = shifted, shifted
				}
				fileStats.Add(rec)
			}
		}
		if instancesOf != nil {
			fileStats.Each(func(k table.Key, r *table.RunStats) {
				instancesOf[k] = max(instancesOf[k], r.Sizes[table.LevelInstance])
			})
		}
		if format == "table" {
			if err := checkTableSetups(path, fileStats, t.Setups); err != nil {
				t.Release()
				return st, err
			}
		}
		warnPooled(path, st, fileStats, rep)
		if len(st.Files) == 0 {
			st.Stats = fileStats // the first file's: no copy
		} else {
			st.Stats.Merge(fileStats)
		}
		if err := out.Append(t); err != nil {
			rep.Warn("mixed setups", &ParseError{File: path, Msg: err.Error()})
		}
		st.Files = append(st.Files, FileResult{Path: path, Format: format, Rows: fileStats.Rows})
		if opt.OnFile != nil {
			opt.OnFile(path, fileStats.Rows)
		}
	}
	return st, nil
}

// build runs read on a new Builder and returns the checked table of what
// it appended (as table.Check; errors as *ParseError at the row's place).
// With a sink, each record is checked and handed to sink as it is built,
// and the table holds only the setups.
func build(path string, opt ReadOptions, mem memory.Allocator, sink func(arrow.Record) error, read func(b *table.Builder) error) (*table.Table, error) {
	b := table.NewBuilder(mem, opt.batchRows)
	defer b.Release()
	if opt.runIDs != nil {
		b.UseRunIDs(opt.runIDs)
	}
	var finish func() error
	if sink != nil {
		finish = b.SetCheckedSink(sink)
	}
	if err := read(b); err != nil {
		return nil, err
	}
	t := b.Finish()
	check := t.Check
	if sink != nil {
		check = finish
		if err := b.Err(); err != nil {
			check = func() error { return err }
		}
	}
	if err := check(); err != nil {
		t.Release()
		var ie *table.InvalidError
		if errors.As(err, &ie) {
			return nil, checkError(path, err)
		}
		return nil, err
	}
	return t, nil
}

func isCanonicalTable(path string) (bool, error) {
	if path == "-" {
		return false, nil
	}
	switch strings.ToLower(filepath.Ext(path)) {
	case ".arrow", ".ipc", ".feather", ".parquet", ".pq":
		return true, nil
	case ".csv":
		f, err := os.Open(path)
		if err != nil {
			return false, err
		}
		defer f.Close()
		// The first line, up to the header's length: a line of any length
		// is not read whole to find out.
		line, _ := bufio.NewReader(io.LimitReader(f, 4096)).ReadString('\n')
		return strings.HasPrefix(strings.TrimPrefix(line, "\ufeff"), "project,version,benchmark,params,mode,metric"), nil
	}
	return false, nil
}

func readResultFile(path string, opt ReadOptions, mem memory.Allocator, rep *Summary, sink func(arrow.Record) error) (*table.Table, string, error) {
	f, err := openInput(path, opt.Stdin)
	if err != nil {
		return nil, "", err
	}
	defer f.Close()
	// The buffer holds what detection peeks at; a format's reader that
	// reads in larger pieces (the JMH scanner: 256 KiB) then reads from f
	// directly, without a copy through it.
	br := bufio.NewReaderSize(f, sniffBytes)
	var format Format
	if len(opt.Formats) == 0 {
		return nil, "", fmt.Errorf("%s: not a canonical table file, and no result-file formats to read it with (ingest.ReadOptions.Formats is empty)", path)
	}
	if opt.Format != "" {
		if format, err = formatByName(opt.Format, opt.Formats); err != nil {
			return nil, "", err
		}
	}
	in := io.Reader(br)
	if format == nil {
		diag := func(head []byte, r io.Reader, err error) error { return diagnose(path, head, r, opt.Formats, err, mem) }
		if format, in, err = detectFile(path, f, br, opt.Formats, diag); err != nil {
			return nil, "", err
		}
	}
	t, err := build(path, opt, mem, sink, func(b *table.Builder) error { return format.Read(in, opt.source(path), b, rep) })
	return t, format.Name(), err
}

// checkError turns an error of table.Check on the rows read from file into
// a *ParseError at the offending row's line (and JSON path, for sources
// such as "file:$[3]").
func checkError(file string, err error) error {
	var ie *table.InvalidError
	if !errors.As(err, &ie) {
		return fmt.Errorf("%s: %w", file, err)
	}
	pe := &ParseError{File: file, Line: int(ie.Line), Msg: ie.Msg}
	if path, ok := strings.CutPrefix(ie.Source, file+":"); ok && strings.HasPrefix(path, "$") {
		pe.Path = path
	}
	return pe
}

// source is the Source of the file (or directory) at path: labels from
// its name unless the options give them, the options' instance and trial,
// and the instance numbering shared by the files of this call.
func (opt *ReadOptions) source(path string) Source {
	project, version := labelsFromFileName(path)
	if l, ok := opt.labels[path]; ok {
		project, version = l.project, l.version
	}
	src := Source{File: path, Project: project, Version: version, Instance: opt.instance, Trial: opt.trial, Instances: opt.instances}
	if opt.Project != "" {
		src.Project, src.ProjectFromUser = opt.Project, true
	}
	if opt.Version != "" {
		src.Version, src.VersionFromUser = opt.Version, true
	}
	return src
}

// openInput opens path for reading; "-" is standard input (or stdin when
// set), which is not closed.
func openInput(path string, stdin io.Reader) (io.ReadCloser, error) {
	if path != "-" {
		return os.Open(path)
	}
	if stdin == nil {
		stdin = os.Stdin
	}
	return io.NopCloser(stdin), nil
}

// instanceShift returns what moves a file's instances of the runs in
// instancesOf past them (tablefile.ShiftInstances), nil when there are none.
func instanceShift(instancesOf map[table.Key]int32, mem memory.Allocator) func(arrow.Record) (arrow.Record, error) {
	if len(instancesOf) == 0 {
		return nil
	}
	by := func(k table.Key) int32 { return instancesOf[k] }
	return func(rec arrow.Record) (arrow.Record, error) { return tablefile.ShiftInstances(rec, by, mem) }
}

// KindPooledRuns is the warning for a run (project, version, benchmark,
// params, mode) that two files hold with the same instance, trial and fork
// numbers: the table then holds both files' rows under one fork, as if
// they were one recording.
const KindPooledRuns = "same run and fork numbers in several files (pooled)"

// warnPooled warns once per run of the file at path (fs its Stats, whose
// File is its index in st.Files) that an earlier file, whose units
// st.Stats holds, has under the same instance, trial and fork numbers.
func warnPooled(path string, st *Streamed, fs *table.Stats, rep *Summary) {
	st.Stats.Pooled(fs, func(k table.Key, u [3]int32, file int32) {
		rep.Warn(KindPooledRuns, &ParseError{File: path, Msg: fmt.Sprintf(
			"%s: instance %d trial %d fork %d is also in %s; their rows are pooled as one fork "+
				"(label the files apart with PROJECT-VERSION file names or NAME=FILE arguments, read them as instances "+
				"with --runs-as instances, or read them separately)",
			k, u[0], u[1], u[2], st.Files[file].Path)})
	})
}

// StreamFile streams the rows of paths into the table file out as they
// are read (Stream into tablefile.Stream, so memory does not grow with the
// input). done gets what was read before the file is finished; an error
// from it, as from reading, leaves no file (tablefile.Stream).
func StreamFile(out string, wopt tablefile.WriteOptions, paths []string, opt ReadOptions, done func(*Streamed) error) error {
	return tablefile.Stream(out, wopt, func(write func(arrow.Record) error) ([]table.Setup, error) {
		st, err := Stream(paths, opt, write)
		if err != nil {
			return nil, err
		}
		if err := done(st); err != nil {
			return nil, err
		}
		return st.Setups, nil
	})
}
