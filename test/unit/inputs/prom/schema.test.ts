/** `[[inputs.prom]]` keys: the reference's nested tables are accepted, mistakes named. */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { parse } from 'smol-toml'
import { validateInstance } from '../../../../src/inputs/conf/load.js'
import { promInput } from '../../../../src/inputs/prom/prom.js'

function check(toml: string): [Record<string, unknown>, string[]] {
  const errors: string[] = []
  const raw = (parse(toml) as { inputs: { prom: unknown[] } }).inputs.prom[0]
  return [validateInstance(promInput, raw, 'f:inputs.prom', errors), errors]
}

test('the reference sample keys validate, with the nested tags_rename and auth tables', () => {
  const [conf, errors] = check(
    [
      '[[inputs.prom]]',
      'urls = ["http://127.0.0.1:9100/metrics"]',
      'source = "prom"',
      'measurement_prefix = ""',
      'keep_exist_metric_name = false',
      'honor_timestamps = true',
      'election = true',
      'metric_types = ["counter", "gauge"]',
      '[inputs.prom.auth]',
      'type = "bearer_token"',
      'token = "t"',
      '[inputs.prom.tags_rename]',
      'overwrite_exist_tags = true',
      '[inputs.prom.tags_rename.mapping]',
      'a = "b"',
    ].join('\n'),
  )
  assert.deepEqual(errors, [])
  assert.deepEqual(
    [conf.interval, conf.timeout, conf.tags_rename, conf.auth, conf.max_series],
    [
      30_000,
      30_000,
      { overwrite_exist_tags: true, mapping: { a: 'b' } },
      { type: 'bearer_token', token: 't' },
      100_000,
    ],
  )
})

test('bad values are reported as file:key: message', () => {
  const [, errors] = check(
    [
      '[[inputs.prom]]',
      'urls = ["ftp://x"]',
      'metric_types = ["gauges"]',
      'metric_name_filter = ["("]',
      '[inputs.prom.tags_rename]',
      'overwrite = true',
    ].join('\n'),
  )
  assert.deepEqual(errors, [
    'f:inputs.prom.urls: not an http(s) URL: ftp://x',
    'f:inputs.prom.metric_types: expected some of counter, gauge, histogram, summary, untyped, info',
    'f:inputs.prom.metric_name_filter: invalid regular expression "("',
    'f:inputs.prom.tags_rename: overwrite: unknown key',
  ])
})
