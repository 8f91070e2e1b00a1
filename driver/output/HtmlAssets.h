//===- HtmlAssets.h - The HTML report's style sheet and script -*- C++ -*-===//
//
// Inlined into every report: the file must open anywhere, offline, with no
// request leaving the browser. The script only filters what the page holds;
// without it every finding is shown.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_LINT_DRIVER_HTMLASSETS_H
#define CUDA_ASYNC_LINT_DRIVER_HTMLASSETS_H

namespace cuda_async_lint {

inline constexpr const char *HtmlStyle = R"css(
:root { --fg: #1f2328; --muted: #59636e; --line: #d1d9e0; --bg: #ffffff;
  --panel: #f6f8fa; --warn: #9a6700; --err: #d1242f; --hit: #fff8c5;
  --note: #ddf4ff; --add: #dafbe1; --del: #ffebe9; --link: #0969da; }
* { box-sizing: border-box; }
body { margin: 0; font: 14px/1.5 -apple-system, "Segoe UI", "Noto Sans",
  Helvetica, Arial, sans-serif; color: var(--fg); background: var(--bg); }
header, #summary, #filters, main, #check-pages { max-width: 1100px; margin: 0 auto;
  padding: 0 24px; }
header { padding-top: 20px; }
h1 { font-size: 22px; margin: 0 0 4px; }
h2 { font-size: 17px; margin: 20px 0 8px; }
a { color: var(--link); text-decoration: none; }
a:hover { text-decoration: underline; }
.muted { color: var(--muted); }
code, pre { font: 12.5px/1.45 ui-monospace, "SFMono-Regular", "DejaVu Sans Mono",
  Menlo, Consolas, monospace; }
.tables { display: flex; gap: 24px; flex-wrap: wrap; align-items: flex-start; }
table { border-collapse: collapse; }
th, td { border: 1px solid var(--line); padding: 4px 10px; text-align: left; }
th { background: var(--panel); }
td.n { text-align: right; font-variant-numeric: tabular-nums; }
caption { text-align: left; font-weight: 600; padding-bottom: 4px; }
#filters { position: sticky; top: 0; background: var(--bg); padding-top: 10px;
  padding-bottom: 10px; border-bottom: 1px solid var(--line); z-index: 1;
  display: flex; gap: 16px; align-items: center; flex-wrap: wrap; }
select { font: inherit; padding: 2px 4px; }
.check-page { border-top: 1px solid var(--line); margin-top: 16px; }
.check-page h1 { font-size: 18px; margin-top: 12px; }
.check-page h2 { font-size: 15px; }
.check-page pre { background: var(--panel); padding: 8px; overflow-x: auto; }
.finding { border: 1px solid var(--line); border-radius: 6px; margin: 16px 0;
  overflow: hidden; }
.finding h3 { margin: 0; padding: 8px 12px; font-size: 14px;
  background: var(--panel); border-bottom: 1px solid var(--line);
  display: flex; gap: 10px; align-items: baseline; flex-wrap: wrap; }
.finding .message { margin: 10px 12px; }
.finding .runtime { margin: 6px 12px; padding: 4px 8px; border-left: 3px solid #888; }
.finding .runtime.confirmed, .finding .runtime.found-at-run-time { border-color: #c62828; }
.finding .runtime.not-exercised { border-color: #bbb; color: #666; }
.sev { font-weight: 600; text-transform: uppercase; font-size: 11px;
  padding: 1px 6px; border-radius: 10px; color: #fff; }
.sev.warning { background: var(--warn); }
.sev.error { background: var(--err); }
.source { margin: 0 12px 10px; border: 1px solid var(--line); border-radius: 4px;
  overflow-x: auto; }
.source .path { background: var(--panel); padding: 2px 8px;
  border-bottom: 1px solid var(--line); font-size: 12px; }
.source pre { margin: 0; padding: 4px 0; }
.ln { display: inline-block; width: 4.5em; padding-right: 10px;
  text-align: right; color: var(--muted); user-select: none; }
.line { display: block; white-space: pre; padding-right: 8px; }
.line.hit { background: var(--hit); }
.line.note { background: var(--note); }
.line .mark { font-weight: 600; }
.notes { margin: 0 12px 10px 32px; padding: 0; }
.notes li { margin: 2px 0; }
details { margin: 0 12px 10px; }
summary { cursor: pointer; color: var(--muted); }
pre.diff { border: 1px solid var(--line); border-radius: 4px; padding: 4px 0;
  overflow-x: auto; margin: 6px 0 0; }
pre.diff span { display: block; padding: 0 8px; white-space: pre; }
pre.diff .add { background: var(--add); }
pre.diff .del { background: var(--del); }
pre.diff .hunk { color: var(--muted); }
.cost { margin: 6px 0; }
.cost li { margin: 2px 0; }
.failures li { margin: 2px 0; }
footer { max-width: 1100px; margin: 24px auto; padding: 0 24px 24px;
  color: var(--muted); font-size: 12px; }
)css";

inline constexpr const char *HtmlScript = R"js(
(function () {
  var findings = Array.prototype.slice.call(
      document.querySelectorAll('article.finding'));
  var check = document.getElementById('check-filter');
  var file = document.getElementById('file-filter');
  var shown = document.getElementById('shown');
  function fill(select, key) {
    var seen = {};
    findings.forEach(function (f) { seen[f.dataset[key]] = true; });
    Object.keys(seen).sort().forEach(function (v) {
      var o = document.createElement('option');
      o.value = v; o.textContent = v; select.appendChild(o);
    });
  }
  function apply() {
    var n = 0;
    findings.forEach(function (f) {
      var ok = (!check.value || f.dataset.check === check.value) &&
               (!file.value || f.dataset.file === file.value);
      f.hidden = !ok;
      if (ok) n++;
    });
    shown.textContent = 'Showing ' + n + ' of ' + findings.length +
        (findings.length === 1 ? ' finding' : ' findings');
  }
  // The filters live in the address too (#check=ID&file=PATH), so a
  // filtered view can be linked.
  function fromHash() {
    var params = new URLSearchParams(location.hash.slice(1));
    check.value = params.get('check') || '';
    file.value = params.get('file') || '';
    if (check.selectedIndex < 0) check.value = '';
    if (file.selectedIndex < 0) file.value = '';
    apply();
  }
  function toHash() {
    var params = new URLSearchParams();
    if (check.value) params.set('check', check.value);
    if (file.value) params.set('file', file.value);
    history.replaceState(null, '', '#' + params.toString());
    apply();
  }
  fill(check, 'check');
  fill(file, 'file');
  check.addEventListener('change', toHash);
  file.addEventListener('change', toHash);
  window.addEventListener('hashchange', fromHash);
  fromHash();
})();
)js";

} // namespace cuda_async_lint

#endif // CUDA_ASYNC_LINT_DRIVER_HTMLASSETS_H
