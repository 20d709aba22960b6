/**
 * user_agent()'s parse cache (`[pipeline] user_agent_cache_entries`): a bound kept by second
 * chance, so an agent hit since it was last passed over stays and a cold one leaves; 0 keeps
 * nothing. A cached
 * answer is the same array, which is how the test sees what was kept.
 */
import assert from 'node:assert/strict'
import { afterEach, test } from 'node:test'
import { setUserAgentCacheLimit, userAgentFields } from '../../../src/pipeline/lib/user-agent.js'

const A = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0'
const B = 'Mozilla/5.0 (Windows NT 6.1; Win64; x64; rv:109.0) Gecko/20100101 Firefox/115.0'
const C = 'curl/8.5.0'

afterEach(() => setUserAgentCacheLimit(4096))

test('user_agent cache: a hit keeps an agent, one not hit since leaves first', () => {
  setUserAgentCacheLimit(0)
  setUserAgentCacheLimit(2)
  const a = userAgentFields(A)
  const b = userAgentFields(B)
  assert.equal(userAgentFields(A), a) // a hit: A is marked
  userAgentFields(C) // full: A was hit (it moves on), B was not: B leaves
  assert.equal(userAgentFields(A), a)
  const b2 = userAgentFields(B)
  assert.notEqual(b2, b)
  assert.deepEqual(b2, b)
  assert.deepEqual(new Map(b2).get('os'), 'Windows 7')
})

test('user_agent cache: 0 keeps nothing, and a smaller bound evicts at once', () => {
  setUserAgentCacheLimit(4)
  const a = userAgentFields(A)
  userAgentFields(B)
  setUserAgentCacheLimit(1) // A, the older, leaves now
  assert.notEqual(userAgentFields(A), a)
  setUserAgentCacheLimit(0)
  const x = userAgentFields(C)
  assert.notEqual(userAgentFields(C), x)
  assert.deepEqual(userAgentFields(C), x)
})
