/**
 * Small common writes decoded on the HTTP thread. With the byte-level transcoder a 100-point
 * body takes about as long to decode as handing it to a worker and taking the answer back
 * (post, wake-up, result message), so a plain line protocol body of at most `maxBytes`, with no
 * compression and no pipeline script that could apply, is transcoded right here; everything
 * else, and anything the transcoder declines or fails on, goes to the pool unchanged. The
 * answer is the same either way: only a transcoder success is taken, and the worker would
 * have returned that very result (same function, same inputs). When `load` says the thread is
 * saturated and a core is spare (`loop-load.ts`), bodies go to the pool too (the workers then
 * add that core instead of waiting), except the smallest, for which the hand-off costs more
 * than the work.
 */
import type { Category } from '../shared/category.js'
import { tryFast } from './fast.js'
import type { LoadProbe } from './loop-load.js'
import type { DecodeShares } from './decode-shares.js'
import type { DecodeOk, DecodeTask, Decoder } from './protocol.js'

/** 64 KiB: about 200 corpus points, a fraction of a millisecond of the HTTP thread. */
export const INLINE_MAX_BYTES = 64 * 1024

/**
 * 8 KiB (about 25 corpus points): always transcoded here, saturated or not. Handing such a body
 * to a worker costs the HTTP thread about what transcoding it does (post, wake-up, answer) and
 * adds the worker's time and two thread switches.
 */
export const ALWAYS_INLINE_BYTES = 8 * 1024

/** Whether a script may apply to the category at that script version (conservative: true). */
export type ScriptProbe = (category: Category, version: number) => boolean

export interface InlineOptions {
  maxBytes?: number
  /** Says when the HTTP thread is saturated and a worker would add a core; absent: never. */
  load?: LoadProbe | null
  /** Charged the time of each body transcoded here, by client. */
  shares?: DecodeShares | null
}

export function inlineFirst(
  pool: Decoder,
  scripts: ScriptProbe | null,
  o: InlineOptions = {},
): Decoder {
  const maxBytes = o.maxBytes ?? INLINE_MAX_BYTES
  const mayScript = (t: DecodeTask) =>
    t.pipeline !== null && (scripts === null || scripts(t.category, t.pipeline.version))
  const here = (t: DecodeTask) =>
    t.body.length <= maxBytes &&
    t.encoding === '' &&
    !mayScript(t) &&
    (t.body.length <= ALWAYS_INLINE_BYTES || !o.load?.saturated())
  return {
    async decode(task: DecodeTask): Promise<DecodeOk> {
      if (here(task)) {
        const began = performance.now()
        const quick = await tryFast(task, task.body, null).catch(() => null)
        o.shares?.charge(task.client ?? '', performance.now() - began)
        if (quick) return quick
      }
      return pool.decode(task)
    },
  }
}
