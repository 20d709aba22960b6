/**
 * Android and iOS zips are used extracted: `<platform>/<name>.zip` → `<platform>/<name>/`, as
 * the reference lays them out. Extracted on first use and again when the zip changes (its
 * size and mtime are kept in `<name>/.ferry-extracted`); written to a temporary folder first
 * and renamed into place, so a reader never sees half an extraction. Entries that would
 * leave the folder are skipped.
 */
import fs from 'node:fs'
import path from 'node:path'
import { unzipSync } from 'fflate'
import { safeEntryName } from '../sourcemap/names.js'

const STAMP = '.ferry-extracted'

/** The extracted folder of `zip`, or null when the zip is missing or unreadable. */
export async function extracted(zip: string): Promise<string | null> {
  const st = await fs.promises.stat(zip).catch(() => null)
  if (!st?.isFile()) return null
  const dir = zip.replace(/\.zip$/, '')
  const stamp = `${st.size}:${st.mtimeMs}`
  const seen = await fs.promises.readFile(path.join(dir, STAMP), 'utf8').catch(() => '')
  if (seen === stamp) return dir
  try {
    await extractTo(zip, dir, stamp)
    return dir
  } catch {
    return null
  }
}

async function extractTo(zip: string, dir: string, stamp: string): Promise<void> {
  const files = unzipSync(new Uint8Array(await fs.promises.readFile(zip)))
  const tmp = path.join(path.dirname(dir), `.${path.basename(dir)}.${process.pid}.${Date.now()}`)
  try {
    for (const [name, bytes] of Object.entries(files)) {
      const safe = safeEntryName(name)
      if (!safe || name.endsWith('/')) continue
      const to = path.join(tmp, safe)
      await fs.promises.mkdir(path.dirname(to), { recursive: true })
      await fs.promises.writeFile(to, bytes)
    }
    await fs.promises.mkdir(tmp, { recursive: true })
    await fs.promises.writeFile(path.join(tmp, STAMP), stamp)
    const old = `${tmp}.old`
    await fs.promises.rename(dir, old).catch(() => undefined)
    await fs.promises.rename(tmp, dir)
    await fs.promises.rm(old, { recursive: true, force: true })
  } finally {
    await fs.promises.rm(tmp, { recursive: true, force: true })
  }
}
