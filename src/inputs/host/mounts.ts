/** Mounted filesystems from /proc/self/mounts, filtered as the reference `disk` input does. */
export interface Mount {
  device: string
  mountPoint: string
  fstype: string
}

/** Fields of /proc/mounts escape space, tab, newline and backslash as octal (`\040`). */
const unescape = (s: string) =>
  s.replace(/\\([0-7]{3})/g, (_, o: string) => String.fromCharCode(parseInt(o, 8)))

export function parseMounts(text: string): Mount[] {
  const out: Mount[] = []
  for (const line of text.split('\n')) {
    const [device, mountPoint, fstype] = line.split(' ')
    if (device && mountPoint && fstype)
      out.push({ device: unescape(device), mountPoint: unescape(mountPoint), fstype })
  }
  return out
}

export interface MountFilter {
  ignoreFstypes: RegExp | null
  ignoreMountpoints: RegExp | null
  extraDevice: string[]
  excludeDevice: string[]
  mergeOnDevice: boolean
}

/** Devices under /dev (or listed in extra_device), not excluded; one mount per device if merged. */
export function filterMounts(mounts: Mount[], f: MountFilter): Mount[] {
  const seen = new Set<string>()
  return mounts.filter((m) => {
    const dev = m.device.startsWith('/dev') || f.extraDevice.includes(m.device)
    if (!dev || f.excludeDevice.includes(m.device)) return false
    if (f.ignoreFstypes?.test(m.fstype) || f.ignoreMountpoints?.test(m.mountPoint)) return false
    if (f.mergeOnDevice && seen.has(m.device)) return false
    seen.add(m.device)
    return true
  })
}
