/** `[http_api] trusted_proxies`: addresses and CIDRs whose forwarding headers are believed. */
import { BlockList, isIP } from 'node:net'

export class TrustedProxies {
  private readonly list = new BlockList()
  readonly empty: boolean

  /** Entries are checked by the config schema: an address, or an address and a prefix. */
  constructor(entries: readonly string[]) {
    for (const e of entries) {
      const [ip, bits] = e.split('/')
      const type = isIP(ip) === 6 ? 'ipv6' : 'ipv4'
      if (bits === undefined) this.list.addAddress(ip, type)
      else this.list.addSubnet(ip, Number(bits), type)
    }
    this.empty = entries.length === 0
  }

  has(addr: string): boolean {
    if (this.empty) return false
    const plain = addr.startsWith('::ffff:') && isIP(addr.slice(7)) === 4 ? addr.slice(7) : addr
    const family = isIP(plain)
    return family !== 0 && this.list.check(plain, family === 6 ? 'ipv6' : 'ipv4')
  }
}
