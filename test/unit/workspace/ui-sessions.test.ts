import assert from 'node:assert/strict'
import { test } from 'node:test'
import { Sessions } from '../../../src/workspace/ui/sessions.js'

test('a session maps its random id to the key until it expires', () => {
  let now = 1000
  const s = new Sessions(10, 500, () => now)
  const id = s.create('key-a')
  assert.match(id, /^[0-9a-f]{64}$/)
  assert.equal(s.key(id), 'key-a')
  assert.equal(s.key('0'.repeat(64)), null)
  assert.equal(s.key(undefined), null)
  now = 1499
  assert.equal(s.key(id), 'key-a')
  now = 1500
  assert.equal(s.key(id), null)
  assert.equal(s.size, 0)
})

test('beyond the bound the oldest session is evicted; end forgets one', () => {
  const s = new Sessions(2, 60_000)
  const [a, b, c] = [s.create('a'), s.create('b'), s.create('c')]
  assert.deepEqual([s.key(a), s.key(b), s.key(c), s.size], [null, 'b', 'c', 2])
  s.end(b)
  assert.deepEqual([s.key(b), s.size], [null, 1])
})
