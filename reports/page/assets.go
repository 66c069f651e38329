package page

import "sort"

func stableSort(idx []int, less func(a, b int) bool) {
	sort.SliceStable(idx, func(i, j int) bool { return less(idx[i], idx[j]) })
}

const css = `
body{font-family:system-ui,-apple-system,"Segoe UI",sans-serif;margin:24px auto;max-width:1200px;color:#202124;padding:0 16px}
h1{font-size:1.6em;margin:0 0 4px}h2{border-bottom:1px solid #dadce0;padding-bottom:4px;margin-top:1.6em}
nav{font-size:13px;color:#5f6368;overflow-wrap:anywhere}
p.answer{font-size:1.15em;background:#e8f0fe;padding:12px 16px;border-radius:6px}
p.counts{color:#3c4043}
table{border-collapse:collapse;margin:8px 0;font-size:13px}
th,td{border:1px solid #dadce0;padding:3px 6px;text-align:left;vertical-align:top;overflow-wrap:break-word}
bdi{overflow-wrap:anywhere;word-break:break-word}
td[data-v]{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap;overflow-wrap:normal}
table.sortable th{cursor:pointer;background:#f1f3f4;position:sticky;top:0}
table.sortable th.asc::after{content:" ▲"}table.sortable th.desc::after{content:" ▼"}
table.kv th{background:#f1f3f4;text-align:left}
tr.unreliable td{background:#fce8e6}td.status{white-space:nowrap}
tr.paged{display:none}
#runs td:first-child{text-align:left;white-space:normal;min-width:16em}#runs td .sub{font-size:11px;color:#5f6368}
code{font-size:11px;white-space:pre-wrap;overflow-wrap:anywhere}
div.wide{overflow-x:auto}div.wide td:first-child,div.wide th:first-child{min-width:10em}
input.filter{margin:6px 0;padding:4px 8px;width:360px;max-width:100%;box-sizing:border-box}
.controls{display:flex;flex-wrap:wrap;gap:6px 14px;align-items:center;font-size:13px}
.controls input[type=number]{width:5em}
p.pager{font-size:13px;margin:4px 0}
figure{margin:10px 0;max-width:100%}
.multiples{display:flex;flex-wrap:wrap;gap:4px}.multiples figure{margin:0}
details.fold{margin:6px 0}details.fold>summary{cursor:pointer;color:#1a73e8}details.why summary{cursor:pointer;color:#1a73e8;font-size:13px}
section.run{border:1px solid #dadce0;border-radius:6px;padding:4px 16px 8px;margin:16px 0}section.run[hidden]{display:none}
section.run h3{margin:8px 0 2px;overflow-wrap:anywhere}a.close{font-size:13px;font-weight:normal;float:right}
p.full{font-size:12px;color:#5f6368;margin:2px 0 8px;overflow-wrap:anywhere}
ul.warn{font-size:13px;color:#a50e0e}
figcaption.keys{font-size:12px}figcaption.keys .key{margin-right:10px;white-space:nowrap}figcaption.keys i{display:inline-block;width:10px;height:10px;margin-right:4px}
svg.plot{background:#fff;border:1px solid #eee;max-width:100%;height:auto;box-sizing:border-box}
@media (max-width:720px){figure{overflow-x:auto}svg.bars,svg.forest,svg.density,svg.series,svg.tradeoff,svg.param{min-width:600px}}
svg .ptitle{font-size:12px;font-weight:600}
svg .legend,svg .tick,svg .ylab{font-size:11px;fill:#3c4043}svg .flab{font-size:10px;fill:#5f6368}
svg .xlab{font-size:12px;fill:#202124}
svg .grid{stroke:#eee}svg .axis{stroke:#5f6368}svg .fsep{stroke:#bdc1c6;stroke-dasharray:2 2}
svg .ref{stroke:#d93025;stroke-dasharray:4 3}
svg .series{fill:none;stroke:#5f6368;stroke-width:1}svg .obs{fill:none;stroke-width:1.3}
svg .segment{stroke:#1a73e8;stroke-width:2.5}
svg .st{stroke:#188038;stroke-width:1.5;stroke-dasharray:5 3}
svg .wline{stroke:#d93025;stroke-width:1.5}
svg .clip{fill:#d93025}
svg .iter{stroke-width:3}svg .pair{stroke:#9aa0a6;stroke-width:1}
svg .kde{fill-opacity:.2;stroke-width:1.5;fill:none}svg .mean{stroke-width:1.5;stroke-dasharray:4 3}svg .median{stroke-width:1.5}
svg .pline{fill:none;stroke-width:1.5}svg .ebar{stroke-width:1.5}
`

