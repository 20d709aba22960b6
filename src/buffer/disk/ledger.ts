/**
 * A small JSON file beside the LMDB files that says what the buffer held a moment ago: its
 * identity, the highest seq handed out, every reader's cursor and plan, and per category how
 * many records and points were waiting. LMDB has no page checksums: a damaged meta page rolls
 * the database back silently, and a truncated file opens empty. The ledger is how a start
 * notices that the buffer holds less than it did, and how a salvage knows what it recovered,
 * what was already delivered, and what is lost.
 *
 * It is advisory and cheap: rewritten (temp file + rename) at most once per `intervalMs` after
 * a change, and at shutdown. So it may lag the buffer by that much; a loss inside that lag is
 * not noticed, and counts derived from it are lower bounds.
 */
import fs from 'node:fs'
import path from 'node:path'
import { CATEGORY_NAMES, type Category } from '../../shared/category.js'
import type { PositionValue } from './positions.js'
import type { CategoryStats } from './stats.js'

export interface LedgerCategory {
  records: number
  points: number
  /** Highest seq ever pushed to this category (0 when none). */
  lastSeq: number
}

export interface LedgerData {
  version: 1
  identity: string
  /** Highest seq handed out. */
  lastSeq: number
  /** `cursor:<reader>` and `plan:<reader>` entries of the buffer's meta. */
  positions: Record<string, PositionValue>
  categories: Partial<Record<Category, LedgerCategory>>
  writtenAt: number
}

export const LEDGER_FILE = 'ledger.json'

/** The ledger of the buffer in `dir`, or null when there is none or it cannot be read. */
export function readLedger(dir: string): LedgerData | null {
  try {
    const data = JSON.parse(fs.readFileSync(path.join(dir, LEDGER_FILE), 'utf8')) as LedgerData
    return data?.version === 1 && typeof data.lastSeq === 'number' ? data : null
  } catch {
    return null
  }
}

export function writeLedger(dir: string, data: LedgerData): void {
  const file = path.join(dir, LEDGER_FILE)
  const tmp = `${file}.tmp`
  fs.writeFileSync(tmp, JSON.stringify(data))
  fs.renameSync(tmp, file)
}

/** Rewrites the ledger after changes, at most once per interval. */
export class LedgerWriter {
  private timer: NodeJS.Timeout | null = null

  constructor(
    private readonly dir: string,
    private readonly snapshot: () => LedgerData,
    private readonly intervalMs = 1000,
    private readonly onError: (e: unknown) => void = () => undefined,
  ) {}

  touch(): void {
    if (this.timer) return
    this.timer = setTimeout(() => {
      this.timer = null
      this.write()
    }, this.intervalMs)
    this.timer.unref()
  }

  write(): void {
    try {
      writeLedger(this.dir, this.snapshot())
    } catch (e) {
      this.onError(e)
    }
  }

  /** Writes now if a change is pending; used at shutdown. */
  flush(): void {
    if (!this.timer) return
    clearTimeout(this.timer)
    this.timer = null
    this.write()
  }
}

/**
 * Why a buffer holds less than its ledger says it did, or null. A lost meta page rolls LMDB back
 * silently and a truncated file opens empty: such a buffer must be salvaged, not used and
 * overwritten.
 */
export function ledgerMismatch(
  led: LedgerData | null,
  identityBefore: string | null,
  nextSeq: number,
): string | null {
  if (!led) return null
  if (identityBefore !== led.identity)
    return `its identity is ${identityBefore ?? 'gone'}, the ledger says ${led.identity}`
  if (led.lastSeq >= nextSeq)
    return `it ends before seq ${led.lastSeq}, which the ledger says was handed out`
  return null
}

/** The ledger of a buffer in this state. */
export function snapshot(
  identity: string,
  lastSeq: number,
  positions: LedgerData['positions'],
  stats: CategoryStats,
  lastSeqOf: Map<Category, number>,
): LedgerData {
  const categories: LedgerData['categories'] = {}
  for (const c of CATEGORY_NAMES) {
    const s = stats.get(c)
    const last = lastSeqOf.get(c) ?? 0
    if (s.batches || last) categories[c] = { records: s.batches, points: s.points, lastSeq: last }
  }
  return { version: 1, identity, lastSeq, positions, categories, writtenAt: Date.now() }
}
