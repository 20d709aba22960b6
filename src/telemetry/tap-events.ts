/** Named events of taps (`ferry tap`): attached taps as a gauge, every dropped point counted. */
import { Counter, Gauge, type Registry } from 'prom-client'
import type { TapEvents as TapEventsSink } from '../ingest/tap.js'
import type { Logger } from './logger.js'

export class TapEvents implements TapEventsSink {
  private readonly clients: Gauge
  private readonly drops: Counter<'category'>

  constructor(
    private readonly log: Logger,
    registry: Registry,
  ) {
    this.clients = new Gauge({
      name: 'ferry_tap_clients',
      help: 'Taps (GET /v1/tap, ferry tap) attached now.',
      registers: [registry],
    })
    this.drops = new Counter({
      name: 'ferry_tap_dropped_points_total',
      help: 'Points not shown to a tap because its queue was full (the write itself is unaffected).',
      labelNames: ['category'] as const,
      registers: [registry],
    })
  }

  attached(clients: number): void {
    this.clients.set(clients)
    this.log.info({ event: 'tap_attached', clients }, 'a tap attached')
  }

  detached(clients: number): void {
    this.clients.set(clients)
    this.log.info({ event: 'tap_detached', clients }, 'a tap detached')
  }

  dropped(category: string, points: number): void {
    this.drops.inc({ category }, points)
    // Rate-limited with the other warnings: a slow tap may drop on every write.
    this.log.warn(
      { event: 'tap_dropped', category, points },
      `a slow tap missed ${points} ${category} points`,
    )
  }
}
