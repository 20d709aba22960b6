/**
 * Point corrections (spec 8, warning names of the reference agent). Each correction leaves a
 * `Warn` on the point, which `strict` turns into a 400 and `echo=pbjson` shows.
 *
 * Invariants:
 * - After `checkPoint`, a point has a non-empty measurement, no NIL field, no key in both tags
 *   and fields (keys equal as sent: the tag wins; equal after a correction: the field wins), no duplicate keys, and every key and value within LIMITS.
 * - The common case (nothing to fix) allocates nothing.
 */
import { addWarn, Hint, Kind, type Field, type Point, type Tag } from '../../shared/point.js'
import { fieldWinsCollision } from './collide.js'
import { LIMITS, type CheckOptions } from './options.js'
import { byteLength, truncateUtf8 } from './utf8.js'

const INT64_MIN = -9223372036854775808
/** 2^64 - 1 as the nearest double, the value the reference writes for +Inf. */
const UINT64_MAX = 2 ** 64

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

function fixKey(p: Point, key: string, opts: CheckOptions, isTag: boolean): string {
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

/** Does the tag value need no correction? (Exported as keyIsClean is.) */
export function tagValueIsClean(v: string): boolean {
  const n = v.length
  if (n > LIMITS.maxTagValueBytes / 3 || (n > 0 && v.charCodeAt(n - 1) === 92)) return false
  for (let i = 0; i < n; i++) if (v.charCodeAt(i) === 10) return false
  return true
}

function fixTagValue(p: Point, t: Tag): void {
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

/** Keys that occur more than once lose every copy (reference key_name_conflict). */
function hasDuplicates(items: { key: string }[]): boolean {
  const n = items.length
  if (n > 32) return new Set(items.map((it) => it.key)).size !== n
  for (let i = 1; i < n; i++) {
    const k = items[i].key
    for (let j = 0; j < i; j++) if (items[j].key === k) return true
  }
  return false
}

function dropDuplicates<T extends { key: string }>(p: Point, items: T[]): T[] {
  if (!hasDuplicates(items)) return items
  const seen = new Map<string, number>()
  for (const it of items) seen.set(it.key, (seen.get(it.key) ?? 0) + 1)
  if (seen.size === items.length) return items
  return items.filter((it) => {
    if (seen.get(it.key) === 1) return true
    addWarn(p, 'key_name_conflict', `key ${JSON.stringify(it.key)} appears more than once, dropped`)
    return false
  })
}

/** Returns the tags whose key a correction changed, with their keys as sent (null: none). */
function checkTags(p: Point, opts: CheckOptions): Map<Tag, string> | null {
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

/** Returns false when the field must be dropped. */
function fixValue(p: Point, f: Field, opts: CheckOptions): boolean {
  switch (f.kind) {
    case Kind.NIL:
      addWarn(p, 'nil_field', `field ${f.key} has a null value, dropped`)
      return false
    case Kind.FLOAT:
      return fixFloat(p, f)
    case Kind.STRING:
    case Kind.BYTES:
      if (opts.dropStrings) {
        addWarn(
          p,
          'invalid_field_value_type',
          `field ${f.key}: string values are not allowed here, dropped`,
        )
        return false
      }
      fixLongValue(p, f)
      return true
    default:
      return true
  }
}

function fixFloat(p: Point, f: Field): boolean {
  const v = f.value as number
  if (Number.isFinite(v)) return true
  if (Number.isNaN(v)) {
    addWarn(p, 'invalid_field_value_type', `field ${f.key}: NaN dropped`)
    return false
  }
  f.value = v > 0 ? UINT64_MAX : INT64_MIN
  addWarn(
    p,
    v > 0 ? 'convert_inf_to_max_value' : 'convert_inf_to_min_value',
    `field ${f.key}: infinity replaced`,
  )
  return true
}

function fixLongValue(p: Point, f: Field): void {
  const max = LIMITS.maxStringBytes
  if (typeof f.value === 'string' && f.value.length > max / 3 && byteLength(f.value) > max) {
    f.value = truncateUtf8(f.value, max)
  } else if (f.value instanceof Uint8Array && f.value.length > max) {
    f.value = f.value.subarray(0, max)
  } else return
  addWarn(p, 'exceed_max_field_value_len', `field ${f.key}: value truncated to ${max} bytes`)
}

function checkFields(p: Point, opts: CheckOptions, renamed: Map<Tag, string> | null): void {
  if (p.fields.length > LIMITS.maxFields) {
    addWarn(
      p,
      'exceed_max_fields',
      `${p.fields.length} fields, only the first ${LIMITS.maxFields} kept`,
    )
    p.fields.length = LIMITS.maxFields
  }
  let drop = false
  const clean = (p.hints ?? 0) & Hint.CLEAN
  let lengths = tagKeyLengths(p)
  for (const f of p.fields) {
    if (!clean) {
      const sent = f.key
      f.key = fixKey(p, sent, opts, false)
      const changed = f.key !== sent || renamed !== null
      if (changed && isTagKey(p, f.key, lengths) && fieldWinsCollision(p, f.key, sent, renamed))
        lengths = tagKeyLengths(p)
    }
    if (fieldNeedsWork(p, f, opts, lengths)) drop = true
  }
  if (drop) p.fields = p.fields.filter((f) => keepField(p, f, opts))
  if (!((p.hints ?? 0) & Hint.UNIQUE)) p.fields = dropDuplicates(p, p.fields)
}

/** A bit per tag key length (mod 32): a field key whose bit is clear matches no tag key. */
function tagKeyLengths(p: Point): number {
  let mask = 0
  for (let i = 0; i < p.tags.length; i++) mask |= 1 << (p.tags[i].key.length & 31)
  return mask
}

function isTagKey(p: Point, key: string, lengths = -1): boolean {
  if (!(lengths & (1 << (key.length & 31)))) return false
  for (let i = 0; i < p.tags.length; i++) if (p.tags[i].key === key) return true
  return false
}

/** Cheap test without side effects: may the field need dropping or fixing? */
function fieldNeedsWork(p: Point, f: Field, opts: CheckOptions, lengths: number): boolean {
  if (f.key === '' || isTagKey(p, f.key, lengths)) return true
  if (opts.disabledKeys.length > 0 && opts.disabledKeys.includes(f.key)) return true
  switch (f.kind) {
    case Kind.NIL:
      return true
    case Kind.FLOAT:
      return !Number.isFinite(f.value as number)
    case Kind.STRING:
      return opts.dropStrings || (f.value as string).length > LIMITS.maxStringBytes / 3
    case Kind.BYTES:
      return opts.dropStrings || (f.value as Uint8Array).length > LIMITS.maxStringBytes
    default:
      return false
  }
}

/** The filtering pass: drops with a warning, fixes in place. */
function keepField(p: Point, f: Field, opts: CheckOptions): boolean {
  if (f.key === '' || opts.disabledKeys.includes(f.key)) {
    addWarn(p, 'tag_disabled', `field key ${JSON.stringify(f.key)} is not allowed, dropped`)
    return false
  }
  if (isTagKey(p, f.key)) return false // spec 8 rule 6: keys equal as sent, the tag wins
  return fixValue(p, f, opts)
}

function addRequired(p: Point, opts: CheckOptions): void {
  for (const [key, def] of opts.required) {
    if (p.tags.some((t) => t.key === key) || p.fields.some((f) => f.key === key)) continue
    p.fields.push({ key, kind: Kind.STRING, value: def })
    addWarn(
      p,
      'add_required_kv',
      `add required key-value ${JSON.stringify(key)}: ${JSON.stringify(def)}`,
    )
  }
}

export function checkPoint(p: Point, opts: CheckOptions): void {
  if (p.name === '') {
    p.name = '__default'
    addWarn(p, 'invalid_measurement', 'empty measurement, set to __default')
  } else if (!((p.hints ?? 0) & Hint.CLEAN) && byteLength(p.name) > LIMITS.maxMeasurementBytes) {
    p.name = truncateUtf8(p.name, LIMITS.maxMeasurementBytes)
    addWarn(
      p,
      'invalid_measurement',
      `measurement truncated to ${LIMITS.maxMeasurementBytes} bytes`,
    )
  }
  checkFields(p, opts, checkTags(p, opts))
  addRequired(p, opts)
}
