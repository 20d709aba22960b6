/**
 * The tags' pass of the point check: the count limit, key corrections, disabled and duplicate
 * keys dropped, values corrected. A point hinted CLEAN skips the corrections, UNIQUE the
 * duplicate test.
 */
import { addWarn, Hint, type Point, type Tag } from '../../shared/point.js'
import { dropDuplicates } from './duplicates.js'
import { fixKey, fixTagValue } from './keys.js'
import { LIMITS, type CheckOptions } from './options.js'

/** Returns the tags whose key a correction changed, with their keys as sent (null: none). */
export function checkTags(p: Point, opts: CheckOptions): Map<Tag, string> | null {
  if (p.tags.length > LIMITS.maxTags) {
    addWarn(p, 'exceed_max_tags', `${p.tags.length} tags, only the first ${LIMITS.maxTags} kept`)
    p.tags.length = LIMITS.maxTags
  }
  let tags = p.tags
  let drop = false
  let renamed: Map<Tag, string> | null = null
  const clean = (p.hints ?? 0) & Hint.CLEAN
  for (const t of tags) {
    if (!clean) {
      const sent = t.key
      t.key = fixKey(p, sent, opts, true)
      if (t.key !== sent) (renamed ??= new Map()).set(t, sent)
    }
    if (t.key === '' || (opts.disabledKeys.length > 0 && opts.disabledKeys.includes(t.key)))
      drop = true
  }
  if (drop) {
    tags = tags.filter((t) => {
      if (t.key !== '' && !opts.disabledKeys.includes(t.key)) return true
      addWarn(p, 'tag_disabled', `tag key ${JSON.stringify(t.key)} is not allowed, dropped`)
      return false
    })
  }
  p.tags = (p.hints ?? 0) & Hint.UNIQUE ? tags : dropDuplicates(p, tags)
  if (!clean) for (const t of p.tags) fixTagValue(p, t)
  return renamed
}
