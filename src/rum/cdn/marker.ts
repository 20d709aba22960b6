/**
 * CDN marking of RUM `resource` points: `provider_type` and `provider_name` fields from the
 * CNAME of `resource_url_host` (the reference's rule: a point without that key is left alone;
 * an empty host or an address is `unknown`). Never holds a write for long: hosts in the cache
 * are marked at once; lookups of the others start together and the write waits for them at
 * most `waitMs` in all. A host still unresolved then is marked `unknown` for this write, and
 * its lookup finishes in the background for the next one.
 */
import { Kind, type Point } from '../../shared/point.js'
import { CnameLookups, UNKNOWN, type LookupOptions, type Provider } from './lookup.js'

export interface MarkerOptions extends LookupOptions {
  /** How long one write may wait for lookups; 0 marks from the cache only. */
  waitMs: number
}

/** What one write's marking did, for the metrics. */
export interface CdnStat {
  cached: number
  looked: number
  late: number
}

export class CdnMarker {
  readonly lookups: CnameLookups

  constructor(private readonly o: MarkerOptions) {
    this.lookups = new CnameLookups(o)
  }

  async mark(points: Point[]): Promise<CdnStat> {
    const stat: CdnStat = { cached: 0, looked: 0, late: 0 }
    const waiting: [Point, string][] = []
    const started: Promise<void>[] = []
    for (const p of points) {
      if (p.name !== 'resource') continue
      const host = hostOf(p)
      if (host === null) continue
      if (!isDomainName(host)) setProvider(p, UNKNOWN)
      else if (this.known(p, host)) stat.cached++
      else {
        const run = this.lookups.start(host)
        if (run) started.push(run)
        waiting.push([p, host])
      }
    }
    if (waiting.length === 0) return stat
    if (started.length && this.o.waitMs > 0) await settleWithin(started, this.o.waitMs)
    for (const [p, host] of waiting) {
      if (this.known(p, host)) stat.looked++
      else {
        stat.late++
        setProvider(p, UNKNOWN)
      }
    }
    return stat
  }

  private known(p: Point, host: string): boolean {
    const hit = this.lookups.cached(host)
    if (hit) setProvider(p, hit)
    return hit !== undefined
  }
}

function settleWithin(runs: Promise<void>[], ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined
  const late = new Promise<void>((r) => (timer = setTimeout(r, ms)))
  return Promise.race([Promise.all(runs).then(() => undefined), late]).finally(() =>
    clearTimeout(timer),
  )
}

/** The host to look up, lower case; null when the point has no `resource_url_host`. */
function hostOf(p: Point): string | null {
  const t = p.tags.find((x) => x.key === 'resource_url_host')
  if (t) return t.value.toLowerCase()
  const f = p.fields.find((x) => x.key === 'resource_url_host')
  return f && f.kind === Kind.STRING ? String(f.value).toLowerCase() : null
}

function setProvider(p: Point, v: Provider): void {
  setString(p, 'provider_type', v.type)
  setString(p, 'provider_name', v.name)
}

/** Replaces the key's value where it is (tag or field), else adds a string field. */
function setString(p: Point, key: string, value: string): void {
  const t = p.tags.find((x) => x.key === key)
  if (t) return void (t.value = value)
  const i = p.fields.findIndex((x) => x.key === key)
  const field = { key, kind: Kind.STRING, value }
  if (i >= 0) p.fields[i] = field
  else p.fields.push(field)
}

/**
 * A name worth a CNAME lookup: letters, digits, `-` and `_` in dotted labels of at most 63
 * bytes, not all digits (so no IPv4 address), and at least two labels: a single label such as
 * `localhost` would only ask the resolver about a name of the local network.
 */
export function isDomainName(s: string): boolean {
  if (s.length === 0 || s.length > 253) return false
  const labels = s.replace(/\.$/, '').split('.')
  if (labels.length < 2) return false
  const label = /^[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?$/i
  return labels.every((l) => label.test(l)) && /[a-z_-]/i.test(s)
}
