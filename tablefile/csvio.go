package tablefile

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"os"
	"sort"
	"strconv"
	"strings"

	"github.com/benchtrim/benchtrim/table"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/memory"

	"github.com/benchtrim/benchtrim/internal/linecap"
)

// Reading the CSV form of the table (Stream's writeCSVRecord) and its setups sidecar
// (SetupsSidecar), with every row checked (checker) and every error placed
// at its line.

// readCSVGuarded reads rows written by writeCSVRecord and checks them against the rules
// of the table (see Check). name is used in error messages, which give the
// line: "name:12: column value: …", "name:17: fork 0 (levels are 1-based)".
// The bytes are untrusted: any error is returned, never a panic.
func readCSVGuarded(r io.Reader, name string, mem memory.Allocator) (*table.Table, error) {
	t, err := guardedRead(mem, func(mem memory.Allocator) (*table.Table, error) { return readCSV(r, name, mem, nil) })
	if err != nil && !strings.HasPrefix(err.Error(), name+":") {
		err = fmt.Errorf("%s: %w", name, err)
	}
	return t, err
}

// readCSV reads a CSV table; with a sink the records go to it as they are
// built (table.Builder.SetSink) and the table returned is empty.
func readCSV(r io.Reader, name string, mem memory.Allocator, sink func(arrow.Record) error) (*table.Table, error) {
	cr := csv.NewReader(linecap.NewCSVReader(r))
	cr.ReuseRecord = true
	b := table.NewBuilder(mem, 0)
	defer b.Release()
	if sink != nil {
		b.SetSink(sink)
	}
	var row table.Row
	var runs table.Checker
	err := eachCSVRecord(cr, name, csvHeader(), func(rec []string, line int) error {
		if err := parseCSVRow(rec, &row); err != nil {
			return fmt.Errorf("%s:%d: %w", name, line, err)
		}
		lv := [table.NumLevels]int32{row.Instance, row.Trial, row.Fork, row.Iteration, row.Slice}
		if msg := runs.AddLevels(table.Key{Project: row.Project, Version: row.Version, Benchmark: row.Benchmark, Params: row.Params, Mode: row.Mode}, &lv, int64(line)); msg != "" {
			return fmt.Errorf("%s:%d: %s", name, line, msg)
		}
		if err := b.Append(&row); err != nil {
			return fmt.Errorf("%s:%d: %w", name, line, err)
		}
		return b.Err()
	})
	if err != nil {
		return nil, err
	}
	if line, msg := runs.LevelsViolation(); msg != "" {
		return nil, fmt.Errorf("%s:%d: %s", name, line, msg)
	}
	t := b.Finish()
	if err := b.Err(); err != nil {
		t.Release()
		return nil, err
	}
	return t, nil
}

// eachCSVRecord reads cr's header, which must be want, then calls fn
// with every record and its line; errors name the file name and the line.
func eachCSVRecord(cr *csv.Reader, name string, want []string, fn func(rec []string, line int) error) error {
	return eachCSVRecordOf(cr, name, [][]string{want}, func(rec []string, line, _ int) error { return fn(rec, line) })
}

// eachCSVRecordOf is eachCSVRecord for a file whose header is one of
// wants (the current one first): fn also gets the index in wants of the
// file's header.
func eachCSVRecordOf(cr *csv.Reader, name string, wants [][]string, fn func(rec []string, line, header int) error) error {
	head, err := cr.Read()
	if err != nil {
		var tl *linecap.TooLongError
		if errors.As(err, &tl) {
			return fmt.Errorf("%s:%d: %v", name, tl.Line, tl)
		}
		return fmt.Errorf("%s:1: reading header: %w", name, err)
	}
	header := -1
	got := strings.Join(head, ",")
	for i, w := range wants {
		if got == strings.Join(w, ",") {
			header = i
			break
		}
	}
	if header < 0 {
		return fmt.Errorf("%s:1: header is %q, want %q", name, clip(got, 400), strings.Join(wants[0], ","))
	}
	for {
		rec, err := cr.Read()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return csvError(name, err)
		}
		line, _ := cr.FieldPos(0)
		if err := fn(rec, line, header); err != nil {
			return err
		}
	}
}

// csvError places err, from csv.Reader.Read, at its line of file name.
// (After such an error the reader has no record, so FieldPos cannot tell.)
func csvError(name string, err error) error {
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		return fmt.Errorf("%s:%d: %w", name, pe.StartLine, pe.Err)
	}
	var tl *linecap.TooLongError
	if errors.As(err, &tl) {
		return fmt.Errorf("%s:%d: %v", name, tl.Line, tl)
	}
	return fmt.Errorf("%s: %w", name, err)
}

