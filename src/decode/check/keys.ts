/**
 * Key and tag value corrections (spec 8): over-long keys and values are truncated, a trailing
 * backslash or newline removed, `.` in keys renamed when asked. Each correction leaves a `Warn`.
 * The `...IsClean` tests are one pass that allocates nothing, for the common case.
 */
import { addWarn, type Point, type Tag } from '../../shared/point.js'
import { LIMITS, type CheckOptions } from './options.js'
import { byteLength, truncateUtf8 } from './utf8.js'

/**
 * One pass: does the key need no correction (length, trailing backslash, newline, dot)?
 * Exported for producers that mark a point `Hint.CLEAN` (the pipeline's output).
 */
export function keyIsClean(key: string, dots: boolean): boolean {
  const n = key.length
  if (n === 0 || key.charCodeAt(n - 1) === 92) return false
  if (n * 3 > LIMITS.maxKeyBytes && byteLength(key) > LIMITS.maxKeyBytes) return false
  for (let i = 0; i < n; i++) {
    const c = key.charCodeAt(i)
    if (c === 10 || (dots && c === 46)) return false
  }
  return true
}

export function fixKey(p: Point, key: string, opts: CheckOptions, isTag: boolean): string {
  if (keyIsClean(key, opts.dotToUnderscore)) return key
  if (byteLength(key) > LIMITS.maxKeyBytes) {
    key = truncateUtf8(key, LIMITS.maxKeyBytes)
    addWarn(
      p,
      isTag ? 'exceed_max_tag_key_len' : 'exceed_max_field_key_len',
      `key truncated to ${key}`,
    )
  }
  if (key.endsWith('\\') || key.includes('\n')) {
    const fixed = key.replace(/\\+$/, '').replace(/\n/g, ' ')
    addWarn(
      p,
      'found_new_line_or_tail_espace',
      `key ${JSON.stringify(key)} changed to ${JSON.stringify(fixed)}`,
    )
    key = fixed
  }
  if (opts.dotToUnderscore && key.includes('.')) {
    const fixed = key.replace(/\./g, '_')
    addWarn(
      p,
      'dot_in_key',
      `${isTag ? 'tag' : 'field'} key ${JSON.stringify(key)} renamed to ${JSON.stringify(fixed)}`,
    )
    key = fixed
  }
  return key
}

/** Is the measurement within its limit (no truncation)? (Exported as keyIsClean is.) */
export function nameIsClean(name: string): boolean {
  const max = LIMITS.maxMeasurementBytes
  return name.length * 3 <= max || byteLength(name) <= max
}

/** Does the tag value need no correction? (Exported as keyIsClean is.) */
export function tagValueIsClean(v: string): boolean {
  const n = v.length
  if (n > LIMITS.maxTagValueBytes / 3 || (n > 0 && v.charCodeAt(n - 1) === 92)) return false
  for (let i = 0; i < n; i++) if (v.charCodeAt(i) === 10) return false
  return true
}

export function fixTagValue(p: Point, t: Tag): void {
  if (tagValueIsClean(t.value)) return
  let v = t.value
  if (v.endsWith('\\') || v.includes('\n')) {
    v = v.replace(/\\+$/, '').replace(/\n/g, ' ')
    addWarn(
      p,
      'found_new_line_or_tail_espace',
      `tag ${t.key}: newline or trailing backslash removed`,
    )
  }
  if (byteLength(v) > LIMITS.maxTagValueBytes) {
    v = truncateUtf8(v, LIMITS.maxTagValueBytes)
    addWarn(
      p,
      'exceed_max_tag_value_len',
      `tag ${t.key}: value truncated to ${LIMITS.maxTagValueBytes} bytes`,
    )
  }
  t.value = v
}
