/**
 * One followed file, by polling: each `poll` reads what was appended since the last one, in
 * chunks of bounded size, and hands the messages to `send` in batches. The file is held open,
 * so a file renamed away (rotation) is read to its end before its successor is taken up; a
 * size below the read offset means it was truncated in place (copy-truncate): reading restarts
 * at 0. `committed` moves only after `send` resolves, i.e. once the points are durable.
 */
import fs from 'node:fs'
import { LineReader, type Message, type ReaderOptions } from './reader.js'

export interface TailOptions extends ReaderOptions {
  chunkBytes: number
  /** Messages per `send` at most: the most a crash may re-send for one file. */
  batch: number
}

export type Send = (tail: FileTail, messages: Message[]) => Promise<void>

/** What `poll` found: still following, or the file is finished (renamed away or deleted). */
export type PollResult = 'following' | 'finished'

const SNIFF_BYTES = 1024

export class FileTail {
  private reader: LineReader
  private readAt: number
  /** When a poll last found new bytes, ms since the epoch. */
  lastGrowth = Date.now()

  private constructor(
    readonly file: string,
    readonly ino: number,
    private readonly fh: fs.promises.FileHandle,
    private readonly o: TailOptions,
    public committed: number,
  ) {
    this.readAt = committed
    this.reader = new LineReader(o, committed)
  }

  /** Null when the file is gone or binary (a NUL byte in its first KiB). */
  static async open(
    file: string,
    startAt: (ino: number, size: number) => number,
    o: TailOptions,
  ): Promise<FileTail | 'binary' | null> {
    const fh = await fs.promises.open(file, 'r').catch(() => null)
    if (!fh) return null
    const st = await fh.stat()
    const head = Buffer.alloc(SNIFF_BYTES)
    const { bytesRead } = await fh.read(head, 0, SNIFF_BYTES, 0)
    if (head.subarray(0, bytesRead).includes(0)) {
      await fh.close()
      return 'binary'
    }
    const at = Math.min(startAt(st.ino, st.size), st.size)
    return new FileTail(file, st.ino, fh, o, at)
  }

  takeTruncated(): number {
    return this.reader.takeTruncated()
  }

  async poll(send: Send): Promise<PollResult> {
    const now = await fs.promises.stat(this.file).catch(() => null)
    if (!now || now.ino !== this.ino) {
      // Renamed away or deleted: whatever was written before that is still ours to send.
      await this.drain(send, true)
      return 'finished'
    }
    if ((await this.fh.stat()).size < this.readAt) this.restart()
    await this.drain(send, false)
    return 'following'
  }

  async close(): Promise<void> {
    await this.fh.close().catch(() => undefined)
  }

  private restart(): void {
    this.committed = 0
    this.rewind()
  }

  /** Reads again from the last acknowledged offset: what followed it was never stored. */
  private rewind(): void {
    this.readAt = this.committed
    this.reader = new LineReader(this.o, this.committed)
  }

  /** Reads to the end of the file; `eof`: the file will not grow again. */
  private async drain(send: Send, eof: boolean): Promise<void> {
    const buf = Buffer.alloc(this.o.chunkBytes)
    const batch: Message[] = []
    let grew = false
    for (;;) {
      const { bytesRead } = await this.fh.read(buf, 0, buf.length, this.readAt)
      if (bytesRead === 0) break
      grew = true
      this.readAt += bytesRead
      batch.push(...this.reader.push(buf.subarray(0, bytesRead)))
      while (batch.length >= this.o.batch) await this.sendBatch(send, batch.splice(0, this.o.batch))
    }
    if (grew) this.lastGrowth = Date.now()
    // A quiet file closes its open multiline entry: its writer may never add to it.
    else batch.push(...this.reader.flush(eof))
    if (eof && grew) batch.push(...this.reader.flush(true))
    await this.sendBatch(send, batch)
  }

  private async sendBatch(send: Send, batch: Message[]): Promise<void> {
    if (!batch.length) return
    try {
      await send(this, batch)
    } catch (e) {
      // Not stored (buffer full, disk error): the next poll sends these lines again.
      this.rewind()
      throw e
    }
    this.committed = batch.at(-1)!.end
  }
}
