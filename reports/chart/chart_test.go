package chart

import (
	"bytes"
	"encoding/xml"
	"image"
	"image/color"
	"image/png"
	"io"
	"math"
	"reflect"
	"strings"
	"testing"
)

func TestNiceTicks(t *testing.T) {
	for _, c := range []struct {
		lo, hi float64
		n      int
		want   []float64
	}{
		{0, 16, 5, []float64{0, 5, 10, 15}},
		{0.013, 0.047, 4, []float64{0.02, 0.03, 0.04}},
		{-3, 3, 5, []float64{-2, 0, 2}},
		{7, 7, 4, []float64{7, 7.25, 7.5, 7.75, 8}}, // empty: [7, 8]
	} {
		got := NiceTicks(c.lo, c.hi, c.n)
		if len(got) != len(c.want) {
			t.Errorf("NiceTicks(%g, %g, %d) = %v, want %v", c.lo, c.hi, c.n, got, c.want)
			continue
		}
		for i := range got {
			if math.Abs(got[i]-c.want[i]) > 1e-12 {
				t.Errorf("NiceTicks(%g, %g, %d) = %v, want %v", c.lo, c.hi, c.n, got, c.want)
				break
			}
		}
	}
}

// labels returns the labelled ticks' labels and the number of minor ones.
func labels(ts []tick) ([]string, int) {
	var out []string
	minor := 0
	for _, t := range ts {
		if t.minor {
			minor++
		} else {
			out = append(out, t.label)
		}
	}
	return out, minor
}

func TestTicks(t *testing.T) {
	for _, c := range []struct {
		name   string
		a      Axis
		lo, hi float64
		want   []string
		minor  int
	}{
		{"linear", Axis{}, 0.013, 0.047, []string{"0.02", "0.03", "0.04"}, 0},
		{"linear through 0", Axis{}, -0.3, 0.3, []string{"-0.2", "0", "0.2"}, 0},
		{"integer", Axis{Integer: true}, 0, 16.5, []string{"0", "5", "10", "15"}, 0},
		{"integer, short", Axis{Integer: true}, -0.1, 2.2, []string{"0", "1", "2"}, 0},
		// 100, 1000, 10⁴, 10⁵ labelled; 30…90, 200…900, …, 200000…700000 minor.
		{"log", Axis{Log: true}, 30, 7e5, []string{"1e2", "1e3", "1e4", "1e5"}, 7 + 8 + 8 + 8 + 6},
		// Fewer than two powers of ten: 2× and 5× labelled too.
		{"log, narrow", Axis{Log: true}, 15, 600, []string{"20", "50", "100", "200", "500"}, 6 + 3},
		{"log, large", Axis{Log: true}, 5e5, 2e6, []string{"5e5", "1e6", "2e6"}, 4},
		{"log, small", Axis{Log: true}, 1e-4, 0.05, []string{"1e-4", "1e-3", "1e-2"}, 8 + 8 + 4},
		{"nominal", Axis{Names: []string{"B", "A"}}, -0.5, 1.5, []string{"B", "A"}, 0},
		{"quarters", Axis{}, 0.1, 11.9, []string{"2.5", "5", "7.5", "10"}, 0},
		{"close on a large value", Axis{}, 1e9 + 0.1, 1e9 + 0.9, []string{"1000000000.2", "1000000000.4", "1000000000.6", "1000000000.8"}, 0},
		{"small", Axis{}, 1.1e-7, 4.9e-7, []string{"2e-07", "3e-07", "4e-07"}, 0},
	} {
		got, minor := labels(c.a.ticks(c.lo, c.hi))
		if !reflect.DeepEqual(got, c.want) || minor != c.minor {
			t.Errorf("%s: labels %q and %d minor ticks, want %q and %d", c.name, got, minor, c.want, c.minor)
		}
	}
}

func TestAxisRange(t *testing.T) {
	for _, c := range []struct {
		name           string
		a              Axis
		lo, hi         float64
		wantLo, wantHi float64
	}{
		{"fixed", Axis{Min: 0, Max: 1}, 0.2, 3, 0, 1},
		{"data, 4 % margins", Axis{}, 10, 60, 8, 62},
		{"log, 4 % margins in log10", Axis{Log: true}, 10, 1e5, 10 / math.Pow(10, 0.16), 1e5 * math.Pow(10, 0.16)},
		{"one value", Axis{}, 5, 5, 3.92, 6.08},
		{"no data", Axis{}, math.Inf(1), math.Inf(-1), 0, 1},
		{"nominal", Axis{Names: []string{"a", "b", "c"}}, 0, 2, -0.5, 2.5},
	} {
		lo, hi := c.a.axisRange(c.lo, c.hi)
		if math.Abs(lo-c.wantLo) > 1e-9*math.Abs(c.wantLo)+1e-12 || math.Abs(hi-c.wantHi) > 1e-9*math.Abs(c.wantHi)+1e-12 {
			t.Errorf("%s: [%g, %g], want [%g, %g]", c.name, lo, hi, c.wantLo, c.wantHi)
		}
	}
}

