/**
 * The `logging` input at work: every poll it lists the files the globs match (taking up new
 * ones), reads each followed file's new lines and emits them as logging points. A batch's
 * position is saved only after `emit` resolved, i.e. once its points are in the disk buffer: a
 * crash re-sends at most the batch in flight, and loses nothing.
 */
import fs from 'node:fs'
import path from 'node:path'
import { FerryError } from '../../errors.js'
import type { Emit, InputEnv, StreamingInput } from '../input.js'
import { PointBuilder } from '../point-builder.js'
import { FileTail, type TailOptions } from './file-tail.js'
import { expand } from './glob.js'
import { positionKey, PositionStore } from './positions.js'
import type { Message } from './reader.js'

export interface TailSettings {
  name: string
  logfiles: string[]
  ignore: string[]
  source: string
  service: string
  /** Pipeline script selector for the points. */
  pipeline: string
  fromBeginning: boolean
  /** Files not written for this long (ms) are not followed; 0: all are. */
  ignoreDeadLog: number
  pollMs: number
  storeFile: string
  tail: TailOptions
}

export class TailInput implements StreamingInput {
  readonly kind = 'streaming'
  private readonly tails = new Map<string, FileTail>()
  private readonly binary = new Set<string>()
  private readonly store: PositionStore
  private emit: Emit | null = null
  private firstScan = true
  private timer: NodeJS.Timeout | null = null
  private ticking: Promise<void> | null = null
  private stopped = false

  constructor(
    private readonly s: TailSettings,
    private readonly env: InputEnv,
  ) {
    this.store = new PositionStore(s.storeFile)
  }

  async start(emit: Emit): Promise<void> {
    this.emit = emit
    this.stopped = false
    this.schedule(0)
  }

  async shutdown(): Promise<void> {
    this.stopped = true
    if (this.timer) clearTimeout(this.timer)
    await this.ticking
    for (const t of this.tails.values()) await t.close()
    this.tails.clear()
  }

  private schedule(ms: number): void {
    this.timer = setTimeout(() => {
      this.ticking = this.tick().finally(() => {
        if (!this.stopped) this.schedule(this.s.pollMs)
      })
    }, ms)
  }

  private async tick(): Promise<void> {
    try {
      await this.scan()
    } catch (e) {
      this.fail(`scan: ${(e as Error).message}`)
    }
    for (const [file, t] of this.tails) {
      if (this.stopped) return
      try {
        const r = await t.poll(this.send)
        if (r === 'finished' || this.dead(t.lastGrowth)) await this.drop(file, t)
      } catch (e) {
        this.fail(`${file}: ${(e as Error).message}`)
      }
      const cut = t.takeTruncated()
      if (cut) this.env.events.truncated(this.s.name, cut)
    }
  }

  private dead(mtimeMs: number): boolean {
    return this.s.ignoreDeadLog > 0 && Date.now() - mtimeMs > this.s.ignoreDeadLog
  }

  private async drop(file: string, t: FileTail): Promise<void> {
    this.tails.delete(file)
    await t.close()
  }

  private async scan(): Promise<void> {
    const first = this.firstScan
    this.firstScan = false
    let added = false
    // Positions kept: files followed, and files still there (a dead log may come back to life).
    const live = new Set([...this.tails.values()].map((t) => positionKey(t.file, t.ino)))
    for (const file of expand(this.s.logfiles, this.s.ignore)) {
      const st = await fs.promises.stat(file).catch(() => null)
      if (st) live.add(positionKey(file, st.ino))
      if (this.tails.has(file)) continue
      if (!st || this.binary.has(positionKey(file, st.ino)) || this.dead(st.mtimeMs)) continue
      const t = await FileTail.open(
        file,
        (ino, size) => this.startAt(file, ino, size, first),
        this.s.tail,
      )
      if (t === 'binary') {
        this.binary.add(positionKey(file, st.ino))
        this.env.events.warned(this.s.name, 'binary file skipped', { file })
      } else if (t) {
        this.tails.set(file, t)
        this.store.set(file, t.ino, t.committed)
        added = true
      }
    }
    // Recorded at once: after a crash, a file found while running resumes where it was taken
    // up instead of at its end, which would lose what was written while the agent was down.
    this.store.keepOnly(live)
    if (added) await this.store.save()
  }

  /** A saved position; else the start for a file that appeared while running or a successor. */
  private startAt(file: string, ino: number, size: number, first: boolean): number {
    const saved = this.store.get(file, ino)
    if (saved !== undefined) return saved
    if (!first || this.s.fromBeginning || this.store.hasPath(file)) return 0
    return size
  }

  private readonly send = async (t: FileTail, messages: Message[]): Promise<void> => {
    if (!this.emit) return
    await this.emit(this.points(t.file, messages), { category: 'logging', source: this.s.pipeline })
    this.store.set(t.file, t.ino, messages.at(-1)!.end)
    await this.store.save()
  }

  private points(file: string, messages: Message[]) {
    const now = BigInt(Date.now()) * 1_000_000n
    const filename = path.basename(file)
    // One microsecond apart, in file order: points of one batch keep their order downstream.
    return messages.map(
      (m, i) =>
        new PointBuilder(this.s.source, now - BigInt(messages.length - i) * 1000n)
          .tag('service', this.s.service)
          .tag('filename', filename)
          .str('message', m.text).point,
    )
  }

  private fail(message: string): void {
    this.env.events.failed(this.s.name, new FerryError('collectFailed', message))
  }
}
