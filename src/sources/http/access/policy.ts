/**
 * The HTTP access settings in force: public routes, CORS origins, rate limit, in-flight
 * budgets, shedding, trusted proxies and request timeout. One object shared by the middleware; `update` swaps the settings on a config reload
 * (SIGHUP) while requests keep flowing, and keeps the rate limiter's buckets.
 */
import type { HttpConfig } from '../../../config/schema-http.js'
import type { IncomingMessage } from 'node:http'
import type { Context } from 'hono'
import type { Gate } from '../../../http/gate.js'
import { ShedTable, type ShedEvents } from '../../../http/shed.js'
import type { HttpEnv } from '../../../http/env.js'
import { clientOfIncoming } from './client.js'
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
  | 'shed_clients'
  | 'shed_max_parked'
  | 'shed_max_duration'
  | 'max_connections_per_client'
>

const quiet: ShedEvents = {
  started: () => undefined,
  ended: () => undefined,
  refused: () => undefined,
  connectionRefused: () => undefined,
}

export class AccessPolicy {
  publicRoutes!: PublicRoutes
  corsOrigins: readonly string[] = []
  timeoutMs = 30_000
  trusted = new TrustedProxies([])
  readonly limiter = new RateLimiter(0, 0)
  readonly inFlight = new InFlight(0, Infinity)
  readonly shed: ShedTable

  constructor(c: AccessConfig, events: ShedEvents = quiet) {
    this.shed = new ShedTable(
      { enabled: false, maxParked: 0, maxConnectionsPerClient: 0, maxMs: 0 },
      events,
    )
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
    this.shed.limits = {
      enabled: c.shed_clients,
      maxParked: c.shed_max_parked,
      maxConnectionsPerClient: c.max_connections_per_client,
      maxMs: c.shed_max_duration,
    }
  }

  /**
   * `client` was refused by a per-client limit for `seconds`: shed it. Returns the seconds its
   * answer announces (longer for a client shed again, `shed.ts`). Only requests that came on a
   * TCP connection are shed (the listener's gate sees no other: in-process and Unix socket
   * requests have no remote address).
   */
  refused(c: Context<HttpEnv>, client: string, seconds: number): number {
    if (!c.env?.incoming?.socket?.remoteAddress) return seconds
    return this.shed.refuse(client, seconds * 1000) || seconds
  }

  /** The listener's shedding gate over this policy's table and trusted proxies. */
  gate(): Gate {
    return {
      table: this.shed,
      clientOf: (req: IncomingMessage) => clientOfIncoming(req, this.trusted).ip,
      exempt: (peer) => this.trusted.has(peer),
    }
  }

  /** The value of Access-Control-Allow-Origin for a request's Origin, or null for none. */
  corsOrigin(origin: string): string | null {
    const o = origin || '*'
    const allowed = this.corsOrigins
    return allowed.length === 0 || allowed.includes('*') || allowed.includes(o) ? o : null
  }
}
