/**
 * A workspace's own retention per category: the store, the checks by name (unknown workspace,
 * unknown category, bad duration), and the sweep applying it to that workspace alone while the
 * others keep the global keys, in flat tables and in the series layout.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import assert from 'node:assert/strict'
import { after, test } from 'node:test'
import { parseLines } from '../../../src/decode/lp/parse.js'
import { FerryError } from '../../../src/errors.js'
import { CATEGORY_NAMES, type Category } from '../../../src/shared/category.js'
import { toColumns } from '../../../src/workspace/ingest/columns.js'
import { RetentionAdmin } from '../../../src/workspace/retention-admin.js'
import { formatKeep, parseKeep } from '../../../src/workspace/retention-cli.js'
import { Accounts } from '../../../src/workspace/store/accounts.js'
import { DuckDbEngine } from '../../../src/workspace/store/duckdb-engine.js'
import { qualified } from '../../../src/workspace/store/names.js'
import { RetentionOverrides } from '../../../src/workspace/store/retention-overrides.js'
import { openTestEngine } from '../../helpers/duckdb-engine.js'

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'ferry-retention-'))
after(() => fs.rmSync(root, { recursive: true, force: true }))
let n = 0
const DAY = 86_400_000
const now = Date.now()
const ns = (ms: number) => BigInt(ms) * 1_000_000n

function open(seriesCategories: Category[] = []): Promise<DuckDbEngine> {
  return openTestEngine(path.join(root, String(n++)), seriesCategories)
}

async function ingest(e: DuckDbEngine, ws: string, category: Category, text: string) {
  const { points } = parseLines(text, Buffer.from(text))
  const tables = toColumns(category, points)
  await e.ingest({ workspaceId: ws, category, tables, points: points.length, pkgId: null })
}

async function values(e: DuckDbEngine, ws: string, table: string): Promise<number[]> {
  const r = await e.query(`SELECT v FROM ${e.tableRef(ws, table)} ORDER BY v`)
  return r.rows.map((row) => Number(row[0]))
}

async function seriesCount(e: DuckDbEngine, ws: string): Promise<number | null> {
  const parts = e.catalog.table(ws, 'M::m')!.parts
  if (!parts) return null
  const r = await e.query(`SELECT count(*) FROM ${qualified(ws, parts.series)}`)
  return Number(r.rows[0][0])
}

test('overrides are set, replaced, listed and cleared per workspace and category', async () => {
  const e = await open()
  try {
    const o = new RetentionOverrides(e.db)
    await o.set('wksp_b', 'logging', DAY)
    await o.set('wksp_a', 'metric', 2 * DAY)
    await o.set('wksp_a', 'metric', 0)
    assert.deepEqual(await o.list(), [
      { workspaceId: 'wksp_a', category: 'metric', keepMs: 0 },
      { workspaceId: 'wksp_b', category: 'logging', keepMs: DAY },
    ])
    assert.deepEqual(await o.list('wksp_b'), [
      { workspaceId: 'wksp_b', category: 'logging', keepMs: DAY },
    ])
    assert.equal(await o.clear('wksp_b', 'logging'), true)
    assert.equal(await o.clear('wksp_b', 'logging'), false)
    assert.deepEqual([...(await o.map())], [['wksp_a', new Map([['metric', 0]])]])
  } finally {
    await e.close()
  }
})

test('by name: unknown workspaces, categories and durations are refused', async () => {
  const e = await open()
  try {
    const accounts = new Accounts(e.db)
    await accounts.create('prod')
    await accounts.create('dev')
    const r = new RetentionAdmin(accounts, new RetentionOverrides(e.db))
    const code = (c: string, m: string) => (err: unknown) =>
      err instanceof FerryError && err.code === c && err.message === m
    await assert.rejects(
      r.set('nope', 'metric', DAY),
      code('objectNotFound', 'no workspace named "nope"'),
    )
    await assert.rejects(
      r.set('prod', 'metrics', DAY),
      code(
        'invalidCategory',
        `unknown category "metrics"; expected one of ${CATEGORY_NAMES.join(', ')}`,
      ),
    )
    await assert.rejects(
      r.set('prod', 'metric', -1),
      code('invalidParameter', 'a retention is a whole number of ms, 0 or more'),
    )
    assert.deepEqual(await r.set('prod', 'tracing', 0), {
      workspace: 'prod',
      category: 'tracing',
      keepMs: 0,
    })
    await r.set('prod', 'logging', 3 * DAY)
    await r.set('dev', 'metric', DAY)
    assert.deepEqual(
      (await r.list()).map((x) => `${x.workspace} ${x.category} ${x.keepMs}`),
      [`dev metric ${DAY}`, `prod logging ${3 * DAY}`, 'prod tracing 0'],
    )
    assert.deepEqual(await r.list('dev'), [{ workspace: 'dev', category: 'metric', keepMs: DAY }])
    assert.equal(await r.clear('dev', 'metric'), true)
    assert.deepEqual(await r.list('dev'), [])
  } finally {
    await e.close()
  }
})

for (const [layout, series] of [
  ['flat tables', []],
  ['series layout', CATEGORY_NAMES],
] as const) {
  test(`${layout}: the sweep applies a workspace's own retention to it alone`, async () => {
    const e = await open([...series])
    try {
      for (const ws of ['wksp_a', 'wksp_b']) {
        await ingest(e, ws, 'metric', `m,h=x v=1 ${ns(now - 3 * DAY)}\nm,h=y v=2 ${ns(now - 1000)}`)
        await ingest(e, ws, 'logging', `l v=1 ${ns(now - 3 * DAY)}\nl v=2 ${ns(now - 1000)}`)
      }
      const o = new RetentionOverrides(e.db)
      await o.set('wksp_a', 'metric', DAY)
      await o.set('wksp_b', 'logging', 0)
      const cfg = { retention_metric: 30 * DAY, retention_logging: DAY, retention_default: 0 }
      const swept = await e.retain(cfg, now)
      assert.deepEqual(swept.map((s) => `${s.workspace} ${s.category} ${s.rows}`).sort(), [
        'wksp_a logging 1',
        'wksp_a metric 1',
      ])
      assert.deepEqual(await values(e, 'wksp_a', 'M::m'), [2])
      assert.deepEqual(await values(e, 'wksp_b', 'M::m'), [1, 2])
      assert.deepEqual(await values(e, 'wksp_a', 'L::l'), [2])
      assert.deepEqual(await values(e, 'wksp_b', 'L::l'), [1, 2])
      // In the series layout the deleted point's series goes too, in that workspace only.
      assert.deepEqual(
        [await seriesCount(e, 'wksp_a'), await seriesCount(e, 'wksp_b')],
        series.length ? [1, 2] : [null, null],
      )
      // Cleared, the global key applies again.
      await o.clear('wksp_b', 'logging')
      assert.deepEqual(await e.retain(cfg, now), [
        { workspace: 'wksp_b', category: 'logging', rows: 1 },
      ])
    } finally {
      await e.close()
    }
  })
}

test('retention durations: config syntax or forever, printed in the largest exact unit', () => {
  assert.deepEqual(['14d', '12h', '90m', '1h30m', '45s', '1500ms', 'forever', '0'].map(parseKeep), [
    14 * DAY,
    43_200_000,
    5_400_000,
    5_400_000,
    45_000,
    1500,
    0,
    0,
  ])
  assert.deepEqual([14 * DAY, 43_200_000, 5_400_000, 45_000, 1500, 0].map(formatKeep), [
    '14d',
    '12h',
    '90m',
    '45s',
    '1500ms',
    'forever',
  ])
  for (const bad of ['2w', '-1d', 'soon', ''])
    assert.throws(
      () => parseKeep(bad),
      (e: unknown) =>
        e instanceof FerryError &&
        e.code === 'invalidParameter' &&
        e.message ===
          `${JSON.stringify(bad)} is not a retention: a duration such as 14d or 12h, or forever`,
    )
})
