/**
 * A benchmark server process (baseline, sink) on a free loopback port: keep-alive as clients
 * expect, `listening <host:port>` on stdout for `startChild`, and a clean exit on SIGTERM.
 */
import type http from 'node:http'
import type { AddressInfo } from 'node:net'

export function serveOnLoopback(server: http.Server): void {
  server.keepAliveTimeout = 65_000
  server.listen(0, '127.0.0.1', () => {
    const a = server.address() as AddressInfo
    console.log(`listening ${a.address}:${a.port}`)
  })
  process.on('SIGTERM', () => server.close(() => process.exit(0)))
}
