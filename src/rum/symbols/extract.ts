/**
 * Android and iOS zips are used extracted: `<platform>/<name>.zip` → `<platform>/<name>/`, as
 * the reference lays them out. Extracted on first use and again when the zip changes (its
 * size and mtime are kept in `<name>/.ferry-extracted`); written to a temporary folder first
 * and renamed into place, so a reader never sees half an extraction. Entries that would
 * leave the folder are skipped. Entries stream to disk within the zip budget (`../zip/`); a
 * zip over it, or unreadable, is remembered by size and mtime and not tried again until it
 * changes.
 */
import fs from 'node:fs'
import path from 'node:path'
import { pipeline } from 'node:stream/promises'
import { LruMap } from '../../shared/lru.js'
import { safeEntryName } from '../sourcemap/names.js'
import { readZip, ZipRefused, type ZipBudget } from '../zip/bounded.js'

const STAMP = '.ferry-extracted'

/** `refused.fresh` is true for the one call whose extraction found the zip over budget. */
export type Extracted =
  { dir: string } | { missing: true } | { refused: { reason: string; fresh: boolean } }

export class Extractor {
  /** Zips that failed, by path: the stamp they had and what they gave. */
  private readonly failed = new LruMap<string, { stamp: string; outcome: Extracted }>(1_024)

  constructor(private readonly budget: ZipBudget) {}

  /** The extracted folder of `zip`; missing when the zip is missing or unreadable. */
  async extracted(zip: string): Promise<Extracted> {
    const st = await fs.promises.stat(zip).catch(() => null)
    if (!st?.isFile()) return { missing: true }
    const dir = zip.replace(/\.zip$/, '')
    const stamp = `${st.size}:${st.mtimeMs}`
    const seen = await fs.promises.readFile(path.join(dir, STAMP), 'utf8').catch(() => '')
    if (seen === stamp) return { dir }
    const known = this.failed.get(zip)
    if (known?.stamp === stamp) return known.outcome
    try {
      await extractTo(zip, dir, stamp, this.budget)
      return { dir }
    } catch (e) {
      const refused = e instanceof ZipRefused
      const outcome: Extracted = refused
        ? { refused: { reason: e.message, fresh: false } }
        : { missing: true }
      this.failed.set(zip, { stamp, outcome })
      return refused ? { refused: { reason: e.message, fresh: true } } : outcome
    }
  }
}

async function extractTo(zip: string, dir: string, stamp: string, budget: ZipBudget) {
  const tmp = path.join(path.dirname(dir), `.${path.basename(dir)}.${process.pid}.${Date.now()}`)
  try {
    await fs.promises.mkdir(tmp, { recursive: true })
    const want = (name: string): boolean => safeEntryName(name) !== null
    await readZip(zip, budget, want, async (name, data) => {
      const to = path.join(tmp, safeEntryName(name) as string)
      await fs.promises.mkdir(path.dirname(to), { recursive: true })
      await pipeline(data, fs.createWriteStream(to))
    })
    await fs.promises.writeFile(path.join(tmp, STAMP), stamp)
    const old = `${tmp}.old`
    await fs.promises.rename(dir, old).catch(() => undefined)
    await fs.promises.rename(tmp, dir)
    await fs.promises.rm(old, { recursive: true, force: true })
  } finally {
    await fs.promises.rm(tmp, { recursive: true, force: true })
  }
}
