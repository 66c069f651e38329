package report

import "sort"

func stableSort(idx []int, less func(a, b int) bool) {
	sort.SliceStable(idx, func(i, j int) bool { return less(idx[i], idx[j]) })
}

const css = `
body{font-family:system-ui,-apple-system,"Segoe UI",sans-serif;margin:24px auto;max-width:1200px;color:#202124;padding:0 16px}
h1{font-size:1.6em}h2{border-bottom:1px solid #dadce0;padding-bottom:4px;margin-top:2em}
p.answer{font-size:1.15em;background:#e8f0fe;padding:12px 16px;border-radius:6px}
table{border-collapse:collapse;margin:8px 0;font-size:13px}
th,td{border:1px solid #dadce0;padding:3px 6px;text-align:left;vertical-align:top;overflow-wrap:break-word}
bdi{overflow-wrap:anywhere;word-break:break-word}
td[data-v]{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap;overflow-wrap:normal}
table.sortable th{cursor:pointer;background:#f1f3f4;position:sticky;top:0}
table.sortable th.asc::after{content:" ▲"}table.sortable th.desc::after{content:" ▼"}
table.kv th{background:#f1f3f4;text-align:left}
tr.unreliable td{background:#fce8e6}td.status{white-space:nowrap}
code{font-size:11px;white-space:pre-wrap;overflow-wrap:anywhere}
div.wide{overflow-x:auto}div.wide td:first-child,div.wide th:first-child{min-width:10em}#answer-runs td:first-child,#answer-runs th:first-child{min-width:14em}
input.filter{margin:6px 0;padding:4px 8px;width:360px;max-width:100%;box-sizing:border-box}
figure{margin:10px 0;max-width:100%}
.multiples{display:flex;flex-wrap:wrap;gap:4px}.multiples figure{margin:0}
svg.plot{background:#fff;border:1px solid #eee;max-width:100%;height:auto;box-sizing:border-box}
@media (max-width:720px){figure{overflow-x:auto}svg.bars,svg.forest,svg.violin{min-width:600px}}
svg .ptitle{font-size:12px;font-weight:600}
svg .legend,svg .tick,svg .ylab{font-size:11px;fill:#3c4043}
svg .xlab{font-size:12px;fill:#202124}
svg .grid{stroke:#eee}svg .axis{stroke:#5f6368}
svg .ref{stroke:#d93025;stroke-dasharray:4 3}
svg .series{fill:none;stroke:#5f6368;stroke-width:1}
svg .segment{stroke:#1a73e8;stroke-width:2.5}
svg .st{stroke:#188038;stroke-width:1.5;stroke-dasharray:5 3}
svg .wline{stroke:#d93025;stroke-width:1.5}
svg .clip{fill:#d93025}
svg .iter{stroke-width:3}svg .pair{stroke:#9aa0a6;stroke-width:1}
svg .violin{fill-opacity:.75;stroke:#3c4043;stroke-width:.5}
svg .iqr{stroke:#202124;stroke-width:4}svg .median{stroke:#fff;stroke-width:2}
details.dist{margin:4px 0}details.dist summary{cursor:pointer}details.dist .med{color:#5f6368;font-size:13px}
`

const js = `
(function(){
  function cell(tr,i){var td=tr.children[i];if(!td)return"";var v=td.getAttribute("data-v");return v===null?td.textContent:v;}
  document.querySelectorAll("table.sortable").forEach(function(t){
    var ths=t.querySelectorAll("thead th");
    ths.forEach(function(th,i){th.addEventListener("click",function(){
      var asc=!th.classList.contains("asc");ths.forEach(function(h){h.classList.remove("asc","desc");});
      th.classList.add(asc?"asc":"desc");
      var body=t.tBodies[0],rows=Array.prototype.slice.call(body.rows);
      rows.sort(function(a,b){var x=cell(a,i),y=cell(b,i),nx=parseFloat(x),ny=parseFloat(y);
        var r=(!isNaN(nx)&&!isNaN(ny))?nx-ny:(isNaN(nx)&&!isNaN(ny)?1:(!isNaN(nx)&&isNaN(ny)?-1:x.localeCompare(y)));return asc?r:-r;});
      rows.forEach(function(r){body.appendChild(r);});
    });});
  });
  document.querySelectorAll("button.unfold").forEach(function(bt){
    bt.addEventListener("click",function(){
      var ds=document.querySelectorAll("#"+bt.getAttribute("data-section")+" details.dist"),open=bt.textContent==="unfold all";
      ds.forEach(function(d){d.open=open;});bt.textContent=open?"fold all":"unfold all";
    });
  });
  document.querySelectorAll("input.filter").forEach(function(inp){
    inp.addEventListener("input",function(){
      var t=document.getElementById(inp.getAttribute("data-table")),q=inp.value.toLowerCase();
      Array.prototype.forEach.call(t.tBodies[0].rows,function(r){r.style.display=r.textContent.toLowerCase().indexOf(q)>=0?"":"none";});
    });
  });
})();
`
