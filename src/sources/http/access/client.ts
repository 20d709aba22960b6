/**
 * Who is calling. A request is local only when it came over a loopback address or the Unix
 * socket and carries no forwarding header: a proxy on the same host makes remote clients look
 * local, so `X-Forwarded-For` or `X-Real-IP` always counts as remote (reference behaviour).
 *
 * The address the rate limit counts is one the client cannot forge: the connection's own
 * address, unless that is a trusted proxy (`[http_api] trusted_proxies`); then the last
 * address in `X-Forwarded-For` that is not itself a trusted proxy (earlier entries are
 * whatever the client wrote), else `X-Real-IP`. Values that are not IP addresses are ignored.
 */
import type { IncomingMessage } from 'node:http'
import { isIP } from 'node:net'
import type { Context } from 'hono'
import type { HttpEnv } from '../../../http/env.js'
import type { TrustedProxies } from './trusted-proxies.js'

export interface Client {
  /** The address used for rate limiting (see above). */
  ip: string
  loopback: boolean
}

function isLoopbackAddress(addr: string): boolean {
  return addr === '::1' || addr.startsWith('127.') || addr.startsWith('::ffff:127.')
}

/** The client a trusted proxy forwarded for: the rightmost untrusted hop, or null. */
function forwardedClient(
  xff: string | undefined,
  real: string | undefined,
  trusted: TrustedProxies,
) {
  const hops = (xff ?? '').split(',').map((h) => h.trim())
  for (let i = hops.length - 1; i >= 0; i--) {
    if (!isIP(hops[i])) break
    if (i === 0 || !trusted.has(hops[i])) return hops[i]
  }
  const r = real?.trim() ?? ''
  return isIP(r) ? r : null
}

/** The client of a request by its forwarding headers and the socket it came on. */
export function clientFrom(
  forwarded: string | undefined,
  real: string | undefined,
  socket: { remoteAddress?: string } | undefined,
  trusted: TrustedProxies,
): Client {
  // No socket: in-process requests (app.request in tests), which stand in for a trusted
  // proxy. A Unix socket has no remote address.
  const peer = socket ? (socket.remoteAddress ?? '@') : 'local'
  const viaProxy = forwarded !== undefined || real !== undefined
  const localPeer = peer === 'local' || peer === '@' || isLoopbackAddress(peer)
  const believed = viaProxy && (peer === 'local' || trusted.has(peer))
  const ip = (believed && forwardedClient(forwarded, real, trusted)) || peer
  return { ip, loopback: !viaProxy && localPeer }
}

export function clientOf(c: Context<HttpEnv>, trusted: TrustedProxies): Client {
  const socket = c.env?.incoming?.socket
  return clientFrom(c.req.header('x-forwarded-for'), c.req.header('x-real-ip'), socket, trusted)
}

/** The same for a request not yet handed to Hono (the shedding gate). */
export function clientOfIncoming(req: IncomingMessage, trusted: TrustedProxies): Client {
  // Node joins repeated headers with ', ' as Headers.get does (only set-cookie is a list).
  const h = req.headers as Record<string, string | undefined>
  return clientFrom(h['x-forwarded-for'], h['x-real-ip'], req.socket, trusted)
}
