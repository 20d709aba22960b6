/** Metrics of the disk buffer and the uploader, registered on the agent's one registry. */
import { Counter, Gauge, Histogram, type Registry } from 'prom-client'

export function createSinkMetrics(registry: Registry) {
  const registers = [registry]
  return {
    commitSeconds: new Histogram({
      name: 'ferry_buffer_commit_duration_seconds',
      help: 'Time from a batch handed to the buffer until it was committed (and flushed in sync mode).',
      buckets: [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1],
      registers,
    }),
    dropped: new Counter({
      name: 'ferry_dropped_points_total',
      help: 'Points dropped after acceptance, by category and reason (expired, buffer_full_*, dead_letter).',
      labelNames: ['category', 'reason'] as const,
      registers,
    }),
    damaged: new Counter({
      name: 'ferry_buffer_damaged_records_total',
      help: 'Buffered records skipped because they failed verification, or lost to damage a salvage could not undo.',
      labelNames: ['category'] as const,
      registers,
    }),
    remaps: new Counter({
      name: 'ferry_buffer_remaps_total',
      help: 'Times the disk buffer was reopened to give back the file pages its reads made resident ([dataway.wal] max_resident).',
      registers,
    }),
    storageErrors: new Counter({
      name: 'ferry_buffer_storage_errors_total',
      help: 'Disk buffer operations that failed (EIO, ENOSPC, map full), by operation.',
      labelNames: ['op'] as const,
      registers,
    }),
    uploads: new Counter({
      name: 'ferry_upload_requests_total',
      help: 'Upload attempts, by upstream and outcome (ok, HTTP status, network).',
      labelNames: ['upstream', 'outcome'] as const,
      registers,
    }),
    uploadSeconds: new Histogram({
      name: 'ferry_upload_duration_seconds',
      help: 'Duration of upload attempts, compression included.',
      labelNames: ['upstream'] as const,
      buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers,
    }),
    uploadedPoints: new Counter({
      name: 'ferry_upload_points_total',
      help: 'Points delivered, by upstream and category.',
      labelNames: ['upstream', 'category'] as const,
      registers,
    }),
    uploadedBytes: new Counter({
      name: 'ferry_upload_raw_bytes_total',
      help: 'Encoded bytes delivered before compression, by upstream and category.',
      labelNames: ['upstream', 'category'] as const,
      registers,
    }),
    lastSuccess: new Gauge({
      name: 'ferry_upload_last_success_timestamp_seconds',
      help: 'Unix time of the last upload an upstream accepted (absent until one is).',
      labelNames: ['upstream'] as const,
      registers,
    }),
    failingSince: new Gauge({
      name: 'ferry_upload_failing_since_timestamp_seconds',
      help: 'Unix time of the first failed upload since the last success, by upstream; 0 while uploads succeed.',
      labelNames: ['upstream'] as const,
      registers,
    }),
    retries: new Counter({
      name: 'ferry_upload_retries_total',
      help: 'Upload retries scheduled, by upstream.',
      labelNames: ['upstream'] as const,
      registers,
    }),
    deadLetters: new Counter({
      name: 'ferry_dead_letters_total',
      help: 'Bodies refused for good by an upstream and moved to the dead-letter store.',
      labelNames: ['upstream', 'category'] as const,
      registers,
    }),
  }
}

export type SinkMetrics = ReturnType<typeof createSinkMetrics>

/** Buffer depth gauges read at scrape time. */
export function addBufferGauges(
  registry: Registry,
  read: () => { category: string; points: number; bytes: number; oldest: number | null }[],
): void {
  const registers = [registry]
  new Gauge({
    name: 'ferry_buffer_points',
    help: 'Points held in the disk buffer, by category.',
    labelNames: ['category'] as const,
    registers,
    collect() {
      for (const s of read()) this.set({ category: s.category }, s.points)
    },
  })
  new Gauge({
    name: 'ferry_buffer_bytes',
    help: 'Encoded bytes held in the disk buffer, by category.',
    labelNames: ['category'] as const,
    registers,
    collect() {
      for (const s of read()) this.set({ category: s.category }, s.bytes)
    },
  })
  new Gauge({
    name: 'ferry_buffer_oldest_age_seconds',
    help: 'Age of the oldest batch held in the disk buffer, by category (0 when empty).',
    labelNames: ['category'] as const,
    registers,
    collect() {
      const now = Date.now()
      for (const s of read())
        this.set({ category: s.category }, s.oldest === null ? 0 : (now - s.oldest) / 1000)
    },
  })
}
