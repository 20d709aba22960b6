/**
 * ClickHouse passes the storage engine contract against a real clickhouse-server (a child
 * process on free loopback ports), each case under a database prefix of its own.
 */
import { after, before } from 'node:test'
import { ClickHouseClient } from '../../../src/workspace/store/clickhouse/client.js'
import { ClickHouseEngine } from '../../../src/workspace/store/clickhouse/engine.js'
import {
  clickhouseMissing,
  startClickHouse,
  type ClickHouseServer,
} from '../../helpers/clickhouse.js'
import { storageContract } from './engine-contract.js'

const missing = clickhouseMissing()
let server: ClickHouseServer | null = null
before(async () => {
  if (!missing) server = await startClickHouse()
})
after(() => server?.stop())
let n = 0

if (missing) console.log(`# skipped: ${missing}`)
else
  storageContract('clickhouse', async () => {
    const client = new ClickHouseClient({
      urls: [server!.url],
      user: 'default',
      password: '',
      tls: { ca: '', cert: '', key: '', insecureSkipVerify: false },
      connectTimeoutMs: 2000,
      maxConnections: 4,
    })
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
  })
