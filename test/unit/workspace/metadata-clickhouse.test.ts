/**
 * ClickHouse's metadata store passes the metadata contract against a real clickhouse-server
 * (a child process on free loopback ports), each case in a database of its own.
 */
import { ClickHouseMetadata } from '../../../src/workspace/store/clickhouse/metadata.js'
import { useClickHouse } from '../../helpers/clickhouse.js'
import { metadataContract, REPLAY_BOUND } from './metadata-contract.js'

const ch = useClickHouse()
let n = 0

if (ch.missing) console.log(`# skipped: ${ch.missing}`)
else
  metadataContract('clickhouse', async () => {
    const client = ch.client()
    const meta = await ClickHouseMetadata.open(client, {
      prefix: `contract${n++}`,
      replayMaxBytes: REPLAY_BOUND,
      timeoutMs: 10_000,
    })
    return { meta, close: () => client.close() }
  })
