package page

import (
	"fmt"
	"math"
	"strings"
)

// indexPage is how many index rows the page shows at once (the script's
// pager; the select offers more, and all).
const indexPage = 50

// writeIndex is the index of the benchmark runs: one row per run with its
// label (the class-relative name, the full name under it), status, the
// share of time saved, the detectable slowdown recorded → recommended,
// the recorded score in the file's unit and the change against the
// previous version; sortable by every column, filtered by name, status,
// saving, detectable slowdown and change, shown indexPage rows at a time.
// A row's name opens the run's section. cf is the compare frame (nil
// with one version per project).
func writeIndex(b *strings.Builder, plan, cf *frame, runs []*run) {
	statuses := map[string]int{}
	changes := false
	for _, r := range runs {
		statuses[statusShort(plan.s(r.i, "status"))]++
		changes = changes || r.cmp >= 0
	}
	fmt.Fprintf(b, `<section id="index"><h2>Benchmarks (%d runs)</h2><p>Each run has its own section: click its name. `+
		`Click a column to sort, type or pick to filter. Detects: the slowdown your test finds in 80 %% of A/B runs, recorded → recommended.</p>`, len(runs))
	b.WriteString(`<div class="controls"><input id="f-name" class="filter" type="search" placeholder="filter by name (e.g. Class.method, a param)" aria-label="filter by name">`)
	b.WriteString(`<select id="f-status" aria-label="status"><option value="">every status</option>`)
	for _, s := range sortedKeys(statuses) {
		fmt.Fprintf(b, `<option value="%s">%s (%d)</option>`, esc(s), esc(s), statuses[s])
	}
	b.WriteString(`</select><label>saved ≥ <input id="f-saved" type="number" min="0" max="100" step="1" aria-label="saved at least, %"> %</label>`)
	b.WriteString(`<label>detects ≤ <input id="f-detects" type="number" min="0" step="0.1" aria-label="detects at most, %"> %</label>`)
	if changes {
		b.WriteString(`<select id="f-change" aria-label="change"><option value="">any change</option><option value="slower">slower</option><option value="faster">faster</option><option value="same">no change</option></select>`)
	}
	fmt.Fprintf(b, `<select id="f-page" aria-label="rows per page"><option value="%d">%d per page</option><option value="200">200 per page</option><option value="0">all</option></select></div>`, indexPage, indexPage)
	fmt.Fprintf(b, `<p class="pager"><button type="button" id="p-prev">‹ previous</button> <span id="p-info">rows 1–%d of %d</span> <button type="button" id="p-next">next ›</button></p>`,
		min(indexPage, len(runs)), len(runs))
	b.WriteString(`<div class="wide"><table class="sortable" id="runs"><thead><tr><th>benchmark</th><th>status</th><th>saved</th><th>detects</th><th>score (recorded)</th>`)
	if changes {
		b.WriteString(`<th>change</th>`)
	}
	b.WriteString(`</tr></thead><tbody>`)
	for n, r := range runs {
		i := r.i
		hide := ""
		if n >= indexPage {
			hide = ` class="paged"`
		}
		status := statusShort(plan.s(i, "status"))
		change, cls, cv := "", "", math.NaN()
		if changes {
			change, cls, cv = changeCell(cf, plan, r)
		}
		full := r.name
		fmt.Fprintf(b, `<tr%s data-status="%s" data-change="%s"><td data-v="%s" title="%s"><a href="#%s"><bdi>%s</bdi></a>`, hide, esc(status), cls, esc(r.label), esc(full), r.id, esc(r.label))
		if full != r.label {
			fmt.Fprintf(b, `<div class="sub"><bdi>%s</bdi></div>`, esc(full))
		}
		b.WriteString(`</td>`)
		fmt.Fprintf(b, `<td class="status" data-v="%s">%s</td>`, esc(status), esc(status))
		if plan.s(i, "path") == "duet" {
			b.WriteString(`<td data-v="">duet</td><td data-v="">duet</td><td data-v="">duet</td>`)
		} else {
			saved := plan.n(i, "time_saved")
			savedText := pct(saved)
			if !reduced(plan, i) {
				savedText = "none"
			}
			b.WriteString(numCell(saved, savedText))
			det, rec := plan.n(i, "detectable_slowdown"), plan.n(i, "recorded_detectable_slowdown")
			detText := pct(rec)
			if reduced(plan, i) {
				detText = pct(rec) + " → " + pct(det)
			}
			b.WriteString(numCell(det, detText))
			sc, text := math.NaN(), "–"
			if v := r.dists["recorded"]; v != nil {
				s, e := v.score, v.scoreErr
				if !r.su.fixed() || math.IsNaN(s) || v.unit != r.su.unit {
					s, e = r.su.of(v.mean), math.NaN()
				}
				sc, text = s, scoreText(s, e, r.su.name())
			}
			b.WriteString(numCell(sc, text))
		}
		if changes {
			b.WriteString(numCell(cv, change))
		}
		b.WriteString(`</tr>`)
	}
	b.WriteString(`</tbody></table></div></section>` + "\n")
}

// changeCell is the index's change cell of r: the verdict against the
// previous version ("-2.4 % faster"), its class (slower, faster, same)
// and the signed change (a fraction, for sorting); "first version" for a
// run without a previous version.
func changeCell(cf, plan *frame, r *run) (string, string, float64) {
	if cf == nil || r.cmp < 0 {
		if plan.opt(r.i, "previous_version") == "" {
			return "first version", "", math.NaN()
		}
		return "not compared", "", math.NaN()
	}
	j := r.cmp
	if e := cf.s(j, "error"); e != "" {
		return "not compared", "", math.NaN()
	}
	v := cf.s(j, "verdict")
	cls := "same"
	switch {
	case strings.Contains(v, "slower"):
		cls = "slower"
	case strings.Contains(v, "faster"):
		cls = "faster"
	}
	return v, cls, cf.n(j, "change_rate")
}
