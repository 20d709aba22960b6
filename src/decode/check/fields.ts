/**
 * The fields' pass of the point check: the count limit, key corrections (with the tag/field
 * collisions they cause), disabled keys, keys equal to a tag's (the tag wins), value corrections
 * and duplicates. A cheap side-effect-free test per field decides whether the filtering pass
 * runs, so a point with nothing to fix allocates nothing.
 */
import { addWarn, Hint, Kind, type Field, type Point, type Tag } from '../../shared/point.js'
import { fieldWinsCollision } from './collide.js'
import { dropDuplicates } from './duplicates.js'
import { fixKey } from './keys.js'
import { LIMITS, type CheckOptions } from './options.js'
import { fixValue } from './values.js'

export function checkFields(p: Point, opts: CheckOptions, renamed: Map<Tag, string> | null): void {
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
