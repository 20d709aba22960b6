/**
 * The StorageEngine contract (src/workspace/store/engine.ts), written once: every engine runs
 * it through `storageContract` with a function opening a fresh, empty engine.
 */
import assert from 'node:assert/strict'
import { before, test } from 'node:test'
import { parseLines } from '../../../src/decode/lp/parse.js'
import { FerryError } from '../../../src/errors.js'
import type { Category } from '../../../src/shared/category.js'
import { toColumns } from '../../../src/workspace/ingest/columns.js'
import { fingerprintOf, fingerprintReady } from '../../../src/workspace/ingest/fingerprint.js'
import type { StorageEngine } from '../../../src/workspace/store/engine.js'
import type { WriteRequest } from '../../../src/workspace/store/write-request.js'

const WS = 'wksp_contract'
const DAY_NS = 86_400_000_000_000n

/** A line protocol body as the ingest route hands it on: with its fingerprint. */
export function request(
  text: string,
  pkgId: string | null,
  category: Category = 'metric',
  workspaceId = WS,
): WriteRequest {
  const { points } = parseLines(text, Buffer.from(text))
  const timed = points.every((p) => p.time !== null)
  return {
    workspaceId,
    category,
    tables: toColumns(category, points),
    points: points.length,
    pkgId,
    fingerprint: fingerprintOf(Buffer.from(text)),
    timed,
  }
}

export async function count(engine: StorageEngine, table: string, ws = WS): Promise<number> {
  const ref = engine.tableRef(ws, table)
  assert.ok(ref, `${table} exists`)
  const r = await engine.query(`SELECT count(*) FROM ${ref}`)
  return Number(r.rows[0][0])
}

/** A test body run on a fresh engine from `open`, closed after it whatever happens. */
export const engineRunner =
  (open: () => Promise<StorageEngine>) => (fn: (e: StorageEngine) => Promise<void>) => async () => {
    const engine = await open()
    try {
      await fn(engine)
    } finally {
      await engine.close()
    }
  }

