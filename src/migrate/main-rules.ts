/**
 * What becomes of each key of the reference's datakit.conf (DataKit 1.84), by its dotted path:
 * a Ferry key it moves to (`to`), a reason it cannot move (`drop`), or a note that Ferry already
 * behaves as the value asks (`same`, silent). A path with no rule here moves to the Ferry key of
 * the same section and name when the schema has one (so keys Ferry gains later map by
 * themselves), else it is reported. Section rules (`dca.*`) cover every key below them.
 *
 * `DEFAULTS` holds the values the reference ships in its sample: a dropped key still at its
 * shipped value (or empty, or in a section switched off) asked for nothing, so it is not
 * reported; only settings an operator chose are.
 */

export type Rule = { to: string } | { drop: string } | { same: string }

const noKey = { drop: 'this version of Ferry has no such key' }
const deprecated = (instead: string) => ({ drop: `deprecated in the reference; ${instead}` })
const diskBuffer = { drop: "Ferry's disk buffer has no such setting" }
const noQueue = {
  drop: 'Ferry writes each accepted batch to its disk buffer at once; it has no memory queue to size',
}
const connections = { drop: "Ferry's upload client manages its own connections" }
const noElection = { drop: 'Ferry has no election namespaces or whitelists' }

export const RULES: Record<string, Rule> = {
  default_enabled_inputs: { to: 'agent.default_enabled_inputs' },
  enable_pprof: { drop: 'Ferry has no pprof server; profile it with node --cpu-prof' },
  pprof_listen: { drop: 'Ferry has no pprof server; profile it with node --cpu-prof' },
  protect_mode: { drop: 'Ferry has no protect mode' },
  datakit_user: { drop: 'the service user is chosen by `ferry service install`' },
  ulimit: { drop: 'set LimitNOFILE= in the service unit instead' },
  name: { drop: 'Ferry has no agent name; use a global host tag' },
  enable_debug_fields: { drop: 'Ferry adds no pipeline run-info fields' },
  auto_update: { drop: 'Ferry does not update itself' },
  'point_pool.*': { drop: 'Ferry has no point pool' },
  'dca.*': { drop: 'Ferry has no DCA client' },
  'dk_upgrader.*': { drop: 'Ferry has no remote upgrader' },
  'recorder.*': { drop: 'Ferry has no point recorder; `ferry tap` shows accepted points' },
  'git_repos.*': { drop: 'Ferry does not pull its configs from git' },
  'crypto.*': { drop: 'Ferry has no ENC[...] decryption' },
  'remote_job.*': { drop: 'Ferry runs no remote jobs' },
  'apm_inject.*': { drop: 'Ferry does not inject APM agents' },
  confds: { drop: 'Ferry reads no confd backends' },
  'resource_limit.*': {
    drop: 'Ferry sets no cgroup limits itself; use the service manager (systemd CPUQuota=, MemoryMax=)',
  },
  'environments.ENV_HOSTNAME': { to: 'agent.hostname' },
  'environments.*': { drop: "set it in the service's environment instead" },
  'http_api.rum_origin_ip_header': { to: 'rum.origin_ip_header' },
  'http_api.rum_app_id_white_list': { to: 'rum.app_id_white_list' },
  'http_api.disable_404page': { same: "Ferry's 404 answers carry no agent details" },
  'http_api.close_idle_connection': { drop: 'Ferry closes idle connections by its own timeouts' },
  'http_api.request_rate_limit_ttl': { drop: "Ferry's rate limiter has no such setting" },
  'dataway.timeout_v2': { to: 'dataway.timeout' },
  'dataway.retry_delay': { to: 'dataway.retry_initial' },
  'dataway.url': { to: 'dataway.urls' },
  'dataway.max_retry_count': {
    drop: 'Ferry retries failed uploads with backoff (retry_initial to retry_max) until drop_expired_package_at',
  },
  'dataway.max_idle_conns': connections,
  'dataway.max_idle_conns_per_host': connections,
  'dataway.idle_timeout': connections,
  'dataway.enable_httptrace': connections,
  'dataway.host': deprecated('put the whole URL with its token in urls'),
  'dataway.scheme': deprecated('put the whole URL with its token in urls'),
  'dataway.token': deprecated('put the whole URL with its token in urls'),
  'dataway.http_proxy': noKey,
  'dataway.tls_insecure': noKey,
  'dataway.global_customer_keys': noKey,
  'dataway.enable_sinker': noKey,
  'dataway.ntp.*': noKey,
  'dataway.wal.workers': diskBuffer,
  'dataway.wal.mem_cap': diskBuffer,
  'dataway.wal.fail_cache_clean_interval': diskBuffer,
  'dataway.wal.no_pos': diskBuffer,
  'dataway.wal.no_drop_categories': {
    drop: 'Ferry drops nothing when full with [dataway.wal] when_full = "reject"',
  },
  'io.auto_timestamp_correction': noKey,
  'io.filters': noKey,
  'io.*': noQueue,
  'logging.log': {
    drop: 'Ferry logs JSON lines to stdout (the journal under systemd); redirect its output instead',
  },
  'logging.gin_log': { drop: 'Ferry has no separate access log' },
  'logging.rotate': { drop: 'Ferry writes its log to stdout and does not rotate it' },
  'logging.rotate_backups': { drop: 'Ferry writes its log to stdout and does not rotate it' },
  'logging.disable_color': { same: 'Ferry logs JSON lines, without colour' },
  'election.node_whitelist': noElection,
  'election.namespace': noElection,
  'election.enable_namespace_tag': noElection,
  'pipeline.ipdb_type': { drop: 'Ferry looks addresses up in its shipped DB-IP database' },
  'pipeline.ipdb_attr': { drop: 'Ferry looks addresses up in its shipped DB-IP database' },
  'pipeline.remote_pull_interval': { drop: 'Ferry pulls no remote pipelines' },
  'pipeline.use_sqlite': { drop: 'Ferry keeps reference tables in memory' },
  'pipeline.sqlite_mem_mode': { drop: 'Ferry keeps reference tables in memory' },
  'pipeline.disable_append_run_info': { same: 'Ferry appends no run info' },
  'pipeline.offload.*': { drop: 'Ferry does not offload pipelines' },
  'pipeline.disable_http_request_func': { same: "Ferry's scripts cannot make HTTP requests" },
  'pipeline.http_request_host_whitelist': { same: "Ferry's scripts cannot make HTTP requests" },
  'pipeline.http_request_cidr_whiltelist': { same: "Ferry's scripts cannot make HTTP requests" },
  'pipeline.http_request_disable_internal_net': {
    same: "Ferry's scripts cannot make HTTP requests",
  },
}

