/**
 * `mem` (reference measurement `mem`): /proc/meminfo in bytes, with the reference's derived
 * figures: `cached` includes SReclaimable, `used` = total - free - buffers - cached.
 */
import { commonKeys } from '../conf/common.js'
import { defineInput, type CollectContext, type PolledInput } from '../input.js'
import { PointBuilder } from '../point-builder.js'
import { parseMeminfo, read } from './procfs.js'

const SCHEMA = { ...commonKeys(10_000) } as const

/** Reference field -> /proc/meminfo key, for the fields copied as they are. */
const COPIED: [string, string][] = [
  ['active', 'Active'],
  ['inactive', 'Inactive'],
  ['free', 'MemFree'],
  ['buffered', 'Buffers'],
  ['commit_limit', 'CommitLimit'],
  ['committed_as', 'Committed_AS'],
  ['dirty', 'Dirty'],
  ['high_free', 'HighFree'],
  ['high_total', 'HighTotal'],
  ['huge_pages_free', 'HugePages_Free'],
  ['huge_pages_size', 'Hugepagesize'],
  ['huge_page_total', 'HugePages_Total'],
  ['low_free', 'LowFree'],
  ['low_total', 'LowTotal'],
  ['mapped', 'Mapped'],
  ['page_tables', 'PageTables'],
  ['shared', 'Shmem'],
  ['slab', 'Slab'],
  ['sreclaimable', 'SReclaimable'],
  ['sunreclaim', 'SUnreclaim'],
  ['swap_cached', 'SwapCached'],
  ['swap_free', 'SwapFree'],
  ['swap_total', 'SwapTotal'],
  ['vmalloc_chunk', 'VmallocChunk'],
  ['vmalloc_total', 'VmallocTotal'],
  ['vmalloc_used', 'VmallocUsed'],
  ['write_back', 'Writeback'],
  ['write_back_tmp', 'WritebackTmp'],
]

export function memFields(mi: Map<string, number>): Record<string, number> {
  const g = (k: string) => mi.get(k) ?? 0
  const total = g('MemTotal')
  const cached = g('Cached') + g('SReclaimable')
  const available = mi.has('MemAvailable') ? g('MemAvailable') : g('MemFree') + cached
  const used = total - g('MemFree') - g('Buffers') - cached
  const out: Record<string, number> = { total, available, used, cached }
  for (const [field, key] of COPIED) out[field] = g(key)
  return out
}

class Mem implements PolledInput {
  readonly kind = 'polled'
  readonly category = 'metric'
  constructor(readonly interval: number) {}

  async collect(ctx: CollectContext) {
    const f = memFields(parseMeminfo(read('meminfo')))
    const b = new PointBuilder('mem', ctx.now)
    for (const [k, v] of Object.entries(f)) b.int(k, v)
    b.float('used_percent', f.total ? (100 * f.used) / f.total : 0)
    b.float('available_percent', f.total ? (100 * f.available) / f.total : 0)
    return [b.point]
  }
}

export const memInput = defineInput({
  name: 'mem',
  schema: SCHEMA,
  create: (c) => new Mem(c.interval),
})
