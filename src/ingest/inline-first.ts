/**
 * Small common writes decoded on the HTTP thread. With the byte-level transcoder a 100-point
 * body takes about as long to decode as handing it to a worker and taking the answer back
 * (post, wake-up, result message), so a plain line protocol body of at most `maxBytes`, with no
 * compression and no pipeline script that could apply, is transcoded right here; everything
 * else, and anything the transcoder declines or fails on, goes to the pool unchanged. The
 * answer is the same either way: only a transcoder success is taken, and the worker would
 * have returned that very result (same function, same inputs). When `load` says the thread is
 * saturated, bodies go to the pool too: the workers then add a core instead of waiting.
 */
import type { Category } from '../shared/category.js'
import { tryFast } from './fast.js'
import type { LoadProbe } from './loop-load.js'
import type { DecodeOk, DecodeTask, Decoder } from './protocol.js'

/** 64 KiB: about 200 corpus points, a fraction of a millisecond of the HTTP thread. */
export const INLINE_MAX_BYTES = 64 * 1024

/** Whether a script may apply to the category at that script version (conservative: true). */
export type ScriptProbe = (category: Category, version: number) => boolean

export function inlineFirst(
  pool: Decoder,
  scripts: ScriptProbe | null,
  maxBytes = INLINE_MAX_BYTES,
  load: LoadProbe | null = null,
): Decoder {
  const mayScript = (t: DecodeTask) =>
    t.pipeline !== null && (scripts === null || scripts(t.category, t.pipeline.version))
  return {
    async decode(task: DecodeTask): Promise<DecodeOk> {
      const small = task.body.length <= maxBytes && task.encoding === ''
      if (small && !mayScript(task) && !load?.saturated()) {
        const quick = await tryFast(task, task.body, null).catch(() => null)
        if (quick) return quick
      }
      return pool.decode(task)
    },
  }
}
