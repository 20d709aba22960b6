/**
 * Dashboard request bodies of the Open API, field by field as the documentation lists them for
 * each operation (names, types, limits, null refused). A field the operation does not document
 * is not an error (clients send extra fields) but is returned in `undocumented`, which the route
 * logs and counts, so a client's misspelt field shows instead of vanishing unseen.
 */
import { FerryError } from '../../errors.js'
import type { DashboardInput } from '../store/dashboards.js'

const bad = (m: string) => new FerryError('invalidParameter', m)

export const NAME_MAX = 128
export const DESC_MAX = 2048
export const IDENTIFIER_MAX = 128
const CUSTOM_UUID = /^dsbd_custom_[a-z0-9]{32}$/

type Check = (v: unknown, field: string) => unknown

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v)

const text =
  (max: number, empty: boolean): Check =>
  (v, f) => {
    if (typeof v !== 'string' || v.length > max || (!empty && !v.trim()))
      throw bad(`${f} must be a${empty ? '' : ' non-empty'} string of at most ${max} characters`)
    return v
  }

const object: Check = (v, f) => {
  if (!isObject(v)) throw bad(`${f} must be a JSON object`)
  return v
}

const array: Check = (v, f) => {
  if (!Array.isArray(v)) throw bad(`${f} must be an array`)
  return v
}

const strings: Check = (v, f) => {
  if (!Array.isArray(v) || !v.every((t) => typeof t === 'string'))
    throw bad(`${f} must be an array of strings`)
  return v
}

const visibility: Check = (v, f) => {
  if (v !== 1 && v !== 0 && v !== -1) throw bad(`${f} must be 1 (public), 0 (private) or -1`)
  return v
}

const customUuid: Check = (v, f) => {
  if (typeof v !== 'string' || !CUSTOM_UUID.test(v))
    throw bad(`${f} must be dsbd_custom_ followed by 32 lowercase letters or digits`)
  return v
}

const flag: Check = (v, f) => {
  if (typeof v !== 'boolean') throw bad(`${f} must be true or false`)
  return v
}

/** Documented field -> its check and the stored field it sets (none: accepted, no effect). */
type Fields = Record<string, [Check, keyof DashboardInput | null]>

const MODIFY: Fields = {
  name: [text(NAME_MAX, false), 'name'],
  desc: [text(DESC_MAX, true), 'desc'],
  identifier: [text(IDENTIFIER_MAX, true), 'identifier'],
  extend: [object, 'extend'],
  mapping: [array, 'mapping'],
  tagNames: [strings, 'tagNames'],
  isPublic: [visibility, 'isPublic'],
  permissionSet: [strings, 'permissionSet'],
  readPermissionSet: [strings, 'readPermissionSet'],
}

const CREATE: Fields = {
  ...MODIFY,
  templateInfo: [object, 'templateInfo'],
  specifyDashboardUUID: [customUuid, 'uuid'],
  // Deprecated by the service (2024-11-27; `isPublic: -1` replaced it): accepted, no effect.
  openPermissionSet: [flag, null],
}

const IMPORT: Fields = { templateInfo: [object, 'templateInfo'] }

export const DOCUMENTED = { create: CREATE, modify: MODIFY, import: IMPORT }

export interface Parsed {
  input: DashboardInput
  undocumented: string[]
}

function parse(body: unknown, fields: Fields, required: string[]): Parsed {
  // The documented delete and import examples send `null` as the body.
  if (body === null) body = {}
  if (!isObject(body)) throw bad('the body must be a JSON object')
  const input: Record<string, unknown> = {}
  const undocumented: string[] = []
  for (const [k, v] of Object.entries(body)) {
    const field = fields[k]
    if (!field) undocumented.push(k)
    else if (v === null) throw bad(`${k} must not be null`)
    else if (field[1]) input[field[1]] = field[0](v, k)
    else field[0](v, k)
  }
  for (const k of required) if (body[k] === undefined) throw bad(`${k} is required`)
  return { input: input as DashboardInput, undocumented }
}

/** The given `name` wins over the template's `title` (the documented rule). */
export function createInput(body: unknown): Parsed {
  const p = parse(body, CREATE, ['name'])
  if (p.input.templateInfo) p.input.templateInfo = { ...p.input.templateInfo, title: p.input.name }
  return p
}

export const modifyInput = (body: unknown): Parsed => parse(body, MODIFY, [])

export const importInput = (body: unknown): Parsed => parse(body, IMPORT, ['templateInfo'])
