/**
 * Network functions: `cidr(ip, prefix)`, true when the address is inside the CIDR prefix (as
 * the reference's `cidr`). Prefixes are parsed once into a BlockList and kept (bounded).
 */
import net from 'node:net'
import type { LibFn } from './registry.js'
import { strArg } from './context.js'

const lists = new Map<string, net.BlockList | null>()
const MAX_LISTS = 1000

function listOf(prefix: string): net.BlockList | null {
  let list = lists.get(prefix)
  if (list !== undefined) return list
  const [addr, bits, extra] = prefix.split('/')
  const family = net.isIP(addr)
  const max = family === 4 ? 32 : 128
  const n = Number(bits)
  list = null
  if (family && extra === undefined && /^\d+$/.test(bits ?? '') && n <= max) {
    list = new net.BlockList()
    list.addSubnet(addr, n, family === 4 ? 'ipv4' : 'ipv6')
  }
  if (lists.size >= MAX_LISTS) lists.clear()
  lists.set(prefix, list)
  return list
}

export const NET_FNS: Record<string, LibFn> = {
  cidr: {
    params: ['ip', 'prefix'],
    run: (_c, p, a) => {
      const ip = strArg(p, a[0]) ?? ''
      const list = listOf(strArg(p, a[1]) ?? '')
      const family = net.isIP(ip)
      return Boolean(list && family && list.check(ip, family === 4 ? 'ipv4' : 'ipv6'))
    },
  },
}
