/**
 * The shedding gate, in front of the Hono listener: a request of a shed client (`shed.ts`) is
 * held, then answered 429 when its client's shed ends, without building a Request, routing,
 * a timer or an abort signal, and without reading its body; its connection is closed after the
 * answer, so the client's next request costs a new connection, held the same way. Past the
 * held budget the answer is given at once. A new connection past its peer's connection cap is
 * closed before anything is read from it.
 *
 * Invariants: with no client shed a request costs one size check; a held request is answered
 * exactly once (its shed's end, or `clear` at shutdown); nothing here refuses a client that
 * was not refused first (by its per-client limits, or 413 for a body past a cap).
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Server, Socket } from 'node:net'
import { FerryError } from '../errors.js'
import type { ShedTable } from './shed.js'

export interface Gate {
  table: ShedTable
  /** The client a request counts as for the rate limit (socket or trusted forwarded address). */
  clientOf(req: IncomingMessage): string
  /** Peers without a connection cap (trusted proxies carry other clients' connections). */
  exempt(peer: string): boolean
}

type Listener = (req: IncomingMessage, res: ServerResponse) => void

// The rate limiter's refusal, from the one error table, built once: a held answer costs a write.
const REFUSAL = new FerryError('reachMaxAPILimit', 'over the per-client limit; retry later')
const BODY = JSON.stringify(REFUSAL.toBody())

function answer429(res: ServerResponse, seconds: number): void {
  if (res.headersSent || res.destroyed) return
  res.writeHead(REFUSAL.status, {
    'Content-Type': 'application/json',
    'Content-Length': Buffer.byteLength(BODY),
    'Retry-After': String(Math.max(1, Math.ceil(seconds))),
    Connection: 'close',
  })
  res.end(BODY)
}

export function gateRequests(listener: Listener, gate: Gate): Listener {
  const { table } = gate
  return (req, res) => {
    if (table.clients === 0) return listener(req, res)
    const client = gate.clientOf(req)
    const ms = table.remaining(client)
    if (ms === 0) return listener(req, res)
    if (!table.park(client, () => answer429(res, 1))) {
      table.events.refused(client)
      answer429(res, ms / 1000)
    }
  }
}

/** Counts each peer's connections (prepended: it runs before the HTTP parser is attached). */
export function gateConnections(server: Server, gate: Gate): void {
  server.prependListener('connection', (socket: Socket) => {
    const peer = socket.remoteAddress
    if (!peer || gate.exempt(peer)) return
    if (!gate.table.connect(peer)) {
      gate.table.events.connectionRefused(peer, gate.table.connectionsOf(peer))
      socket.destroy()
      return
    }
    socket.once('close', () => gate.table.disconnect(peer))
  })
}
