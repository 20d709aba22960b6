/**
 * `GET /monitor`: one self-contained page (no outside resources) showing the same figures as
 * `ferry monitor`, polling `/v1/monitor` every two seconds, with an SVG throughput sparkline.
 */
const SCRIPT = `
const $ = (id) => document.getElementById(id)
const fmt = (n, d = 0) => n.toLocaleString('en-US', { minimumFractionDigits: d, maximumFractionDigits: d })
const esc = (s) => String(s).replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c])
function spark(values, w = 600, h = 60) {
  const max = Math.max(1, ...values)
  const step = values.length > 1 ? w / (values.length - 1) : w
  return values.map((v, i) => (i * step).toFixed(1) + ',' + (h - (v / max) * (h - 4) - 2).toFixed(1)).join(' ')
}
function rows(list, cells) {
  return list.map((x) => '<tr>' + cells(x).map((c) => '<td>' + esc(c) + '</td>').join('') + '</tr>').join('')
}
async function tick() {
  try {
    const s = await (await fetch('/v1/monitor')).json()
    $('head').textContent = 'ferry ' + s.version + ' on ' + s.host + ' · up ' + s.uptime_s + 's'
    const h = s.health || { status: 'unknown', reasons: [] }
    $('health').textContent = 'health: ' + h.status + (h.reasons.length ? ': ' + h.reasons.join('; ') : '')
    $('health').className = h.status
    $('cats').innerHTML = rows(s.categories, (c) => [c.category, fmt(c.in_per_s, 1), fmt(c.out_per_s, 1),
      fmt(c.in_total), fmt(c.out_total), fmt(c.buffered_points), fmt(c.buffered_bytes), fmt(c.oldest_age_s) + 's'])
    $('in').setAttribute('points', spark(s.history.map((h) => h.in)))
    $('out').setAttribute('points', spark(s.history.map((h) => h.out)))
    const last = s.history[s.history.length - 1] || { in: 0, out: 0 }
    $('rate').textContent = fmt(last.in, 1) + ' points/s in, ' + fmt(last.out, 1) + ' out'
    const u = s.upload
    $('upload').textContent = fmt(u.failures) + ' failed attempts, ' + fmt(u.retries) + ' retries, ' +
      fmt(u.dead_letters) + ' dead letters, ' + fmt(u.dropped_points) + ' dropped points; decode ' +
      fmt(s.decode.queue) + ' queued, ' + fmt(s.decode.utilization * 100, 1) + '% busy'
    $('pl').innerHTML = rows(s.pipeline, (p) => [p.category + '/' + p.script, fmt(p.points), fmt(p.errors), fmt(p.us_per_point, 1)])
    $('inputs').innerHTML = rows(s.inputs || [], (i) => [i.input, fmt(i.runs), fmt(i.points), fmt(i.errors),
      fmt(i.ms_per_run, 1), i.last_run_s < 0 ? '-' : i.last_run_s + 's ago'])
    $('errs').innerHTML = rows(s.errors, (e) => [new Date(e.at).toISOString().slice(11, 19), e.kind, e.source, e.message])
    $('state').textContent = ''
  } catch (e) {
    $('state').textContent = 'agent unreachable: ' + e.message
  }
}
tick()
setInterval(tick, 2000)
`

export const MONITOR_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Ferry monitor</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>
body { font: 14px/1.4 system-ui, sans-serif; margin: 1.5rem; color: #222 }
h1 { font-size: 1.2rem } h2 { font-size: 1rem; margin-top: 1.5rem }
table { border-collapse: collapse } td, th { padding: 2px 10px; text-align: right }
td:first-child, th:first-child { text-align: left } th { border-bottom: 1px solid #ccc }
svg { background: #f6f6f6; display: block } #state, .degraded { color: #b00 }
.ok { color: #2e7d32 }
</style></head><body>
<h1 id="head">ferry</h1><div id="health"></div><div id="state"></div>
<h2>Throughput</h2><div id="rate"></div>
<svg width="600" height="60" viewBox="0 0 600 60" aria-label="points per second, last two minutes">
<polyline id="in" fill="none" stroke="#1565c0" stroke-width="2" points=""/>
<polyline id="out" fill="none" stroke="#2e7d32" stroke-width="1.5" points=""/></svg>
<small>blue: in, green: delivered</small>
<h2>Categories</h2><table><thead><tr><th>category</th><th>in/s</th><th>out/s</th><th>in</th>
<th>out</th><th>buffered</th><th>bytes</th><th>oldest</th></tr></thead><tbody id="cats"></tbody></table>
<h2>Upload</h2><div id="upload"></div>
<h2>Pipeline</h2><table><thead><tr><th>script</th><th>points</th><th>errors</th><th>µs/point</th></tr>
</thead><tbody id="pl"></tbody></table>
<h2>Inputs</h2><table><thead><tr><th>input</th><th>runs</th><th>points</th><th>errors</th>
<th>ms/run</th><th>last run</th></tr></thead><tbody id="inputs"></tbody></table>
<h2>Last errors</h2><table><tbody id="errs"></tbody></table>
<script>${SCRIPT}</script></body></html>
`
