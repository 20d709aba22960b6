/**
 * The HTTP listener: @hono/node-server on `[http_api] listen`. Shutdown stops accepting
 * connections and waits for in-flight requests, closing idle keep-alive sockets at once.
 */
import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { serve } from '@hono/node-server'
import type { Hono } from 'hono'
import type { Component } from '../../component.js'
import type { HttpEnv } from './deps.js'

export function splitListen(listen: string): { hostname: string; port: number } {
  const i = listen.lastIndexOf(':')
  const host = listen.slice(0, i).replace(/^\[(.*)\]$/, '$1')
  return { hostname: host || '0.0.0.0', port: Number(listen.slice(i + 1)) }
}

export class HttpServer implements Component {
  readonly name = 'http-server'
  private server: Server | null = null

  constructor(
    private readonly app: Pick<Hono<HttpEnv>, 'fetch'>,
    private readonly listen: string,
    private readonly timeoutMs: number,
  ) {}

  async start(): Promise<void> {
    const { hostname, port } = splitListen(this.listen)
    await new Promise<void>((resolve, reject) => {
      const server = serve({ fetch: this.app.fetch, hostname, port }, () => resolve()) as Server
      server.once('error', reject)
      server.requestTimeout = this.timeoutMs
      server.keepAliveTimeout = 65_000
      this.server = server
    })
  }

  /** The bound address (port 0 in tests resolves here). */
  address(): AddressInfo {
    return this.server?.address() as AddressInfo
  }

  async shutdown(): Promise<void> {
    const server = this.server
    this.server = null
    if (!server) return
    await new Promise<void>((resolve) => {
      server.close(() => resolve())
      server.closeIdleConnections()
    })
  }
}
