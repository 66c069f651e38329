package chart

import (
	"bufio"
	"fmt"
	"image/color"
	"io"
	"strconv"
	"strings"
)

// svgCanvas writes SVG elements; sizes are points (the viewBox unit).
type svgCanvas struct {
	w       *bufio.Writer
	clipped bool
	clips   map[rect]int // the clip paths defined, by their ids
}

// WriteSVG writes c as an SVG document of Width × Height points. The
// text is set in the viewer's sans-serif font; the layout measures it in
// Go Regular.
func (c *Chart) WriteSVG(w io.Writer) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, `<svg xmlns="http://www.w3.org/2000/svg" width="%spt" height="%spt" viewBox="0 0 %s %s" font-family="Go, 'Liberation Sans', Arial, Helvetica, sans-serif">`+"\n",
		num(Width), num(Height), num(Width), num(Height))
	cv := &svgCanvas{w: bw, clips: map[rect]int{}}
	m, err := newMeasurer()
	if err != nil {
		return err
	}
	if err := render(c, cv, Width, Height, m.width); err != nil {
		return err
	}
	bw.WriteString("</svg>\n")
	return bw.Flush()
}

// num formats a coordinate with at most two decimals.
func num(v float64) string {
	s := strconv.FormatFloat(v, 'f', 2, 64)
	s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	if s == "-0" {
		s = "0"
	}
	return s
}

// paint returns the SVG colour and opacity of c.
func paint(c color.Color) (string, string) {
	n := color.NRGBAModel.Convert(c).(color.NRGBA)
	rgb := fmt.Sprintf("#%02x%02x%02x", n.R, n.G, n.B)
	if n.A == 255 {
		return rgb, ""
	}
	return rgb, num(float64(n.A) / 255)
}

func points(p []pt) string {
	var b strings.Builder
	for i, q := range p {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(num(q.x))
		b.WriteByte(',')
		b.WriteString(num(q.y))
	}
	return b.String()
}

// strokeAttrs returns the stroke attributes of s.
func strokeAttrs(s Style) string {
	rgb, op := paint(s.Color)
	a := fmt.Sprintf(` fill="none" stroke="%s" stroke-width="%s"`, rgb, num(s.Width))
	if op != "" {
		a += ` stroke-opacity="` + op + `"`
	}
	if len(s.Dashes) > 0 {
		d := make([]string, len(s.Dashes))
		for i, v := range s.Dashes {
			d[i] = num(v)
		}
		a += ` stroke-dasharray="` + strings.Join(d, " ") + `"`
	}
	return a
}

func (cv *svgCanvas) stroke(p []pt, closed bool, s Style) {
	el := "polyline"
	if closed {
		el = "polygon"
	}
	fmt.Fprintf(cv.w, "<%s points=\"%s\"%s/>\n", el, points(p), strokeAttrs(s))
}

func (cv *svgCanvas) fill(p []pt, c color.Color) {
	rgb, op := paint(c)
	if op != "" {
		op = ` fill-opacity="` + op + `"`
	}
	fmt.Fprintf(cv.w, "<polygon points=\"%s\" fill=\"%s\"%s/>\n", points(p), rgb, op)
}

func (cv *svgCanvas) circle(c pt, r float64, s Style) {
	fmt.Fprintf(cv.w, "<circle cx=\"%s\" cy=\"%s\" r=\"%s\"%s/>\n", num(c.x), num(c.y), num(r), strokeAttrs(s))
}

func (cv *svgCanvas) text(at pt, s string, size, anchor float64, vertical bool, c color.Color) {
	a := "start"
	switch anchor {
	case 0.5:
		a = "middle"
	case 1:
		a = "end"
	}
	rgb, _ := paint(c)
	rot := ""
	if vertical {
		rot = fmt.Sprintf(` transform="rotate(-90 %s %s)"`, num(at.x), num(at.y))
	}
	fmt.Fprintf(cv.w, "<text x=\"%s\" y=\"%s\" font-size=\"%s\" text-anchor=\"%s\" fill=\"%s\"%s>%s</text>\n",
		num(at.x), num(at.y), num(size), a, rgb, rot, xmlEscape(s))
}

func (cv *svgCanvas) clip(r *rect) {
	if cv.clipped {
		cv.w.WriteString("</g>\n")
		cv.clipped = false
	}
	if r == nil {
		return
	}
	id, ok := cv.clips[*r]
	if !ok {
		id = len(cv.clips) + 1
		cv.clips[*r] = id
		fmt.Fprintf(cv.w, "<clipPath id=\"c%d\"><rect x=\"%s\" y=\"%s\" width=\"%s\" height=\"%s\"/></clipPath>\n",
			id, num(r.x0), num(r.y0), num(r.x1-r.x0), num(r.y1-r.y0))
	}
	fmt.Fprintf(cv.w, "<g clip-path=\"url(#c%d)\">\n", id)
	cv.clipped = true
}

// xmlEscape escapes s for XML text, and drops characters XML 1.0 does
// not allow (control characters other than tab and newline).
func xmlEscape(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == '&':
			b.WriteString("&amp;")
		case r == '<':
			b.WriteString("&lt;")
		case r == '>':
			b.WriteString("&gt;")
		case r == '"':
			b.WriteString("&#34;")
		case r == '\'':
			b.WriteString("&#39;")
		case r < 0x20 && r != '\t' && r != '\n', r == 0xfffe, r == 0xffff, r >= 0xd800 && r < 0xe000:
			b.WriteRune('\ufffd')
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}
