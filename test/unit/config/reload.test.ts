/** What a SIGHUP reload applies live and what it leaves for a restart. */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { loadConfig } from '../../../src/config/load.js'
import { mergeLive, planReload } from '../../../src/reload.js'

const load = (env: Record<string, string>) => loadConfig('/nonexistent', env).config

test('live keys and restart keys are told apart', () => {
  const before = load({})
  const after = load({
    ENV_GLOBAL_HOST_TAGS: 'a=1',
    ENV_HTTP_PUBLIC_APIS: '/metrics',
    ENV_REQUEST_RATE_LIMIT: '5',
    ENV_LOG_LEVEL: 'debug',
    ENV_DECODE_MAX_QUEUE: '9',
    ENV_HTTP_LISTEN: '0.0.0.0:1',
  })
  assert.deepEqual(planReload(before, after), {
    live: [
      'http_api.public_apis',
      'http_api.request_rate_limit',
      'global_host_tags',
      'logging.level',
    ],
    restart: ['http_api.listen', 'decode.max_queue'],
  })
  assert.deepEqual(planReload(before, load({})), { live: [], restart: [] })
})

test('the running config takes live keys only, so restart keys keep being reported', () => {
  const before = load({})
  const after = load({ ENV_LOG_LEVEL: 'debug', ENV_DECODE_MAX_QUEUE: '9' })
  const running = mergeLive(before, after, new Set(planReload(before, after).live))
  assert.equal(running.logging.level, 'debug')
  assert.equal(running.decode.max_queue, 256)
  assert.deepEqual(planReload(running, after), { live: [], restart: ['decode.max_queue'] })
})
