/**
 * A ddtrace decode task names its peer as the client its decode time is charged to
 * (`[decode] client_share`), as an OTLP task does; a request with no peer address (the Unix
 * socket) names none.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { loadConfig } from '../../../src/config/load.js'
import { ddtraceTask } from '../../../src/sources/ddtrace/task.js'
import { GlobalTags } from '../../../src/tags/global-tags.js'

const { config } = loadConfig('/nonexistent/ferry.conf', {})
const deps = { config, tags: new GlobalTags('h', {}, false, {}), pipeline: null }
const request = (remoteIp: string) => ({
  body: new Uint8Array([0x90]),
  contentType: 'application/msgpack',
  encoding: '',
  version: 'v0.4' as const,
  remoteIp,
})

test('a ddtrace task is charged to its peer, as an OTLP task is', () => {
  assert.equal(ddtraceTask(deps, request('192.0.2.7')).client, '192.0.2.7')
  assert.equal('client' in ddtraceTask(deps, request('')), false)
})
