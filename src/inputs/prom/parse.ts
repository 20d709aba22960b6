/**
 * Prometheus text exposition (0.0.4) and the basics of OpenMetrics: `# HELP`, `# TYPE`, samples
 * with escaped labels, `+Inf`/`-Inf`/`NaN`, optional timestamps, exemplars (ignored), `# EOF`.
 * The result is the flat list of samples grouped into families; mapping to points is map.ts.
 */
import { FerryError } from '../../errors.js'

export type MetricType = 'counter' | 'gauge' | 'histogram' | 'summary' | 'untyped' | 'info'

export interface Sample {
  name: string
  labels: [string, string][]
  value: number
  /** Milliseconds since the epoch, when the exposition gave one. */
  timestampMs?: number
}

export interface Family {
  name: string
  type: MetricType
  help: string
  samples: Sample[]
}

export interface ParseOptions {
  /** OpenMetrics: timestamps are seconds, counters' samples end in `_total`. */
  openMetrics?: boolean
  /** Samples kept at most; the rest are counted in `cut`. */
  maxSeries?: number
}

export interface Parsed {
  families: Family[]
  /** Samples dropped past `maxSeries`. */
  cut: number
}

const TYPES = new Set(['counter', 'gauge', 'histogram', 'summary', 'untyped', 'info', 'unknown'])
const NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*/
const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*/

/** The sample-name suffixes each type's samples may carry beyond the family name. */
const SUFFIXES: Record<MetricType, string[]> = {
  counter: ['_total', '_created'],
  gauge: [],
  histogram: ['_bucket', '_sum', '_count', '_created'],
  summary: ['_sum', '_count', '_created'],
  untyped: [],
  info: ['_info'],
}

function bad(lineNo: number, why: string): FerryError {
  return new FerryError('invalidExposition', `line ${lineNo}: ${why}`)
}

/** A sample value, or undefined when `s` is not one. */
export function parseValue(s: string): number | undefined {
  switch (s) {
    case '+Inf':
    case 'Inf':
    case '+inf':
    case 'inf':
      return Infinity
    case '-Inf':
    case '-inf':
      return -Infinity
    case 'NaN':
    case 'nan':
      return NaN
  }
  // Number('') is 0 and Number('0x1') is 1: neither is a valid exposition value.
  if (!/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(s)) return undefined
  return Number(s)
}

const UNESCAPE: Record<string, string> = { '\\': '\\', '"': '"', n: '\n' }

/** Reads `{a="x",b="y"}` from `line` at `i` (just past `{`); returns labels and the end. */
function readLabels(line: string, i: number, lineNo: number): [[string, string][], number] {
  const labels: [string, string][] = []
  for (;;) {
    while (line[i] === ' ') i++
    if (line[i] === '}') return [labels, i + 1]
    const m = LABEL_NAME.exec(line.slice(i))
    if (!m) throw bad(lineNo, 'expected a label name')
    i += m[0].length
    while (line[i] === ' ') i++
    if (line[i] !== '=' || line[i + 1] !== '"') throw bad(lineNo, `expected ="..." after ${m[0]}`)
    i += 2
    let v = ''
    for (; i < line.length && line[i] !== '"'; i++) {
      if (line[i] !== '\\') v += line[i]
      else v += UNESCAPE[line[++i] ?? ''] ?? `\\${line[i] ?? ''}`
    }
    if (i >= line.length) throw bad(lineNo, 'unterminated label value')
    labels.push([m[0], v])
    i++
    while (line[i] === ' ') i++
    if (line[i] === ',') i++
    else if (line[i] !== '}') throw bad(lineNo, 'expected , or } after a label')
  }
}

function readSample(line: string, lineNo: number, om: boolean): Sample {
  const m = NAME.exec(line)
  if (!m) throw bad(lineNo, 'expected a metric name')
  let i = m[0].length
  let labels: [string, string][] = []
  if (line[i] === '{') [labels, i] = readLabels(line, i + 1, lineNo)
  // An OpenMetrics exemplar follows ` # `: it is not part of the sample.
  const hash = line.indexOf(' # ', i)
  const rest = (hash >= 0 ? line.slice(i, hash) : line.slice(i)).trim().split(/\s+/)
  if (rest.length < 1 || rest.length > 2 || rest[0] === '') throw bad(lineNo, 'expected a value')
  const value = parseValue(rest[0]!)
  if (value === undefined) throw bad(lineNo, `invalid value ${JSON.stringify(rest[0])}`)
  const s: Sample = { name: m[0], labels, value }
  if (rest[1] !== undefined) {
    const t = Number(rest[1])
    if (!/^-?\d+(\.\d+)?$/.test(rest[1]) || !Number.isFinite(t))
      throw bad(lineNo, `invalid timestamp ${JSON.stringify(rest[1])}`)
    s.timestampMs = om ? Math.round(t * 1000) : Math.trunc(t)
  }
  return s
}

/** The family a sample belongs to: the current one when its name fits, else its own. */
function owner(name: string, cur: Family | undefined): boolean {
  if (!cur) return false
  if (name === cur.name) return true
  return SUFFIXES[cur.type].some((suf) => name === cur.name + suf)
}

class Builder {
  readonly families: Family[] = []
  private byName = new Map<string, Family>()
  cur: Family | undefined
  kept = 0
  cut = 0

  family(name: string): Family {
    let f = this.byName.get(name)
    if (!f) {
      f = { name, type: 'untyped', help: '', samples: [] }
      this.byName.set(name, f)
      this.families.push(f)
    }
    this.cur = f
    return f
  }
}

function comment(b: Builder, line: string, lineNo: number): void {
  const m = /^#\s+(HELP|TYPE)\s+(\S+)(?:\s+(.*))?$/.exec(line)
  if (!m) return // any other comment is free text
  const f = b.family(m[2]!)
  if (m[1] === 'HELP')
    f.help = (m[3] ?? '').replace(/\\(n|\\)/g, (_, c) => (c === 'n' ? '\n' : '\\'))
  else {
    const t = (m[3] ?? '').trim()
    if (!TYPES.has(t)) throw bad(lineNo, `unknown type ${JSON.stringify(t)}`)
    f.type = t === 'unknown' ? 'untyped' : (t as MetricType)
  }
}

export function parseExposition(text: string, o: ParseOptions = {}): Parsed {
  const b = new Builder()
  const max = o.maxSeries ?? Infinity
  const lines = text.split('\n')
  for (let n = 0; n < lines.length; n++) {
    const line = lines[n]!.replace(/\r$/, '').trim()
    if (line === '') continue
    if (line === '# EOF') break
    if (line.startsWith('#')) {
      comment(b, line, n + 1)
      continue
    }
    const s = readSample(line, n + 1, o.openMetrics ?? false)
    const f = owner(s.name, b.cur) ? b.cur! : b.family(s.name)
    if (b.kept >= max) b.cut++
    else {
      b.kept++
      f.samples.push(s)
    }
  }
  return { families: b.families.filter((f) => f.samples.length > 0), cut: b.cut }
}
