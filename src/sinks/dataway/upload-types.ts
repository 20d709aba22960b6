/**
 * The uploader's options, the events it reports, and the window it delivers: shared by the
 * uploader's loop (uploader.ts), its window planning (window.ts) and its delivery (deliver.ts).
 */
import type { StoredBatch } from '../../buffer/buffer.js'
import type { UploadBody } from './bodies.js'
import type { SendOptions, UploadError } from './send.js'

export interface UploaderOptions extends SendOptions {
  maxRawBodySize: number
  timeoutMs: number
  retryInitialMs: number
  retryMaxMs: number
  maxAgeMs: number
  concurrency: number
  shutdownTimeoutMs: number
  maxDeadLetters: number
  /** The sinker's keys for a new window (sinker.ts); empty or absent when the sinker is off. */
  sinkKeys?: () => string[]
}

export interface UploadEvents {
  uploadAttempt(upstream: string, body: UploadBody, outcome: string, seconds: number): void
  uploadRetry(upstream: string, body: UploadBody, err: UploadError, waitMs: number): void
  deadLettered(upstream: string, body: UploadBody, err: UploadError): void
  pointsDropped(category: string, reason: string, points: number): void
  /** A loop stopped on an error (the buffer's storage, most likely); it resumes after a pause. */
  loopFailed(upstream: string, category: string, err: unknown): void
}

export type Outcome = 'done' | 'unfinished'

export interface Window {
  batches: StoredBatch[]
  /** Last seq of the window (records up to it may have been pruned or dropped). */
  end: number
  maxRaw: number
  sinkKeys?: string[]
}
