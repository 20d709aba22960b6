/**
 * `ferry buffer inspect | verify [--repair]`: the buffer's identity, per category counts, damage
 * and dead letters. Inspect and plain verify never change anything; repair opens the buffer as
 * the agent does, which drops damaged records and refuses a buffer its ledger says lost data.
 */
import fs from 'node:fs'
import { join } from 'node:path'
import { open, type RootDatabase } from 'lmdb'
import { FerryError } from '../../errors.js'
import { CATEGORY_NAMES, type Category } from '../../shared/category.js'
import { DiskBuffer } from './disk-buffer.js'
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
    let damaged = 0
    const categories = CATEGORY_NAMES.map((category) => {
      const stats = new CategoryStats()
      const name = `cat:${category}`
      if (names.has(name)) damaged += readCategory(env, name, category, stats)
      const s = stats.get(category)
      return { category, ...counters(s), oldestAgeSeconds: ageSeconds(s.oldest, now) }
    })
    const deadLetters = names.has('dead') ? env.openDB({ name: 'dead' }).getCount() : 0
    const id = names.has('meta')
      ? env.openDB<unknown, string>({ name: 'meta' }).get('identity')
      : null
    return { path, id: typeof id === 'string' ? id : null, categories, damaged, deadLetters }
  } finally {
    env.close()
  }
}

type Key = [number, number, number, number]

/** Adds the category's sound records to `stats`; returns how many are damaged. */
function readCategory(env: RootDatabase, name: string, c: Category, stats: CategoryStats): number {
  const db = env.openDB<Buffer, Key>({ name, encoding: 'binary' })
  let damaged = 0
  for (const { key, value } of db.getRange()) {
    try {
      decodeRecord(value)
      stats.add(c, key[3], key[2], key[1])
    } catch {
      damaged++
    }
  }
  return damaged
}

function counters(s: CategoryCounters): { batches: number; points: number; bytes: number } {
  return { batches: s.batches, points: s.points, bytes: s.bytes }
}

/** `verify --repair`: opens the buffer as the agent does, which drops damaged records. */
export async function repairBuffer(path: string): Promise<BufferReport> {
  requireBuffer(path)
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
  await buf.shutdown()
  return { ...inspectBuffer(path), damaged }
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
  return lines.join('\n')
}
