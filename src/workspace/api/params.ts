/** Request parameter checks of the Open API: paging. */
import { FerryError } from '../../errors.js'

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
