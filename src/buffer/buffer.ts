/**
 * The hand-off between the write path and the sinks, both sides of it.
 *
 * Write side (the HTTP source): a batch is the workers' output for one request, PBPoints bytes
 * plus what the uploader needs to send them. When `push` resolves, the batch is as safe as the
 * implementation promises (the durable one: committed to disk); when it rejects, nothing of it
 * was kept. Either way, once it settles the implementation holds nothing of the payload's
 * memory: the caller may reuse it (ingest/accept.ts returns it to the buffer pool).
 *
 * Read side (the sinks): records come back in push order with a `seq` unique across categories
 * and never reused. Each reader (an upstream and a category) keeps a cursor, every record at or
 * below it being done for that reader, and a plan, the end of the window it is delivering. A
 * record is acknowledged by pruning it once every reader's cursor has passed it. A reader done
 * with the batches of one `read` may `release` them: their payloads must not be read after.
 *
 * Every implementation passes the one contract suite (test/unit/buffer/contract.ts).
 */
import type { Component } from '../component.js'
import type { Category } from '../shared/category.js'

export interface Batch {
  category: Category
  /** Concatenated PBPoints entries. */
  payload: Uint8Array
  points: number
  input: string
  storageIndex?: string
  receivedAt: number
  /**
   * zlib's CRC-32 of `payload`, when whoever encoded it computed it (the decode worker): the
   * record's checksum is then combined from it instead of reading the payload again.
   */
  payloadCrc?: number
  /**
   * Free bytes before `payload` in a buffer made for it alone (shared/payload-room.ts): an
   * implementation may write there, once, instead of copying the payload.
   */
  payloadRoom?: number
}

/** A batch read back, with its sequence number. */
export interface StoredBatch extends Batch {
  seq: number
}

export interface BufferStats {
  batches: number
  bytes: number
  points: number
}

/** The window a reader is delivering: read again as planned after a restart. */
export interface Plan {
  /** Last seq of the window. */
  end: number
  /** Body size the window is cut with. */
  maxRaw: number
  /**
   * The sinker's keys the window is grouped by (sorted), when the sinker is on: kept with the
   * plan so a window read again after a restart is grouped as before, whatever the config says.
   */
  sinkKeys?: string[]
}

/** A body an upstream refused for good, kept for the operator. */
export interface DeadLetter {
  upstream: string
  category: Category
  seq: number
  status: number
  response: string
  at: number
  points: number
}

export interface WriteBuffer extends Component {
  /** The buffer's identity: random, kept for its lifetime; package ids are built from it. */
  readonly id: string
  push(batch: Batch): Promise<void>
  stats(): BufferStats
}

export interface ReadBuffer {
  readonly id: string
  /**
   * Records after `afterSeq`: up to `maxBytes` (at least one record), or, with `throughSeq`,
   * exactly those up to that seq whatever their size.
   */
  read(category: Category, afterSeq: number, maxBytes: number, throughSeq?: number): StoredBatch[]
  /**
   * The batches of one `read`, all of them, that their reader will never look at again: the
   * implementation may reuse their memory. Releasing the same read twice does nothing more.
   */
  release(batches: StoredBatch[]): void
  /** Resolves when a record newer than `afterSeq` exists, or when `signal` aborts. */
  waitFor(category: Category, afterSeq: number, signal: AbortSignal): Promise<void>
  getCursor(reader: string): number
  setCursor(reader: string, seq: number): Promise<void>
  getPlan(reader: string): Plan | null
  /** Resolves once the plan is as durable as the buffer's records. */
  setPlan(reader: string, plan: Plan): Promise<void>
  /** Acknowledges: removes the category's records with `seq <= upTo`. */
  prune(category: Category, upTo: number): Promise<void>
  /** Keeps a refused body's description, bounded to `max` entries (oldest evicted). */
  addDeadLetter(d: DeadLetter, max: number): Promise<void>
  deadLetters(): DeadLetter[]
}

export interface BatchBuffer extends WriteBuffer, ReadBuffer {}
