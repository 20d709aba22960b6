/**
 * `disk` (reference measurement `disk`, tags device, fstype, mount_point, disk_name): statfs of
 * every mount that passes the reference's filters. Sizes in bytes; `used` counts blocks not
 * free (reserved blocks included), `free` those available to users, as df does.
 */
import fs from 'node:fs'
import path from 'node:path'
import { commonKeys } from '../conf/common.js'
import { defineInput, type CollectContext, type PolledInput } from '../input.js'
import { PointBuilder } from '../point-builder.js'
import { filterMounts, parseMounts, type MountFilter } from './mounts.js'
import { read } from './procfs.js'

const regexCheck = (v: string) => {
  try {
    new RegExp(v)
    return undefined
  } catch (e) {
    return (e as Error).message
  }
}

const SCHEMA = {
  ...commonKeys(10_000),
  only_physical_device: { type: 'bool', default: false },
  merge_on_device: { type: 'bool', default: true },
  use_nsenter: { type: 'bool', default: false },
  extra_device: { type: 'strings', default: [] },
  exclude_device: { type: 'strings', default: [] },
  ignore_fstypes: {
    type: 'string',
    default: '^(tmpfs|autofs|binfmt_misc|devpts|fuse.lxcfs|overlay|proc|squashfs|sysfs)$',
    check: regexCheck,
  },
  ignore_mountpoints: {
    type: 'string',
    default: '^(/usr/local/datakit/.*|/run/containerd/.*)$',
    check: regexCheck,
  },
} as const

export interface DiskUsage {
  total: number
  free: number
  used: number
  inodesTotal: number
  inodesFree: number
}

export function usageOf(s: fs.StatsFs): DiskUsage {
  return {
    total: s.blocks * s.bsize,
    free: s.bavail * s.bsize,
    used: (s.blocks - s.bfree) * s.bsize,
    inodesTotal: s.files,
    inodesFree: s.ffree,
  }
}

function diskPoint(
  now: bigint,
  m: { device: string; fstype: string; mountPoint: string },
  u: DiskUsage,
) {
  const inodesUsed = u.inodesTotal - u.inodesFree
  return new PointBuilder('disk', now)
    .tag('device', m.device)
    .tag('fstype', m.fstype)
    .tag('mount_point', m.mountPoint)
    .tag('disk_name', path.basename(m.device))
    .int('total', u.total)
    .int('free', u.free)
    .int('used', u.used)
    .float('used_percent', u.total ? (100 * u.used) / u.total : 0)
    .int('inodes_total_mb', Math.floor(u.inodesTotal / 1_000_000))
    .int('inodes_free_mb', Math.floor(u.inodesFree / 1_000_000))
    .int('inodes_used_mb', Math.floor(inodesUsed / 1_000_000))
    .float('inodes_used_percent', u.inodesTotal ? (100 * inodesUsed) / u.inodesTotal : 0)
    .int('inodes_total', u.inodesTotal)
    .int('inodes_free', u.inodesFree)
    .int('inodes_used', inodesUsed).point
}

class Disk implements PolledInput {
  readonly kind = 'polled'
  readonly category = 'metric'
  constructor(
    readonly interval: number,
    private readonly filter: MountFilter,
  ) {}

  async collect(ctx: CollectContext) {
    const mounts = filterMounts(parseMounts(read('self/mounts')), this.filter)
    const points = []
    for (const m of mounts) {
      // A mount that vanished or denies access is skipped, as df skips it.
      const s = await fs.promises.statfs(m.mountPoint).catch(() => null)
      if (s && s.blocks > 0) points.push(diskPoint(ctx.now, m, usageOf(s)))
    }
    return points
  }
}

export const diskInput = defineInput({
  name: 'disk',
  schema: SCHEMA,
  create: (c) =>
    new Disk(c.interval, {
      ignoreFstypes: c.ignore_fstypes ? new RegExp(c.ignore_fstypes) : null,
      ignoreMountpoints: c.ignore_mountpoints ? new RegExp(c.ignore_mountpoints) : null,
      extraDevice: c.extra_device,
      excludeDevice: c.exclude_device,
      mergeOnDevice: c.merge_on_device,
    }),
})
