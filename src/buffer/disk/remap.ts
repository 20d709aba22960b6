/**
 * Bounds the buffer's resident pages. Every page of the LMDB file that a read goes through
 * stays resident in the process (counted in its RSS) for as long as the environment is open,
 * even once its records are uploaded and pruned: with a backlog the whole file ends up resident.
 * Closing the environment and opening it again gives those pages back (they stay in the page
 * cache, outside the process). So after `maxResident` bytes of records have been read back, the
 * next quiet moment reopens it.
 *
 * Invariants:
 * - Nothing touches the environment while it is closed: writes wait at the gate, which closes
 *   when a reopen is asked for; the reopen starts only once every write begun before it has
 *   settled and flushed, in a fresh event-loop turn (so no other code's continuation is queued),
 *   and the close completes within that turn's microtasks, the new environment opened right
 *   after; synchronous reads can only run in other turns.
 * - A reopen never loses or reorders anything: it only happens with no write in flight, and
 *   the records, cursors and plans are all in the file.
 * - Writes begun inside another write (an eviction inside a push) do not pass the gate again:
 *   the outer write already holds it open.
 * - `maxResident` 0: never.
 */
export interface Reopen {
  /** Settles every write the environment has (flush included). */
  settle(): Promise<void>
  /** Closes the environment and opens it again, all handles replaced. */
  reopen(): Promise<void>
}

export class Remapper {
  private writes = 0
  private readBytes = 0
  private gate: Promise<void> | null = null
  private openGate: (() => void) | null = null
  private running: Promise<void> | null = null
  private stopped = false

  constructor(
    private readonly maxResident: number,
    private readonly env: Reopen,
    private readonly onRemap: (readBytes: number, seconds: number) => void,
    private readonly onFailed: (e: unknown) => void,
  ) {}

  /** Runs a write once no reopen is under way. */
  async write<T>(op: () => Promise<T>): Promise<T> {
    while (this.gate) await this.gate
    this.writes++
    try {
      return await op()
    } finally {
      this.writes--
      this.maybeRun()
    }
  }

  /** Counts record bytes read back; past the bound, asks for a reopen. */
  read(bytes: number): void {
    if (this.maxResident <= 0 || this.stopped) return
    this.readBytes += bytes
    if (this.readBytes < this.maxResident || this.gate) return
    this.gate = new Promise((resolve) => (this.openGate = resolve))
    this.maybeRun()
  }

  private maybeRun(): void {
    if (!this.gate || this.running || this.writes > 0) return
    this.running = this.run()
      .catch((e: unknown) => this.onFailed(e))
      .finally(() => {
        this.running = null
        this.gate = null
        this.openGate?.()
        this.openGate = null
      })
  }

  private async run(): Promise<void> {
    const started = performance.now()
    await this.env.settle()
    // A fresh turn: the microtask queue is empty, so only the close's own continuations run
    // until the new environment is open.
    await new Promise((resolve) => setImmediate(resolve))
    if (this.stopped || this.writes > 0) return
    const bytes = this.readBytes
    this.readBytes = 0
    await this.env.reopen()
    this.onRemap(bytes, (performance.now() - started) / 1000)
  }

  /** No reopen after this; waits for one under way. Idempotent. */
  async stop(): Promise<void> {
    this.stopped = true
    await this.running
  }
}
