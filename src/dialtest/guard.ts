/**
 * Which addresses a dial test may reach. Names are checked after resolution and the connection
 * goes to the very address that was checked (the lookup hands it to the socket), so a name
 * that resolves inside, or re-resolves between check and connect, cannot slip through; every
 * redirect hop goes through the same lookup.
 */
import dns from 'node:dns'
import net from 'node:net'
import { cidrEntries } from '../config/schema-dialtest.js'
import { INTERNAL_RANGES, plainAddress as plain } from '../shared/internal-addr.js'

export interface GuardOptions {
  /** Refuse the internal ranges above. */
  internal: boolean
  /** Refuse these CIDRs as well. */
  cidrs: string[]
}

export class RefusedTarget extends Error {
  constructor(readonly host: string) {
    super(`dest host [${host}] is not allowed to be tested`)
  }
}

export type Resolver = (host: string) => Promise<dns.LookupAddress[]>

const systemResolver: Resolver = (host) => dns.promises.lookup(host, { all: true })

export class NetGuard {
  private readonly blocked = new net.BlockList()
  readonly active: boolean

  constructor(
    o: GuardOptions,
    /** Tests replace DNS to make a name resolve where they want. */
    private readonly resolver: Resolver = systemResolver,
  ) {
    if (o.internal) for (const [a, p, f] of INTERNAL_RANGES) this.blocked.addSubnet(a, p, f)
    const cidrs = cidrEntries(o.cidrs)
    for (const c of cidrs) {
      const [a, p] = c.split('/')
      this.blocked.addSubnet(a, Number(p), net.isIPv6(a) ? 'ipv6' : 'ipv4')
    }
    this.active = o.internal || cidrs.length > 0
  }

  allowed(ip: string): boolean {
    const p = plain(ip)
    return !this.blocked.check(p.ip, p.family)
  }

  /** Resolves `host` (an address stays itself) and refuses it if any address is blocked. */
  async resolve(host: string): Promise<dns.LookupAddress> {
    const bare = host.replace(/^\[|\]$/g, '')
    const addrs = net.isIP(bare)
      ? [{ address: bare, family: net.isIP(bare) }]
      : await this.resolver(bare)
    if (!addrs.length) throw new Error(`lookup ${bare}: no such host`)
    if (addrs.some((a) => !this.allowed(a.address))) throw new RefusedTarget(host)
    return addrs[0]
  }

  /** A `lookup` for node:net, node:http and ws: resolve, check, hand over the checked address. */
  readonly lookup = (
    host: string,
    opts: dns.LookupOptions,
    cb: (err: Error | null, address: string | dns.LookupAddress[], family?: number) => void,
  ): void => {
    this.resolve(host).then(
      (a) => (opts.all ? cb(null, [a]) : cb(null, a.address, a.family)),
      (e: Error) => cb(e, ''),
    )
  }
}
