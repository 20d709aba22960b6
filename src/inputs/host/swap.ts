/**
 * `swap` (reference measurement `swap`): totals from /proc/meminfo; `in`/`out` are bytes swapped
 * in and out since boot (/proc/vmstat pswpin/pswpout pages times the page size).
 */
import { commonKeys } from '../conf/common.js'
import { defineInput, type CollectContext, type PolledInput } from '../input.js'
import { PointBuilder } from '../point-builder.js'
import { parseKeyValues, parseMeminfo, read } from './procfs.js'

const SCHEMA = { ...commonKeys(10_000) } as const
/** Linux counts swap traffic in pages of 4 KiB on every architecture Ferry runs on. */
const PAGE = 4096

class Swap implements PolledInput {
  readonly kind = 'polled'
  readonly category = 'metric'
  constructor(readonly interval: number) {}

  async collect(ctx: CollectContext) {
    const mi = parseMeminfo(read('meminfo'))
    const vm = parseKeyValues(read('vmstat'))
    const total = mi.get('SwapTotal') ?? 0
    const free = mi.get('SwapFree') ?? 0
    const used = total - free
    const b = new PointBuilder('swap', ctx.now)
      .int('total', total)
      .int('used', used)
      .int('free', free)
      .float('used_percent', total ? (100 * used) / total : 0)
      .int('in', (vm.get('pswpin') ?? 0) * PAGE)
      .int('out', (vm.get('pswpout') ?? 0) * PAGE)
    return [b.point]
  }
}

export const swapInput = defineInput({
  name: 'swap',
  schema: SCHEMA,
  create: (c) => new Swap(c.interval),
})
