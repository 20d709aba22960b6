/** A local upstream for benchmarks: counts X-Points of each upload, or answers 503 when down. */
import http from 'node:http'
import type { AddressInfo } from 'node:net'

export class CountSink {
  points = 0
  down = false
  private server = http.createServer((req, res) => {
    req.resume()
    req.on('end', () => {
      if (this.down) {
        res.writeHead(503)
        return void res.end()
      }
      this.points += Number(req.headers['x-points'] ?? 0)
      res.end()
    })
  })

  async start(): Promise<string> {
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', r))
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}?token=tkn_00000000000000000000000000000000`
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections()
    await new Promise<void>((r) => this.server.close(() => r()))
  }
}
