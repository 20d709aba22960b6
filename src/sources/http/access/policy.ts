/**
 * The HTTP access settings in force: public routes, CORS origins, rate limit, trusted
 * proxies and request timeout. One object shared by the middleware; `update` swaps the settings on a config reload
 * (SIGHUP) while requests keep flowing, and keeps the rate limiter's buckets.
 */
import type { HttpConfig } from '../../../config/schema-http.js'
import { PublicRoutes } from './public-routes.js'
import { RateLimiter } from './rate-limit.js'
import { TrustedProxies } from './trusted-proxies.js'

export type AccessConfig = Pick<
  HttpConfig,
  | 'public_apis'
  | 'allowed_cors_origins'
  | 'request_rate_limit'
  | 'request_rate_limit_burst'
  | 'timeout'
  | 'trusted_proxies'
>

export class AccessPolicy {
  publicRoutes!: PublicRoutes
  corsOrigins: readonly string[] = []
  timeoutMs = 30_000
  trusted = new TrustedProxies([])
  readonly limiter = new RateLimiter(0, 0)

  constructor(c: AccessConfig) {
    this.update(c)
  }

  update(c: AccessConfig): void {
    this.publicRoutes = new PublicRoutes(c.public_apis)
    this.corsOrigins = [...c.allowed_cors_origins]
    this.timeoutMs = c.timeout
    this.trusted = new TrustedProxies(c.trusted_proxies)
    this.limiter.configure(c.request_rate_limit, c.request_rate_limit_burst)
  }

  /** The value of Access-Control-Allow-Origin for a request's Origin, or null for none. */
  corsOrigin(origin: string): string | null {
    const o = origin || '*'
    const allowed = this.corsOrigins
    return allowed.length === 0 || allowed.includes('*') || allowed.includes(o) ? o : null
  }
}
