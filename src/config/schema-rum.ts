/** The `[rum]` section: source maps, GeoIP tags, whitelists, CDN marking and session replay. */
import { cdnMapCheck, nonNegative, positive } from './checks.js'
import type { SectionOf, SectionSpec } from './spec.js'

const MEASUREMENTS = ['view', 'resource', 'error', 'long_task', 'action', 'telemetry']

export const RUM_SCHEMA = {
  /** The source map, env variable and replay routes exist only when on (spec 4.5). */
  enable: { type: 'bool', default: true, env: 'ENV_RUM_ENABLE' },
  app_id_white_list: {
    type: 'strings',
    default: [],
    env: 'ENV_RUM_APP_ID_WHITE_LIST',
    live: true,
  },
  measurements: {
    type: 'strings',
    default: MEASUREMENTS,
    env: 'ENV_RUM_MEASUREMENTS',
    live: true,
  },
  origin_ip_header: {
    type: 'string',
    default: 'X-Forwarded-For',
    env: 'ENV_RUM_ORIGIN_IP_HEADER',
    live: true,
  },
  geoip: { type: 'bool', default: true, env: 'ENV_RUM_GEOIP' },
  /** `provider_type` / `provider_name` on resource points from a CNAME lookup of the host. */
  cdn_mark: { type: 'bool', default: true, env: 'ENV_RUM_CDN_MARK' },
  /** The reference's `cdn_map`: a JSON list of `{domain, name, website}` replacing the table. */
  cdn_map: { type: 'string', default: '', env: 'ENV_RUM_CDN_MAP', check: cdnMapCheck },
  cdn_lookup_wait: {
    type: 'duration',
    default: 50,
    env: 'ENV_RUM_CDN_LOOKUP_WAIT',
    check: nonNegative,
  },
  cdn_lookup_timeout: {
    type: 'duration',
    default: 2_000,
    env: 'ENV_RUM_CDN_LOOKUP_TIMEOUT',
    check: positive,
  },
  cdn_lookup_concurrency: {
    type: 'int',
    default: 16,
    env: 'ENV_RUM_CDN_LOOKUP_CONCURRENCY',
    check: positive,
  },
  sourcemap_cache_zips: {
    type: 'int',
    default: 32,
    env: 'ENV_RUM_SOURCEMAP_CACHE_ZIPS',
    check: positive,
  },
  sourcemap_cache_size: {
    type: 'bytes',
    default: 128 * 1024 * 1024,
    env: 'ENV_RUM_SOURCEMAP_CACHE_SIZE',
    check: positive,
  },
  /** Map entries over each source map cache (every decode worker has one). */
  sourcemap_cache_entries: {
    type: 'int',
    default: 100_000,
    env: 'ENV_RUM_SOURCEMAP_CACHE_ENTRIES',
    check: positive,
  },
  /** The longest an error point waits for its zip to load; the load goes on for the next. */
  sourcemap_load_wait: {
    type: 'duration',
    default: 1_000,
    env: 'ENV_RUM_SOURCEMAP_LOAD_WAIT',
    check: positive,
  },
  /** What one source map zip may inflate to, counted while inflating; over it, refused. */
  zip_max_size: {
    type: 'bytes',
    default: 64 * 1024 * 1024,
    env: 'ENV_RUM_ZIP_MAX_SIZE',
    check: positive,
  },
  /** Entries one zip (source maps or symbols) may hold; over it, refused. */
  zip_max_entries: {
    type: 'int',
    default: 10_000,
    env: 'ENV_RUM_ZIP_MAX_ENTRIES',
    check: positive,
  },
  /** What one Android or iOS symbol zip may extract to (streamed to disk, not held). */
  symbol_zip_max_size: {
    type: 'bytes',
    default: 2 * 1024 * 1024 * 1024,
    env: 'ENV_RUM_SYMBOL_ZIP_MAX_SIZE',
    check: positive,
  },
  sourcemap_recheck: {
    type: 'duration',
    default: 5_000,
    env: 'ENV_RUM_SOURCEMAP_RECHECK',
    check: nonNegative,
  },
  /** Symbol tools for Android and iOS stacks, by the reference's names; '' = not installed. */
  android_cmdline_home: { type: 'string', default: '', env: 'ENV_RUM_ANDROID_CMDLINE_HOME' },
  proguard_home: { type: 'string', default: '', env: 'ENV_RUM_PROGUARD_HOME' },
  ndk_home: { type: 'string', default: '', env: 'ENV_RUM_NDK_HOME' },
  atos_bin_path: { type: 'string', default: '', env: 'ENV_RUM_ATOS_BIN_PATH' },
  symbol_tool_timeout: {
    type: 'duration',
    default: 30_000,
    env: 'ENV_RUM_SYMBOL_TOOL_TIMEOUT',
    check: positive,
  },
  symbol_tool_concurrency: {
    type: 'int',
    default: 4,
    env: 'ENV_RUM_SYMBOL_TOOL_CONCURRENCY',
    check: positive,
  },
  replay_max_body_size: {
    type: 'bytes',
    default: 32 * 1024 * 1024,
    env: 'ENV_RUM_REPLAY_MAX_BODY_SIZE',
    check: positive,
  },
  replay_queue_size: {
    type: 'bytes',
    default: 1024 * 1024 * 1024,
    env: 'ENV_RUM_REPLAY_QUEUE_SIZE',
    check: positive,
  },
  replay_filter_rules: { type: 'strings', default: [], env: 'ENV_RUM_REPLAY_FILTER_RULES' },
} as const satisfies SectionSpec

export type RumConfig = SectionOf<typeof RUM_SCHEMA>
