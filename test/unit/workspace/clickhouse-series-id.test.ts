/**
 * The series id of the ClickHouse series layout (store/clickhouse/series-id.ts): the canonical
 * form of a tag set and its SipHash-2-4 as golden values, which must never change (every
 * stored series would split), and the same hashes from a real server's `sipHash64`.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import {
  canonicalTags,
  escapeTag,
  seriesId,
  sipHash64,
  TagSetIds,
} from '../../../src/workspace/store/clickhouse/series-id.js'
import { useClickHouse } from '../../helpers/clickhouse.js'
import { chString } from '../../../src/workspace/store/clickhouse/sql.js'

type Tags = [string, string | null][]

// Tag set, canonical form, id: written down once (the last test has the server agree).
const GOLDEN: [Tags, string, bigint][] = [
  [[], '', 2202906307356721367n],
  [[['host', 'a']], 'host=a', 4638144368920982729n],
  [
    [
      ['region', 'eu'],
      ['host', 'a'],
    ],
    'host=a,region=eu',
    17876528665206362960n,
  ],
  [
    [
      ['host', 'a'],
      ['rack', null],
    ],
    'host=a',
    4638144368920982729n,
  ],
  [[['a,b', 'x=y\\z']], 'a\\,b=x\\=y\\\\z', 790857990110589041n],
  [
    [
      ['é', '1'],
      ['z', '2'],
      ['😀', '3'],
      ['\uffff', '4'],
    ],
    'z=2,é=1,\uffff=4,😀=3',
    17885437527528608128n,
  ],
]

test('a tag set has one canonical form and one id, whatever the order of its tags', () => {
  for (const [tags, canonical, id] of GOLDEN) {
    assert.equal(canonicalTags(tags), canonical)
    assert.equal(canonicalTags([...tags].reverse()), canonical)
    assert.equal(seriesId(tags), id, canonical)
  }
})

test('ids of many tag sets over one list of keys are the same ids', () => {
  for (const [tags, , id] of GOLDEN) {
    const ids = new TagSetIds(tags.map(([k]) => k))
    assert.equal(ids.id(tags.map(([, v]) => (v === null ? null : escapeTag(v)))), id)
  }
})

test('escapes keep tag sets apart that would read alike', () => {
  assert.notEqual(
    seriesId([['a', 'b,c=d']]),
    seriesId([
      ['a', 'b'],
      ['c', 'd'],
    ]),
  )
  assert.notEqual(seriesId([['a=b', 'c']]), seriesId([['a', 'b=c']]))
})

const ch = useClickHouse()
if (ch.missing) console.log(`# skipped: ${ch.missing}`)
else
  test("the server's sipHash64 of the canonical form is the id", async () => {
    const client = ch.client()
    try {
      const texts = GOLDEN.map(([, c]) => c).concat(['x'.repeat(7), 'y'.repeat(8), 'z'.repeat(65)])
      const sql = `SELECT ${texts.map((t) => `toString(sipHash64(${chString(t)}))`).join(', ')}`
      const r = await client.query(sql, { timeoutMs: 10_000 })
      assert.deepEqual(
        r.rows[0].map((v) => BigInt(v as string)),
        texts.map(sipHash64),
      )
    } finally {
      await client.close()
    }
  })
