package chart

import (
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"io"
	"math"
	"sync"

	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/goregular"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/font/sfnt"
	"golang.org/x/image/math/fixed"
	"golang.org/x/image/vector"
)

// goRegular is Go Regular, parsed on first use.
var goRegular = sync.OnceValues(func() (*sfnt.Font, error) { return opentype.Parse(goregular.TTF) })

// measurer measures text in Go Regular; one per drawing (faces are not
// safe for concurrent use).
type measurer struct {
	f     *sfnt.Font
	faces map[[2]float64]font.Face // by size and dpi
}

func newMeasurer() (*measurer, error) {
	f, err := goRegular()
	if err != nil {
		return nil, fmt.Errorf("chart: Go Regular: %w", err)
	}
	return &measurer{f: f, faces: map[[2]float64]font.Face{}}, nil
}

// face returns the face of size points at dpi (unhinted, so widths scale
// linearly).
func (m *measurer) face(size, dpi float64) font.Face {
	key := [2]float64{size, dpi}
	if f, ok := m.faces[key]; ok {
		return f
	}
	f, err := opentype.NewFace(m.f, &opentype.FaceOptions{Size: size, DPI: dpi, Hinting: font.HintingNone})
	if err != nil {
		panic(fmt.Sprintf("chart: a face of Go Regular at %g pt: %v", size, err)) // only for a bad size
	}
	m.faces[key] = f
	return f
}

// width returns the advance of s at size points, in points.
func (m *measurer) width(s string, size float64) float64 {
	return fix(font.MeasureString(m.face(size, 72), s))
}

func fix(v fixed.Int26_6) float64 { return float64(v) / 64 }

// WritePNG writes c as a PNG image of Width × Height points at DPI
// (605 × 340 pixels), anti-aliased, text in Go Regular.
func (c *Chart) WritePNG(w io.Writer) error {
	m, err := newMeasurer()
	if err != nil {
		return err
	}
	k := DPI / 72.0
	img := image.NewRGBA(image.Rect(0, 0, int(math.Round(Width*k)), int(math.Round(Height*k))))
	cv := &pngCanvas{img: img, k: k, m: m, clipR: img.Bounds()}
	if err := render(c, cv, Width, Height, m.width); err != nil {
		return err
	}
	return png.Encode(w, img)
}

// pngCanvas rasterises onto img, k pixels per point.
type pngCanvas struct {
	img   *image.RGBA
	k     float64
	m     *measurer
	clipR image.Rectangle
	ras   vector.Rasterizer
}

// paths collects polygons in pixels, all turned the same way so that
// overlapping ones add up to full coverage, never cancel.
type paths [][]pt

func (ps *paths) add(p []pt) {
	area := 0.0
	for i := range p {
		q, r := p[i], p[(i+1)%len(p)]
		area += q.x*r.y - r.x*q.y
	}
	if area < 0 {
		rev := make([]pt, len(p))
		for i := range p {
			rev[i] = p[len(p)-1-i]
		}
		p = rev
	}
	*ps = append(*ps, p)
}

// render fills ps with c, clipped to the canvas's clip rectangle.
func (cv *pngCanvas) paint(ps paths, c color.Color) {
	minX, minY, maxX, maxY := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	for _, p := range ps {
		for _, q := range p {
			minX, minY, maxX, maxY = math.Min(minX, q.x), math.Min(minY, q.y), math.Max(maxX, q.x), math.Max(maxY, q.y)
		}
	}
	if !(minX <= maxX) {
		return
	}
	b := image.Rect(int(math.Floor(minX)), int(math.Floor(minY)), int(math.Ceil(maxX))+1, int(math.Ceil(maxY))+1).Intersect(cv.clipR)
	if b.Empty() {
		return
	}
	cv.ras.Reset(b.Dx(), b.Dy())
	ox, oy := float32(b.Min.X), float32(b.Min.Y)
	for _, p := range ps {
		cv.ras.MoveTo(float32(p[0].x)-ox, float32(p[0].y)-oy)
		for _, q := range p[1:] {
			cv.ras.LineTo(float32(q.x)-ox, float32(q.y)-oy)
		}
		cv.ras.ClosePath()
	}
	cv.ras.DrawOp = draw.Over
	cv.ras.Draw(cv.img, b, image.NewUniform(c), image.Point{})
}

func (cv *pngCanvas) px(p []pt) []pt {
	out := make([]pt, len(p))
	for i, q := range p {
		out[i] = pt{q.x * cv.k, q.y * cv.k}
	}
	return out
}

func (cv *pngCanvas) fill(p []pt, c color.Color) {
	if pageRect(cv.px(p), cv.img.Bounds()) && cv.clipR == cv.img.Bounds() {
		// The page's background, to the last pixel (the page is 604.7
		// pixels wide): no rasterising.
		draw.Draw(cv.img, cv.img.Bounds(), image.NewUniform(c), image.Point{}, draw.Over)
		return
	}
	var ps paths
	ps.add(cv.px(p))
	cv.paint(ps, c)
}

func (cv *pngCanvas) stroke(p []pt, closed bool, s Style) {
	q := cv.px(p)
	if closed && len(q) > 0 {
		q = append(q, q[0])
	}
	w := s.Width * cv.k
	var ps paths
	for _, run := range dash(q, s.Dashes, cv.k) {
		strokeRun(&ps, run, w)
	}
	cv.paint(ps, s.Color)
}

