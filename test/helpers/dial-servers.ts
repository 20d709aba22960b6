/** Loopback servers for the dial-test suites: HTTP(S) with redirects and slow answers, TCP echo, WebSocket echo. */
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import http from 'node:http'
import https from 'node:https'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { WebSocketServer } from 'ws'

function handler(req: http.IncomingMessage, res: http.ServerResponse): void {
  const url = new URL(req.url ?? '/', 'http://x')
  if (url.pathname === '/ok') {
    res.writeHead(200, { 'Content-Type': 'text/plain', 'X-Test': 'yes' })
    return void res.end('hello ferry')
  }
  if (url.pathname === '/redirect') {
    res.writeHead(302, { Location: '/ok' })
    return void res.end()
  }
  if (url.pathname === '/redirect-private') {
    // Loopback, and a port nothing listens on: should the guard ever fail, nothing leaves the
    // machine (tests may only reach loopback); the listed range stands in for a private one.
    res.writeHead(302, { Location: 'http://127.0.0.2:1/ok' })
    return void res.end()
  }
  if (url.pathname === '/slow') {
    setTimeout(() => res.end('late'), 300)
    return
  }
  if (url.pathname === '/echo') {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      res.writeHead(200, { 'Content-Type': 'application/json' })
      res.end(JSON.stringify({ headers: req.headers, body: Buffer.concat(chunks).toString() }))
    })
    return
  }
  if (url.pathname === '/token') {
    res.writeHead(200, { 'Content-Type': 'application/json' })
    return void res.end('{"token":"t-123"}')
  }
  res.writeHead(500)
  res.end('boom')
}

const listen = (s: net.Server) =>
  new Promise<number>((r) =>
    s.listen(0, '127.0.0.1', () => r((s.address() as net.AddressInfo).port)),
  )

export interface DialServers {
  http: number
  https: number
  tcp: number
  ws: number
  close(): Promise<void>
}

export async function startDialServers(): Promise<DialServers> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ferry-dial-'))
  const [key, cert] = [path.join(dir, 'key.pem'), path.join(dir, 'cert.pem')]
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      key,
      '-out',
      cert,
      '-days',
      '1',
      '-subj',
      '/CN=127.0.0.1',
    ],
    { stdio: 'ignore' },
  )
  const h = http.createServer(handler)
  const hs = https.createServer({ key: fs.readFileSync(key), cert: fs.readFileSync(cert) }, handler)
  const tcp = net.createServer((s) => s.on('data', (d) => s.write(d)))
  const wsHttp = http.createServer()
  const wss = new WebSocketServer({ server: wsHttp })
  wss.on('connection', (ws) => ws.on('message', (m) => ws.send(`echo:${String(m)}`)))
  const ports = await Promise.all([listen(h), listen(hs), listen(tcp), listen(wsHttp)])
  const servers = [h, hs, tcp, wsHttp]
  return {
    http: ports[0],
    https: ports[1],
    tcp: ports[2],
    ws: ports[3],
    close: async () => {
      wss.close()
      for (const s of servers) (s as http.Server).closeAllConnections?.()
      await Promise.all(servers.map((s) => new Promise((r) => s.close(r))))
      fs.rmSync(dir, { recursive: true, force: true })
    },
  }
}
