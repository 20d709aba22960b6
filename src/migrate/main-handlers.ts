/**
 * The datakit.conf keys whose shape changes on the way to Ferry: lists filtered, tag tables
 * checked tag by tag, a bool that becomes an enum, a path that means a Unix socket. Each
 * handler writes through the mapper (`Target`) so values pass the same schema checks.
 */
import type { Problems } from './report.js'
import { expandValue, isTable, type Expanded } from './values.js'

export interface Target {
  readonly problems: Problems
  readonly env: NodeJS.ProcessEnv
  readonly inputNames: ReadonlySet<string>
  readonly doc: Record<string, unknown>
  moveRaw(raw: unknown, target: string, shown: string): void
  move(e: Expanded, target: string, shown: string): void
  dropPath(path: string, shown: string, raw: unknown): void
  set(section: string, key: string, value: unknown): void
  get(section: string, key: string): unknown
}

/** `path`: the reference key the handler stands for (aliases resolved). */
type Handler = (raw: unknown, shown: string, t: Target, path: string) => void

/** The reference installer writes `-cpu` for a default input switched off: leave it out. */
const defaultInputs: Handler = (raw, shown, t) => {
  const e = expandValue(raw, t.env)
  if ('problem' in e) return t.problems.add(shown, e.problem)
  if (!Array.isArray(e.value)) return t.move(e, 'agent.default_enabled_inputs', shown)
  const names = e.value.filter((n) => typeof n !== 'string' || !n.startsWith('-'))
  const missing = names.filter((n) => typeof n === 'string' && !t.inputNames.has(n))
  if (missing.length)
    t.problems.add(
      shown,
      `${missing.map((n) => JSON.stringify(n)).join(', ')}: no such input in Ferry; left out of the list`,
    )
  const kept = names.filter((n) => !missing.includes(n))
  t.move({ value: kept, fromText: false }, 'agent.default_enabled_inputs', shown)
}

/**
 * A tag table (or the installer's `k=v,...` text), tag by tag: one tag that cannot move does
 * not cost the others. `host` is always the host name in both agents, so it is left out.
 */
function tagTable(section: string, key: string | null): Handler {
  return (raw, shown, t) => {
    const whole = expandValue(raw, t.env)
    if ('problem' in whole && !isTable(raw)) return t.problems.add(shown, whole.problem)
    const table = isTable(raw) ? raw : textTags(whole as Expanded)
    if (!table) return t.problems.add(shown, 'expected a table of tags or "k=v,k2=v2"')
    const out: Record<string, string> = {}
    for (const [k, v] of Object.entries(table)) {
      if (section === 'global_host_tags' && k === 'host') continue
      const e = expandValue(v, t.env)
      if ('problem' in e) t.problems.add(`${shown}.${k}`, e.problem)
      else if (typeof e.value !== 'string') t.problems.add(`${shown}.${k}`, 'expected a string')
      else out[k] = e.value
    }
    const before = (key === null ? undefined : t.get(section, key)) as object | undefined
    if (key === null) for (const [k, v] of Object.entries(out)) t.set(section, k, v)
    else t.set(section, key, { ...before, ...out })
  }
}

function textTags(e: Expanded): Record<string, string> | null {
  if (typeof e.value !== 'string') return null
  const out: Record<string, string> = {}
  for (const pair of e.value.split(',').filter((s) => s.trim())) {
    const eq = pair.indexOf('=')
    if (eq <= 0) return null
    out[pair.slice(0, eq).trim()] = pair.slice(eq + 1).trim()
  }
  return out
}

/** `gzip = true|false` is Ferry's `compression = "gzip"|"none"`. */
const gzip: Handler = (raw, shown, t) => {
  if (typeof raw !== 'boolean') return t.problems.add(shown, 'expected true or false')
  t.set('dataway', 'compression', raw ? 'gzip' : 'none')
}

const contentEncoding: Handler = (raw, shown, t) => {
  if (String(raw).toLowerCase() === 'v2') t.problems.skipped++
  else t.problems.add(shown, 'Ferry uploads protobuf (v2) only')
}

/** The deprecated single `url` joins `urls`. */
const url: Handler = (raw, shown, t) => {
  const e = expandValue(raw, t.env)
  if ('problem' in e) return t.problems.add(shown, e.problem)
  const urls = (t.get('dataway', 'urls') as string[] | undefined) ?? []
  t.move({ value: [...urls, e.value], fromText: false }, 'dataway.urls', shown)
}

/** The deprecated `timeout` counts only when `timeout_v2` is absent (reference order). */
const oldTimeout: Handler = (raw, shown, t) => {
  const dataway = t.doc.dataway as Record<string, unknown>
  if ('timeout_v2' in dataway) t.problems.skipped++
  else t.moveRaw(raw, 'dataway.timeout', shown)
}

/** A listen address that is a file path means a Unix socket in the reference. */
const listen: Handler = (raw, shown, t) =>
  t.moveRaw(
    raw,
    typeof raw === 'string' && raw.startsWith('/') ? 'http_api.listen_socket' : 'http_api.listen',
    shown,
  )

/** The reference writes to files; `stdout` (or nothing) is what Ferry does. */
const logFile: Handler = (raw, shown, t, path) => {
  if (raw === 'stdout' || raw === '') t.problems.skipped++
  else t.dropPath(path, shown, raw)
}

/** `[pipeline.default_pipeline] logging = "nginx.p"`: Ferry names scripts without extension. */
const defaultPipeline: Handler = (raw, shown, t) => {
  const e = expandValue(raw, t.env)
  if ('problem' in e) return t.problems.add(shown, e.problem)
  const value = isTable(e.value)
    ? Object.fromEntries(
        Object.entries(e.value).map(([k, v]) => [
          k,
          typeof v === 'string' ? v.replace(/\.(p|js)$/, '') : v,
        ]),
      )
    : e.value
  t.move({ value, fromText: e.fromText }, 'pipeline.default_pipeline', shown)
}

export const HANDLERS: Record<string, Handler> = {
  default_enabled_inputs: defaultInputs,
  global_host_tags: tagTable('global_host_tags', null),
  'election.tags': tagTable('election', 'tags'),
  'dataway.gzip': gzip,
  'dataway.content_encoding': contentEncoding,
  'dataway.url': url,
  'dataway.timeout': oldTimeout,
  'http_api.listen': listen,
  'logging.log': logFile,
  'logging.gin_log': logFile,
  'pipeline.default_pipeline': defaultPipeline,
}
