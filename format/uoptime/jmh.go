package uoptime

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/benchtrim/benchtrim/ingest"
	"github.com/benchtrim/benchtrim/table"
)

// jmhLabels returns src with the project and version of a data set 3 file
// name (fileLabels) where the user did not give them, and the JMH version
// the name states ("" when it states none). A version ingest took from a
// NAME=FILE argument (neither "" nor the file's base name) is kept.
func jmhLabels(src ingest.Source) (ingest.Source, string) {
	stem := strings.TrimSuffix(filepath.Base(src.File), filepath.Ext(src.File))
	project, version, tool, ok := fileLabels(stem)
	if !ok {
		return src, ""
	}
	if !src.ProjectFromUser {
		src.Project = project
	}
	if !src.VersionFromUser && (src.Version == "" || src.Version == stem) {
		src.Version = version
	}
	return src, tool
}

// fileLabels parses the name stem of a µOpTime data set 3 file,
// [laaber_]PROJECT-MM_mm_pp-jmhNNN: project PROJECT, version MM.mm.pp with
// leading zeros removed, JMH version N.NN (laaber_bytebuddy-01_10_07-jmh121:
// bytebuddy, 1.10.7, 1.21). ok is false for other names.
func fileLabels(stem string) (project, version, jmh string, ok bool) {
	rest := strings.TrimPrefix(stem, "laaber_")
	i := strings.LastIndex(rest, "-jmh")
	if i < 0 || !isDigits(rest[i+len("-jmh"):]) {
		return "", "", "", false
	}
	jmh, rest = rest[i+len("-jmh"):], rest[:i]
	j := strings.LastIndexByte(rest, '-')
	if j <= 0 {
		return "", "", "", false
	}
	parts := strings.Split(rest[j+1:], "_")
	if len(parts) != 3 {
		return "", "", "", false
	}
	nums := make([]string, len(parts))
	for k, p := range parts {
		if !isDigits(p) || len(p) > 9 {
			return "", "", "", false
		}
		n, _ := strconv.Atoi(p)
		nums[k] = strconv.Itoa(n)
	}
	if len(jmh) >= 2 {
		jmh = jmh[:1] + "." + jmh[1:]
	} else {
		jmh = ""
	}
	return rest[:j], strings.Join(nums, "."), jmh, true
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range []byte(s) {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// splitName labels b from a data set 2 b_name, project#benchmark#params:
// the project (unless the user gave one) and the canonical params
// (k1=v1&k2=v2 → "k1=v1,k2=v2"). A name without '#' or with an empty
// benchmark part is the benchmark whole. A params part that is not
// key=value, or a key given twice, is warned about (kindBadParams) and
// kept: as "part=" and as the last value.
func (rd *reader) splitName(b *bench, line int64) {
	parts := strings.SplitN(b.key.Benchmark, "#", 3)
	if len(parts) < 2 || parts[1] == "" {
		return
	}
	if parts[0] != "" && !rd.src.ProjectFromUser {
		b.key.Project = parts[0]
	}
	b.key.Benchmark = parts[1]
	if len(parts) < 3 || parts[2] == "" {
		return
	}
	params := map[string]string{}
	var bad []string
	for _, p := range strings.Split(parts[2], "&") {
		k, v, ok := strings.Cut(p, "=")
		if _, dup := params[k]; !ok || k == "" || dup {
			bad = append(bad, strconv.Quote(p))
		}
		params[k] = v
	}
	b.key.Params = table.CanonicalParams(params)
	if len(bad) > 0 {
		rd.rep.Warn(kindBadParams, &ingest.ParseError{File: rd.file, Line: int(line), Msg: fmt.Sprintf(
			"benchmark %s: params %q: %s not key=value with a new key; kept as %q", b.name, parts[2], strings.Join(bad, ", "), b.key.Params)})
	}
}