func (cv *pngCanvas) circle(c pt, r float64, s Style) {
	const n = 24
	p := make([]pt, n)
	for i := range p {
		a := 2 * math.Pi * float64(i) / n
		p[i] = pt{c.x + r*math.Cos(a), c.y + r*math.Sin(a)}
	}
	cv.stroke(p, true, s)
}

// pageRect reports whether p is an axis-aligned rectangle reaching
// within a pixel of every edge of b: the page's background.
func pageRect(p []pt, b image.Rectangle) bool {
	if len(p) != 4 {
		return false
	}
	x0, y0, x1, y1 := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	for _, q := range p {
		x0, y0, x1, y1 = math.Min(x0, q.x), math.Min(y0, q.y), math.Max(x1, q.x), math.Max(y1, q.y)
	}
	for _, q := range p {
		if q.x != x0 && q.x != x1 || q.y != y0 && q.y != y1 {
			return false
		}
	}
	return x0 <= float64(b.Min.X) && y0 <= float64(b.Min.Y) && x1 > float64(b.Max.X-1) && y1 > float64(b.Max.Y-1)
}

// dash splits the polyline p into its dashes: on and off lengths
// alternate, in points (scaled by k); no dashes returns p whole.
func dash(p []pt, dashes []float64, k float64) [][]pt {
	if len(dashes) == 0 || len(p) < 2 {
		return [][]pt{p}
	}
	var out [][]pt
	i, left, on := 0, dashes[0]*k, true
	cur := []pt{p[0]}
	for j := 1; j < len(p); j++ {
		a, b := p[j-1], p[j]
		seg := math.Hypot(b.x-a.x, b.y-a.y)
		pos := 0.0
		for seg-pos > left {
			pos += left
			t := pos / seg
			q := pt{a.x + t*(b.x-a.x), a.y + t*(b.y-a.y)}
			if on {
				out = append(out, append(cur, q))
			}
			cur = []pt{q}
			on = !on
			i = (i + 1) % len(dashes)
			left = dashes[i] * k
		}
		left -= seg - pos
		cur = append(cur, b)
	}
	if on && len(cur) > 1 {
		out = append(out, cur)
	}
	return out
}

// strokeRun adds the outline of the polyline p stroked w pixels wide:
// a rectangle per segment and a disc at each inner vertex (round joins,
// butt ends).
func strokeRun(ps *paths, p []pt, w float64) {
	h := w / 2
	for i := 1; i < len(p); i++ {
		a, b := p[i-1], p[i]
		l := math.Hypot(b.x-a.x, b.y-a.y)
		if l == 0 {
			continue
		}
		nx, ny := -(b.y-a.y)/l*h, (b.x-a.x)/l*h
		ps.add([]pt{{a.x + nx, a.y + ny}, {b.x + nx, b.y + ny}, {b.x - nx, b.y - ny}, {a.x - nx, a.y - ny}})
	}
	closed := len(p) > 2 && p[0] == p[len(p)-1]
	for i := 1; i < len(p)-1 || closed && i == len(p)-1; i++ {
		const n = 8
		d := make([]pt, n)
		for j := range d {
			a := 2 * math.Pi * float64(j) / n
			d[j] = pt{p[i].x + h*math.Cos(a), p[i].y + h*math.Sin(a)}
		}
		ps.add(d)
	}
}

func (cv *pngCanvas) text(at pt, s string, size, anchor float64, vertical bool, c color.Color) {
	face := cv.m.face(size, DPI)
	adv := font.MeasureString(face, s)
	met := face.Metrics()
	// The text's box, drawn into a mask with the baseline at y = ascent.
	wpx, hpx := adv.Ceil()+2, (met.Ascent+met.Descent).Ceil()+2
	mask := image.NewAlpha(image.Rect(0, 0, wpx, hpx))
	d := font.Drawer{Dst: mask, Src: image.Opaque, Face: face, Dot: fixed.Point26_6{X: fixed.I(1), Y: met.Ascent + fixed.I(1)}}
	d.DrawString(s)
	x, y := at.x*cv.k, at.y*cv.k
	shift := anchor*fix(adv) + 1
	asc := fix(met.Ascent) + 1
	if !vertical {
		r := image.Rect(0, 0, wpx, hpx).Add(image.Pt(int(math.Round(x-shift)), int(math.Round(y-asc))))
		draw.DrawMask(cv.img, r, image.NewUniform(c), image.Point{}, mask, image.Point{}, draw.Over)
		return
	}
	// Turned a quarter left: mask (i, j) goes to (j, wpx−1−i).
	rot := image.NewAlpha(image.Rect(0, 0, hpx, wpx))
	for j := 0; j < hpx; j++ {
		for i := 0; i < wpx; i++ {
			rot.Pix[(wpx-1-i)*rot.Stride+j] = mask.Pix[j*mask.Stride+i]
		}
	}
	r := rot.Bounds().Add(image.Pt(int(math.Round(x-asc)), int(math.Round(y-float64(wpx)+shift))))
	draw.DrawMask(cv.img, r, image.NewUniform(c), image.Point{}, rot, image.Point{}, draw.Over)
}

func (cv *pngCanvas) clip(r *rect) {
	if r == nil {
		cv.clipR = cv.img.Bounds()
		return
	}
	cv.clipR = image.Rect(int(math.Floor(r.x0*cv.k)), int(math.Floor(r.y0*cv.k)), int(math.Ceil(r.x1*cv.k)), int(math.Ceil(r.y1*cv.k))).Intersect(cv.img.Bounds())
}
