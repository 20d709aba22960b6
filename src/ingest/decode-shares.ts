/**
 * Each client's share of decoding. Every decode task is charged, by the client that sent it, the
 * time it held a worker or the HTTP thread; a client's account fades by e each `windowMs`, so
 * it is its recent decode time. Two uses:
 * - order: a free worker takes the waiting task of the client with the least recent decode time
 *   (`lanes.ts`), so a client under its share never waits behind a heavier client's queue;
 * - refusal: while the decoders are busy, a client past its share of the capacity (`slots`
 *   threads over the window: an equal split among the clients decoding, at most `share`) is
 *   answered 429 `decodeShareExceeded`, with Retry-After the time its account takes to fade
 *   back under it (`fairShare`).
 *
 * Invariants: a task without a client (the agent's own inputs) is charged to '' and never
 * refused; a client alone is never refused (there is no one to be fair to): alone is no other
 * client with recent decode time, counted as `active` counts (a difference of faded totals,
 * read a moment apart, left a single busy client a few ms of "others" and 429s); at most
 * `maxClients` accounts are kept, the least recently charged forgotten first.
 */
import os from 'node:os'
import type { DecodeConfig } from '../config/schema-decode.js'
import { FerryError } from '../errors.js'
import { poolThreads } from './pool-threads.js'
import type { DecodeOk, DecodeTask, Decoder } from './protocol.js'

export interface ShareSettings {
  /** Most of the capacity one client may use while others decode; 0: never refused. */
  share: number
  windowMs: number
  /** Threads decoding: the workers and the HTTP thread. */
  slots: number
  maxClients: number
}

interface Account {
  used: number
  at: number
}

/** Decode time (ms, faded) below which a client counts as inactive (alone, if it is the rest). */
const ALONE_MS = 1
/** Below this share of the capacity used in all, no one is refused: there is room to spare. */
const BUSY = 0.25

export class DecodeShares {
  private readonly accounts = new Map<string, Account>()
  private total: Account = { used: 0, at: 0 }
  private counted = { n: 1, at: 0, dirty: true }

  constructor(
    private readonly s: ShareSettings,
    readonly now: () => number = () => performance.now(),
  ) {}

  /** As `[decode]` asks: the pool's workers and the HTTP thread decode. */
  static fromConfig(d: DecodeConfig): DecodeShares {
    return new DecodeShares({
      share: d.client_share,
      windowMs: d.client_share_window,
      // The workers and the HTTP thread, but no more than the cores they run on.
      slots: Math.min(poolThreads(d.workers) + 1, os.availableParallelism()),
      maxClients: d.max_clients,
    })
  }

  private faded(a: Account, at: number): number {
    return a.used * Math.exp(-(at - a.at) / this.s.windowMs)
  }

  /** The client's recent decode time in ms. */
  usage(client: string): number {
    const a = this.accounts.get(client)
    return a ? this.faded(a, this.now()) : 0
  }

  /** Charges `ms` of decode time to `client`. */
  charge(client: string, ms: number): void {
    const at = this.now()
    const a = this.accounts.get(client)
    const used = (a ? this.faded(a, at) : 0) + ms
    if (!a) this.counted.dirty = true
    this.accounts.delete(client) // re-inserted last: the map's order is least recent first
    this.accounts.set(client, { used, at })
    this.total = { used: this.faded(this.total, at) + ms, at }
    for (const [key] of this.accounts) {
      if (this.accounts.size <= this.s.maxClients) break
      this.accounts.delete(key)
    }
  }

  /**
   * Seconds `client` must wait before its next decode; 0 when it may go on. Only while the
   * decoders are busy (at least `BUSY` of the capacity used) and someone else decodes too: then
   * a client may use its equal split of the capacity among the active clients, and never more
   * than `share` of it.
   */
  retryAfter(client: string): number {
    if (this.s.share <= 0 || client === '') return 0
    const at = this.now()
    const capacity = this.s.slots * this.s.windowMs
    const active = this.active(at)
    if (active <= 1 || this.faded(this.total, at) < BUSY * capacity) return 0
    const a = this.accounts.get(client)
    const mine = a ? this.faded(a, at) : 0
    const limit = capacity * Math.min(this.s.share, 1 / active)
    if (mine <= limit) return 0
    return Math.max(1, Math.ceil((this.s.windowMs * Math.log(mine / limit)) / 1000))
  }

  /** Clients other than the agent itself with recent decode time (counted at most every 100 ms). */
  private active(at: number): number {
    if (this.counted.dirty || at - this.counted.at >= 100) {
      let n = 0
      for (const [k, a] of this.accounts) if (k !== '' && this.faded(a, at) >= ALONE_MS) n++
      this.counted = { n: Math.max(1, n), at, dirty: false }
    }
    return this.counted.n
  }

  get clients(): number {
    return this.accounts.size
  }
}

/**
 * The decoder behind a share check: a client past its share gets 429 with Retry-After before
 * anything is decoded, and `refused` is told (logged and counted by the caller).
 */
export function fairShare(
  inner: Decoder,
  shares: DecodeShares,
  refused: (client: string, retryAfter: number) => void,
): Decoder {
  return {
    async decode(task: DecodeTask): Promise<DecodeOk> {
      const wait = task.client === undefined ? 0 : shares.retryAfter(task.client)
      if (wait > 0) {
        refused(task.client!, wait)
        throw new FerryError(
          'decodeShareExceeded',
          `${task.client} used more than its share of decoding recently; retry in ${wait}s`,
          { retryAfter: wait },
        )
      }
      return inner.decode(task)
    },
  }
}
