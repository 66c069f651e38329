package jmh

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/benchtrim/benchtrim/ingest"
	"github.com/benchtrim/benchtrim/internal/jvmargs"
	"github.com/benchtrim/benchtrim/table"
)

// firstRun is where the record of a run was read: 1 + its index in the
// array (0 for no record yet) and its line.
type firstRun struct{ index1, line int }

// emitter turns records (recordReader) into rows and setups.
type emitter struct {
	*reporter
	file   string
	src    ingest.Source
	dst    *table.Builder
	sink   rowSink // dst
	vals   table.Values
	valIdx []int      // the rec.vals index of each row in vals
	seen   []firstRun // by run number (dst.RunIDs)
	names  ingest.Names
	rec    *record // the record being emitted
}

// rowSink takes the reader's rows: the table.Builder, or a counter when a
// benchmark measures parsing alone.
type rowSink interface {
	AppendValues(*table.Row, *table.Values) (int, error)
}

// emit turns rec into setup and rows.
func (em *emitter) emit(rec *record) error {
	em.rec = rec
	recPath := "$[" + strconv.Itoa(rec.index) + "]"
	source := em.file + ":" + recPath
	total := len(rec.vals)
	recErr := func(path, format string, args ...any) *ingest.ParseError {
		return &ingest.ParseError{File: em.file, Line: rec.line, Path: recPath + path, Msg: fmt.Sprintf(format, args...)}
	}
	switch {
	case rec.benchmark == "":
		em.skip(kindNoBenchmark, total, recErr("", "no \"benchmark\" member; record skipped"))
		return nil
	case rec.mode == "":
		em.skip(kindNoMode, total, recErr("", "no \"mode\" member; record skipped"))
		return nil
	case !rec.hasPrimary || rec.primary.invalid:
		em.skip(kindNoPrimary, total, recErr("", "no usable \"primaryMetric\"; record skipped"))
		return nil
	}
	mode, ok := ingest.Mode(rec.mode)
	if !ok || mode == "go" {
		em.skip(ingest.KindUnknownMode, total, &ingest.ParseError{File: em.file, Line: rec.lines[rkMode], Path: recPath + ".mode",
			Msg: fmt.Sprintf("mode %q is not a JMH mode (thrpt, avgt, sample, ss); record skipped", rec.mode)})
		return nil
	}
	rec.mode = mode
	p := &rec.primary
	unitKind, unitNs := ingest.ClassifyUnit(p.unit)
	if unitKind == ingest.UnitOther {
		msg := fmt.Sprintf("unknown primary unit %q: cannot normalise to ns/op (want <time>/op or ops/<time>); record skipped", p.unit)
		if !p.hasUnit {
			msg = "primary metric without scoreUnit; record skipped"
		}
		em.skip(kindUnknownUnit, total, &ingest.ParseError{File: em.file, Line: p.line, Path: recPath + ".primaryMetric.scoreUnit", Msg: msg})
		return nil
	}
	em.cleanNames(recPath)
	em.checkSetupValues(recPath)
	params := table.CanonicalParams(rec.params)
	row := table.Row{
		Project:   em.src.Project,
		Version:   em.src.Version,
		Benchmark: rec.benchmark,
		Params:    params,
		Mode:      rec.mode,
		Metric:    table.Primary,
		Unit:      p.unit,
		Instance:  em.src.Instance,
		Trial:     em.src.Trial,
		Slice:     1,
		Source:    source,
	}
	if err := row.Check(); err != nil {
		em.skip(ingest.RejectKind(err), total, recErr("", "%v; record skipped", err))
		return nil
	}
	// The records read so far by run number (the Builder's, which its
	// setups share): a map of keys would cost 100 bytes more a recoem.
	id, _ := em.dst.RunIDs().IDKeep(table.Key{Project: row.Project, Version: row.Version, Benchmark: rec.benchmark, Params: params, Mode: rec.mode})
	for int(id) >= len(em.seen) {
		em.seen = append(em.seen, firstRun{})
	}
	if first := em.seen[id]; first.index1 > 0 {
		em.skip(kindDuplicate, total, recErr("", "same benchmark, mode and params as $[%d] (line %d); JMH writes each once, so this record was skipped", first.index1-1, first.line))
		return nil
	}
	em.seen[id] = firstRun{rec.index + 1, rec.line}

	em.addSetup(params, source, recPath)

	// The primary's values: the histogram when there is one.
	data, rows, dataName, dataLine := p.raw, p.rawRows, "rawData", p.rawLine
	if p.hasHist {
		if p.hasRaw && p.raw.end > p.raw.start {
			em.skip(kindBothRawHist, p.raw.end-p.raw.start, &ingest.ParseError{File: em.file, Line: p.rawLine, Path: recPath + ".primaryMetric.rawData", Msg: "rawData and rawDataHistogram both present; kept the histogram"})
		}
		data, rows, dataName, dataLine = p.hist, p.histRows, "rawDataHistogram", p.histLine
	}
	dataPath := recPath + ".primaryMetric." + dataName
	if !p.hasRaw && !p.hasHist {
		msg := fmt.Sprintf("neither rawData nor rawDataHistogram (mode %s); the record has no primary rows", rec.mode)
		if p.stray != "" {
			msg += fmt.Sprintf(" (a member %q, which JMH does not write: misspelled?)", p.stray)
		}
		em.rep.Skip(kindNoRawData, 1, &ingest.ParseError{File: em.file, Line: p.line, Path: recPath + ".primaryMetric", Msg: msg})
	} else {
		em.checkPrimaryShape(rows, dataPath, dataLine)
	}

	conv := nsConverter{kind: unitKind, ns: unitNs, threads: rec.threads}
	em.vals.Reset()
	em.valIdx = em.valIdx[:0]
	for i := data.start; i < data.end; i++ {
		v := &rec.vals[i]
		if v.bad != badNone {
			em.skipBad(v, dataPath)
			continue
		}
		ns := conv.nsPerOp(v.v)
		if reason, ok := ingest.CheckTime(rec.mode, ns); !ok {
			if em.wantExample(reason) {
				em.rep.Skip(reason, 1, &ingest.ParseError{File: em.file, Line: int(v.line), Path: dataPath + v.indexPath(), Msg: fmt.Sprintf("%s: %v %s", reason, v.v, p.unit)})
			} else {
				em.rep.Skip(reason, 1, nil)
			}
			continue
		}
		if em.addValue(i, ns) {
			if err := em.appendValues(&row, dataPath); err != nil {
				return err
			}
		}
	}
	if err := em.appendValues(&row, dataPath); err != nil {
		return err
	}

	for j := range rec.secondary {
		if err := em.emitSecondary(&rec.secondary[j], &row, recPath, rows); err != nil {
			return err
		}
	}
	return nil
}

