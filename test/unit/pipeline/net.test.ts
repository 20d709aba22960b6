/** `cidr(ip, prefix)` in scripts: inside or not, IPv4 and IPv6, and a bad prefix is false. */
import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { PipelineEngine } from '../../../src/pipeline/engine.js'
import { kv, runOn, testEngine } from '../../helpers/pipeline.js'

let engine: PipelineEngine
before(async () => {
  engine = await testEngine()
  const source = [
    'grok(_, "%{NOTSPACE:client}")',
    'if cidr(client, "10.0.0.0/8") {',
    '  add_key(net, "internal")',
    '} elif cidr(client, "2001:db8::/32") {',
    '  add_key(net, "docs6")',
    '} elif cidr(client, "not-a-prefix") {',
    '  add_key(net, "never")',
    '} else {',
    '  add_key(net, "public")',
    '}',
  ].join('\n')
  assert.deepEqual(
    engine.load({ category: 'logging', name: 'net', lang: 'p', source, file: 'net.p' }),
    [],
  )
})
after(() => engine.dispose())

test('cidr tells whether an address is inside a prefix', () => {
  const { points } = runOn(engine, 'net', ['10.1.2.3', '2001:db8::7', '8.8.8.8', 'garbage'])
  assert.deepEqual(
    points.map((p) => kv(p).net),
    ['internal', 'docs6', 'public', 'public'],
  )
})
