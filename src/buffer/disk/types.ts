/** Options and telemetry hooks of the disk buffer. */
import type { BufferPool } from '../../shared/buffer-pool.js'

export type WhenFull = 'reject' | 'drop_oldest' | 'drop_newest'

export interface DiskBufferOptions {
  path: string
  durability: 'sync' | 'async'
  maxBytesPerCategory: number
  /** Bytes across every category (`max_total_capacity_gb`); absent means no total limit. */
  maxTotalBytes?: number
  whenFull: WhenFull
  /** Free disk space to keep; below it the buffer counts as full. */
  minFreeDisk: number
  /** Where windows read back take their memory, and `release` returns it; absent: fresh. */
  buffers?: BufferPool
  /** Bytes read back after which the environment is reopened (remap.ts); 0 or absent: never. */
  maxResident?: number
}

/** What the buffer reports (implemented by telemetry Events). */
export interface BufferEvents {
  committed(seconds: number): void
  pointsDropped(category: string, reason: string, points: number): void
  recordDamaged(category: string, seq: number, why: string): void
  /** A commit, prune or position write failed (the caller answers 503 and retries). */
  storageFailed(op: string, why: string): void
  /** Records a salvage could not recover (the ledger says they existed). */
  recordsLost(category: string, records: number, points: number, why: string): void
  /** The environment was reopened after `readBytes` read back (absent: not told). */
  remapped?(readBytes: number, seconds: number): void
}
