/**
 * A span's `type` (as Datadog tracers set it) → the reference's source_type: app, framework,
 * cache, db, message_queue, web, or custom for anything else.
 */
const GROUPS: [string, string[]][] = [
  ['app', ['consul']],
  [
    'framework',
    ['.net', 'datanucleus', 'django', 'express', 'flask', 'go-gin', 'graphql', 'hibernate'],
  ],
  ['framework', ['laravel', 'soap', 'spring']],
  ['cache', ['cache', 'memcached', 'redis']],
  [
    'db',
    ['aerospike', 'cassandra', 'db', 'elasticsearch', 'influxdb', 'leveldb', 'mongodb', 'mysql'],
  ],
  ['db', ['pymysql', 'sql']],
  ['message_queue', ['go-nsq', 'kafka', 'mqtt', 'queue', 'rabbitmq', 'rocketmq']],
  ['web', ['dns', 'grpc', 'http', 'http2', 'rpc', 'web']],
]

const TYPES = new Map(GROUPS.flatMap(([group, types]) => types.map((t) => [t, group])))

export function sourceType(type: string): string {
  return TYPES.get(type.toLowerCase()) ?? 'custom'
}