// clip shortens s to at most n bytes for an error message.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

func parseCSVRow(rec []string, r *table.Row) error {
	var err error
	fl := func(col int) float64 {
		if err != nil {
			return 0
		}
		var v float64
		v, err = strconv.ParseFloat(rec[col], 64)
		if err != nil {
			err = fmt.Errorf("column %s: %w", schema.Field(col).Name, err)
		}
		return v
	}
	in := func(col int, bits int) int64 {
		if err != nil {
			return 0
		}
		var v int64
		v, err = strconv.ParseInt(rec[col], 10, bits)
		if err != nil {
			err = fmt.Errorf("column %s: %w", schema.Field(col).Name, err)
		}
		return v
	}
	*r = table.Row{Project: rec[idxProject], Version: rec[idxVersion], Benchmark: rec[idxBenchmark],
		Params: rec[idxParams], Mode: rec[idxMode], Metric: rec[idxMetric], Unit: rec[idxUnit],
		Pair: rec[idxPair], Source: rec[idxSource]}
	r.Value, r.NsPerOp = fl(idxValue), fl(idxNsPerOp)
	r.Count = in(idxCount, 64)
	r.Instance, r.Trial, r.Fork = int32(in(idxInstance, 32)), int32(in(idxTrial, 32)), int32(in(idxFork, 32))
	r.Iteration, r.Slice = int32(in(idxIteration, 32)), int32(in(idxSlice, 32))
	r.Line = in(idxLine, 64)
	if err != nil {
		return err
	}
	if r.Warmup, err = strconv.ParseBool(rec[idxWarmup]); err != nil {
		return fmt.Errorf("column warmup: %w", err)
	}
	if rec[idxStartNs] != "" || rec[idxEndNs] != "" {
		r.StartNs, r.EndNs, r.HasTime = in(idxStartNs, 64), in(idxEndNs, 64), true
	}
	return err
}

// readSetupsSidecar appends the setups of the sidecar file at path, when
// there is one, to t.
func readSetupsSidecar(path string, t *table.Table) error {
	fh, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	defer fh.Close()
	setups, err := readSetupsCSV(fh, path)
	if err != nil {
		return err
	}
	t.Setups = append(t.Setups, setups...)
	sort.SliceStable(t.Setups, func(i, j int) bool { return t.Setups[i].Key.Less(t.Setups[j].Key) })
	return nil
}

// readSetupsCSV reads setups written by writeSetupsCSV. name is used in
// error messages, which give the line ("name:3: column forks: …"). The
// bytes are untrusted: any error is returned, never a panic.
func readSetupsCSV(r io.Reader, name string) (setups []table.Setup, err error) {
	defer func() {
		if p := recover(); p != nil {
			setups, err = nil, fmt.Errorf("%s: corrupt setups file: %v", name, p)
		}
	}()
	err = eachCSVRecordOf(csv.NewReader(linecap.NewCSVReader(r)), name, [][]string{setupsHeader, setupsHeaderV1}, func(rec []string, line, header int) error {
		var perr error
		n := func(i int) int64 {
			v, err := strconv.ParseInt(rec[i], 10, 64)
			if err != nil && perr == nil {
				perr = fmt.Errorf("column %s: %w", setupsHeader[i], err)
			}
			return v
		}
		s := table.Setup{Key: table.Key{Project: rec[0], Version: rec[1], Benchmark: rec[2], Params: rec[3], Mode: rec[4]}, Tool: rec[5], ToolVersion: rec[6],
			Forks: int(n(7)), WarmupIterations: int(n(8)), WarmupTimeNs: n(9), MeasurementIterations: int(n(10)),
			MeasurementTimeNs: n(11), Threads: int(n(13)), BatchSize: int(n(14)), Instances: int(n(15)),
			Trials: int(n(16)), Slices: int(n(17)), SliceTimeNs: n(18), Source: rec[20]}
		if header == 0 {
			s.Name = rec[21]
		}
		s.SingleShot, _ = strconv.ParseBool(rec[12])
		if rec[19] != "" {
			env, err := table.ParseParams(rec[19])
			if err != nil && perr == nil {
				perr = err
			}
			s.Env = env
		}
		if perr != nil {
			return fmt.Errorf("%s:%d: %w", name, line, perr)
		}
		setups = append(setups, s)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return setups, nil
}
