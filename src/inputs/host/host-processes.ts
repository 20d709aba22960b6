/**
 * `host_processes` objects (reference input of that name): one object per process, named
 * `<host>_<pid>`, with its name, user, state, command line, start time, CPU and memory use.
 * Processes younger than `min_run_time` are skipped, as in the reference, except the agent's
 * own process: the agent always reports itself.
 */
import fs from 'node:fs'
import { commonKeys } from '../conf/common.js'
import { defineInput, type CollectContext, type InputEnv, type PolledInput } from '../input.js'
import { PointBuilder } from '../point-builder.js'
import {
  cmdlineOf,
  HZ,
  openFiles,
  PAGE,
  parsePidStat,
  parseStatus,
  readUsers,
  stateName,
  type PidStat,
} from './pid.js'
import { parseKeyValues, parseMeminfo, parseUptime, read } from './procfs.js'

const SCHEMA = {
  ...commonKeys(300_000),
  process_name: { type: 'strings', default: [] },
  min_run_time: { type: 'duration', default: 600_000 },
  open_metric: { type: 'bool', default: false },
  enable_listen_ports: { type: 'bool', default: false },
  enable_open_files: { type: 'bool', default: false },
  only_container_processes: { type: 'bool', default: false },
} as const

interface Host {
  bootMs: number
  uptime: number
  memTotal: number
  users: Map<number, string>
}

class HostProcesses implements PolledInput {
  readonly kind = 'polled'
  readonly category = 'object'
  private lastTicks = new Map<number, [number, number]>()

  constructor(
    readonly interval: number,
    private readonly env: InputEnv,
    private readonly minRunMs: number,
    private readonly withOpenFiles: boolean,
  ) {}

  async collect(ctx: CollectContext) {
    const host: Host = {
      bootMs: (parseKeyValues(read('stat')).get('btime') ?? 0) * 1000,
      uptime: parseUptime(read('uptime')),
      memTotal: parseMeminfo(read('meminfo')).get('MemTotal') ?? 0,
      users: readUsers(),
    }
    const points = []
    const seen = new Map<number, [number, number]>()
    for (const name of fs.readdirSync('/proc')) {
      if (!/^\d+$/.test(name)) continue
      if (ctx.signal.aborted) break
      const p = this.one(Number(name), host, ctx.now, seen)
      if (p) points.push(p)
    }
    this.lastTicks = seen
    return points
  }

  private one(pid: number, h: Host, now: bigint, seen: Map<number, [number, number]>) {
    let st: PidStat, status: Map<string, string>, cmdline: string
    try {
      st = parsePidStat(fs.readFileSync(`/proc/${pid}/stat`, 'utf8'))
      status = parseStatus(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))
      cmdline = cmdlineOf(fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8'))
    } catch {
      return null // the process ended while being read
    }
    const startMs = h.bootMs + (st.starttime * 1000) / HZ
    const ranSecs = h.uptime - st.starttime / HZ
    if (Date.now() - startMs < this.minRunMs && pid !== process.pid) return null
    const ticks = st.utime + st.stime
    seen.set(pid, [ticks, Date.now()])
    const proc = { pid, st, status, cmdline, startMs, ranSecs, ticks }
    const b = baseFields(
      proc,
      h,
      new PointBuilder('host_processes', now).tag('name', `${this.env.host}_${pid}`),
    )
    this.optionalFields(proc, b)
    return withMessage(b)
  }

  /** What only some processes have: a CPU rate since the last collection, switches, files. */
  private optionalFields(p: Proc, b: PointBuilder): void {
    const last = this.lastTicks.get(p.pid)
    if (last) {
      const secs = (Date.now() - last[1]) / 1000
      if (secs > 0) b.float('cpu_usage_top', (100 * (p.ticks - last[0])) / HZ / secs)
    }
    const vol = p.status.get('voluntary_ctxt_switches')
    if (vol) b.int('voluntary_ctxt_switches', Number(vol))
    const nonvol = p.status.get('nonvoluntary_ctxt_switches')
    if (nonvol) b.int('nonvoluntary_ctxt_switches', Number(nonvol))
    const fds = this.withOpenFiles ? openFiles(p.pid) : null
    if (fds !== null) b.int('open_files', fds)
    try {
      b.str('work_directory', fs.readlinkSync(`/proc/${p.pid}/cwd`))
    } catch {
      // Another user's process: its working directory is not ours to read.
    }
  }
}

/** One process as read from /proc. */
interface Proc {
  pid: number
  st: PidStat
  status: Map<string, string>
  cmdline: string
  startMs: number
  ranSecs: number
  ticks: number
}

/** The tags and fields every process has. */
function baseFields(p: Proc, h: Host, b: PointBuilder): PointBuilder {
  const { st, pid } = p
  const uid = Number((p.status.get('Uid') ?? '').split(/\s+/)[0])
  const rss = st.rssPages * PAGE
  return b
    .tag('process_name', st.comm)
    .tag('state', stateName(st.state))
    .tag('username', h.users.get(uid) ?? String(uid))
    .int('pid', pid)
    .str('cmdline', p.cmdline || `[${st.comm}]`)
    .int('start_time', Math.round(p.startMs))
    .int('started_duration', Math.max(0, Math.floor((Date.now() - p.startMs) / 1000)))
    .float('cpu_usage', p.ranSecs > 0 ? (100 * p.ticks) / HZ / p.ranSecs : 0)
    .float('mem_used_percent', h.memTotal ? (100 * rss) / h.memTotal : 0)
    .int('rss', rss)
    .int('vms', st.vsize)
    .int('threads', st.threads)
    .bool('state_zombie', st.state === 'Z')
    .int('page_minor_faults', st.minflt)
    .int('page_major_faults', st.majflt)
    .int('page_children_minor_faults', st.cminflt)
    .int('page_children_major_faults', st.cmajflt)
}

/** `message`: the object's tags and fields as one JSON object, as the reference sends it. */
function withMessage(b: PointBuilder) {
  const entries = [
    ...b.point.tags.map((t) => [t.key, t.value]),
    ...b.point.fields.map((f) => [f.key, typeof f.value === 'bigint' ? String(f.value) : f.value]),
  ]
  b.str('message', JSON.stringify(Object.fromEntries(entries)))
  return b.point
}

export const hostProcessesInput = defineInput({
  name: 'host_processes',
  schema: SCHEMA,
  create: (c, env) => new HostProcesses(c.interval, env, c.min_run_time, c.enable_open_files),
})
