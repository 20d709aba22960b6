/**
 * A tag and a field whose keys became equal only through a correction (truncation of an
 * over-long key, a trailing backslash or newline removed, `.` renamed): the field is kept and
 * the tag dropped, as the reference agent does (it checks fields before tags, and drops the
 * later key that a correction makes collide). Keys equal as sent are a different case: the tag
 * wins there, silently, as the parser of the reference resolves them before any check.
 *
 * Invariant: only runs when a key changed, so the common case costs nothing.
 */
import { addWarn, type Point, type Tag } from '../../shared/point.js'

/**
 * `renamed` maps each tag whose key a correction changed to its key as sent (null when none
 * changed). Returns true when the tag was dropped in the field's favour; the caller keeps the
 * field.
 */
export function fieldWinsCollision(
  p: Point,
  key: string,
  fieldSent: string,
  renamed: Map<Tag, string> | null,
): boolean {
  const i = p.tags.findIndex((t) => t.key === key)
  if (i < 0) return false
  const sent = renamed?.get(p.tags[i]) ?? key
  if (sent === fieldSent) return false // equal as sent: the tag wins
  p.tags.splice(i, 1)
  addWarn(
    p,
    'invalid_tag_key',
    `tag key ${JSON.stringify(key)} is also a field key after correction, tag dropped`,
  )
  return true
}
