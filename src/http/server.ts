/**
 * The HTTP listeners: @hono/node-server on `[http_api] listen` (HTTPS when `[http_api.tls]`
 * names a certificate and key) and, when `listen_socket` is set, on a Unix socket too (local
 * by definition: clients on it count as loopback). The TCP listener may have a shedding gate in
 * front of the app (`gate.ts`). Shutdown stops accepting connections and
 * waits for in-flight requests, closing idle keep-alive sockets at once.
 */
import fs from 'node:fs'
import http, { type Server } from 'node:http'
import https from 'node:https'
import type { AddressInfo } from 'node:net'
import { createAdaptorServer } from '@hono/node-server'
import type { Hono } from 'hono'
import type { Component } from '../component.js'
import { FerryError } from '../errors.js'
import type { HttpEnv } from './env.js'
import { gateConnections, gateRequests, type Gate } from './gate.js'

export function splitListen(listen: string): { hostname: string; port: number } {
  const i = listen.lastIndexOf(':')
  const host = listen.slice(0, i).replace(/^\[(.*)\]$/, '$1')
  return { hostname: host || '0.0.0.0', port: Number(listen.slice(i + 1)) }
}

type Listener = (req: http.IncomingMessage, res: http.ServerResponse) => void

export interface ListenOptions {
  listen: string
  socket: string
  timeoutMs: number
  tls: { cert: string; privkey: string }
  /** Shedding in front of the app on the TCP listener (`gate.ts`); none when absent. */
  gate?: Gate
}

function readTls(tls: ListenOptions['tls']): https.ServerOptions {
  try {
    return { cert: fs.readFileSync(tls.cert), key: fs.readFileSync(tls.privkey) }
  } catch (e) {
    throw new FerryError('configInvalid', `http_api.tls: ${(e as Error).message}`)
  }
}

function listen(server: Server, ...args: [string] | [number, string]): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject)
    server.listen(...(args as [number, string]), () => {
      server.off('error', reject)
      resolve()
    })
  })
}

export class HttpServer implements Component {
  readonly name = 'http-server'
  private servers: Server[] = []
  private tcp: Server | null = null

  constructor(
    private readonly app: Pick<Hono<HttpEnv>, 'fetch'>,
    private readonly opts: ListenOptions,
  ) {}

  get secure(): boolean {
    return Boolean(this.opts.tls.cert)
  }

  private create(secure: boolean, gate?: Gate): Server {
    const make = (secure ? https.createServer : http.createServer) as (
      o: http.ServerOptions,
      l: Listener,
    ) => Server
    const server = createAdaptorServer({
      fetch: this.app.fetch,
      createServer: ((o: http.ServerOptions, l: Listener) =>
        make(o, gate ? gateRequests(l, gate) : l)) as typeof http.createServer,
      serverOptions: secure ? readTls(this.opts.tls) : {},
    }) as Server
    if (gate) gateConnections(server, gate)
    server.requestTimeout = this.opts.timeoutMs
    server.keepAliveTimeout = 65_000
    this.servers.push(server)
    return server
  }

  async start(): Promise<void> {
    if (this.tcp) return
    const { hostname, port } = splitListen(this.opts.listen)
    this.tcp = this.create(this.secure, this.opts.gate)
    await listen(this.tcp, port, hostname)
    if (this.opts.socket) {
      fs.rmSync(this.opts.socket, { force: true })
      await listen(this.create(false), this.opts.socket)
    }
  }

  /** The bound TCP address (port 0 in tests resolves here). */
  address(): AddressInfo {
    return this.tcp?.address() as AddressInfo
  }

  async shutdown(): Promise<void> {
    const servers = this.servers
    this.servers = []
    this.tcp = null
    // Held requests are answered now, so closing does not wait for their sheds to end.
    this.opts.gate?.table.clear()
    await Promise.all(
      servers.map(
        (server) =>
          new Promise<void>((resolve) => {
            server.close(() => resolve())
            server.closeIdleConnections()
          }),
      ),
    )
    if (this.opts.socket) fs.rmSync(this.opts.socket, { force: true })
  }
}
