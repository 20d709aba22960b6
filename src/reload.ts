/**
 * What a config reload (SIGHUP) can change in a running agent: the keys the schema marks
 * `live` (global host and election tags, the HTTP access settings, the log level); the pipeline
 * scripts are rescanned too. Every other changed key is reported as needing a restart and keeps
 * its running value: the listeners, the buffer and the upstreams stay as they are, so no
 * accepted or in-flight write is dropped by a reload.
 */
import { isDeepStrictEqual } from 'node:util'
import { SCHEMA, type Config } from './config/schema.js'
import type { SectionSpec } from './config/spec.js'

const sections: Readonly<Record<string, SectionSpec>> = SCHEMA

/** `section.key` of every live key; a free-form table (`'*'`) is named by its section. */
export const LIVE_KEYS = new Set(
  Object.entries(sections).flatMap(([section, keys]) =>
    Object.entries(keys)
      .filter(([, spec]) => spec.live)
      .map(([key]) => (key === '*' ? section : `${section}.${key}`)),
  ),
)

type Tables = Record<string, Record<string, unknown>>

/** The config as plain tables of values (a view, for comparing and copying by name). */
function tables(c: Config): Tables {
  const out: Tables = {}
  for (const [section, value] of Object.entries(c)) out[section] = { ...value }
  return out
}

/** Every `section.key` whose value differs (free-form tables compare whole). */
export function changedKeys(before: Config, after: Config): string[] {
  const out: string[] = []
  const [a, b] = [tables(before), tables(after)]
  for (const section of Object.keys(b)) {
    if (sections[section]?.['*']) {
      if (!isDeepStrictEqual(a[section], b[section])) out.push(section)
      continue
    }
    for (const key of Object.keys(b[section]))
      if (!isDeepStrictEqual(a[section]?.[key], b[section][key])) out.push(`${section}.${key}`)
  }
  return out
}

export interface ReloadPlan {
  live: string[]
  restart: string[]
}

export function planReload(before: Config, after: Config): ReloadPlan {
  const changed = changedKeys(before, after)
  return {
    live: changed.filter((k) => LIVE_KEYS.has(k)),
    restart: changed.filter((k) => !LIVE_KEYS.has(k)),
  }
}

/** The running config after a reload: `live` keys from `after`, everything else from `before`. */
export function mergeLive(before: Config, after: Config, live: Set<string>): Config {
  const out = structuredClone(before)
  const b = tables(after)
  for (const k of live) {
    const [section, key] = k.split('.') as [keyof Config, string | undefined]
    const target: Record<string, unknown> = out[section]
    if (key === undefined) {
      for (const old of Object.keys(target)) delete target[old]
      Object.assign(target, structuredClone(b[section]))
    } else target[key] = structuredClone(b[section][key])
  }
  return out
}
