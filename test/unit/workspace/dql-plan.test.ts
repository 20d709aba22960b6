/**
 * The engine-neutral DQL plan: every option resolved into one typed object that names logical
 * tables and columns only, and the DuckDB dialect rendering that object alone.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { renderDuckDb } from '../../../src/workspace/dql/duckdb/render.js'
import { parseQueryOptions } from '../../../src/workspace/dql/options.js'
import { parseQuery } from '../../../src/workspace/dql/parser.js'
import { planQuery } from '../../../src/workspace/dql/planner.js'
import type { Column, TableInfo } from '../../../src/workspace/store/catalog.js'

const columns: Column[] = [
  { name: 'host', kind: 'tag', type: 'VARCHAR', phys: 'host' },
  { name: 'Host', kind: 'tag', type: 'VARCHAR', phys: 'Host~2' },
  { name: 'usage', kind: 'field', type: 'DOUBLE', phys: 'usage' },
]
const info: TableInfo = {
  phys: 'M::cpu',
  columns,
  byName: new Map(columns.map((c) => [c.name, c])),
  parts: null,
}

function plan(query: string, extra: Record<string, unknown> = {}) {
  const opts = parseQueryOptions({ query, ...extra }, 0)
  return planQuery({
    workspaceId: 'wksp_00',
    table: 'M::cpu',
    info,
    query: parseQuery(query),
    opts,
    nowMs: 10_000,
    maxRows: 100,
  })
}

test('an aggregate query by tag: source, range, filters, outputs, bucket, group, order, limits', () => {
  const p = plan("M::cpu:(avg(usage) AS u) {Host = 'b'} [9s:1s:2s] BY host ORDER BY u", {
    conditions: 'usage > 1',
    slimit: 0,
    limit: 3,
  })
  assert.deepEqual(p, {
    source: {
      workspaceId: 'wksp_00',
      category: 'metric',
      table: 'M::cpu',
      info,
      latestBy: null,
      union: null,
    },
    range: { startMs: 1_000, endMs: 9_000, intervalMs: 2_000, originMs: null },
    where: { op: 'cmp', column: 'Host', cmp: '=', value: 'b' },
    conditions: { op: 'cmp', column: 'usage', cmp: '>', value: 1 },
    outputs: [{ name: 'u', kind: 'aggregate', func: 'avg', column: 'usage' }],
    aggregated: true,
    bucket: { stepMs: 2_000, originMs: null },
    rollup: null,
    groupBy: ['host'],
    order: [{ key: { kind: 'output', index: 0 }, desc: false }],
    paging: { cursor: null, desc: false, tiebreak: false },
    limits: { limit: 3, offset: 0, slimit: 20, soffset: 0 },
    highlight: [],
    maxRows: 100,
    post: { transforms: [], explode: null, having: null, seriesOrder: [], limits: null },
  })
})

test('the DuckDB dialect renders the plan alone: physical names, parameters, ranks, limits', () => {
  const p = plan("M::cpu:(avg(usage) AS u) {Host = 'b'} [9s:1s:2s] BY host ORDER BY u", {
    conditions: 'usage > 1',
    limit: 3,
  })
  const inner =
    'SELECT "host" AS "b0", ("time" // 2000000000) * 2000000000 AS "time", avg("usage") AS "v0" ' +
    'FROM "w_00"."M::cpu" WHERE "time" >= 1000000000 AND "time" < 9000000000 AND "Host~2" = $1 ' +
    'AND ("usage" > CAST(1 AS DOUBLE)) GROUP BY ALL HAVING count(*) > 0'
  assert.deepEqual(renderDuckDb(p), {
    sql:
      'SELECT * FROM (SELECT *, dense_rank() OVER (ORDER BY "b0" ASC NULLS LAST) AS "__s", ' +
      `row_number() OVER (PARTITION BY "b0" ORDER BY "v0" ASC NULLS LAST) AS "__r" FROM (${inner})) ` +
      'WHERE "__s" > 0 AND "__r" > 0 AND "__s" <= 20 AND "__r" <= 3 ORDER BY "__s", "__r" LIMIT 101',
    params: ['b'],
  })
})

test('the plan of the newer constructs: values, rollup, post steps with lifted limits', () => {
  const p = plan(
    'M::cpu:(derivative(avg(usage)) AS d, sum(usage) / count(usage), percentile(usage, 90)) ' +
      '[9s:1s:2s:p99] BY host HAVING d > 0 SORDER BY percentile(usage, 90) DESC SLIMIT 2',
  )
  assert.deepEqual(p.outputs, [
    { kind: 'aggregate', func: 'avg', column: 'usage', name: 'd' },
    {
      kind: 'arith',
      op: '/',
      left: { kind: 'aggregate', func: 'sum', column: 'usage' },
      right: { kind: 'aggregate', func: 'count', column: 'usage' },
      name: 'sum(usage) / count(usage)',
    },
    {
      kind: 'aggregate',
      func: 'percentile',
      column: 'usage',
      param: 90,
      name: 'percentile(usage, 90)',
    },
  ])
  assert.deepEqual(p.rollup, { func: 'percentile', param: 99, seriesKey: ['host', 'Host'] })
  assert.deepEqual(p.limits, { limit: null, offset: 0, slimit: null, soffset: 0 })
  assert.deepEqual(p.post, {
    transforms: [{ output: 0, func: 'derivative' }],
    explode: null,
    having: { op: 'cmp', column: 'd', cmp: '>', value: 0 },
    seriesOrder: [{ output: 2, desc: true }],
    limits: { limit: null, offset: 0, slimit: 2, soffset: 0 },
  })
})

test('top(): a raw plan ordered by the field then time, n rows, non-null values', () => {
  const p = plan("M::cpu:(top(usage, 3)) {Host = 'b'}")
  assert.deepEqual(p.outputs, [{ kind: 'column', column: 'usage', name: 'usage' }])
  assert.equal(p.aggregated, false)
  assert.deepEqual(p.order, [
    { key: { kind: 'output', index: 0 }, desc: true },
    { key: { kind: 'time' }, desc: true },
  ])
  assert.equal(p.limits.limit, 3)
  assert.deepEqual(p.where, {
    op: 'and',
    left: { op: 'cmp', column: 'Host', cmp: '=', value: 'b' },
    right: { op: 'cmp', column: 'usage', cmp: '!=', value: null },
  })
})