// cleanNames cleans the record's benchmark name and params
// (ingest.CleanName), warning once per distinct name changed.
func (em *emitter) cleanNames(recPath string) {
	rec := em.rec
	rec.benchmark = em.names.Clean(rec.benchmark, "benchmark", em.memberPlace(recPath, rkBenchmark))
	dirty := false
	for k, v := range rec.params {
		if _, b, c := ingest.CleanName(k); b || c {
			dirty = true
		} else if _, b, c := ingest.CleanName(v); b || c {
			dirty = true
		}
	}
	if !dirty {
		return
	}
	keys := make([]string, 0, len(rec.params))
	for k := range rec.params {
		keys = append(keys, k)
	}
	slices.Sort(keys) // warnings in a fixed order
	clean := make(map[string]string, len(keys))
	for _, k := range keys {
		at := em.memberPlace(recPath, rkParams)
		at.Path += formatPath([]pathElem{{key: k, idx: -1}})[1:]
		clean[em.names.Clean(k, "param name", at)] = em.names.Clean(rec.params[k], "param value", at)
	}
	rec.params = clean
}

// memberPlace is the place of record member k (its line and path).
func (em *emitter) memberPlace(recPath string, k int) ingest.ParseError {
	line := em.rec.lines[k]
	if line == 0 {
		line = em.rec.line
	}
	return ingest.ParseError{File: em.file, Line: line, Path: recPath + "." + recordKeyNames[k]}
}

