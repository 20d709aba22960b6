/** Request parameter checks of the Open API: paging and dashboard bodies. */
import { FerryError } from '../../errors.js'
import type { DashboardInput } from '../store/dashboards.js'

const bad = (m: string) => new FerryError('invalidParameter', m)

export interface Paging {
  pageIndex: number
  pageSize: number
}

export const MAX_PAGE_SIZE = 100

function positiveInt(raw: string | undefined, name: string, dflt: number, max: number): number {
  if (raw === undefined || raw === '') return dflt
  const n = Number(raw)
  if (!Number.isInteger(n) || n < 1 || n > max)
    throw bad(`${name} must be an integer from 1 to ${max}`)
  return n
}

export function paging(q: Record<string, string>): Paging {
  return {
    pageIndex: positiveInt(q.pageIndex, 'pageIndex', 1, 1_000_000),
    pageSize: positiveInt(q.pageSize, 'pageSize', 10, MAX_PAGE_SIZE),
  }
}

export function pageInfo(p: Paging, count: number, totalCount: number) {
  return { count, pageIndex: p.pageIndex, pageSize: p.pageSize, totalCount }
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v)
}

/** `create` needs a name; `modify` takes any subset. Unknown fields are ignored. */
export function dashboardInput(body: unknown, create: boolean): DashboardInput {
  if (!isObject(body)) throw bad('the body must be a JSON object')
  const out: DashboardInput = {}
  if (body.name !== undefined || create) {
    if (typeof body.name !== 'string' || !body.name.trim() || body.name.length > 256)
      throw bad('name must be a non-empty string of at most 256 characters')
    out.name = body.name
  }
  if (body.desc !== undefined) {
    if (typeof body.desc !== 'string') throw bad('desc must be a string')
    out.desc = body.desc
  }
  if (body.tags !== undefined) {
    if (!Array.isArray(body.tags) || !body.tags.every((t) => typeof t === 'string'))
      throw bad('tags must be an array of strings')
    out.tags = body.tags as string[]
  }
  for (const key of ['extend', 'templateInfos'] as const) {
    if (body[key] === undefined) continue
    if (!isObject(body[key])) throw bad(`${key} must be a JSON object`)
    out[key] = body[key]
  }
  return out
}
