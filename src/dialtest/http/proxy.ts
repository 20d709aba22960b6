/** An HTTPS request through an HTTP proxy: a CONNECT tunnel, then TLS over it (node:https). */
import http from 'node:http'
import type net from 'node:net'
import type { NetGuard } from '../guard.js'

export function tunnel(
  proxy: { url: URL; headers: Record<string, string> },
  target: URL,
  guard: NetGuard,
  timeoutMs: number,
): Promise<net.Socket> {
  const authority = `${target.hostname}:${target.port || 443}`
  return new Promise((resolve, reject) => {
    const req = http.request({
      host: proxy.url.hostname,
      port: proxy.url.port || 80,
      method: 'CONNECT',
      path: authority,
      headers: { Host: authority, ...proxy.headers },
      lookup: guard.lookup as never,
      agent: false,
    })
    const timer = setTimeout(() => req.destroy(new Error('proxy CONNECT timed out')), timeoutMs)
    req.on('connect', (res, socket) => {
      clearTimeout(timer)
      if (res.statusCode === 200) return resolve(socket)
      socket.destroy()
      reject(new Error(`proxy CONNECT answered ${res.statusCode} ${res.statusMessage ?? ''}`))
    })
    req.on('error', (e) => (clearTimeout(timer), reject(e)))
    req.end()
  })
}
