/**
 * Dashboard request bodies of the Open API, field by field as the documentation lists them for
 * each operation (fields.ts checks them and reports the undocumented ones).
 */
import type { DashboardInput } from '../store/dashboards.js'
import {
  array,
  bad,
  object,
  parseBody,
  strings,
  text,
  type Check,
  type Fields,
  type Parsed,
} from './fields.js'

export const NAME_MAX = 128
export const DESC_MAX = 2048
export const IDENTIFIER_MAX = 128
const CUSTOM_UUID = /^dsbd_custom_[a-z0-9]{32}$/

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

const MODIFY: Fields<DashboardInput> = {
  name: [text(NAME_MAX, false), 'name'],
  desc: [text(DESC_MAX, true), 'desc'],
  identifier: [text(IDENTIFIER_MAX, true), 'identifier'],
  extend: [object, 'extend'],
  mapping: [array, 'mapping'],
  tagNames: [strings(), 'tagNames'],
  isPublic: [visibility, 'isPublic'],
  permissionSet: [strings(), 'permissionSet'],
  readPermissionSet: [strings(), 'readPermissionSet'],
}

const CREATE: Fields<DashboardInput> = {
  ...MODIFY,
  templateInfo: [object, 'templateInfo'],
  specifyDashboardUUID: [customUuid, 'uuid'],
  // Deprecated by the service (2024-11-27; `isPublic: -1` replaced it): accepted, no effect.
  openPermissionSet: [flag, null],
}

const IMPORT: Fields<DashboardInput> = { templateInfo: [object, 'templateInfo'] }

export const DOCUMENTED = { create: CREATE, modify: MODIFY, import: IMPORT }

/** The given `name` wins over the template's `title` (the documented rule). */
export function createInput(body: unknown): Parsed<DashboardInput> {
  const p = parseBody(body, CREATE, ['name'])
  if (p.input.templateInfo) p.input.templateInfo = { ...p.input.templateInfo, title: p.input.name }
  return p
}

export const modifyInput = (body: unknown) => parseBody(body, MODIFY, [])

export const importInput = (body: unknown) => parseBody(body, IMPORT, ['templateInfo'])
