/**
 * Logged-in users from the utmp file (glibc layout on Linux: 384-byte records, `ut_type` first;
 * 7 = USER_PROCESS), as the reference's `n_users` counts them.
 */
import fs from 'node:fs'

const RECORD = 384
const USER_PROCESS = 7

export function countUsers(buf: Uint8Array): number {
  const view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength)
  let n = 0
  for (let off = 0; off + RECORD <= buf.length; off += RECORD)
    if (view.getInt32(off, true) === USER_PROCESS) n++
  return n
}

export function usersNow(file = '/var/run/utmp'): number {
  try {
    return countUsers(fs.readFileSync(file))
  } catch {
    // No utmp (containers, minimal systems): nobody is logged in through it.
    return 0
  }
}
