/** Builds the HTTP app over real components (inline decoder, memory buffer) for app.request(). */
import { MemoryBuffer } from './memory-buffer.js'
import { loadConfig } from '../../src/config/load.js'
import { InlineDecoder } from '../../src/ingest/inline.js'
import { runDebug } from '../../src/pipeline/debug/run.js'
import { PipelineHost } from '../../src/pipeline/worker-host.js'
import { PipelineEvents } from '../../src/telemetry/pipeline-events.js'
import type { Decoder } from '../../src/ingest/protocol.js'
import { parseUpstream } from '../../src/sinks/dataway/upstream.js'
import { createApp } from '../../src/sources/http/app.js'
import { GlobalTags } from '../../src/tags/global-tags.js'
import { TagFile } from '../../src/tags/tag-file.js'
import { AccessPolicy } from '../../src/sources/http/access/policy.js'
import { Monitor } from '../../src/monitor/sampler.js'
import { Events } from '../../src/telemetry/events.js'
import { silentLogger } from '../../src/telemetry/logger.js'
import { createMetrics } from '../../src/telemetry/metrics.js'

export interface TestAppOptions {
  env?: Record<string, string>
  hostTags?: Record<string, string>
  decoder?: Decoder
  upstream?: string
  /** A script folder: the inline decoder runs the pipeline from it (zone Asia/Shanghai). */
  pipelineDir?: string
  /** A config file that global tag changes are persisted to (host mode). */
  tagFile?: string
}

const TEST_LIMITS = { memoryBytes: 32 << 20, stackBytes: 256 << 10, batchTimeoutMs: 1000 }
const TZ = 'Asia/Shanghai'

export function testApp(o: TestAppOptions = {}) {
  // The rate limit is off unless a test sets it: unit tests send bursts from one "client".
  const { config } = loadConfig('/nonexistent/ferry.conf', {
    ENV_REQUEST_RATE_LIMIT: '0',
    ...o.env,
  })
  const metrics = createMetrics()
  const events = new Events(silentLogger(), metrics)
  const buffer = new MemoryBuffer(256 * 1024 * 1024)
  const pipelineEvents = new PipelineEvents(silentLogger(), metrics.registry)
  const host = o.pipelineDir
    ? new PipelineHost({
        ...TEST_LIMITS,
        dir: o.pipelineDir,
        timezone: TZ,
        maxBatch: 1000,
        defaults: {},
      })
    : null
  const identity = {
    version: '0.0.0-test',
    commit: 'test',
    host: 'my-testing',
    startedAt: Date.now(),
  }
  const tags = new GlobalTags(
    'my-testing',
    o.hostTags ?? {},
    config.election.enable,
    config.election.tags,
  )
  const monitor = new Monitor(metrics.registry, identity, events.recent)
  const app = createApp(
    {
      config,
      decoder: o.decoder ?? new InlineDecoder(host),
      buffer,
      tags,
      tagFile: o.tagFile ? new TagFile(o.tagFile) : null,
      access: new AccessPolicy(config.http_api),
      monitor,
      events,
      identity,
      upstream: () => (o.upstream ? parseUpstream(o.upstream) : null),
      pipeline: { version: () => 1, debug: (task) => runDebug(task, TZ) },
      pipelineEvents,
    },
    metrics.registry,
  )
  return { app, buffer, metrics, config, tags, events, monitor }
}

/** Test data kept in the repository (see test/fixtures/README.md). */
export const FIXTURES = new URL('../fixtures/', import.meta.url)
