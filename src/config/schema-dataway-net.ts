/**
 * `[dataway]` network and routing keys (proxy, TLS, sinker), `[dataway.ntp]` and `[io]`, named
 * as in the reference agent's datakit.conf. The proxy and TLS keys apply to every upstream in
 * `urls`, each of which gets its own connection pool built from them.
 */
import { isCategory } from '../shared/category.js'
import { parseFilter } from '../shared/filter/parser.js'
import type { SectionSpec } from './spec.js'

const proxyCheck = (v: string) => {
  if (!v) return undefined
  try {
    const u = new URL(v)
    return u.protocol === 'http:' || u.protocol === 'https:' ? undefined : 'only http and https'
  } catch {
    return 'not a URL'
  }
}

/** Merged into `[dataway]`. */
export const DATAWAY_NET_KEYS = {
  /** An http or https proxy for all upstream traffic (uploads, queries, ntp). */
  http_proxy: { type: 'string', default: '', env: 'ENV_DATAWAY_HTTP_PROXY', check: proxyCheck },
  /**
   * Honour HTTPS_PROXY / HTTP_PROXY / NO_PROXY (and lower-case forms) when `http_proxy` is
   * empty. Off by default, as the reference agent ignores them.
   */
  use_env_proxy: { type: 'bool', default: false, env: 'ENV_DATAWAY_USE_ENV_PROXY' },
  tls_insecure: { type: 'bool', default: false, env: 'ENV_DATAWAY_TLS_INSECURE' },
  /** PEM file of CAs trusted for https upstreams, beside the system's. */
  tls_ca_file: { type: 'string', default: '', env: 'ENV_DATAWAY_TLS_CA_FILE' },
  /** Client certificate and key (PEM) presented to https upstreams; set both or neither. */
  tls_cert_file: { type: 'string', default: '', env: 'ENV_DATAWAY_TLS_CERT_FILE' },
  tls_key_file: { type: 'string', default: '', env: 'ENV_DATAWAY_TLS_KEY_FILE' },
  enable_sinker: { type: 'bool', default: false, env: 'ENV_DATAWAY_ENABLE_SINKER' },
  global_customer_keys: {
    type: 'strings',
    default: [],
    env: 'ENV_SINKER_GLOBAL_CUSTOMER_KEYS',
  },
} as const satisfies SectionSpec

export const DATAWAY_NTP_SCHEMA = {
  enable: { type: 'bool', default: true, env: 'ENV_DATAWAY_NTP_ENABLE' },
  interval: {
    type: 'duration',
    default: 5 * 60_000,
    env: 'ENV_DATAWAY_NTP_INTERVAL',
    check: (v: number) => (v >= 60_000 ? undefined : 'at least 1m'),
  },
  /** The offset is applied only when it is at least this large. */
  diff: {
    type: 'duration',
    default: 30_000,
    env: 'ENV_DATAWAY_NTP_DIFF',
    check: (v: number) => (v >= 5_000 ? undefined : 'at least 5s'),
  },
} as const satisfies SectionSpec

/**
 * `[io.filters]` (or ENV_IO_FILTERS as JSON): category -> list of filter strings, each of which
 * must parse.
 */
function filtersCheck(v: Record<string, unknown>): string | undefined {
  for (const [cat, list] of Object.entries(v)) {
    if (!isCategory(cat)) return `${cat}: not a category`
    if (!Array.isArray(list) || !list.every((s) => typeof s === 'string'))
      return `${cat}: expected a list of strings`
    for (const s of list as string[]) {
      try {
        parseFilter(s)
      } catch (e) {
        return `${cat}: ${JSON.stringify(s)}: ${(e as Error).message}`
      }
    }
  }
  return undefined
}

export const IO_SCHEMA = {
  /**
   * Re-time points more than 2h from now (the upstream's clock when `[dataway.ntp]` applies
   * an offset) to now, keeping the original in the field `__orig_time` (ns). Off by default,
   * unlike the reference agent, so clients' timestamps are kept unless asked.
   */
  auto_timestamp_correction: {
    type: 'bool',
    default: false,
    env: 'ENV_IO_AUTO_TIMESTAMP_CORRECTION',
  },
  filters: { type: 'table', default: {}, env: 'ENV_IO_FILTERS', check: filtersCheck },
} as const satisfies SectionSpec
