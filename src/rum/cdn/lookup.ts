/**
 * The CNAME lookups behind CDN marking, as the reference classifies them: a host whose name
 * has a CNAME is served by someone else (`CDN`, named from the table when known); a host that
 * resolves without one is `first-party`; a failed lookup is `unknown`. The chain is followed a
 * few hops, the last target matched first (a site's own alias often points at the CDN's).
 *
 * Bounded everywhere: results cached (LRU, by host) with a TTL, failures for a shorter one; at
 * most `concurrency` lookups in flight (beyond that a host is simply not looked up this time);
 * every lookup abandoned after `timeoutMs`; concurrent asks for one host share its lookup.
 */
import { LruMap } from '../../shared/lru.js'
import type { CdnTable } from './table.js'

/** Resolves a name's CNAME records; rejects with code ENODATA when the name has none. */
export type CnameResolver = (host: string) => Promise<string[]>

export interface Provider {
  type: 'first-party' | 'CDN' | 'unknown'
  name: string
}

export interface LookupOptions {
  resolve: CnameResolver
  table: CdnTable
  timeoutMs: number
  concurrency: number
  cacheSize: number
  ttlMs: number
  now?: () => number
}

export const UNKNOWN: Provider = { type: 'unknown', name: 'unknown' }
const HOPS = 4
/** A DNS outage must not pin `unknown` on a host for the whole TTL. */
const FAILURE_TTL_MS = 10 * 60_000

export class CnameLookups {
  private readonly cache: LruMap<string, { p: Provider; until: number }>
  private readonly pending = new Map<string, Promise<void>>()
  private readonly now: () => number

  constructor(private readonly o: LookupOptions) {
    this.cache = new LruMap(o.cacheSize)
    this.now = o.now ?? Date.now
  }

  /** The cached provider of a host, or undefined when it is not (or no longer) known. */
  cached(host: string): Provider | undefined {
    const hit = this.cache.get(host)
    if (!hit) return undefined
    if (hit.until > this.now()) return hit.p
    return undefined
  }

  /**
   * Starts a lookup of `host` unless one runs or all slots are taken; the promise settles
   * (never rejects) when the result is cached. Null when no lookup could start.
   */
  start(host: string): Promise<void> | null {
    const running = this.pending.get(host)
    if (running) return running
    if (this.pending.size >= this.o.concurrency) return null
    const done = this.run(host).finally(() => this.pending.delete(host))
    this.pending.set(host, done)
    return done
  }

  get inFlight(): number {
    return this.pending.size
  }

  private async run(host: string): Promise<void> {
    let timer: NodeJS.Timeout | undefined
    const timeout = new Promise<null>((r) => (timer = setTimeout(() => r(null), this.o.timeoutMs)))
    const found = await Promise.race([this.classify(host), timeout]).finally(() =>
      clearTimeout(timer),
    )
    const ttl = found && found.type !== 'unknown' ? this.o.ttlMs : FAILURE_TTL_MS
    this.cache.set(host, { p: found ?? UNKNOWN, until: this.now() + ttl })
  }

  private async classify(host: string): Promise<Provider> {
    const chain: string[] = []
    let name = host
    for (let hop = 0; hop < HOPS; hop++) {
      const next = await this.hop(name)
      if (next === false) return hop === 0 ? UNKNOWN : this.named(chain)
      if (next === null || next === name) break
      chain.push((name = next))
    }
    return chain.length === 0 ? { type: 'first-party', name: 'unknown' } : this.named(chain)
  }

  /** The next name of the chain; null at its end (no CNAME); false when the lookup failed. */
  private hop(name: string): Promise<string | null | false> {
    return this.o.resolve(name).then(
      (r) => (r[0] ? r[0].toLowerCase().replace(/\.$/, '') : null),
      (e: { code?: string } | undefined) => (e?.code === 'ENODATA' ? null : false),
    )
  }

  private named(chain: string[]): Provider {
    for (let i = chain.length - 1; i >= 0; i--) {
      const provider = this.o.table.provider(chain[i])
      if (provider) return { type: 'CDN', name: provider }
    }
    return { type: 'CDN', name: 'unknown' }
  }
}
