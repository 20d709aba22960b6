/**
 * Operations sections: `[health]` (when `/v1/ping`, `/v1/monitor` and `ferry health` say
 * `degraded`) and `[tap]` (how much `ferry tap` may hold per client).
 */
import { nonNegative, positive } from './checks.js'
import type { SectionOf, SectionSpec } from './spec.js'

const percent = (v: number) => (v > 0 && v <= 100 ? undefined : 'must be in (0, 100]')

export const HEALTH_SCHEMA = {
  /** An upstream whose uploads have failed (no success since) for this long degrades health. */
  upstream_failing_after: {
    type: 'duration',
    default: 60_000,
    env: 'ENV_HEALTH_UPSTREAM_FAILING_AFTER',
    check: nonNegative,
  },
  /** A category, or the whole buffer, holding more than this share of its capacity. */
  buffer_usage_percent: {
    type: 'number',
    default: 80,
    env: 'ENV_HEALTH_BUFFER_USAGE_PERCENT',
    check: percent,
  },
  /** Pipeline errors within `pipeline_error_window` at or above this count; 0: never. */
  pipeline_errors: {
    type: 'int',
    default: 10,
    env: 'ENV_HEALTH_PIPELINE_ERRORS',
    check: nonNegative,
  },
  pipeline_error_window: {
    type: 'duration',
    default: 60_000,
    env: 'ENV_HEALTH_PIPELINE_ERROR_WINDOW',
    check: positive,
  },
} as const satisfies SectionSpec

export const TAP_SCHEMA = {
  /** Taps attached at once; one more is refused (503). */
  max_clients: { type: 'int', default: 4, env: 'ENV_TAP_MAX_CLIENTS', check: nonNegative },
  /** Points held per tap client for a slow reader; beyond, points are dropped and counted. */
  queue_points: { type: 'int', default: 10_000, env: 'ENV_TAP_QUEUE_POINTS', check: positive },
} as const satisfies SectionSpec

export type HealthConfig = SectionOf<typeof HEALTH_SCHEMA>
export type TapConfig = SectionOf<typeof TAP_SCHEMA>
