/**
 * The durable session replay queue: one file per upload (a JSON header line, then the body
 * as received), written to a temporary name, fsynced, renamed and the folder fsynced, so an
 * upload answered 200 survives a crash. Names sort in arrival order.
 */
import { promises as fs } from 'node:fs'
import path from 'node:path'
import { FerryError } from '../../errors.js'

export interface ReplayItem {
  id: string
  contentType: string
  body: Uint8Array
}

export class ReplayQueue {
  private seq = 0
  private bytes: number | null = null
  private wake: (() => void) | null = null

  constructor(
    readonly dir: string,
    private readonly maxBytes: number,
  ) {}

  async push(contentType: string, body: Uint8Array): Promise<void> {
    const used = await this.used()
    if (used + body.length > this.maxBytes)
      throw new FerryError('replayQueueFull', 'the session replay queue is full', { retryAfter: 5 })
    const id = `${Date.now().toString().padStart(15, '0')}-${process.pid}-${(this.seq++).toString().padStart(6, '0')}.replay`
    const tmp = path.join(this.dir, `.${id}.tmp`)
    try {
      const fh = await fs.open(tmp, 'w', 0o600)
      try {
        await fh.writeFile(
          Buffer.concat([Buffer.from(JSON.stringify({ contentType }) + '\n'), body]),
        )
        await fh.sync()
      } finally {
        await fh.close()
      }
      await fs.rename(tmp, path.join(this.dir, id))
      await syncDir(this.dir)
    } catch (e) {
      await fs.rm(tmp, { force: true })
      throw new FerryError('replayQueueFull', `replay queue: ${(e as Error).message}`, { cause: e })
    }
    this.bytes = used + body.length
    this.wake?.()
  }

  async open(): Promise<void> {
    await fs.mkdir(this.dir, { recursive: true, mode: 0o700 })
    for (const f of await fs.readdir(this.dir))
      if (f.endsWith('.tmp')) await fs.rm(path.join(this.dir, f), { force: true })
  }

  async ids(): Promise<string[]> {
    return (await fs.readdir(this.dir)).filter((f) => f.endsWith('.replay')).sort()
  }

  async read(id: string): Promise<ReplayItem> {
    const raw = await fs.readFile(path.join(this.dir, id))
    const nl = raw.indexOf(10)
    const head = JSON.parse(raw.subarray(0, nl).toString('utf8')) as { contentType: string }
    return { id, contentType: head.contentType, body: raw.subarray(nl + 1) }
  }

  async remove(id: string): Promise<void> {
    await fs.rm(path.join(this.dir, id), { force: true })
    this.bytes = null
  }

  /** Resolves at the next push or after `ms`. */
  waitForPush(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = (): void => {
        clearTimeout(timer)
        if (this.wake === done) this.wake = null
        resolve()
      }
      const timer = setTimeout(done, ms)
      this.wake = done
    })
  }

  private async used(): Promise<number> {
    if (this.bytes !== null) return this.bytes
    let total = 0
    for (const id of await this.ids()) total += (await fs.stat(path.join(this.dir, id))).size
    return (this.bytes = total)
  }
}

async function syncDir(dir: string): Promise<void> {
  const fh = await fs.open(dir, 'r')
  try {
    await fh.sync()
  } finally {
    await fh.close()
  }
}
