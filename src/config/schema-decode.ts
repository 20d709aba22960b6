/** The `[decode]` section: the decode worker pool, and each client's share of decoding. */
import { nonNegative, positive } from './checks.js'
import type { SectionOf, SectionSpec } from './spec.js'

const fraction = (v: number) => (v >= 0 && v <= 1 ? undefined : 'between 0 and 1')
/** V8 takes its heap limits in whole MiB: 0 (V8's own default) or at least 1 MiB. */
const heapLimit = (v: number) => (v === 0 || v >= 2 ** 20 ? undefined : '0 or at least 1MiB')

export const DECODE_SCHEMA = {
  workers: { type: 'int', default: 0, env: 'ENV_DECODE_WORKERS', check: nonNegative },
  max_queue: { type: 'int', default: 256, env: 'ENV_DECODE_MAX_QUEUE', check: positive },
  recycle_heap: {
    type: 'bytes',
    default: 96 * 1024 * 1024,
    env: 'ENV_DECODE_RECYCLE_HEAP',
    check: nonNegative,
  },
  /**
   * Each worker's V8 young generation (two semi-spaces and the new large objects): what a worker
   * may allocate between two scavenges. V8's default lets it grow to 48 MiB per thread; decode
   * garbage dies young, so a small one costs little time, except a pipeline's run, whose points
   * outlive a small one (docs/memory.md). 0: V8's default. Not live.
   */
  max_young_generation: {
    type: 'bytes',
    default: 6 * 2 ** 20,
    env: 'ENV_DECODE_MAX_YOUNG_GENERATION',
    check: heapLimit,
  },
  /**
   * Each worker's V8 old generation. Reached, the worker dies: its task gets 503
   * decodeWorkerDied with Retry-After and the pool starts a replacement. Sized for the largest
   * body the general path decodes (`[http_api] max_points` typical points); `recycle_heap`
   * gives memory back long before it. 0: V8's default. Not live.
   */
  max_old_generation: {
    type: 'bytes',
    default: 512 * 2 ** 20,
    env: 'ENV_DECODE_MAX_OLD_GENERATION',
    check: heapLimit,
  },
  /**
   * While the decoders are busy, a client may use an equal split of the decode capacity among
   * the clients decoding, and never more than this share; past it its writes get 429 with
   * Retry-After. 0: never (the order by recent decode time stays).
   */
  client_share: {
    type: 'number',
    default: 0.5,
    env: 'ENV_DECODE_CLIENT_SHARE',
    check: fraction,
  },
  /** How far back a client's decode time counts (it fades by e each window). */
  client_share_window: {
    type: 'duration',
    default: 10_000,
    env: 'ENV_DECODE_CLIENT_SHARE_WINDOW',
    check: positive,
  },
  /** Clients whose decode time is remembered; past it the least recently seen is forgotten. */
  max_clients: { type: 'int', default: 10_000, env: 'ENV_DECODE_MAX_CLIENTS', check: positive },
} as const satisfies SectionSpec

export type DecodeConfig = SectionOf<typeof DECODE_SCHEMA>
