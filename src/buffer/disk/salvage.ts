/**
 * Salvage: rebuilds a buffer from a damaged one's raw bytes (scan.ts), never through LMDB's
 * own tree, which damage may have made unreadable, wrong or a crash hazard.
 *
 * - Keeps one copy per seq (old page copies repeat records) and only what some reader had not
 *   delivered, per the ledger's cursors; with no ledger everything found is kept.
 * - Keeps the identity, cursors and plans from the ledger, and puts the seq floor above every seq
 *   the ledger says was handed out, so no package id is ever reused for other content.
 * - Reports per category what it recovered and, against the ledger, what is lost (a lower
 *   bound: the ledger may lag the buffer by its write interval).
 */
import fs from 'node:fs'
import path from 'node:path'
import { open } from 'lmdb'
import { CATEGORY_NAMES, type Category } from '../../shared/category.js'
import { readLedger, writeLedger, type LedgerData } from './ledger.js'
import { Positions } from './positions.js'
import { scanFile, type Found } from './scan.js'

export interface CategoryCount {
  records: number
  points: number
}

export interface SalvageReport {
  identity: string | null
  recovered: Partial<Record<Category, CategoryCount>>
  lost: Partial<Record<Category, CategoryCount>>
  /** Records found that every reader had already delivered. */
  delivered: number
}

/** The lowest cursor over readers of `category` (`cursor:<upstream>:<category>`). */
function delivered(led: LedgerData | null, category: Category): number {
  if (!led) return 0
  const cursors = Object.entries(led.positions)
    .filter(
      ([k, v]) => k.startsWith('cursor:') && k.endsWith(`:${category}`) && typeof v === 'number',
    )
    .map(([, v]) => v as number)
  return cursors.length ? Math.min(...cursors) : 0
}

/** What to keep of the found records: one per seq, not yet delivered. */
function select(file: string, led: LedgerData | null): { keep: Found[]; delivered: number } {
  const bySeq = new Map<number, Found>()
  const noSeq: Found[] = []
  let done = 0
  if (!fs.existsSync(file)) return { keep: [], delivered: 0 }
  for (const f of scanFile(file)) {
    const seq = f.record.seq
    if (seq === undefined) noSeq.push(f)
    else if (seq <= delivered(led, f.record.category)) done++
    else if (!bySeq.has(seq)) bySeq.set(seq, f)
  }
  const keep = [...bySeq.values()].sort((a, b) => a.record.seq! - b.record.seq!)
  return { keep: [...keep, ...noSeq], delivered: done }
}

function count(found: Found[]): Partial<Record<Category, CategoryCount>> {
  const out: Partial<Record<Category, CategoryCount>> = {}
  for (const { record } of found) {
    const c = (out[record.category] ??= { records: 0, points: 0 })
    c.records++
    c.points += record.points
  }
  return out
}

function lostOf(led: LedgerData | null, recovered: Found[]): SalvageReport['lost'] {
  const lost: SalvageReport['lost'] = {}
  if (!led) return lost
  for (const c of CATEGORY_NAMES) {
    const had = led.categories[c]
    if (!had) continue
    const inRange = recovered.filter(
      (f) => f.record.category === c && (f.record.seq ?? 0) <= had.lastSeq,
    )
    const records = had.records - inRange.length
    const points = had.points - inRange.reduce((n, f) => n + f.record.points, 0)
    if (records > 0) lost[c] = { records, points: Math.max(0, points) }
  }
  return lost
}

export async function salvageBuffer(from: string, to: string): Promise<SalvageReport> {
  const led = readLedger(from)
  const { keep, delivered: done } = select(path.join(from, 'data.mdb'), led)
  fs.mkdirSync(to, { recursive: true })
  const env = open({ path: to, maxDbs: 16, pageSize: 16384, noSubdir: false })
  const positions = new Positions(env.openDB({ name: 'meta' }))
  const identity = await positions.identity(led?.identity)
  let next = Math.max(led?.lastSeq ?? 0, ...keep.map((f) => f.record.seq ?? 0)) + 1
  const dbs = new Map(
    CATEGORY_NAMES.map((c) => [
      c,
      env.openDB<Buffer, number[]>({ name: `cat:${c}`, encoding: 'binary' }),
    ]),
  )
  await env.transaction(() => {
    for (const { record, bytes } of keep) {
      // A version 1 record has no seq of its own: it goes above everything else.
      const seq = record.seq ?? next++
      void dbs
        .get(record.category)!
        .put([seq, record.receivedAt, record.points, bytes.length], bytes)
    }
  })
  await positions.restore(led?.positions ?? {}, next - 1)
  await env.close()
  const report = { identity, recovered: count(keep), lost: lostOf(led, keep), delivered: done }
  if (led) writeLedger(to, { ...led, lastSeq: next - 1, writtenAt: Date.now() })
  return report
}
