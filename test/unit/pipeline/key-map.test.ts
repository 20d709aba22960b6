/**
 * KeyMap, a pipeline point's tags or fields, behaves as the Map it replaced: any sequence of
 * sets and deletes leaves the same keys, values and order (insertion order: a set of a present
 * key keeps its place, a key deleted and set again goes last), and every read agrees.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import fc from 'fast-check'
import { KeyMap } from '../../../src/pipeline/lib/key-map.js'

// Short keys over a few letters: collisions, repeats and equal lengths are common.
const key = fc.stringMatching(/^[ab_]{0,3}$/)
const op = fc.oneof(
  fc.record({ set: key, value: fc.integer() }),
  fc.record({ del: key }),
  fc.record({ read: key }),
)

test('KeyMap: any sets, deletes and reads agree with a Map, order included', () => {
  fc.assert(
    fc.property(fc.array(op, { maxLength: 60 }), (ops) => {
      const km = new KeyMap<number>()
      const m = new Map<string, number>()
      for (const o of ops) {
        if ('set' in o) {
          km.set(o.set, o.value)
          m.set(o.set, o.value)
        } else if ('del' in o) assert.equal(km.delete(o.del), m.delete(o.del))
        else {
          assert.equal(km.get(o.read), m.get(o.read))
          assert.equal(km.has(o.read), m.has(o.read))
        }
      }
      assert.equal(km.size, m.size)
      assert.deepEqual([...km], [...m])
      assert.deepEqual(km.keys(), [...m.keys()])
      const walked: [string, number][] = []
      km.forEach((v, k) => walked.push([k, v]))
      for (let i = 0; i < km.size; i++) assert.deepEqual([km.keyAt(i), km.valueAt(i)], walked[i])
      assert.deepEqual(walked, [...m])
    }),
    { numRuns: 500 },
  )
})

test('KeyMap: keys of every length mod 32 are found (the length mask)', () => {
  const km = new KeyMap<number>()
  for (let n = 0; n < 70; n++) km.set('k'.repeat(n), n)
  for (let n = 0; n < 70; n++) assert.equal(km.get('k'.repeat(n)), n)
  assert.equal(km.get('x'), undefined)
  assert.equal(km.delete('k'.repeat(33)), true)
  assert.equal(km.has('k'.repeat(33)), false)
  assert.equal(km.get('k'.repeat(1)), 1) // same bit as 33: still found
})
