/**
 * Rows of a batch grouped by their tag codes, so a tag set is looked up once per batch, not
 * once per row. Each text column refines the grouping of the columns before it: a row's group
 * and its code make a number below rows x (dictionary size + 1), mapped to a dense group id,
 * so no string is built per row. Columns with one value on every row do not split groups and
 * are skipped.
 *
 * Invariant: rows with equal codes in every column share a group, rows that differ in one do
 * not; `reps[g]` is the first row of group g.
 */
import type { ColumnData } from '../ingest/column-data.js'

type Text = Extract<ColumnData, { type: 'VARCHAR' }>

function constant(codes: Int32Array): boolean {
  for (let i = 1; i < codes.length; i++) if (codes[i] !== codes[0]) return false
  return true
}

export function groupRows(
  cols: (Text | null)[],
  rows: number,
): { group: Int32Array; reps: number[] } {
  const group = new Int32Array(rows)
  let count = rows > 0 ? 1 : 0
  for (const c of cols) {
    if (!c || constant(c.codes)) continue
    const width = c.dict.length + 1
    const ids = new Map<number, number>()
    for (let r = 0; r < rows; r++) {
      const k = group[r] * width + c.codes[r] + 1
      let g = ids.get(k)
      if (g === undefined) ids.set(k, (g = ids.size))
      group[r] = g
    }
    count = ids.size
  }
  const reps = new Array<number>(count).fill(-1)
  for (let r = 0; r < rows; r++) if (reps[group[r]] < 0) reps[group[r]] = r
  return { group, reps }
}
