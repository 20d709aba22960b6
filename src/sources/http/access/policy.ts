/**
 * The HTTP access settings in force: public routes, CORS origins, rate limit, in-flight
 * budgets, trusted proxies and request timeout. One object shared by the middleware; `update` swaps the settings on a config reload
 * (SIGHUP) while requests keep flowing, and keeps the rate limiter's buckets.
 */
import type { HttpConfig } from '../../../config/schema-http.js'
import { InFlight } from './in-flight.js'
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
  | 'max_in_flight_per_client'
  | 'max_body_bytes_in_flight'
>

export class AccessPolicy {
  publicRoutes!: PublicRoutes
  corsOrigins: readonly string[] = []
  timeoutMs = 30_000
  trusted = new TrustedProxies([])
  readonly limiter = new RateLimiter(0, 0)
  readonly inFlight = new InFlight(0, Infinity)

  constructor(c: AccessConfig) {
    this.update(c)
  }

  update(c: AccessConfig): void {
    this.publicRoutes = new PublicRoutes(c.public_apis)
    this.corsOrigins = [...c.allowed_cors_origins]
    this.timeoutMs = c.timeout
    this.trusted = new TrustedProxies(c.trusted_proxies)
    this.limiter.configure(c.request_rate_limit, c.request_rate_limit_burst)
    this.inFlight.maxPerClient = c.max_in_flight_per_client
    this.inFlight.maxBodyBytes = c.max_body_bytes_in_flight
  }

  /** The value of Access-Control-Allow-Origin for a request's Origin, or null for none. */
  corsOrigin(origin: string): string | null {
    const o = origin || '*'
    const allowed = this.corsOrigins
    return allowed.length === 0 || allowed.includes('*') || allowed.includes(o) ? o : null
  }
}
