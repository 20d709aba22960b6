/**
 * Where each tailed file was acknowledged up to: a JSON file under `<data_dir>/tail/`, keyed by
 * path and inode (a rotated file's successor under the same path starts afresh). It is written
 * to a temporary file, synced and renamed, so a `kill -9` leaves the old or the new version,
 * never half of one. Offsets are recorded only once the points before them are in the buffer.
 */
import fs from 'node:fs'
import path from 'node:path'

export const positionKey = (file: string, ino: number) => `${file}\u0000${ino}`

export class PositionStore {
  private positions = new Map<string, number>()

  constructor(private readonly file: string) {
    try {
      const doc = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, number>
      for (const [k, v] of Object.entries(doc))
        if (Number.isSafeInteger(v)) this.positions.set(k, v)
    } catch {
      // No store yet (first start) or an unreadable one: every file starts as a new one.
    }
  }

  get(file: string, ino: number): number | undefined {
    return this.positions.get(positionKey(file, ino))
  }

  /** Whether any version of `file` was followed: a new inode there is its successor. */
  hasPath(file: string): boolean {
    for (const k of this.positions.keys()) if (k.startsWith(`${file}\u0000`)) return true
    return false
  }

  set(file: string, ino: number, offset: number): void {
    this.positions.set(positionKey(file, ino), offset)
  }

  /** Forgets files no longer followed, so the store does not grow with every rotation. */
  keepOnly(keys: Set<string>): void {
    for (const k of this.positions.keys()) if (!keys.has(k)) this.positions.delete(k)
  }

  async save(): Promise<void> {
    await fs.promises.mkdir(path.dirname(this.file), { recursive: true })
    const tmp = `${this.file}.tmp`
    const fh = await fs.promises.open(tmp, 'w')
    try {
      await fh.writeFile(JSON.stringify(Object.fromEntries(this.positions)))
      await fh.sync()
    } finally {
      await fh.close()
    }
    await fs.promises.rename(tmp, this.file)
  }
}
