/** The `[http_api]` and `[http_api.tls]` sections: listeners, limits and access control. */
import { listenCheck, nonNegative, positive } from './checks.js'

const originsCheck = (v: string[]) =>
  v.find((o) => o !== '*' && !/^https?:\/\/[^/]+$/.test(o))
    ? 'expected origins like "https://app.example.com" (scheme and host, no path) or "*"'
    : undefined

export const HTTP_SCHEMA = {
  listen: { type: 'string', default: '127.0.0.1:9529', env: 'ENV_HTTP_LISTEN', check: listenCheck },
  listen_socket: { type: 'string', default: '', env: 'ENV_HTTP_LISTEN_SOCKET' },
  max_body_size: {
    type: 'bytes',
    default: 64 * 1024 * 1024,
    env: 'ENV_HTTP_MAX_BODY_SIZE',
    check: positive,
  },
  timeout: { type: 'duration', default: 30_000, env: 'ENV_HTTP_TIMEOUT', check: positive },
  public_apis: { type: 'strings', default: [], env: 'ENV_HTTP_PUBLIC_APIS' },
  allowed_cors_origins: {
    type: 'strings',
    default: [],
    env: 'ENV_HTTP_ALLOWED_CORS_ORIGINS',
    check: originsCheck,
  },
  request_rate_limit: {
    type: 'number',
    default: 100,
    env: 'ENV_REQUEST_RATE_LIMIT',
  },
  request_rate_limit_burst: {
    type: 'int',
    default: 0,
    env: 'ENV_REQUEST_RATE_LIMIT_BURST',
    check: nonNegative,
  },
} as const

export const HTTP_TLS_SCHEMA = {
  cert: { type: 'string', default: '', env: 'ENV_HTTP_TLS_CERT' },
  privkey: { type: 'string', default: '', env: 'ENV_HTTP_TLS_PRIVKEY' },
} as const

export interface HttpConfig {
  listen: string
  listen_socket: string
  max_body_size: number
  timeout: number
  public_apis: string[]
  allowed_cors_origins: string[]
  request_rate_limit: number
  request_rate_limit_burst: number
}

export interface HttpTlsConfig {
  cert: string
  privkey: string
}
