/** Builds the HTTP app over real components (inline decoder, memory buffer) for app.request(). */
import { MemoryBuffer } from '../../src/buffer/memory.js'
import { loadConfig } from '../../src/config/load.js'
import { InlineDecoder } from '../../src/decode/inline.js'
import type { Decoder } from '../../src/decode/protocol.js'
import { parseUpstream } from '../../src/sinks/dataway/upstream.js'
import { createApp } from '../../src/sources/http/app.js'
import { GlobalTags } from '../../src/tags/global-tags.js'
import { Events } from '../../src/telemetry/events.js'
import { silentLogger } from '../../src/telemetry/logger.js'
import { createMetrics } from '../../src/telemetry/metrics.js'

export interface TestAppOptions {
  env?: Record<string, string>
  hostTags?: Record<string, string>
  decoder?: Decoder
  upstream?: string
}

export function testApp(o: TestAppOptions = {}) {
  const { config } = loadConfig('/nonexistent/ferry.conf', o.env ?? {})
  const metrics = createMetrics()
  const events = new Events(silentLogger(), metrics)
  const buffer = new MemoryBuffer(256 * 1024 * 1024)
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
  const app = createApp(
    {
      config,
      decoder: o.decoder ?? new InlineDecoder(),
      buffer,
      tags,
      events,
      identity,
      upstream: () => (o.upstream ? parseUpstream(o.upstream) : null),
    },
    metrics.registry,
  )
  return { app, buffer, metrics, config }
}

export const SHARED = new URL('../../../shared/', import.meta.url)
