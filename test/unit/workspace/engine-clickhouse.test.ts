/**
 * ClickHouse passes the storage engine contract against a real clickhouse-server (a child
 * process on free loopback ports), each case under a database prefix of its own.
 */
import { ClickHouseEngine } from '../../../src/workspace/store/clickhouse/engine.js'
import { useClickHouse } from '../../helpers/clickhouse.js'
import { storageContract } from './engine-contract.js'
import { dedupeContract } from './engine-contract-dedupe.js'

const ch = useClickHouse()
let n = 0

if (ch.missing) console.log(`# skipped: ${ch.missing}`)
else {
  const open = async () => {
    const client = ch.client()
    const engine = await ClickHouseEngine.open(client, {
      prefix: `engine${n++}`,
      dedupeWindowMs: 3_600_000,
      dedupeByContent: true,
      maxPendingPoints: 100_000,
      insertTimeoutMs: 10_000,
      queryTimeoutMs: 10_000,
    })
    const close = engine.close.bind(engine)
    return Object.assign(engine, { close: async () => (await close(), await client.close()) })
  }
  storageContract('clickhouse', open)
  dedupeContract('clickhouse', open)
}
