/**
 * `hostobject`: the object `HOST` (class `HOST`, named by the host): OS, arch, CPU model,
 * memory, disks, interfaces and addresses, uptime and the agent's version, with the whole
 * description and the inputs' recent errors as JSON in `message`, as the reference does.
 */
import fs from 'node:fs'
import os from 'node:os'
import { commonKeys } from '../conf/common.js'
import { defineInput, type CollectContext, type InputEnv, type PolledInput } from '../input.js'
import { PointBuilder } from '../point-builder.js'
import { usageOf } from './disk.js'
import { cpuModels, interfaces, memTotals, osRelease, unicastIp } from './host-info.js'
import { memFields } from './mem.js'
import { filterMounts, parseMounts } from './mounts.js'
import { parseKeyValues, parseLoadavg, parseMeminfo, parseUptime, read } from './procfs.js'

const SCHEMA = {
  ...commonKeys(300_000),
  ignore_zero_bytes_disk: { type: 'bool', default: true },
  only_physical_device: { type: 'bool', default: false },
  enable_cloud_host_tags_as_global_election_tags: { type: 'bool', default: true },
  enable_cloud_host_tags_as_global_host_tags: { type: 'bool', default: true },
  disable_cloud_provider_sync: { type: 'bool', default: false },
} as const

const MOUNT_FILTER = {
  ignoreFstypes: /^(tmpfs|autofs|binfmt_misc|devpts|fuse.lxcfs|overlay|proc|squashfs|sysfs)$/,
  ignoreMountpoints: null,
  extraDevice: [],
  excludeDevice: [],
  mergeOnDevice: true,
}

async function disks() {
  const out = []
  for (const m of filterMounts(parseMounts(read('self/mounts')), MOUNT_FILTER)) {
    const s = await fs.promises.statfs(m.mountPoint).catch(() => null)
    if (!s || s.blocks === 0) continue
    const u = usageOf(s)
    const used_percent = u.total ? (100 * u.used) / u.total : 0
    out.push({
      device: m.device,
      total: u.total,
      used: u.used,
      free: u.free,
      used_percent,
      fstype: m.fstype,
      mountpoint: m.mountPoint,
    })
  }
  return out
}

/** The message's `host.meta`: the host's name, boot time, OS and kernel. */
function hostMeta(host: string, bootTime: number) {
  const rel = osRelease()
  return {
    host_name: host,
    boot_time: bootTime,
    os: 'linux',
    platform: rel.ID ?? '',
    platform_family: rel.ID_LIKE ?? '',
    platform_version: rel.VERSION_ID ?? '',
    kernel_release: os.release(),
    arch: os.machine(),
  }
}

class HostObject implements PolledInput {
  readonly kind = 'polled'
  readonly category = 'object'
  constructor(
    readonly interval: number,
    private readonly env: InputEnv,
  ) {}

  async collect(ctx: CollectContext) {
    const bootTime = parseKeyValues(read('stat')).get('btime') ?? 0
    const cpu = cpuModels(read('cpuinfo'))
    const disk = await disks()
    const mem = memFields(parseMeminfo(read('meminfo')))
    const diskTotal = disk.reduce((s, d) => s + d.total, 0)
    const diskUsed = disk.reduce((s, d) => s + d.used, 0)
    const meta = hostMeta(this.env.host, bootTime)
    const collectors = this.env
      .collectorErrors()
      .map((e) => ({ name: e.input, last_err: e.message, last_err_time: e.at }))
    const message = { host: { meta, cpu, mem: memTotals(), net: interfaces(), disk }, collectors }
    return [
      new PointBuilder('HOST', ctx.now)
        .tag('name', this.env.host)
        .tag('os', 'linux')
        .tag('arch', os.machine())
        .tag('unicast_ip', unicastIp())
        .str('message', JSON.stringify(message))
        .int('start_time', bootTime * 1000)
        .int('uptime', Math.floor(parseUptime(read('uptime'))))
        .str('datakit_ver', this.env.version)
        .int('num_cpu', os.cpus().length)
        .str('cpu_model', cpu[0]?.module_name ?? '')
        .float('mem_used_percent', mem.total ? (100 * mem.used) / mem.total : 0)
        .int('mem_total', mem.total)
        .float('load', parseLoadavg(read('loadavg'))[1])
        .int('disk_total', diskTotal)
        .float('disk_used_percent', diskTotal ? (100 * diskUsed) / diskTotal : 0)
        .str('os_platform', meta.platform)
        .str('kernel_release', meta.kernel_release)
        .int('is_docker', fs.existsSync('/.dockerenv') ? 1 : 0).point,
    ]
  }
}

export const hostobjectInput = defineInput({
  name: 'hostobject',
  schema: SCHEMA,
  create: (c, env) => new HostObject(c.interval, env),
})