export function storageContract(name: string, open: () => Promise<StorageEngine>): void {
  before(() => fingerprintReady)
  const withEngine = engineRunner(open)
  const now = BigInt(Date.now()) * 1_000_000n

  test(
    `${name}: an ingested body is queryable, its columns in the catalog`,
    withEngine(async (e) => {
      assert.equal(e.tableRef(WS, 'M::cpu'), undefined)
      const r = await e.ingest(
        request(`cpu,host=a usage=1.5,ok=true ${now}\ncpu,host=b usage=2 ${now}`, null),
      )
      assert.deepEqual(r, { stored: 2, duplicate: false })
      assert.deepEqual(e.catalog.tableNames(WS), ['M::cpu'])
      const cols = e.catalog.table(WS, 'M::cpu')!.columns.map((c) => [c.name, c.kind, c.type])
      assert.deepEqual(cols, [
        ['host', 'tag', 'VARCHAR'],
        ['usage', 'field', 'DOUBLE'],
        ['ok', 'field', 'BOOLEAN'],
      ])
      assert.equal(await count(e, 'M::cpu'), 2)
    }),
  )

  test(
    `${name}: a package id stored once is answered duplicate`,
    withEngine(async (e) => {
      const body = `m v=1 ${now}`
      const [a, b] = await Promise.all([
        e.ingest(request(body, 'p1')),
        e.ingest(request(body, 'p1')),
      ])
      assert.deepEqual(
        [a, b],
        [
          { stored: 1, duplicate: false },
          { stored: 0, duplicate: true, dedupe: 'id' },
        ],
      )
      const again = await e.ingest(request(body, 'p1'))
      assert.deepEqual(again, { stored: 0, duplicate: true, dedupe: 'id' })
      assert.equal(await count(e, 'M::m'), 1)
    }),
  )

  test(
    `${name}: names are case-sensitive, never an error`,
    withEngine(async (e) => {
      await e.ingest(request(`cpu,host=a,Host=b v=1 ${now}\nCPU V=2 ${now}`, null))
      assert.deepEqual(e.catalog.tableNames(WS).sort(), ['M::CPU', 'M::cpu'])
      assert.deepEqual(
        e.catalog.table(WS, 'M::cpu')!.columns.map((c) => c.name),
        ['host', 'Host', 'v'],
      )
      assert.equal(await count(e, 'M::CPU'), 1)
    }),
  )

  test(
    `${name}: types widen instead of refusing a value`,
    withEngine(async (e) => {
      await e.ingest(request(`m v=1 ${now}`, null, 'logging'))
      await e.ingest(request(`m v="text" ${now}`, null, 'logging'))
      assert.equal(e.catalog.table(WS, 'L::m')!.columns[0].type, 'VARCHAR')
      const r = await e.query(`SELECT v FROM ${e.tableRef(WS, 'L::m')} ORDER BY v`)
      // How an earlier number reads as text is the engine's own (DuckDB: '1.0').
      assert.deepEqual(r.rows.length, 2)
      assert.equal(r.rows[1][0], 'text')
    }),
  )

  test(
    `${name}: retention deletes rows past their category's age`,
    withEngine(async (e) => {
      await e.ingest(request(`m v=1 ${now - 3n * DAY_NS}\nm v=2 ${now}`, null))
      const cfg = { retention_metric: 86_400_000, retention_logging: 0, retention_default: 0 }
      assert.deepEqual(await e.retain(cfg), [{ workspace: WS, category: 'metric', rows: 1 }])
      assert.equal(await count(e, 'M::m'), 1)
    }),
  )

  test(
    `${name}: text values are stored exactly, constant over a chunk or not`,
    withEngine(async (e) => {
      // 5,000 rows: the first 3,000 share one host, then hosts alternate; every 7th has no dc.
      const lines = Array.from({ length: 5000 }, (_, i) => {
        const host = i < 3000 ? 'h-const' : `h-${i % 2}`
        const dc = i % 7 === 0 ? '' : ',dc=eu'
        return `m,host=${host}${dc} v=${i} ${now + BigInt(i)}`
      })
      await e.ingest(request(lines.join('\n'), 'chunks'))
      const r = await e.query(
        `SELECT host, dc, count(*) FROM ${e.tableRef(WS, 'M::m')} GROUP BY host, dc ORDER BY host, dc`,
      )
      const rows = r.rows.map(([h, d, n]) => [h, d, Number(n)])
      assert.deepEqual(rows, [
        ['h-0', 'eu', 857],
        ['h-0', null, 143],
        ['h-1', 'eu', 857],
        ['h-1', null, 143],
        ['h-const', 'eu', 2571],
        ['h-const', null, 429],
      ])
    }),
  )

  test(
    `${name}: tag sets repeat, grow and nest across bodies, each read back as sent`,
    withEngine(async (e) => {
      await e.ingest(request(`m,a=x,b=y v=1 ${now}\nm,a=x1:y v=2 ${now + 1n}`, null))
      await e.ingest(request(`m,a=x,b=y v=3 ${now + 2n}\nm,a=x,c=z v=4 ${now + 3n}`, null))
      await e.ingest(request(`m,b=y v=5 ${now + 4n}\nm v=6 ${now + 5n}`, null))
      const r = await e.query(`SELECT a, b, c, v FROM ${e.tableRef(WS, 'M::m')} ORDER BY time`)
      assert.deepEqual(r.rows, [
        ['x', 'y', null, 1],
        ['x1:y', null, null, 2],
        ['x', 'y', null, 3],
        ['x', null, 'z', 4],
        [null, 'y', null, 5],
        [null, null, null, 6],
      ])
    }),
  )

  test(
    `${name}: a key keeps the column it was first stored in, tag or field`,
    withEngine(async (e) => {
      await e.ingest(request(`m,k=a v=1 ${now}\nm x=1 ${now + 1n}`, null))
      await e.ingest(request(`m k="s",v=2 ${now + 2n}\nm,x=t v=3 ${now + 3n}`, null))
      const cols = e.catalog.table(WS, 'M::m')!.columns.map((c) => [c.name, c.kind, c.type])
      assert.deepEqual(cols, [
        ['k', 'tag', 'VARCHAR'],
        ['v', 'field', 'DOUBLE'],
        ['x', 'field', 'VARCHAR'],
      ])
      const r = await e.query(`SELECT k, v FROM ${e.tableRef(WS, 'M::m')} ORDER BY time`)
      assert.deepEqual(r.rows, [
        ['a', 1],
        [null, null],
        ['s', 2],
        [null, 3],
      ])
    }),
  )

  test(
    `${name}: a tag set whose rows retention deleted is stored again when it comes back`,
    withEngine(async (e) => {
      await e.ingest(request(`m,host=a v=1 ${now - 3n * DAY_NS}\nm,host=b v=2 ${now}`, null))
      const cfg = { retention_metric: 86_400_000, retention_logging: 0, retention_default: 0 }
      await e.retain(cfg)
      await e.ingest(request(`m,host=a v=3 ${now + 1n}`, null))
      const r = await e.query(`SELECT host, v FROM ${e.tableRef(WS, 'M::m')} ORDER BY time`)
      assert.deepEqual(r.rows, [
        ['b', 2],
        ['a', 3],
      ])
    }),
  )

  test(
    `${name}: objects: the newest state per name, filtered, searched and paged`,
    withEngine(async (e) => {
      const lines = [
        `HOST,name=web-1 os="linux",cpu=1 ${now - 100n}`,
        `HOST,name=web-1 os="linux",cpu=2 ${now}`,
        `HOST,name=db-1 os="bsd",cpu=3 ${now - 50n}`,
        `HOST,name=old os="linux",cpu=4 ${now - 3n * DAY_NS}`,
      ]
      await e.ingest(request(lines.join('\n'), null, 'object'))
      const q = {
        workspaceId: WS,
        table: 'O::HOST',
        equals: [] as [string, string][],
        search: null,
        sinceNs: now - DAY_NS,
        offset: 0,
        limit: 10,
      }
      const names = (p: { columns: string[]; rows: unknown[][] }, col: string) =>
        p.rows.map((r) => r[p.columns.indexOf(col)])
      const all = await e.objects(q)
      assert.equal(all.total, 2)
      assert.deepEqual(names(all, 'name'), ['db-1', 'web-1'])
      assert.deepEqual(names(all, 'cpu'), [3, 2])
      assert.deepEqual(names(all, 'time').map(Number), [Number(now - 50n), Number(now)])
      const linux = await e.objects({ ...q, equals: [['os', 'linux']], sinceNs: null })
      assert.deepEqual(names(linux, 'name'), ['old', 'web-1'])
      const found = await e.objects({ ...q, search: { columns: ['name'], needle: 'web' } })
      assert.deepEqual([found.total, names(found, 'name')], [1, ['web-1']])
      const page = await e.objects({ ...q, offset: 1, limit: 1 })
      assert.deepEqual([page.total, names(page, 'name')], [2, ['web-1']])
      assert.deepEqual(await e.objects({ ...q, table: 'O::none' }), {
        total: 0,
        columns: [],
        rows: [],
      })
    }),
  )

  test(
    `${name}: a query the engine refuses as malformed is queryInvalid`,
    withEngine(async (e) => {
      await e.ingest(request(`m v=1 ${now}`, null))
      await assert.rejects(
        e.query(`SELECT no_such_column FROM ${e.tableRef(WS, 'M::m')}`),
        (err: unknown) => err instanceof FerryError && err.code === 'queryInvalid',
      )
    }),
  )
}
