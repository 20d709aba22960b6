/**
 * `ferry buffer inspect | verify` and the start-up probe. Opening a damaged LMDB file can take
 * a process down, so the agent first verifies its buffer in a child process; if that child
 * dies, the buffer is moved aside (never deleted) and its readable records are salvaged into a
 * fresh buffer, again in a child, so the agent never crash-loops on a bad buffer.
 */
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import { CATEGORY_NAMES } from '../../shared/category.js'
import { DiskBuffer } from './disk-buffer.js'
import type { SalvageReport } from './salvage.js'
import type { BufferEvents } from './types.js'

export interface BufferReport {
  path: string
  /** The buffer's identity, the first part of every package id it uploads. */
  id: string
  categories: {
    category: string
    batches: number
    points: number
    bytes: number
    oldestAgeSeconds: number | null
  }[]
  damaged: number
  deadLetters: number
}

/** Opens (verifying every record, dropping damaged ones) and reports. */
export async function inspectBuffer(path: string): Promise<BufferReport> {
  let damaged = 0
  const events: BufferEvents = {
    committed() {},
    pointsDropped() {},
    recordDamaged: () => void damaged++,
    storageFailed() {},
    recordsLost() {},
  }
  const buf = new DiskBuffer(
    { path, durability: 'sync', maxBytesPerCategory: Infinity, whenFull: 'reject', minFreeDisk: 0 },
    events,
  )
  await buf.start()
  const now = Date.now()
  const categories = CATEGORY_NAMES.map((category) => {
    const s = buf.categoryStats(category)
    return {
      category,
      batches: s.batches,
      points: s.points,
      bytes: s.bytes,
      oldestAgeSeconds: s.oldest === null ? null : Math.round((now - s.oldest) / 1000),
    }
  })
  const deadLetters = buf.deadLetters().length
  await buf.shutdown()
  return { path, id: buf.id, categories, damaged, deadLetters }
}

export function formatReport(r: BufferReport): string {
  const rows = r.categories.filter((c) => c.batches > 0)
  const lines = [
    `buffer ${r.path}`,
    `identity ${r.id}`,
    `${'category'.padEnd(14)} ${'batches'.padStart(8)} ${'points'.padStart(10)} ${'bytes'.padStart(12)} oldest`,
  ]
  for (const c of rows) {
    lines.push(
      `${c.category.padEnd(14)} ${String(c.batches).padStart(8)} ${String(c.points).padStart(10)} ${String(c.bytes).padStart(12)} ${c.oldestAgeSeconds}s`,
    )
  }
  if (!rows.length) lines.push('(empty)')
  lines.push(`damaged records skipped: ${r.damaged}`, `dead letters: ${r.deadLetters}`)
  return lines.join('\n')
}

export interface ProbeResult {
  /** What happened, for the log. */
  note: string
  /** The salvage's account, when it completed. */
  report: SalvageReport | null
}

/**
 * Verifies the buffer at `path` in a child process (`ferry buffer verify`). On an abnormal end
 * (a crash, or damage the ledger reveals), moves the directory aside and salvages it from its
 * raw bytes, again in a child. Returns null when the buffer is healthy.
 */
export function probeBuffer(path: string, mainScript: string): ProbeResult | null {
  if (!fs.existsSync(path)) return null
  const run = (args: string[]) =>
    spawnSync(process.execPath, [...process.execArgv, mainScript, 'buffer', ...args], {
      stdio: ['ignore', 'pipe', 'ignore'],
      encoding: 'utf8',
      timeout: 10 * 60_000,
    })
  const check = run(['verify', '--path', path])
  if (check.status === 0) return null
  const aside = `${path}.damaged-${Date.now()}`
  fs.renameSync(path, aside)
  const salvage = run(['salvage', '--from', aside, '--to', path, '--json'])
  let report: SalvageReport | null = null
  try {
    report = salvage.status === 0 ? (JSON.parse(salvage.stdout) as SalvageReport) : null
  } catch {
    report = null
  }
  const ended = report ? 'completed' : `ended early (${salvage.signal ?? salvage.status})`
  return {
    note: `buffer at ${path} failed verification (${check.signal ?? `exit ${check.status}`}); moved to ${aside}; salvage ${ended}`,
    report,
  }
}