func TestDash(t *testing.T) {
	got := dash([]pt{{0, 0}, {10, 0}, {20, 0}}, []float64{4, 3}, 1)
	want := [][]pt{{{0, 0}, {4, 0}}, {{7, 0}, {10, 0}, {11, 0}}, {{14, 0}, {18, 0}}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("dash = %v, want %v", got, want)
	}
	// Scaled by k = 2: 8 on, 6 off.
	if got := dash([]pt{{0, 0}, {0, 20}}, []float64{4, 3}, 2); len(got) != 2 || got[1][0] != (pt{0, 14}) {
		t.Errorf("dash at k = 2: %v", got)
	}
}

// decodePNG renders c as PNG and decodes it.
func decodePNG(t *testing.T, c *Chart) *image.RGBA {
	t.Helper()
	var b bytes.Buffer
	if err := c.WritePNG(&b); err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(&b)
	if err != nil {
		t.Fatal(err)
	}
	rgba := image.NewRGBA(img.Bounds())
	for y := img.Bounds().Min.Y; y < img.Bounds().Max.Y; y++ {
		for x := img.Bounds().Min.X; x < img.Bounds().Max.X; x++ {
			rgba.Set(x, y, img.At(x, y))
		}
	}
	return rgba
}

// TestPNG draws a thick red line with a right-angle turn, and checks the
// image's size, that the line covers its pixels fully (near the turn,
// where a segment and the round join overlap, too: their coverages add
// up, never cancel), and that the page around it and the data area's
// corners off the line stay white.
func TestPNG(t *testing.T) {
	red := color.RGBA{R: 255, A: 255}
	c := &Chart{
		X: Axis{Min: 0, Max: 10}, Y: Axis{Min: 0, Max: 10},
		Marks: []Mark{&Line{XYs: []XY{{X: 1, Y: 2}, {X: 5, Y: 2}, {X: 5, Y: 8}}, Style: Style{Color: red, Width: 6}}},
	}
	img := decodePNG(t, c)
	if b := img.Bounds(); b.Dx() != 605 || b.Dy() != 340 {
		t.Fatalf("%d×%d pixels, want 605×340", b.Dx(), b.Dy())
	}
	// Where the line lands, from the same layout.
	m, err := newMeasurer()
	if err != nil {
		t.Fatal(err)
	}
	rec := &recorder{}
	if err := render(c, rec, Width, Height, m.width); err != nil {
		t.Fatal(err)
	}
	a := rec.area
	k := float64(DPI) / 72
	at := func(x, y float64) image.Point {
		return image.Pt(int(math.Floor((a.x0+(a.x1-a.x0)*x/10)*k)), int(math.Floor((a.y1-(a.y1-a.y0)*y/10)*k)))
	}
	turn := at(5, 2)
	for _, q := range []image.Point{at(3, 2), at(5, 5), turn, turn.Add(image.Pt(-2, 0)), turn.Add(image.Pt(0, -2)), turn.Add(image.Pt(-2, -2))} {
		if got := img.RGBAAt(q.X, q.Y); got != red {
			t.Errorf("pixel %v on the line is %v, want %v", q, got, red)
		}
	}
	for _, q := range []image.Point{{0, 0}, {604, 339}, {int(a.x1*k) - 3, int(a.y0*k) + 3}, at(7, 5)} {
		if got := img.RGBAAt(q.X, q.Y); got != (color.RGBA{255, 255, 255, 255}) {
			t.Errorf("pixel %v is %v, want white", q, got)
		}
	}
}

// recorder is a canvas that keeps the data area it is clipped to.
type recorder struct{ area rect }

func (r *recorder) stroke([]pt, bool, Style)                             {}
func (r *recorder) fill([]pt, color.Color)                               {}
func (r *recorder) circle(pt, float64, Style)                            {}
func (r *recorder) text(pt, string, float64, float64, bool, color.Color) {}
func (r *recorder) clip(a *rect) {
	if a != nil {
		r.area = *a
	}
}

// TestPNGText checks that the title and the rotated y label are drawn:
// dark pixels in the title's band, and in the left margin's.
func TestPNGText(t *testing.T) {
	c := &Chart{Title: "A title", Y: Axis{Label: "a y label"}, Marks: []Mark{&Line{XYs: []XY{{X: 0, Y: 0}, {X: 1, Y: 1}}}}}
	img := decodePNG(t, c)
	dark := func(r image.Rectangle) int {
		n := 0
		for y := r.Min.Y; y < r.Max.Y; y++ {
			for x := r.Min.X; x < r.Max.X; x++ {
				if img.RGBAAt(x, y).R < 100 {
					n++
				}
			}
		}
		return n
	}
	if n := dark(image.Rect(200, 0, 400, 20)); n < 30 {
		t.Errorf("%d dark pixels where the title is, want at least 30", n)
	}
	if n := dark(image.Rect(0, 100, 20, 240)); n < 30 {
		t.Errorf("%d dark pixels where the y label is, want at least 30", n)
	}
	if n := dark(image.Rect(200, 22, 400, 40)); n != 0 {
		t.Errorf("%d dark pixels under the title, want 0", n)
	}
}

