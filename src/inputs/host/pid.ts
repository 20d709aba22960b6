/** One process's /proc files: stat, status, cmdline, fds, and user names from /etc/passwd. */
import fs from 'node:fs'

/** Clock ticks per second of /proc times (USER_HZ, 100 on every Linux ABI). */
export const HZ = 100
export const PAGE = 4096

export interface PidStat {
  pid: number
  comm: string
  state: string
  utime: number
  stime: number
  threads: number
  /** Ticks after boot. */
  starttime: number
  vsize: number
  rssPages: number
  minflt: number
  cminflt: number
  majflt: number
  cmajflt: number
}

/** `comm` may hold spaces and parentheses: it ends at the last `)`. */
export function parsePidStat(text: string): PidStat {
  const open = text.indexOf('(')
  const close = text.lastIndexOf(')')
  const f = text.slice(close + 2).split(' ')
  // f[0] is field 3 (state) of proc(5); field n is f[n - 3].
  const n = (field: number) => Number(f[field - 3])
  return {
    pid: Number(text.slice(0, open)),
    comm: text.slice(open + 1, close),
    state: f[0],
    utime: n(14),
    stime: n(15),
    threads: n(20),
    starttime: n(22),
    vsize: n(23),
    rssPages: n(24),
    minflt: n(10),
    cminflt: n(11),
    majflt: n(12),
    cmajflt: n(13),
  }
}

const STATES: Record<string, string> = {
  R: 'running',
  S: 'sleep',
  D: 'wait',
  T: 'stop',
  t: 'stop',
  Z: 'zombie',
  X: 'dead',
  I: 'idle',
  W: 'wait',
}
export const stateName = (c: string) => STATES[c] ?? c

export function parseStatus(text: string): Map<string, string> {
  const out = new Map<string, string>()
  for (const line of text.split('\n')) {
    const i = line.indexOf(':')
    if (i > 0) out.set(line.slice(0, i), line.slice(i + 1).trim())
  }
  return out
}

export function readUsers(file = '/etc/passwd'): Map<number, string> {
  const out = new Map<number, string>()
  try {
    for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
      const [name, , uid] = line.split(':')
      if (name && uid) out.set(Number(uid), name)
    }
  } catch {
    // No passwd file (a scratch container): user names fall back to numeric ids.
  }
  return out
}

export const cmdlineOf = (raw: string) => raw.replace(/\0+$/, '').replace(/\0/g, ' ')

export function openFiles(pid: number): number | null {
  try {
    return fs.readdirSync(`/proc/${pid}/fd`).length
  } catch {
    return null
  }
}