/** Top-level keys the reference still reads in place of the keys they were renamed to. */
export const ALIASES: Record<string, string> = {
  http_listen: 'http_api.listen',
  http_server_addr: 'http_api.listen',
  log_level: 'logging.level',
  log: 'logging.log',
  gin_log: 'logging.gin_log',
  enable_election: 'election.enable',
  election_namespace: 'election.namespace',
  namespace: 'election.namespace',
  global_tags: 'global_host_tags',
  disable_404page: 'http_api.disable_404page',
}

/** The reference's shipped values of keys Ferry does not take (see the module comment). */
export const DEFAULTS: Record<string, unknown> = {
  enable_pprof: true,
  pprof_listen: 'localhost:6060',
  protect_mode: true,
  datakit_user: 'root',
  ulimit: 64000,
  'point_pool.reserved_capacity': 4096,
  'dca.websocket_server': 'ws://localhost:8000/ws',
  'dk_upgrader.host': '0.0.0.0',
  'dk_upgrader.port': 9542,
  'pipeline.ipdb_type': 'iploc',
  'pipeline.remote_pull_interval': '1m',
  'pipeline.refer_table_pull_interval': '5m',
  'pipeline.offload.receiver': 'datakit-http',
  'http_api.request_rate_limit_ttl': '60s',
  'io.max_cache_count': 1000,
  'io.flush_interval': '10s',
  'io.feed_chan_size': 1,
  'io.auto_timestamp_correction': true,
  'recorder.encoding': 'v2',
  'recorder.duration': '30m',
  'dataway.max_retry_count': 1,
  'dataway.idle_timeout': '90s',
  'dataway.ntp.enable': true,
  'dataway.ntp.interval': '5m',
  'dataway.ntp.diff': '30s',
  'dataway.wal.fail_cache_clean_interval': '30s',
  'logging.log': '/var/log/datakit/log',
  'logging.gin_log': '/var/log/datakit/gin.log',
  'logging.rotate': 32,
  'logging.rotate_backups': 5,
  'election.namespace': 'default',
  'resource_limit.enable': true,
  'resource_limit.path': '/datakit',
  'resource_limit.cpu_cores': 2,
  'resource_limit.mem_max_mb': 4096,
  'git_repos.pull_interval': '1m',
  'remote_job.interval': '30s',
}

/** The rule for a path: its own, else the nearest section rule (`a.b.*`, then `a.*`). */
export function ruleOf(path: string): Rule | undefined {
  if (RULES[path]) return RULES[path]
  const parts = path.split('.')
  for (let n = parts.length - 1; n > 0; n--) {
    const r = RULES[`${parts.slice(0, n).join('.')}.*`]
    if (r) return r
  }
  return undefined
}