// TestSVG checks that the SVG is well-formed XML with the text escaped,
// draws each mark, and marks the one outlier of a box plot.
func TestSVG(t *testing.T) {
	vals := []float64{1, 2, 3, 4, 5, 6, 7, 8, 9, 100}
	c := &Chart{
		Title: `<a & "b">`,
		X:     Axis{Names: []string{"x"}},
		Marks: []Mark{
			&Box{X: 0, Values: vals, Width: 30, Fill: color.RGBA{G: 158, B: 115, A: 255}},
			&Line{XYs: []XY{{X: -0.4, Y: 1}, {X: math.NaN(), Y: 2}, {X: 0.4, Y: 3}, {X: 0.3, Y: 4}}},
			&Points{XYs: []XY{{X: 0.2, Y: 5}}},
			&Line{XYs: []XY{{X: -0.2, Y: 1}, {X: -0.2, Y: 9}}},
		},
		Legend: []LegendEntry{{Label: "box", Fill: color.RGBA{G: 158, B: 115, A: 255}}},
	}
	var b bytes.Buffer
	if err := c.WriteSVG(&b); err != nil {
		t.Fatal(err)
	}
	s := b.String()
	count := map[string]int{}
	var text []string
	d := xml.NewDecoder(strings.NewReader(s))
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("not well-formed: %v\n%s", err, s)
		}
		switch e := tok.(type) {
		case xml.StartElement:
			count[e.Name.Local]++
		case xml.CharData:
			if strings.TrimSpace(string(e)) != "" {
				text = append(text, string(e))
			}
		}
	}
	// Circles: the box plot's outlier (100) and the point. The marks
	// drawn after the point are clipped to the data area again, by the
	// clip path defined once.
	if count["svg"] != 1 || count["circle"] != 2 || count["clipPath"] != 1 || count["g"] != 2 {
		t.Errorf("elements %v: want one svg, two circles, one clipPath used by two groups", count)
	}
	for _, want := range []string{`<a & "b">`, "x", "box"} {
		if !contains(text, want) {
			t.Errorf("no text %q in %q", want, text)
		}
	}
	// The line is broken at the NaN: a run of one point is not drawn, the
	// other of two is.
	if !strings.Contains(s, `stroke="#000000" stroke-width="1"/>`) {
		t.Errorf("no black line of width 1:\n%s", s)
	}
	if strings.Contains(s, "NaN") || strings.Contains(s, "Inf") {
		t.Errorf("a non-finite coordinate in the SVG:\n%s", s)
	}
}

func contains(xs []string, x string) bool {
	for _, v := range xs {
		if v == x {
			return true
		}
	}
	return false
}

func TestErrors(t *testing.T) {
	for name, c := range map[string]*Chart{
		"infinite range": {X: Axis{Min: 0, Max: math.Inf(1)}},
		"log from 0":     {X: Axis{Log: true, Min: 0, Max: 10}},
	} {
		if err := c.WriteSVG(io.Discard); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
	if err := (&Chart{}).Write(io.Discard, "pdf"); err == nil || !strings.Contains(err.Error(), "pdf") {
		t.Errorf("pdf: error %v", err)
	}
}

// TestFit checks that long text is shrunk, then cut in the middle, to
// fit its width, keeping its start and end.
func TestFit(t *testing.T) {
	m, err := newMeasurer()
	if err != nil {
		t.Fatal(err)
	}
	p := &plotter{width: m.width}
	short := "Bench.m fork 1"
	if s, size := p.fit(short, titleSize, 400); s != short || size != titleSize {
		t.Errorf("fit(%q) = %q at %g pt, want it unchanged", short, s, size)
	}
	long := "ObjectToObjectBenchmark.get_mvstore[compression=0,mapSize=100,oneFailureOutOf=2] fork 1"
	s, size := p.fit(long, titleSize, 400)
	if s != long || size >= titleSize || size < minTextSize || m.width(s, size) > 400 {
		t.Errorf("fit(%q, 400) = %q at %g pt (%g wide), want it whole, shrunk", long, s, size, m.width(s, size))
	}
	s, size = p.fit(long, titleSize, 200)
	if size != minTextSize || m.width(s, size) > 200 || !strings.Contains(s, "…") ||
		!strings.HasPrefix(s, "ObjectTo") || !strings.HasSuffix(s, "fork 1") {
		t.Errorf("fit(%q, 200) = %q at %g pt (%g wide), want it cut in the middle at %d pt", long, s, size, m.width(s, size), minTextSize)
	}
}
