/**
 * Gauges for operating the agent: which build runs (`ferry_build_info`, always 1) and how much
 * the disk buffer may hold, so that dashboards and alerts can show usage as a share.
 */
import { Gauge, type Registry } from 'prom-client'
import type { Identity } from '../identity.js'

export function addBuildInfo(registry: Registry, id: Identity): void {
  const g = new Gauge({
    name: 'ferry_build_info',
    help: 'Always 1; the labels name the running build.',
    labelNames: ['version', 'commit', 'node'] as const,
    registers: [registry],
  })
  g.set({ version: id.version, commit: id.commit, node: process.version }, 1)
}

export interface BufferCapacity {
  /** Bytes each category may hold. */
  perCategory: number
  /** Bytes all categories together may hold. */
  total: number
  categories: readonly string[]
}

export function addCapacityGauges(registry: Registry, c: BufferCapacity): void {
  const perCategory = new Gauge({
    name: 'ferry_buffer_capacity_bytes',
    help: 'Encoded bytes the disk buffer may hold for one category ([dataway.wal] max_capacity_gb).',
    labelNames: ['category'] as const,
    registers: [registry],
  })
  for (const category of c.categories) perCategory.set({ category }, c.perCategory)
  new Gauge({
    name: 'ferry_buffer_total_capacity_bytes',
    help: 'Encoded bytes the disk buffer may hold in all ([dataway.wal] max_total_capacity_gb).',
    registers: [registry],
  }).set(c.total)
}
