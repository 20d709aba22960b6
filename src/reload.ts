/**
 * What a config reload (SIGHUP) can change in a running agent. Live: global host and election
 * tags, the HTTP access settings (public routes, CORS origins, rate limit, trusted proxies,
 * request timeout), the log level, and the pipeline scripts (rescanned at once). Every other
 * changed key is reported as needing a restart and keeps its running value: the listeners, the
 * buffer and the upstreams stay as they are, so no accepted or in-flight write is dropped by a
 * reload.
 */
import { isDeepStrictEqual } from 'node:util'
import type { Config } from './config/schema.js'

export const LIVE_KEYS = new Set([
  'global_host_tags',
  'election.tags',
  'http_api.public_apis',
  'http_api.allowed_cors_origins',
  'http_api.request_rate_limit',
  'http_api.request_rate_limit_burst',
  'http_api.timeout',
  'http_api.trusted_proxies',
  'logging.level',
])

/** Every `section.key` whose value differs (free-form tables compare whole). */
export function changedKeys(before: Config, after: Config): string[] {
  const out: string[] = []
  const a = before as unknown as Record<string, Record<string, unknown>>
  const b = after as unknown as Record<string, Record<string, unknown>>
  for (const section of Object.keys(b)) {
    if (section === 'global_host_tags') {
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
  const out = structuredClone(before) as unknown as Record<string, Record<string, unknown>>
  const b = after as unknown as Record<string, Record<string, unknown>>
  for (const k of live) {
    const [section, key] = k.split('.')
    if (key === undefined) out[section] = structuredClone(b[section])
    else out[section][key] = structuredClone(b[section][key])
  }
  return out as unknown as Config
}
