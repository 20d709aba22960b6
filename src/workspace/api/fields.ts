/**
 * Checked body fields of the Open API's documented operations: each operation lists its fields
 * with a check (type, limits, null refused, as the documentation says) and the stored field it
 * sets. A field the operation does not document is not an error (clients send extra fields)
 * but is returned in `undocumented`, which the route logs and counts, so a client's misspelt
 * field shows instead of vanishing unseen.
 */
import { FerryError } from '../../errors.js'

export const bad = (m: string) => new FerryError('invalidParameter', m)

export type Check = (v: unknown, field: string) => unknown

export const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v)

export const text =
  (max: number, empty: boolean): Check =>
  (v, f) => {
    if (typeof v !== 'string' || v.length > max || (!empty && !v.trim()))
      throw bad(`${f} must be a${empty ? '' : ' non-empty'} string of at most ${max} characters`)
    return v
  }

export const object: Check = (v, f) => {
  if (!isObject(v)) throw bad(`${f} must be a JSON object`)
  return v
}

export const array: Check = (v, f) => {
  if (!Array.isArray(v)) throw bad(`${f} must be an array`)
  return v
}

export const strings =
  (max = Infinity): Check =>
  (v, f) => {
    if (!Array.isArray(v) || !v.every((t) => typeof t === 'string') || v.length > max)
      throw bad(`${f} must be an array of strings${max < Infinity ? ` (at most ${max})` : ''}`)
    return v
  }

/** Documented field -> its check and the stored field it sets (null: accepted, no effect). */
export type Fields<T> = Record<string, [Check, keyof T | null]>

export interface Parsed<T> {
  input: T
  undocumented: string[]
}

export function parseBody<T>(body: unknown, fields: Fields<T>, required: string[]): Parsed<T> {
  // The documented delete and import examples send `null` as the body.
  if (body === null) body = {}
  if (!isObject(body)) throw bad('the body must be a JSON object')
  const input: Record<string, unknown> = {}
  const undocumented: string[] = []
  for (const [k, v] of Object.entries(body)) {
    const field = fields[k]
    if (!field) undocumented.push(k)
    else if (v === null) throw bad(`${k} must not be null`)
    else if (field[1]) input[field[1] as string] = field[0](v, k)
    else field[0](v, k)
  }
  for (const k of required) if (body[k] === undefined) throw bad(`${k} is required`)
  return { input: input as T, undocumented }
}
