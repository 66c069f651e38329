package page

import (
	"io"
	"slices"
	"strings"
	"testing"

	"github.com/benchtrim/benchtrim/analysis/steady"
	"github.com/benchtrim/benchtrim/analysis/trim"
	"github.com/benchtrim/benchtrim/reports"
)

// TestPageStrictOnTrimFrames renders the page from trim's own frames (two
// versions of the generated JMH suite and the duet preset) in strict mode:
// every frame of trim.Frames, those without rows included, has every
// column a section reads, and no section reads a column it does not
// declare. A frame without a column is an error naming the frame and the
// column.
func TestPageStrictOnTrimFrames(t *testing.T) {
	rep := trimReportOn(t, 100, steady.PenaltyBarrett, []string{duetFile(t)}, "v1", "v2")
	frames := map[string]*reports.Frame{}
	names := map[string]bool{}
	for _, f := range trim.Frames {
		fr, err := rep.Frame(f.Name)
		if err != nil {
			t.Fatalf("trim has no frame %s: %v", f.Name, err)
		}
		frames[f.Name], names[f.Name] = fr, true
	}
	for _, s := range sections {
		for name := range s.reads {
			if !names[name] {
				t.Errorf("section %s reads frame %q, which is not in trim.Frames", s.name, name)
			}
		}
	}
	strict := func() *pageData {
		d, err := fromFrames(frames)
		if err != nil {
			t.Fatal(err)
		}
		d.strict = true
		return d
	}
	d := strict()
	if err := writeData(io.Discard, d); err != nil {
		t.Fatalf("strict page on trim's frames: %v", err)
	}
	for _, name := range []string{trim.FramePlan, trim.FrameCompare, trim.FrameDistributions, trim.FrameDuetBenchmarks, trim.FrameSeries} {
		if d.made[name] == nil {
			t.Errorf("the page drew nothing of the %s frame: the suite does not exercise its sections", name)
		}
	}

	// A missing column: an error naming the file, the column and the frame.
	d = strict()
	dropColumn(d.frames[trim.FramePlan], "time_saved")
	err := writeData(io.Discard, d)
	if err == nil || !strings.Contains(err.Error(), "plan.csv: no column time_saved, which the plan frame of benchtrim trim has") {
		t.Errorf("page without plan's time_saved: %v", err)
	}
	// A column read where the frame has it: required in strict mode only.
	d = strict()
	dropColumn(d.frames[trim.FrameCompare], "u_pvalue")
	if err := writeData(io.Discard, d); err == nil || !strings.Contains(err.Error(), "no column u_pvalue, which the compare frame") {
		t.Errorf("strict page without compare's u_pvalue: %v", err)
	}
	d.strict = false
	if err := writeData(io.Discard, d); err != nil {
		t.Errorf("page without compare's u_pvalue (a file of an older build): %v", err)
	}
	// A section reading a column it does not declare.
	d = strict()
	d.in(secNav)
	d.frame(trim.FramePlan).s(0, "status")
	if err := d.undeclaredError(); err == nil || !strings.Contains(err.Error(), "navigation section reads column status of the plan frame without declaring it") {
		t.Errorf("undeclared read: %v", err)
	}
}

// dropColumn removes column c from r.
func dropColumn(r *reports.Rows, c string) {
	j := slices.Index(r.Header, c)
	if j < 0 {
		panic("no column " + c)
	}
	r.Header = slices.Delete(slices.Clone(r.Header), j, j+1)
	for i, row := range r.Cells {
		r.Cells[i] = slices.Delete(slices.Clone(row), j, j+1)
	}
}
