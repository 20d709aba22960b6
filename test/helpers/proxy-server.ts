/**
 * A small HTTP proxy for tests: CONNECT tunnels (https upstreams) and forward requests in
 * absolute form (http upstreams), on loopback only. It keeps what it saw, so a test can prove
 * the traffic went through it.
 */
import http from 'node:http'
import net from 'node:net'
import type { AddressInfo } from 'node:net'

export class ProxyServer {
  /** `CONNECT host:port` targets, one per tunnel. */
  readonly tunnels: string[] = []
  /** `METHOD absolute-url` of forwarded requests. */
  readonly forwarded: string[] = []
  private server: http.Server | null = null
  private readonly sockets = new Set<net.Socket>()

  async start(): Promise<string> {
    const server = http.createServer((req, res) => this.forward(req, res))
    server.on('connect', (req, client: net.Socket, head) => this.tunnel(req, client, head))
    server.on('connection', (s: net.Socket) => {
      this.sockets.add(s)
      s.on('close', () => this.sockets.delete(s))
    })
    this.server = server
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  }

  private forward(req: http.IncomingMessage, res: http.ServerResponse): void {
    this.forwarded.push(`${req.method} ${req.url}`)
    const target = new URL(req.url!)
    const headers = { ...req.headers }
    delete headers['proxy-connection']
    const out = http.request(
      {
        host: target.hostname,
        port: target.port,
        path: target.pathname + target.search,
        method: req.method,
        headers,
      },
      (up) => {
        res.writeHead(up.statusCode ?? 502, up.headers)
        up.pipe(res)
      },
    )
    out.on('error', () => res.destroy())
    req.pipe(out)
  }

  private tunnel(req: http.IncomingMessage, client: net.Socket, head: Buffer): void {
    this.tunnels.push(req.url!)
    const [host, port] = req.url!.split(':')
    const up = net.connect(Number(port), host, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n')
      if (head.length) up.write(head)
      up.pipe(client)
      client.pipe(up)
    })
    this.sockets.add(up)
    up.on('close', () => this.sockets.delete(up))
    up.on('error', () => client.destroy())
    client.on('error', () => up.destroy())
  }

  async stop(): Promise<void> {
    for (const s of this.sockets) s.destroy()
    await new Promise<void>((r) => (this.server ? this.server.close(() => r()) : r()))
  }
}
