/** The `[http_api]` and `[http_api.tls]` sections: listeners, limits and access control. */
import { isIP } from 'node:net'
import { listenCheck, nonNegative, positive } from './checks.js'
import type { SectionOf, SectionSpec } from './spec.js'

const originsCheck = (v: string[]) =>
  v.find((o) => o !== '*' && !/^https?:\/\/[^/]+$/.test(o))
    ? 'expected origins like "https://app.example.com" (scheme and host, no path) or "*"'
    : undefined

const cidrCheck = (v: string[]) => {
  const bad = v.find((c) => {
    const [ip, bits, extra] = c.split('/')
    const family = isIP(ip)
    const max = family === 4 ? 32 : 128
    return (
      !family ||
      extra !== undefined ||
      (bits !== undefined && !(Number(bits) <= max && /^\d+$/.test(bits)))
    )
  })
  return bad === undefined
    ? undefined
    : `${JSON.stringify(bad)}: expected an address or CIDR like "10.0.0.0/8"`
}

export const HTTP_SCHEMA = {
  listen: { type: 'string', default: '127.0.0.1:9529', env: 'ENV_HTTP_LISTEN', check: listenCheck },
  listen_socket: { type: 'string', default: '', env: 'ENV_HTTP_LISTEN_SOCKET' },
  max_body_size: {
    type: 'bytes',
    default: 64 * 1024 * 1024,
    env: 'ENV_HTTP_MAX_BODY_SIZE',
    check: positive,
  },
  /**
   * 250,000: a 64 MiB body of typical points (8 tags and 10 fields, about 320 bytes of line
   * protocol each) holds about 210,000; a body of tiny points (`a x=1`) would hold 11 million,
   * and each decoded point costs about 370 bytes of heap however small its text.
   */
  max_points_per_request: {
    type: 'int',
    default: 250_000,
    env: 'ENV_HTTP_MAX_POINTS_PER_REQUEST',
    check: positive,
  },
  max_in_flight_per_client: {
    type: 'int',
    default: 64,
    env: 'ENV_HTTP_MAX_IN_FLIGHT_PER_CLIENT',
    check: nonNegative,
    live: true,
  },
  /**
   * A client refused by its rate limit or in-flight cap is shed until the Retry-After its 429
   * announced: its requests are held at the listener and answered 429 then (`http/gate.ts`).
   */
  shed_clients: { type: 'bool', default: true, env: 'ENV_HTTP_SHED_CLIENTS' },
  shed_max_parked: {
    type: 'int',
    default: 1024,
    env: 'ENV_HTTP_SHED_MAX_PARKED',
    check: nonNegative,
  },
  shed_max_duration: {
    type: 'duration',
    default: 30_000,
    env: 'ENV_HTTP_SHED_MAX_DURATION',
    check: positive,
  },
  max_connections_per_client: {
    type: 'int',
    default: 256,
    env: 'ENV_HTTP_MAX_CONNECTIONS_PER_CLIENT',
    check: nonNegative,
  },
  max_body_bytes_in_flight: {
    type: 'bytes',
    default: 192 * 1024 * 1024,
    env: 'ENV_HTTP_MAX_BODY_BYTES_IN_FLIGHT',
    check: positive,
    live: true,
  },
  body_pool_bytes: {
    type: 'bytes',
    default: 16 * 1024 * 1024,
    env: 'ENV_HTTP_BODY_POOL_BYTES',
    check: nonNegative,
  },
  timeout: {
    type: 'duration',
    default: 30_000,
    env: 'ENV_HTTP_TIMEOUT',
    check: positive,
    live: true,
  },
  trusted_proxies: {
    type: 'strings',
    default: [],
    env: 'ENV_HTTP_TRUSTED_PROXIES',
    check: cidrCheck,
    live: true,
  },
  public_apis: { type: 'strings', default: [], env: 'ENV_HTTP_PUBLIC_APIS', live: true },
  allowed_cors_origins: {
    type: 'strings',
    default: [],
    env: 'ENV_HTTP_ALLOWED_CORS_ORIGINS',
    check: originsCheck,
    live: true,
  },
  request_rate_limit: {
    type: 'number',
    default: 100,
    env: 'ENV_REQUEST_RATE_LIMIT',
    live: true,
  },
  request_rate_limit_burst: {
    type: 'int',
    default: 0,
    env: 'ENV_REQUEST_RATE_LIMIT_BURST',
    check: nonNegative,
    live: true,
  },
} as const satisfies SectionSpec

export const HTTP_TLS_SCHEMA = {
  cert: { type: 'string', default: '', env: 'ENV_HTTP_TLS_CERT' },
  privkey: { type: 'string', default: '', env: 'ENV_HTTP_TLS_PRIVKEY' },
} as const satisfies SectionSpec

export type HttpConfig = SectionOf<typeof HTTP_SCHEMA>
export type HttpTlsConfig = SectionOf<typeof HTTP_TLS_SCHEMA>