// checkSetupValues reports configuration members that no JMH run can have
// (threads < 1, forks < 0, negative iteration counts or batch sizes) and
// treats them as unknown (0 in the setup; one thread when normalising
// ops/time).
func (em *emitter) checkSetupValues(recPath string) {
	rec := em.rec
	warn := func(k, v int, want string) {
		at := em.memberPlace(recPath, k)
		at.Msg = fmt.Sprintf("%s = %d, want %s; treated as unknown", recordKeyNames[k], v, want)
		if k == rkThreads {
			at.Msg += " (ops/time values are normalised as one thread)"
		}
		em.rep.Warn(kindBadSetup, &at)
	}
	if rec.hasThreads && rec.threads < 1 {
		warn(rkThreads, rec.threads, "≥ 1")
		rec.threads, rec.hasThreads = 0, false
	}
	if rec.hasForks && rec.forks < 0 {
		warn(rkForks, rec.forks, "≥ 0 (0 runs in the host VM)")
		rec.forks, rec.hasForks = 0, false
	}
	for _, f := range []struct {
		k int
		v *int
	}{{rkWarmupIterations, &rec.warmupIterations}, {rkMeasurementIterations, &rec.measurementIterations},
		{rkWarmupBatchSize, &rec.warmupBatchSize}, {rkMeasurementBatchSize, &rec.measurementBatchSize}} {
		if *f.v < 0 {
			warn(f.k, *f.v, "≥ 0")
			*f.v = 0
		}
	}
}

// checkPrimaryShape reports missing, extra and empty forks and ragged
// iterations of the primary metric.
func (em *emitter) checkPrimaryShape(rows []int32, dataPath string, dataLine int) {
	rec := em.rec
	at := func(path, format string, args ...any) *ingest.ParseError {
		return &ingest.ParseError{File: em.file, Line: dataLine, Path: dataPath + path, Msg: fmt.Sprintf(format, args...)}
	}
	if len(rows) == 0 {
		em.rep.Warn(kindNoRawData, at("", "empty: no fork rows (JMH writes [ ] with -Djmh.json.rawData=false); the record has no primary rows"))
		return
	}
	if rec.hasForks {
		want := rec.forks
		if want == 0 {
			want = 1 // forks 0: the benchmark ran in the host VM, one row
		}
		switch {
		case len(rows) < want:
			em.rep.Warn(kindMissingFork, at("", "forks = %d but %d fork rows; fork numbers are positions in the array", rec.forks, len(rows)))
		case len(rows) > want && rec.forks > 0:
			em.rep.Warn(kindExtraFork, at("", "forks = %d but %d fork rows", rec.forks, len(rows)))
		}
	}
	want := int32(rec.measurementIterations)
	if want <= 0 {
		want = slices.Max(rows)
	}
	ragged := false
	for f, n := range rows {
		if n == 0 {
			em.rep.Warn(kindEmptyFork, at("["+strconv.Itoa(f)+"]", "fork %d has no iterations", f+1))
			continue
		}
		if n != want {
			ragged = true
		}
	}
	if ragged {
		lens := make([]string, len(rows))
		for i, n := range rows {
			lens[i] = strconv.Itoa(int(n))
		}
		em.rep.Warn(kindRagged, at("", "fork rows have %s iterations (measurementIterations = %d)", strings.Join(lens, ", "), rec.measurementIterations))
	}
}

