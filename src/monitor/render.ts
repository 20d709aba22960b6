/** The terminal view of a monitor snapshot: plain text, one screen, no colours needed. */
import type { Snapshot } from './snapshot.js'

const BARS = '▁▂▃▄▅▆▇█'

export function sparkline(values: number[], width = 60): string {
  const v = values.slice(-width)
  const max = Math.max(...v, 0)
  if (!v.length) return ''
  return v.map((x) => BARS[max > 0 ? Math.min(7, Math.floor((x / max) * 7.999)) : 0]).join('')
}

export function humanBytes(n: number): string {
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB']
  let i = 0
  while (n >= 1024 && i < units.length - 1) {
    n /= 1024
    i++
  }
  return i === 0 ? `${n}B` : `${n.toFixed(1)}${units[i]}`
}

export function humanSeconds(s: number): string {
  s = Math.floor(s)
  if (s < 60) return `${s}s`
  if (s < 3600) return `${Math.floor(s / 60)}m${s % 60}s`
  return `${Math.floor(s / 3600)}h${Math.floor((s % 3600) / 60)}m`
}

const num = (n: number, digits = 0) =>
  n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits })

function table(rows: string[][], right: boolean[]): string[] {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)))
  return rows.map((r) =>
    r.map((cell, i) => (right[i] ? cell.padStart(widths[i]) : cell.padEnd(widths[i]))).join('  '),
  )
}

function categoryLines(s: Snapshot): string[] {
  if (!s.categories.length) return ['(no points yet)']
  const head = ['CATEGORY', 'IN/S', 'OUT/S', 'IN', 'OUT', 'BUFFERED', 'BYTES', 'OLDEST']
  const rows = s.categories.map((c) => [
    c.category,
    num(c.in_per_s, 1),
    num(c.out_per_s, 1),
    num(c.in_total),
    num(c.out_total),
    num(c.buffered_points),
    humanBytes(c.buffered_bytes),
    humanSeconds(c.oldest_age_s),
  ])
  return table([head, ...rows], [false, true, true, true, true, true, true, true])
}

function pipelineLines(s: Snapshot): string[] {
  if (!s.pipeline.length) return []
  const rows = s.pipeline.map((p) => [
    `  ${p.category}/${p.script}`,
    `${num(p.points)} points`,
    `${num(p.errors)} errors`,
    `${num(p.us_per_point, 1)} µs/point`,
  ])
  return ['pipeline:', ...table(rows, [false, true, true, true])]
}

function inputLines(s: Snapshot): string[] {
  if (!s.inputs.length) return []
  const head = ['INPUT', 'RUNS', 'POINTS', 'ERRORS', 'MS/RUN', 'LAST']
  const rows = s.inputs.map((i) => [
    i.input,
    num(i.runs),
    num(i.points),
    num(i.errors),
    num(i.ms_per_run, 1),
    i.last_run_s < 0 ? '-' : `${humanSeconds(i.last_run_s)} ago`,
  ])
  return ['', ...table([head, ...rows], [false, true, true, true, true, true])]
}

function errorLines(s: Snapshot): string[] {
  if (!s.errors.length) return ['last errors: none']
  return [
    'last errors:',
    ...s.errors.slice(0, 8).map((e) => {
      const t = new Date(e.at).toISOString().slice(11, 19)
      return `  ${t} ${e.kind} ${e.source}: ${e.message.replace(/\s+/g, ' ').slice(0, 100)}`
    }),
  ]
}

/** Older agents send no health: shown as unknown rather than as a guess. */
function healthLine(s: Snapshot): string {
  const h = s.health
  if (!h) return 'health: unknown'
  return h.status === 'ok' ? 'health: ok' : `health: DEGRADED: ${h.reasons.join('; ')}`
}

export function renderSnapshot(s: Snapshot): string {
  const u = s.upload
  const at = new Date(s.at).toISOString().replace('T', ' ').slice(0, 19)
  return [
    `ferry ${s.version} on ${s.host} · up ${humanSeconds(s.uptime_s)} · ${at} UTC`,
    healthLine(s),
    '',
    ...categoryLines(s),
    '',
    `points/s in   ${sparkline(s.history.map((h) => h.in))}`,
    `points/s out  ${sparkline(s.history.map((h) => h.out))}`,
    '',
    `upload: ${num(u.failures)} failed attempts, ${num(u.retries)} retries, ` +
      `${num(u.dead_letters)} dead letters, ${num(u.dropped_points)} dropped points`,
    `decode: ${num(s.decode.queue)} queued, ${num(s.decode.utilization * 100, 1)}% busy`,
    ...pipelineLines(s),
    ...inputLines(s),
    ...errorLines(s),
  ].join('\n')
}
