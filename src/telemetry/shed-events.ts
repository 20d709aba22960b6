/**
 * Named events of shedding (`http/shed.ts`, `http/gate.ts`): each shed client, each request a
 * shed answered 429 and each connection closed at its peer's cap is counted in
 * `ferry_http_shed_total` and logged (a shed's start and end once each, not each request).
 */
import { Counter, type Registry } from 'prom-client'
import type { ShedEvents as ShedSink } from '../http/shed.js'
import type { Logger } from './logger.js'

export class ShedEvents implements ShedSink {
  private readonly shed: Counter<'action'>

  constructor(
    private readonly log: Logger,
    registry: Registry,
  ) {
    this.shed = new Counter({
      name: 'ferry_http_shed_total',
      help: 'Shedding at the HTTP listener, by action: client (a client refused by its per-client limit was shed until its Retry-After), held (a shed client request held, then answered 429), refused (answered 429 at once: [http_api] shed_max_parked held already), connection (a connection closed at once: [http_api] max_connections_per_client).',
      labelNames: ['action'] as const,
      registers: [registry],
    })
  }

  started(client: string, seconds: number): void {
    this.shed.inc({ action: 'client' })
    this.log.warn(
      { event: 'http_shed', client, seconds },
      `a client past its per-client limit is shed for ${seconds} s: its requests are held and answered 429`,
    )
  }

  ended(client: string, held: number): void {
    if (held > 0) this.shed.inc({ action: 'held' }, held)
    this.log.info(
      { event: 'http_shed_ended', client, held },
      `a shed ended: ${held} requests held and answered 429`,
    )
  }

  refused(client: string): void {
    this.shed.inc({ action: 'refused' })
    this.log.warn(
      { event: 'http_shed_refused', client },
      'a shed client request was answered 429 at once: the held requests are at their limit',
    )
  }

  connectionRefused(peer: string, open: number): void {
    this.shed.inc({ action: 'connection' })
    this.log.warn(
      { event: 'http_connection_refused', client: peer, open },
      `a connection was closed at once: its address has ${open} open, its limit`,
    )
  }
}
