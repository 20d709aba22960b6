/**
 * Which routes remote clients may call (spec 1 and 5): `/v1/ping`, `/v1/ntp` and every
 * `/v1/write/<category>` always, and the OTLP and ddtrace receivers at their default paths
 * (applications on other machines export to them); anything else only when
 * `[http_api] public_apis` lists it. Entries match the URL path exactly, or as a prefix when
 * they end in `*`; a missing leading `/` is added.
 */
const ALWAYS = [
  '/v1/ping',
  '/v1/ntp',
  ...['traces', 'metrics', 'logs'].flatMap((s) => [`/v1/${s}`, `/otel/v1/${s}`]),
  ...['v0.3', 'v0.4', 'v0.5'].map((v) => `/${v}/traces`),
]

export class PublicRoutes {
  private readonly exact = new Set<string>(ALWAYS)
  private readonly prefixes: string[] = ['/v1/write/']

  constructor(entries: readonly string[]) {
    for (const raw of entries) {
      const e = raw.trim()
      if (!e) continue
      const p = e.startsWith('/') ? e : `/${e}`
      if (p.endsWith('*')) this.prefixes.push(p.slice(0, -1))
      else this.exact.add(p)
    }
  }

  has(path: string): boolean {
    return this.exact.has(path) || this.prefixes.some((p) => path.startsWith(p))
  }
}
