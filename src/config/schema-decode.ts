/** The `[decode]` section: the decode worker pool, and each client's share of decoding. */
import { nonNegative, positive } from './checks.js'
import type { SectionOf, SectionSpec } from './spec.js'

const fraction = (v: number) => (v >= 0 && v <= 1 ? undefined : 'between 0 and 1')

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
