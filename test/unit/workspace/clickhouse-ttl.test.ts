/**
 * Retention by TTL on ClickHouse: which servers get it (decided from `SELECT version()`), the
 * one statement shape it uses, and on the real 18.16 server the tests run (no TTL) that the
 * engine detects the version, sets no TTL and drops whole past days as before.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { ClickHouseEngine } from '../../../src/workspace/store/clickhouse/engine.js'
import {
  detectFeatures,
  featuresOf,
} from '../../../src/workspace/store/clickhouse/server-version.js'
import { ttlExpression, ttlStatement } from '../../../src/workspace/store/clickhouse/ttl.js'
import { useClickHouse } from '../../helpers/clickhouse.js'
import { count, request } from './engine-contract.js'

const ch = useClickHouse()
const skip = ch.missing ?? false

test('TTL is used from 19.6 on; older or unreadable versions drop partitions only', () => {
  const ttl = (v: string) => featuresOf(v).ttl
  assert.deepEqual(
    ['18.16.1', '19.5.3.8', '19.6.2.11', '19.17.4', '20.3.12', '23.8.1.2', ''].map(ttl),
    [false, false, true, true, true, true, false],
  )
  assert.equal(ttl('garbage'), false)
})

test('one TTL shape for every retention, capped at the last second a DateTime holds', () => {
  assert.equal(
    ttlExpression(86_400_000),
    'toDateTime(least(intDiv(`time`, 1000000000) + 86400, 4294967295))',
  )
  assert.equal(
    ttlStatement('`db`.`M::cpu`', 0),
    'ALTER TABLE `db`.`M::cpu` MODIFY TTL toDateTime(least(intDiv(`time`, 1000000000) + 4294967295, 4294967295))',
  )
  assert.match(ttlExpression(1500), /\+ 2, /)
})

test('on 18.16: no TTL detected or set; retention drops the past day', { skip }, async () => {
  const client = ch.client()
  try {
    assert.deepEqual(await detectFeatures(client, 10_000), { version: '18.16.1', ttl: false })
    const e = await ClickHouseEngine.open(client, {
      prefix: 'ttl',
      dedupeWindowMs: 3_600_000,
      dedupeByContent: true,
      maxPendingPoints: 100_000,
      insertTimeoutMs: 10_000,
      queryTimeoutMs: 10_000,
    })
    assert.equal(e.features.ttl, false)
    const now = BigInt(Date.now()) * 1_000_000n
    const day = 86_400_000_000_000n
    await e.ingest(request(`m v=1 ${now - 3n * day}\nm v=2 ${now}`, null))
    const cfg = { retention_metric: 86_400_000, retention_logging: 0, retention_default: 0 }
    assert.deepEqual(await e.retain(cfg), [
      { workspace: 'wksp_contract', category: 'metric', rows: 1 },
    ])
    assert.equal(await count(e, 'M::m'), 1)
    const ddl = await client.query(
      "SELECT create_table_query FROM system.tables WHERE name = 'M::m'",
      {
        timeoutMs: 10_000,
      },
    )
    assert.doesNotMatch(String(ddl.rows[0][0]), /TTL/)
    await e.close()
  } finally {
    await client.close()
  }
})