// emitSecondary appends the rows of secondary metric m; it returns an error
// only when the table refuses a row that passed the metric's check.
func (em *emitter) emitSecondary(m *metric, row *table.Row, recPath string, primaryRows []int32) error {
	rec := em.rec
	path := recPath + ".secondaryMetrics" + formatPath([]pathElem{{key: m.key, idx: -1}})[1:]
	if m.invalid {
		return nil // counted when read
	}
	data, rows, dataName, dataLine := m.raw, m.rawRows, ".rawData", m.rawLine
	if m.hasHist {
		if m.hasRaw && m.raw.end > m.raw.start {
			em.skip(kindBothRawHist, m.raw.end-m.raw.start, &ingest.ParseError{File: em.file, Line: m.rawLine, Path: path + ".rawData", Msg: "rawData and rawDataHistogram both present; kept the histogram"})
		}
		data, rows, dataName, dataLine = m.hist, m.histRows, ".rawDataHistogram", m.histLine
	}
	if m.unit == "---" && data.end == data.start {
		em.skip(kindText, 1, &ingest.ParseError{File: em.file, Line: m.line, Path: path, Msg: "text result of a profiler (unit \"---\", empty rawData); its text is not in the JSON"})
		return nil
	}
	if !m.hasRaw && !m.hasHist {
		em.rep.Warn(kindSecNoData, &ingest.ParseError{File: em.file, Line: m.line, Path: path, Msg: "no rawData; metric has no rows"})
		return nil
	}
	// Ragged: a fork row shorter than the iterations the primary has.
	want := rec.measurementIterations
	if want <= 0 {
		for _, n := range primaryRows {
			want = max(want, int(n))
		}
	}
	ragged := !m.hasHist && len(rows) < len(primaryRows)
	for _, n := range rows {
		if int(n) < want {
			ragged = true
		}
	}
	if ragged {
		lens := make([]string, len(rows))
		for i, n := range rows {
			lens[i] = strconv.Itoa(int(n))
		}
		em.rep.Warn(kindRaggedSec, &ingest.ParseError{File: em.file, Line: dataLine, Path: path + dataName,
			Msg: fmt.Sprintf("fork rows have [%s] values for %d iterations", strings.Join(lens, ","), want)})
	}
	kind, ns := ingest.ClassifyUnit(m.unit)
	conv := nsConverter{kind: kind, ns: ns, threads: rec.threads}
	em.vals.Reset()
	em.valIdx = em.valIdx[:0]
	at := ingest.ParseError{File: em.file, Line: m.line, Path: path}
	row.Metric = em.names.Clean(metricName(m.key, rec.benchmark), "secondary metric", at)
	if row.Metric == "" || row.Metric == table.Primary {
		// Keep such rows apart from the primary metric's.
		row.Metric = "secondary:" + row.Metric
	}
	row.Unit = em.names.Clean(m.unit, "unit", at)
	if err := row.Check(); err != nil {
		em.skip(ingest.RejectKind(err), data.end-data.start, &ingest.ParseError{File: em.file, Line: m.line, Path: recPath + ".secondaryMetrics", Msg: err.Error() + "; metric skipped"})
		return nil
	}
	for i := data.start; i < data.end; i++ {
		v := &rec.vals[i]
		if v.bad != badNone {
			em.skipBad(v, path+dataName)
			continue
		}
		if math.IsNaN(v.v) || math.IsInf(v.v, 0) {
			if em.wantExample(kindSecNonFinite) {
				em.rep.Skip(kindSecNonFinite, 1, &ingest.ParseError{File: em.file, Line: int(v.line), Path: path + dataName + v.indexPath(), Msg: fmt.Sprintf("%v %s", v.v, m.unit)})
			} else {
				em.rep.Skip(kindSecNonFinite, 1, nil)
			}
			continue
		}
		if em.addValue(i, conv.nsPerOp(v.v)) {
			if err := em.appendValues(row, path+dataName); err != nil {
				return err
			}
		}
	}
	return em.appendValues(row, path+dataName)
}

// emitChunk is how many rows addValue gathers before its caller appends
// them: the rows of one metric go to the table a chunk at a time, so the
// gathering buffers stay small (320 KB) and warm instead of growing to
// the size of the largest metric.
const emitChunk = 8192

// addValue adds rec.vals[i], whose value is ns ns/op, to the rows
// appendValues appends, and reports whether a chunk's worth is waiting.
func (em *emitter) addValue(i int, ns float64) (full bool) {
	v := &em.rec.vals[i]
	em.vals.Add(v.v, ns, v.count, v.line, v.fork, v.iter)
	em.valIdx = append(em.valIdx, i)
	return len(em.valIdx) >= emitChunk
}

// appendValues appends the rows added since the last call (addValue), each
// row with its value's columns, and starts afresh. A row the table refuses
// ends the read with an error at the value's place below dataPath.
func (em *emitter) appendValues(row *table.Row, dataPath string) error {
	defer func() {
		em.vals.Reset()
		em.valIdx = em.valIdx[:0]
	}()
	if j, err := em.sink.AppendValues(row, &em.vals); err != nil {
		v := &em.rec.vals[em.valIdx[j]]
		return &ingest.ParseError{File: em.file, Line: int(v.line), Path: dataPath + v.indexPath(), Msg: err.Error()}
	}
	return nil
}

