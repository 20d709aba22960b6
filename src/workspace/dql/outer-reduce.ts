/**
 * The outer functions that reduce a series to one row (avg, count, count_distinct, first,
 * last, max, min, sum), per value column. The time is 0 as the hosted DQL answers, except for
 * first and last, which keep the time of the earliest / latest row. Nulls are skipped; a
 * column with no values reduces to null (count: 0).
 */
export const REDUCERS = [
  'avg',
  'count',
  'count_distinct',
  'first',
  'last',
  'max',
  'min',
  'sum',
] as const
export type Reducer = (typeof REDUCERS)[number]

function reduceColumn(r: Reducer, values: unknown[]): unknown {
  const present = values.filter((v) => v !== null && v !== undefined)
  if (r === 'count') return present.length
  if (r === 'count_distinct') return new Set(present.map((v) => JSON.stringify(v))).size
  if (r === 'first') return present[0] ?? null
  if (r === 'last') return present.at(-1) ?? null
  const nums = present.filter((v): v is number => typeof v === 'number')
  if (!nums.length) return null
  if (r === 'max') return Math.max(...nums)
  if (r === 'min') return Math.min(...nums)
  const sum = nums.reduce((a, b) => a + b, 0)
  return r === 'sum' ? sum : sum / nums.length
}

/** Rows in ascending time to the one row of the reduction. */
export function reduceRows(r: Reducer, rows: unknown[][]): unknown[][] {
  if (!rows.length) return []
  const cols = rows[0].length - 1
  const time = r === 'first' ? rows[0][0] : r === 'last' ? rows.at(-1)![0] : 0
  const values = Array.from({ length: cols }, (_, k) =>
    reduceColumn(
      r,
      rows.map((row) => row[1 + k]),
    ),
  )
  return [[time, ...values]]
}
