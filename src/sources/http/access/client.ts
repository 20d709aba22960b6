/**
 * Who is calling. A request is local only when it came over a loopback address or the Unix
 * socket and carries no forwarding header: a proxy on the same host makes remote clients look
 * local, so `X-Forwarded-For` or `X-Real-IP` always counts as remote (reference behaviour).
 */
import type { Context } from 'hono'
import type { HttpEnv } from '../deps.js'

export interface Client {
  /** The address used for rate limiting: first X-Forwarded-For hop, X-Real-IP, else the peer. */
  ip: string
  loopback: boolean
}

function isLoopbackAddress(addr: string): boolean {
  return addr === '::1' || addr.startsWith('127.') || addr.startsWith('::ffff:127.')
}

export function clientOf(c: Context<HttpEnv>): Client {
  const forwarded = c.req.header('x-forwarded-for')?.split(',')[0]?.trim()
  const real = c.req.header('x-real-ip')?.trim()
  const socket = c.env?.incoming?.socket
  // No socket: in-process requests (app.request in tests). A Unix socket has no remote address.
  const peer = socket ? (socket.remoteAddress ?? '@') : 'local'
  const viaProxy = forwarded !== undefined || real !== undefined
  const localPeer = peer === 'local' || peer === '@' || isLoopbackAddress(peer)
  return { ip: forwarded || real || peer, loopback: !viaProxy && localPeer }
}
