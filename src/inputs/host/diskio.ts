/**
 * `diskio` (reference measurement `diskio`, tag `name`): /proc/diskstats per block device.
 * Bytes are sectors times 512 (the kernel's unit there whatever the device's sector size);
 * times in milliseconds; read_bytes/sec and write_bytes/sec between two runs.
 */
import { commonKeys } from '../conf/common.js'
import { defineInput, type CollectContext, type PolledInput } from '../input.js'
import { PointBuilder } from '../point-builder.js'
import { read } from './procfs.js'
import { Rates } from './rates.js'

const SCHEMA = {
  ...commonKeys(10_000),
  /** Device names to keep (regular expressions); empty keeps all. */
  devices: { type: 'strings', default: [] },
  skip_serial_number: { type: 'bool', default: true },
} as const

export function parseDiskstats(text: string): { name: string; f: Record<string, number> }[] {
  const out = []
  for (const line of text.split('\n')) {
    const c = line.trim().split(/\s+/)
    if (c.length < 14) continue
    const n = (i: number) => Number(c[i])
    out.push({
      name: c[2],
      f: {
        reads: n(3),
        merged_reads: n(4),
        read_bytes: n(5) * 512,
        read_time: n(6),
        writes: n(7),
        merged_writes: n(8),
        write_bytes: n(9) * 512,
        write_time: n(10),
        iops_in_progress: n(11),
        io_time: n(12),
        weighted_io_time: n(13),
      },
    })
  }
  return out
}

class DiskIO implements PolledInput {
  readonly kind = 'polled'
  readonly category = 'metric'
  private readonly rates = new Rates()
  constructor(
    readonly interval: number,
    private readonly devices: RegExp[],
  ) {}

  async collect(ctx: CollectContext) {
    const at = Date.now()
    const points = []
    for (const d of parseDiskstats(read('diskstats'))) {
      if (this.devices.length && !this.devices.some((r) => r.test(d.name))) continue
      const f = { ...d.f }
      this.rates.add(d.name, at, d.f, ['read_bytes', 'write_bytes'], f)
      const b = new PointBuilder('diskio', ctx.now).tag('name', d.name)
      for (const [k, v] of Object.entries(f)) b.int(k, v)
      points.push(b.point)
    }
    return points
  }
}

export const diskioInput = defineInput({
  name: 'diskio',
  schema: SCHEMA,
  create: (c) =>
    new DiskIO(
      c.interval,
      c.devices.map((d) => new RegExp(d)),
    ),
})
