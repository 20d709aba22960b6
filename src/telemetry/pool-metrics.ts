/**
 * Metrics of the decode worker pool: workers, queue length, utilisation (read at scrape time)
 * and the time each task took, waiting included (a wrapper around the decoder, so the pool
 * itself knows nothing of metrics).
 */
import { Counter, Gauge, Histogram, type Registry } from 'prom-client'
import type { BufferPool, BufferPoolStats } from '../shared/buffer-pool.js'
import type { DecodeOk, DecodeTask, Decoder } from '../ingest/protocol.js'

export interface PoolProbe {
  threads: number
  queueSize(): number
  /** Share of the workers' capacity spent running tasks since start, 0 to 1. */
  utilization(): number
}

export function addPoolMetrics(registry: Registry, pool: PoolProbe): Histogram<'category'> {
  const registers = [registry]
  const probe = (name: string, help: string, read: () => number) =>
    new Gauge({
      name,
      help,
      registers,
      collect() {
        this.set(read())
      },
    })
  probe('ferry_decode_workers', 'Decode worker threads.', () => pool.threads)
  probe('ferry_decode_queue_tasks', 'Decode tasks waiting for a worker.', () => pool.queueSize())
  probe(
    'ferry_decode_utilization_ratio',
    'Share of the decode workers capacity spent running tasks since start (0 to 1).',
    () => pool.utilization(),
  )
  return new Histogram({
    name: 'ferry_decode_task_duration_seconds',
    help: 'Time from a write body handed to the decode pool until its points came back (queue wait, decode, checks and pipeline).',
    labelNames: ['category'] as const,
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers,
  })
}

/** The decoder with each task timed (failures too). */
export function timedDecoder(inner: Decoder, seconds: Histogram<'category'>): Decoder {
  return {
    async decode(task: DecodeTask): Promise<DecodeOk> {
      const end = seconds.startTimer({ category: task.category })
      try {
        return await inner.decode(task)
      } finally {
        end()
      }
    },
  }
}

/**
 * The buffer pool (shared/buffer-pool.ts; `[http_api] body_pool_bytes`), read at scrape time:
 * bodies, payloads and read windows put in a reused buffer or a fresh one (the pool had none of
 * their size: the fallback), buffers dropped while it was full, and the bytes it holds idle.
 * The metric names keep the pool's first use, bodies, so that dashboards keep working.
 */
export function addBufferPoolMetrics(registry: Registry, pool: BufferPool): void {
  const registers = [registry]
  const seen: BufferPoolStats = { reused: 0, allocated: 0, dropped: 0 }
  new Counter({
    name: 'ferry_body_pool_buffers_total',
    help: 'Write bodies, their payloads and upload windows put in a pooled buffer (result="reused") or a fresh one because the pool had none of their size (result="allocated"), and buffers given back while the pool was full (result="dropped", left to the garbage collector).',
    labelNames: ['result'] as const,
    registers,
    collect() {
      for (const k of ['reused', 'allocated', 'dropped'] as const) {
        this.inc({ result: k }, pool.stats[k] - seen[k])
        seen[k] = pool.stats[k]
      }
    },
  })
  new Gauge({
    name: 'ferry_body_pool_idle_bytes',
    help: 'Bytes of idle buffers held for reuse by bodies, payloads and upload windows (at most [http_api] body_pool_bytes).',
    registers,
    collect() {
      this.set(pool.bytes)
    },
  })
}
