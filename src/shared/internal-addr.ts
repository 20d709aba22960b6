/**
 * Loopback, private, link-local and unspecified ranges (Go's IsLoopback/IsPrivate/...): the
 * addresses an outbound call made on a user's behalf (dial tests, a script's http_request)
 * refuses unless allowed. An IPv4-mapped IPv6 address is checked as the IPv4 it carries.
 */
import net from 'node:net'

export const INTERNAL_RANGES: [string, number, 'ipv4' | 'ipv6'][] = [
  ['0.0.0.0', 8, 'ipv4'],
  ['127.0.0.0', 8, 'ipv4'],
  ['10.0.0.0', 8, 'ipv4'],
  ['172.16.0.0', 12, 'ipv4'],
  ['192.168.0.0', 16, 'ipv4'],
  ['169.254.0.0', 16, 'ipv4'],
  ['::', 128, 'ipv6'],
  ['::1', 128, 'ipv6'],
  ['fc00::', 7, 'ipv6'],
  ['fe80::', 10, 'ipv6'],
]

export function plainAddress(ip: string): { ip: string; family: 'ipv4' | 'ipv6' } {
  const m = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip)
  if (m) return { ip: m[1], family: 'ipv4' }
  return { ip, family: net.isIPv6(ip) ? 'ipv6' : 'ipv4' }
}

const internal = new net.BlockList()
for (const [a, p, f] of INTERNAL_RANGES) internal.addSubnet(a, p, f)

export function isInternalAddress(ip: string): boolean {
  const a = plainAddress(ip)
  return internal.check(a.ip, a.family)
}
