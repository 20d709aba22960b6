/** Host inputs: parsers on fixed text, and collected values against /proc read at the same moment. */
import assert from 'node:assert/strict'
import fs from 'node:fs'
import { test } from 'node:test'
import { Kind, type Point } from '../../../src/shared/point.js'
import { INPUT_KINDS } from '../../../src/inputs/kinds.js'
import { validateInstance } from '../../../src/inputs/conf/load.js'
import type { InputEnv, PolledInput } from '../../../src/inputs/input.js'
import { load5s, usage } from '../../../src/inputs/host/cpu.js'
import { parseCpuTimes, parseMeminfo } from '../../../src/inputs/host/procfs.js'
import { parseDiskstats } from '../../../src/inputs/host/diskio.js'
import { parseNetDev, parseSnmp } from '../../../src/inputs/host/net.js'
import { parsePidStat } from '../../../src/inputs/host/pid.js'
import { countUsers } from '../../../src/inputs/host/utmp.js'

const env = {
  host: 'h1',
  version: '0.1.0',
  dataDir: '',
  collectorErrors: () => [],
} as unknown as InputEnv

async function collect(name: string): Promise<Point[]> {
  const kind = INPUT_KINDS.get(name)!
  const errors: string[] = []
  const input = kind.create(validateInstance(kind, {}, name, errors), env) as PolledInput
  assert.deepEqual(errors, [])
  return input.collect({ signal: new AbortController().signal, now: 1n })
}

const field = (p: Point, k: string) => p.fields.find((f) => f.key === k)?.value
const tag = (p: Point, k: string) => p.tags.find((t) => t.key === k)?.value

test('cpu usage between two /proc/stat readings, as the reference computes it', () => {
  const [a] = parseCpuTimes('cpu  100 0 50 800 50 0 0 0 0 0\n')
  const [b] = parseCpuTimes('cpu  160 0 70 900 70 0 0 0 0 0\n')
  assert.equal(b.cpu, 'cpu-total')
  const u = usage(b, a)!
  assert.deepEqual(
    [u.usage_user, u.usage_system, u.usage_idle, u.usage_iowait, u.usage_total],
    [30, 10, 50, 10, 50],
  )
  assert.equal(usage(a, a), null)
  assert.equal(load5s(0.5, 0), 0)
  assert.equal(load5s(1, 1), Math.round((2048 * (2048 - 10) - 1024 - 1884 * 2048) / 164 / 2048))
})

test('/proc parsers read the kernel formats', () => {
  assert.deepEqual(parseDiskstats('   8       0 sda 10 2 300 40 5 1 80 9 0 60 70 0 0 0 0\n'), [
    {
      name: 'sda',
      f: {
        reads: 10,
        merged_reads: 2,
        read_bytes: 153600,
        read_time: 40,
        writes: 5,
        merged_writes: 1,
        write_bytes: 40960,
        write_time: 9,
        iops_in_progress: 0,
        io_time: 60,
        weighted_io_time: 70,
      },
    },
  ])
  const dev = 'h1\nh2\n  eth0: 100 2 0 1 0 0 0 0 200 3 4 5 0 0 0 0\n'
  assert.deepEqual(parseNetDev(dev), [
    {
      name: 'eth0',
      f: {
        bytes_recv: 100,
        packets_recv: 2,
        err_in: 0,
        drop_in: 1,
        bytes_sent: 200,
        packets_sent: 3,
        err_out: 4,
        drop_out: 5,
      },
    },
  ])
  assert.deepEqual(parseSnmp('Tcp: InSegs CurrEstab\nTcp: 7 2\nUdp: NoPorts\nUdp: 3\n'), {
    tcp_insegs: 7,
    tcp_currestab: 2,
    udp_noports: 3,
  })
  const st = parsePidStat(
    '42 (a b) c) S 1 42 42 0 -1 4194560 10 11 12 13 5 6 0 0 20 0 3 0 777 1000 25 x',
  )
  assert.deepEqual(
    [
      st.pid,
      st.comm,
      st.state,
      st.utime,
      st.stime,
      st.threads,
      st.starttime,
      st.vsize,
      st.rssPages,
    ],
    [42, 'a b) c', 'S', 5, 6, 3, 777, 1000, 25],
  )
  const utmp = new Uint8Array(384 * 3)
  new DataView(utmp.buffer).setInt32(384, 7, true)
  assert.equal(countUsers(utmp), 1)
})

test('mem matches /proc/meminfo read at the same moment', async () => {
  const [p] = await collect('mem')
  const mi = parseMeminfo(fs.readFileSync('/proc/meminfo', 'utf8'))
  assert.equal(p.name, 'mem')
  assert.equal(field(p, 'total'), mi.get('MemTotal'))
  assert.equal(field(p, 'swap_total'), mi.get('SwapTotal'))
  assert.ok(Math.abs(Number(field(p, 'available')) - mi.get('MemAvailable')!) < 64 * 1024 * 1024)
  assert.equal(p.fields.find((f) => f.key === 'used_percent')?.kind, Kind.FLOAT)
})

test('disk matches statfs of the root mount', async () => {
  const points = await collect('disk')
  const root = points.find((p) => tag(p, 'mount_point') === '/')
  if (!root) return // the root is an overlay (containers): filtered out as in the reference
  const s = fs.statfsSync('/')
  assert.equal(field(root, 'total'), s.blocks * s.bsize)
  assert.ok(Math.abs(Number(field(root, 'free')) - s.bavail * s.bsize) < 16 * 1024 * 1024)
})

test('system counts the CPUs /proc/stat lists; cpu reports cpu-total', async () => {
  const [sys] = await collect('system')
  const cpus = parseCpuTimes(fs.readFileSync('/proc/stat', 'utf8')).length - 1
  assert.equal(field(sys, 'n_cpus'), cpus)
  const [cpu] = await collect('cpu')
  assert.equal(tag(cpu, 'cpu'), 'cpu-total')
  const idle = Number(field(cpu, 'usage_idle'))
  assert.ok(idle >= 0 && idle <= 100)
})

test('host_processes has the agent itself with its command line and start time', async () => {
  const points = await collect('host_processes')
  const self = points.find((p) => field(p, 'pid') === process.pid)!
  assert.equal(tag(self, 'name'), `h1_${process.pid}`)
  const cmdline = fs
    .readFileSync('/proc/self/cmdline', 'utf8')
    .replace(/\0+$/, '')
    .replace(/\0/g, ' ')
  assert.equal(field(self, 'cmdline'), cmdline)
  const started = Number(field(self, 'start_time'))
  assert.ok(Math.abs(started - (Date.now() - process.uptime() * 1000)) < 2000)
})

test('hostobject describes the host as HOST', async () => {
  const [p] = await collect('hostobject')
  assert.deepEqual([p.name, tag(p, 'name'), tag(p, 'os')], ['HOST', 'h1', 'linux'])
  const message = JSON.parse(String(field(p, 'message')))
  assert.equal(message.host.meta.host_name, 'h1')
  assert.equal(
    message.host.mem.memory_total,
    parseMeminfo(fs.readFileSync('/proc/meminfo', 'utf8')).get('MemTotal'),
  )
})
