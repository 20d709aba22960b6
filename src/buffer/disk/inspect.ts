/**
 * `ferry buffer inspect | verify [--repair]`: the buffer's identity, per category counts, damage
 * (damaged records per category, and whether the buffer holds less than its ledger says) and
 * dead letters. Inspect and plain verify never change anything; repair opens the buffer as
 * the agent does, which drops damaged records and refuses a buffer its ledger says lost data.
 */
import fs from 'node:fs'
import { join } from 'node:path'
import { open, type RootDatabase } from 'lmdb'
import { FerryError } from '../../errors.js'
import { CATEGORY_NAMES, type Category } from '../../shared/category.js'
import { DiskBuffer } from './disk-buffer.js'
import { ledgerMismatch, readLedger } from './ledger.js'
import { Positions } from './positions.js'
import { decodeRecord } from './record.js'
import { CategoryStats, type CategoryCounters } from './stats.js'
import type { BufferEvents } from './types.js'

export interface BufferReport {
  path: string
  /** The buffer's identity, the first part of every package id it uploads. */
  id: string | null
  categories: {
    category: string
    batches: number
    points: number
    bytes: number
    oldestAgeSeconds: number | null
  }[]
  damaged: number
  /** Damaged records per category (only categories with any). */
  damagedBy: Partial<Record<Category, number>>
  /** Why the buffer holds less than its ledger says (ledger.ts), or null. */
  mismatch: string | null
  deadLetters: number
}

/** A buffer directory must already hold a buffer: the tools never create one. */
function requireBuffer(path: string): void {
  if (!fs.existsSync(join(path, 'data.mdb')))
    throw new FerryError('fileUnreadable', `cannot read buffer ${path}: no such buffer`)
}

function ageSeconds(oldest: number | null, now: number): number | null {
  return oldest === null ? null : Math.round((now - oldest) / 1000)
}

/**
 * Reads and verifies every record without changing anything (LMDB opened read-only): damaged
 * records are counted, not dropped, so `inspect` and plain `verify` are safe on a live agent's
 * buffer and on evidence kept after a failure.
 */
export function inspectBuffer(path: string): BufferReport {
  requireBuffer(path)
  const env = open({ path, maxDbs: 16, readOnly: true, noSubdir: false })
  try {
    const now = Date.now()
    const names = new Set(env.getKeys() as Iterable<string>)
    const damagedBy: BufferReport['damagedBy'] = {}
    let highest = 0
    const categories = CATEGORY_NAMES.map((category) => {
      const stats = new CategoryStats()
      const name = `cat:${category}`
      if (names.has(name)) {
        const read = readCategory(env, name, category, stats)
        if (read.damaged) damagedBy[category] = read.damaged
        highest = Math.max(highest, read.highest)
      }
      const s = stats.get(category)
      return { category, ...counters(s), oldestAgeSeconds: ageSeconds(s.oldest, now) }
    })
    const deadLetters = names.has('dead') ? env.openDB({ name: 'dead' }).getCount() : 0
    const meta = names.has('meta') ? new Positions(env.openDB({ name: 'meta' })) : null
    const id = meta?.existingIdentity() ?? null
    // The same judgement as the agent's start (disk-buffer.ts), without changing anything.
    const next = Math.max(highest, meta?.highestSeen() ?? 0) + 1
    const mismatch = ledgerMismatch(readLedger(path), id, next)
    const damaged = Object.values(damagedBy).reduce((n, k) => n + k, 0)
    return { path, id, categories, damaged, damagedBy, mismatch, deadLetters }
  } finally {
    env.close()
  }
}

type Key = [number, number, number, number]

/** Adds the category's sound records to `stats`; counts the damaged ones, finds the last seq. */
function readCategory(env: RootDatabase, name: string, c: Category, stats: CategoryStats) {
  const db = env.openDB<Buffer, Key>({ name, encoding: 'binary' })
  let damaged = 0
  let highest = 0
  for (const { key, value } of db.getRange()) {
    highest = Math.max(highest, key[0])
    try {
      decodeRecord(value)
      stats.add(c, key[3], key[2], key[1])
    } catch {
      damaged++
    }
  }
  return { damaged, highest }
}

function counters(s: CategoryCounters): { batches: number; points: number; bytes: number } {
  return { batches: s.batches, points: s.points, bytes: s.bytes }
}

/** `verify --repair`: opens the buffer as the agent does, which drops damaged records. */
export async function repairBuffer(path: string): Promise<BufferReport> {
  requireBuffer(path)
  const damagedBy: BufferReport['damagedBy'] = {}
  const events: BufferEvents = {
    committed() {},
    pointsDropped() {},
    recordDamaged: (c) => void (damagedBy[c as Category] = (damagedBy[c as Category] ?? 0) + 1),
    storageFailed() {},
    recordsLost() {},
  }
  const buf = new DiskBuffer(
    { path, durability: 'sync', maxBytesPerCategory: Infinity, whenFull: 'reject', minFreeDisk: 0 },
    events,
  )
  await buf.start()
  await buf.shutdown()
  const damaged = Object.values(damagedBy).reduce((n, k) => n + k, 0)
  return { ...inspectBuffer(path), damaged, damagedBy }
}

export function formatReport(r: BufferReport): string {
  const rows = r.categories.filter((c) => c.batches > 0)
  const lines = [
    `buffer ${r.path}`,
    `identity ${r.id ?? '(none)'}`,
    `${'category'.padEnd(14)} ${'batches'.padStart(8)} ${'points'.padStart(10)} ${'bytes'.padStart(12)} oldest`,
  ]
  for (const c of rows) {
    lines.push(
      `${c.category.padEnd(14)} ${String(c.batches).padStart(8)} ${String(c.points).padStart(10)} ${String(c.bytes).padStart(12)} ${c.oldestAgeSeconds}s`,
    )
  }
  if (!rows.length) lines.push('(empty)')
  lines.push(`damaged records: ${r.damaged}`, `dead letters: ${r.deadLetters}`)
  if (r.mismatch) lines.push(`damaged: ${r.mismatch}`)
  return lines.join('\n')
}
