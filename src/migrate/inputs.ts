/**
 * Maps one of the reference's input files (`[[inputs.NAME]]` tables) onto Ferry's: the input
 * must be one Ferry has, and each key one of its keys (they keep the reference's names), with
 * placeholders expanded and the value accepted by the input's own schema. Keys that cannot
 * move are reported with the reason, unless empty or in a table switched off
 * (`[inputs.prom.as_logging] enable = false`).
 */
import type { SectionSpec } from '../config/spec.js'
import type { Problems } from './report.js'
import { expandValue, forKey, isEmpty, isTable, switchedOff } from './values.js'

export interface Instance {
  name: string
  conf: Record<string, unknown>
}

const notYet = (what: string) => `${what} is not supported by Ferry yet`

/** Reasons for reference keys the input does not take, where a better one than "no such key". */
const REASONS: Record<string, Record<string, string>> = {
  logging: {
    sockets: "Ferry's logging input reads files only",
    storage_index: notYet('a log index per input'),
    ignore_status: 'filter statuses with drop() in a pipeline script',
    auto_multiline_detection: 'Ferry joins lines only by multiline_match',
    auto_multiline_extra_patterns: 'Ferry joins lines only by multiline_match',
    max_open_files: 'Ferry has no open-file limit per input',
  },
  prom: {
    stream_size: notYet('stream_size'),
    uds_path: notYet('scraping over a Unix socket'),
    output: notYet('writing scrapes to a file'),
    max_file_size: notYet('writing scrapes to a file'),
    measurements: notYet('[[inputs.prom.measurements]]'),
    ignore_tag_kv_match: notYet('ignore_tag_kv_match'),
    as_logging: notYet('as_logging'),
  },
}

export function mapInputFile(
  doc: Record<string, unknown>,
  problems: Problems,
  env: NodeJS.ProcessEnv,
  schemas: ReadonlyMap<string, SectionSpec>,
): Instance[] {
  const out: Instance[] = []
  for (const [top, body] of Object.entries(doc)) {
    if (top !== 'inputs' || !isTable(body)) {
      problems.add(top, 'not an input table ([[inputs.NAME]])')
      continue
    }
    for (const [name, list] of Object.entries(body)) {
      const schema = schemas.get(name)
      if (!schema) {
        problems.add(`inputs.${name}`, `Ferry has no ${name} input`)
        continue
      }
      const entries = Array.isArray(list) ? list : [list]
      entries.forEach((raw, i) => {
        const shown = entries.length > 1 ? `inputs.${name}[${i}]` : `inputs.${name}`
        if (!isTable(raw)) return problems.add(shown, 'expected a table')
        out.push({ name, conf: mapInstance(name, raw, schema, shown, problems, env) })
      })
    }
  }
  return out
}

function mapInstance(
  name: string,
  raw: Record<string, unknown>,
  schema: SectionSpec,
  shown: string,
  problems: Problems,
  env: NodeJS.ProcessEnv,
): Record<string, unknown> {
  const conf: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(raw)) {
    const where = `${shown}.${key}`
    const spec = schema[key]
    if (!spec) {
      if (isEmpty(value) || switchedOff(value)) problems.skipped++
      else problems.add(where, REASONS[name]?.[key] ?? `Ferry's ${name} input has no such key`)
      continue
    }
    const e = expandValue(value, env)
    if ('problem' in e) {
      problems.add(where, e.problem)
      continue
    }
    const r = forKey(spec, e)
    if ('problem' in r) problems.add(where, `${r.problem}; left out`)
    else conf[key] = r.value
  }
  return conf
}
