/**
 * `net` (reference measurement `net`, tag `interface`): /proc/net/dev counters per interface,
 * rates between two runs, and the host's TCP and UDP counters (/proc/net/snmp) on each point.
 * Virtual interfaces (loopback, bridges, veths: those under /sys/devices/virtual/net) are
 * skipped unless `enable_virtual_interfaces`.
 */
import fs from 'node:fs'
import { commonKeys } from '../conf/common.js'
import { defineInput, type CollectContext, type PolledInput } from '../input.js'
import { PointBuilder } from '../point-builder.js'
import { read } from './procfs.js'
import { Rates } from './rates.js'

const SCHEMA = {
  ...commonKeys(10_000),
  interfaces: { type: 'strings', default: [] },
  enable_virtual_interfaces: { type: 'bool', default: false },
  ignore_protocol_stats: { type: 'bool', default: false },
} as const

const RATED = ['bytes_sent', 'bytes_recv', 'packets_sent', 'packets_recv']
const PROTO_RATED = ['tcp_insegs', 'tcp_outsegs', 'udp_indatagrams', 'udp_outdatagrams']

export function parseNetDev(text: string): { name: string; f: Record<string, number> }[] {
  const out = []
  for (const line of text.split('\n').slice(2)) {
    const colon = line.indexOf(':')
    if (colon < 0) continue
    const c = line
      .slice(colon + 1)
      .trim()
      .split(/\s+/)
      .map(Number)
    out.push({
      name: line.slice(0, colon).trim(),
      f: {
        bytes_recv: c[0],
        packets_recv: c[1],
        err_in: c[2],
        drop_in: c[3],
        bytes_sent: c[8],
        packets_sent: c[9],
        err_out: c[10],
        drop_out: c[11],
      },
    })
  }
  return out
}

/** Tcp and Udp lines of /proc/net/snmp as `tcp_<name>` / `udp_<name>`, lower case. */
export function parseSnmp(text: string): Record<string, number> {
  const out: Record<string, number> = {}
  const lines = text.split('\n')
  for (let i = 0; i + 1 < lines.length; i++) {
    const [proto, ...names] = lines[i].split(/\s+/)
    if ((proto !== 'Tcp:' && proto !== 'Udp:') || lines[i + 1].split(/\s+/)[0] !== proto) continue
    const values = lines[i + 1].split(/\s+/).slice(1).map(Number)
    const prefix = proto === 'Tcp:' ? 'tcp_' : 'udp_'
    names.forEach((n, j) => (out[prefix + n.toLowerCase()] = values[j]))
    i++
  }
  return out
}

const isVirtual = (name: string) => fs.existsSync(`/sys/devices/virtual/net/${name}`)

class Net implements PolledInput {
  readonly kind = 'polled'
  readonly category = 'metric'
  private readonly rates = new Rates()
  constructor(
    readonly interval: number,
    private readonly keep: (name: string) => boolean,
    private readonly protocols: boolean,
  ) {}

  async collect(ctx: CollectContext) {
    const at = Date.now()
    const proto = this.protocols ? parseSnmp(read('net/snmp')) : {}
    const protoRates: Record<string, number> = {}
    this.rates.add('', at, proto, this.protocols ? PROTO_RATED : [], protoRates)
    const points = []
    for (const i of parseNetDev(read('net/dev'))) {
      if (!this.keep(i.name)) continue
      const f = { ...i.f }
      this.rates.add(i.name, at, i.f, RATED, f)
      const b = new PointBuilder('net', ctx.now).tag('interface', i.name)
      for (const [k, v] of Object.entries({ ...f, ...proto, ...protoRates })) b.int(k, v)
      points.push(b.point)
    }
    return points
  }
}

export const netInput = defineInput({
  name: 'net',
  schema: SCHEMA,
  create: (c) => {
    const keep = (n: string) =>
      (c.interfaces.length === 0 || c.interfaces.includes(n)) &&
      (c.enable_virtual_interfaces || !isVirtual(n))
    return new Net(c.interval, keep, !c.ignore_protocol_stats)
  },
})