// indexPath is the JSON path of v below its rawData/rawDataHistogram array.
func (v *value) indexPath() string {
	var b strings.Builder
	if v.fork > 0 {
		fmt.Fprintf(&b, "[%d]", v.fork-1)
	}
	if v.iter > 0 {
		fmt.Fprintf(&b, "[%d]", v.iter-1)
	}
	if v.bucket >= 0 {
		fmt.Fprintf(&b, "[%d]", v.bucket)
	}
	return b.String()
}

func (em *emitter) skipBad(v *value, dataPath string) {
	kind := badKind[v.bad]
	if !em.wantExample(kind) {
		em.rep.Skip(kind, 1, nil)
		return
	}
	em.rep.Skip(kind, 1, &ingest.ParseError{File: em.file, Line: int(v.line), Path: dataPath + v.indexPath(), Msg: badMsg[v.bad]})
}

// addSetup records the record's configuration.
func (em *emitter) addSetup(params, source, recPath string) {
	rec := em.rec
	st := table.Setup{
		Key:                   table.Key{Project: em.src.Project, Version: em.src.Version, Benchmark: rec.benchmark, Params: params, Mode: rec.mode},
		Tool:                  "jmh",
		ToolVersion:           em.names.Clean(rec.jmhVersion, "jmhVersion", em.memberPlace(recPath, rkJmhVersion)),
		Forks:                 rec.forks,
		WarmupIterations:      rec.warmupIterations,
		MeasurementIterations: rec.measurementIterations,
		Threads:               rec.threads,
		BatchSize:             rec.measurementBatchSize,
		Source:                source,
	}
	parseTime := func(t string, line int, field string, dst *int64) {
		if t == "" {
			return
		}
		ns, single, err := parseTime(t)
		if err != nil {
			em.rep.Warn(kindBadTime, &ingest.ParseError{File: em.file, Line: line, Path: recPath + "." + field, Msg: fmt.Sprintf("%q: %v", t, err)})
			return
		}
		*dst = ns
		st.SingleShot = st.SingleShot || single
	}
	parseTime(rec.warmupTime, rec.warmupTimeLine, "warmupTime", &st.WarmupTimeNs)
	parseTime(rec.measurementTime, rec.measurementTimeLine, "measurementTime", &st.MeasurementTimeNs)
	env := map[string]string{}
	set := func(k, v string) {
		if v != "" {
			env[k] = v
		}
	}
	setText := func(k int, v string) {
		set(recordKeyNames[k], em.names.Clean(v, recordKeyNames[k], em.memberPlace(recPath, k)))
	}
	setText(rkJvm, rec.jvm)
	setText(rkJdkVersion, rec.jdkVersion)
	setText(rkVmName, rec.vmName)
	setText(rkVmVersion, rec.vmVersion)
	setText(rkJvmArgs, jvmargs.Line(rec.jvmArgs))
	if prof := profilersOf(rec.secondary); prof != "" {
		set(table.EnvProfilers, prof)
	}
	if rec.warmupBatchSize > 0 {
		set("warmupBatchSize", strconv.Itoa(rec.warmupBatchSize))
	}
	if rec.hasForks && rec.forks == 0 {
		set("inProcess", "true") // forks 0: run inside the host VM
	}
	if len(env) > 0 {
		st.Env = env
	}
	if err := em.dst.AddSetup(st); err != nil {
		em.rep.Warn(kindMixedSetups, &ingest.ParseError{File: em.file, Line: rec.line, Path: recPath, Msg: err.Error()})
	}
}

// nsConverter is ingest.NsPerOp with the unit classified once per metric
// instead of once per value; it computes the same expressions:
//
//	time per op:  ns_per_op = value · ns(tu)
//	throughput:   ns_per_op = threads · ns(tu) / value   (+Inf for 0)
//	other units:  NaN
type nsConverter struct {
	kind    ingest.UnitKind
	ns      float64
	threads int
}

func (c nsConverter) nsPerOp(v float64) float64 {
	switch c.kind {
	case ingest.UnitTimePerOp:
		return v * c.ns
	case ingest.UnitOpsPerTime:
		if v == 0 {
			return math.Inf(1)
		}
		t := c.threads
		if t < 1 {
			t = 1
		}
		return float64(t) * c.ns / v
	}
	return math.NaN()
}
