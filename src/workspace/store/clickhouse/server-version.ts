/**
 * What the ClickHouse server can do, decided from `SELECT version()` once at open: the engine
 * keeps one statement shape per feature and asks this which one the server takes. Today the
 * one such feature is table `TTL` (retention.ts), which ClickHouse has since 19.6; Debian's
 * 18.16 lacks it. An unreadable version counts as the oldest (every feature off).
 */
import type { ClickHouseClient } from './client.js'

export interface ServerFeatures {
  version: string
  /** `TTL` on MergeTree tables (and `ALTER TABLE ... MODIFY TTL`). */
  ttl: boolean
}

/** The features of a server that answered `version` to `SELECT version()`. */
export function featuresOf(version: string): ServerFeatures {
  const [major, minor] = version.split('.').map((x) => Number.parseInt(x, 10))
  const ok = Number.isFinite(major) && Number.isFinite(minor)
  return { version, ttl: ok && (major > 19 || (major === 19 && minor >= 6)) }
}

export async function detectFeatures(
  client: ClickHouseClient,
  timeoutMs: number,
): Promise<ServerFeatures> {
  const r = await client.query('SELECT version()', { timeoutMs })
  return featuresOf(String(r.rows[0]?.[0] ?? ''))
}
