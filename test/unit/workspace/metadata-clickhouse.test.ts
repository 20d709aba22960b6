/**
 * ClickHouse's metadata store passes the metadata contract against a real clickhouse-server
 * (a child process on free loopback ports), each case in a database of its own.
 */
import { after, before } from 'node:test'
import { ClickHouseClient } from '../../../src/workspace/store/clickhouse/client.js'
import { ClickHouseMetadata } from '../../../src/workspace/store/clickhouse/metadata.js'
import {
  clickhouseMissing,
  startClickHouse,
  type ClickHouseServer,
} from '../../helpers/clickhouse.js'
import { metadataContract, REPLAY_BOUND } from './metadata-contract.js'

const missing = clickhouseMissing()
let server: ClickHouseServer | null = null
before(async () => {
  if (!missing) server = await startClickHouse()
})
after(() => server?.stop())
let n = 0

if (missing) console.log(`# skipped: ${missing}`)
else
  metadataContract('clickhouse', async () => {
    const client = new ClickHouseClient({
      urls: [server!.url],
      user: 'default',
      password: '',
      tls: { ca: '', cert: '', key: '', insecureSkipVerify: false },
      connectTimeoutMs: 2000,
      maxConnections: 4,
    })
    const meta = await ClickHouseMetadata.open(client, {
      prefix: `contract${n++}`,
      replayMaxBytes: REPLAY_BOUND,
      timeoutMs: 10_000,
    })
    return { meta, close: () => client.close() }
  })
