/**
 * cache_set / cache_get: a key-value store scripts share across points and runs, as the
 * reference's pipeline cache (values are strings; an entry lives `expiration` seconds,
 * default 100).
 *
 * Invariants: one cache per decode worker (workers do not share entries, so a value set while
 * one worker ran a point is seen by later points of that worker only); at most
 * `[pipeline] cache_max_entries` entries, the oldest written leaving first when full; a value
 * longer than MAX_VALUE characters is not stored (cache_set answers false).
 */
import type { LibFn } from './lib-fn.js'
import { valArg } from './context.js'

export const MAX_VALUE = 64 * 1024
const DEFAULT_TTL_S = 100

interface Entry {
  value: string
  expires: number
}

const entries = new Map<string, Entry>()
let maxEntries = 10_000

/** Sets the entry limit (engine start); a smaller limit evicts the oldest entries now. */
export function setCacheLimit(n: number): void {
  maxEntries = Math.max(0, n)
  evict()
}

function evict(): void {
  for (const k of entries.keys()) {
    if (entries.size <= maxEntries) break
    entries.delete(k)
  }
}

function cacheSet(key: unknown, value: unknown, ttl: unknown): boolean {
  if (typeof key !== 'string' || typeof value !== 'string' || value.length > MAX_VALUE) return false
  const seconds = typeof ttl === 'number' && ttl > 0 ? ttl : DEFAULT_TTL_S
  entries.delete(key)
  entries.set(key, { value, expires: Date.now() + seconds * 1000 })
  evict()
  return entries.has(key)
}

function cacheGet(key: unknown): string | null {
  if (typeof key !== 'string') return null
  const e = entries.get(key)
  if (!e) return null
  if (e.expires <= Date.now()) {
    entries.delete(key)
    return null
  }
  return e.value
}

export const CACHE_FNS: Record<string, LibFn> = {
  cache_set: {
    params: ['key', 'value', 'expiration'],
    run: (_c, p, a) => cacheSet(valArg(p, a[0]), valArg(p, a[1]), valArg(p, a[2])),
  },
  cache_get: { params: ['key'], run: (_c, p, a) => cacheGet(valArg(p, a[0])) },
}