const js = `
(function(){
  function cell(tr,i){var td=tr.children[i];if(!td)return"";var v=td.getAttribute("data-v");return v===null?td.textContent:v;}
  function byId(id){return document.getElementById(id);}
  function val(id){var e=byId(id);return e?e.value:"";}
  var runs=byId("runs"),cur=0;
  function applyIndex(){
    if(!runs)return;
    var q=val("f-name").toLowerCase(),st=val("f-status"),sv=parseFloat(val("f-saved")),dt=parseFloat(val("f-detects")),ch=val("f-change");
    var size=parseInt(val("f-page")||"50",10),rows=runs.tBodies[0].rows,match=[];
    for(var i=0;i<rows.length;i++){var r=rows[i],ok=true;
      if(q&&r.cells[0].textContent.toLowerCase().indexOf(q)<0)ok=false;
      if(ok&&st&&r.getAttribute("data-status")!==st)ok=false;
      if(ok&&!isNaN(sv)&&!(parseFloat(cell(r,2))*100>=sv))ok=false;
      if(ok&&!isNaN(dt)&&!(parseFloat(cell(r,3))*100<=dt))ok=false;
      if(ok&&ch&&r.getAttribute("data-change")!==ch)ok=false;
      if(ok)match.push(r);else r.classList.add("paged");}
    var pages=size>0?Math.max(1,Math.ceil(match.length/size)):1;cur=Math.min(Math.max(cur,0),pages-1);
    var a=size>0?cur*size:0,b=size>0?Math.min(match.length,a+size):match.length;
    match.forEach(function(r,j){r.classList.toggle("paged",j<a||j>=b);});
    byId("p-info").textContent=match.length?("rows "+(a+1)+"–"+b+" of "+match.length+(match.length<rows.length?" (of "+rows.length+" runs)":"")):"no run matches the filters ("+rows.length+" runs)";
    byId("p-prev").disabled=cur<=0;byId("p-next").disabled=cur>=pages-1;
  }
  function sortable(t){
    var ths=t.querySelectorAll("thead th");
    ths.forEach(function(th,i){th.addEventListener("click",function(){
      var asc=!th.classList.contains("asc");ths.forEach(function(h){h.classList.remove("asc","desc");});
      th.classList.add(asc?"asc":"desc");
      var body=t.tBodies[0],rows=Array.prototype.slice.call(body.rows);
      rows.sort(function(a,b){var x=cell(a,i),y=cell(b,i),nx=parseFloat(x),ny=parseFloat(y);
        var r=(!isNaN(nx)&&!isNaN(ny))?nx-ny:(isNaN(nx)&&!isNaN(ny)?1:(!isNaN(nx)&&isNaN(ny)?-1:x.localeCompare(y)));return asc?r:-r;});
      rows.forEach(function(r){body.appendChild(r);});
      if(t===runs){cur=0;applyIndex();}
    });});
  }
  function filters(root){
    root.querySelectorAll("input.filter[data-table]").forEach(function(inp){
      inp.addEventListener("input",function(){
        var t=byId(inp.getAttribute("data-table")),q=inp.value.toLowerCase();
        Array.prototype.forEach.call(t.tBodies[0].rows,function(r){r.style.display=r.textContent.toLowerCase().indexOf(q)>=0?"":"none";});
      });
    });
  }
  document.querySelectorAll("table.sortable").forEach(sortable);
  filters(document);
  ["f-name","f-status","f-saved","f-detects","f-change","f-page"].forEach(function(id){var e=byId(id);
    if(e){e.addEventListener("input",function(){cur=0;applyIndex();});e.addEventListener("change",function(){cur=0;applyIndex();});}});
  if(runs){byId("p-prev").addEventListener("click",function(){cur--;applyIndex();});byId("p-next").addEventListener("click",function(){cur++;applyIndex();});applyIndex();}
  // A run's section: its content, compressed with the other sections of
  // its chunk, is put in place when it is first opened.
  var chunks={};
  function chunk(k){
    if(!chunks[k]){
      var el=byId("runs-"+k);
      if(!el||typeof DecompressionStream==="undefined")return Promise.reject(new Error("this browser cannot decompress the sections (DecompressionStream: Chrome 80, Firefox 113, Safari 16.4)"));
      var bin=atob(el.textContent),bytes=new Uint8Array(bin.length);
      for(var i=0;i<bin.length;i++)bytes[i]=bin.charCodeAt(i);
      chunks[k]=new Response(new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"))).text().then(function(t){return t.split("\n<!--run-->\n");});
    }
    return chunks[k];
  }
  function openRun(id,scroll){
    var s=byId(id);if(!s||!s.classList.contains("run"))return Promise.resolve(false);
    var show=function(){s.hidden=false;if(scroll)s.scrollIntoView();return true;};
    if(s.getAttribute("data-chunk")===null)return Promise.resolve(show());
    return chunk(s.getAttribute("data-chunk")).then(function(parts){
      if(s.getAttribute("data-chunk")!==null){
        s.innerHTML=parts[parseInt(s.getAttribute("data-part"),10)];s.removeAttribute("data-chunk");
        s.querySelectorAll("table.sortable").forEach(sortable);filters(s);
        var c=s.querySelector("a.close");if(c)c.addEventListener("click",function(){s.hidden=true;});
      }
      return show();
    },function(e){s.hidden=false;s.textContent=e.message;return false;});
  }
  window.benchtrimOpen=openRun;
  function onHash(){var h=decodeURIComponent(location.hash.slice(1));if(h.indexOf("run-")===0)openRun(h,true);}
  window.addEventListener("hashchange",onHash);onHash();
})();
`
