/** The reference's grammar beyond the basics: `in`, C-style for, slices, tuple assignment. */
import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { PipelineEngine } from '../../../src/pipeline/engine.js'
import { kv, pplError, runPpl, testEngine } from '../../helpers/pipeline.js'

let e: PipelineEngine
before(async () => {
  e = await testEngine()
})
after(() => e.dispose())

function run(source: string, message = 'm') {
  const r = runPpl(e, 'g', source, [message])
  return { fields: kv(r.points[0]), error: r.stats.firstError }
}

test('in: substring, map key, list element (deep), and the reference run errors', () => {
  const r = run(`
add_key("t1", "a" in [1, "a"])
add_key("t1_1", nil in [1, "a"])
add_key("t1_2", 1 in [1, "a"])
add_key("t1_3", nil in [nil, "a"])
add_key("t1_4", [1] in [[1], 2])
add_key("t2", "def" in "abcdef")
add_key("t2_1", "x" in "abcdef")
add_key("t3", "a" in {"a": 1})
add_key("t3_1", "b" in {"a": 1})
add_key("t3_2", "a" in {})
add_key("t4", "a" in "ab" && 2 in [1])
`)
  assert.equal(r.error, null)
  const f = r.fields
  assert.deepEqual(
    [f.t1, f.t1_1, f.t1_2, f.t1_3, f.t1_4, f.t2, f.t2_1, f.t3, f.t3_1, f.t3_2, f.t4],
    [true, false, true, true, true, true, false, true, false, false, false],
  )
  assert.match(String(run('add_key(x, 1 in "abc")').error), /unsupported lhs data type/)
  assert.match(String(run('add_key(x, "a" in 3)').error), /unsupported rhs data type/)
})

test('C-style for: each part optional; continue runs the step; break leaves', () => {
  const r = run(`
n = 0
for i = 0; i < 10; i += 1 {
  if i == 1 { continue }
  if i == 4 { break }
  n += i
}
add_key(n, n)
j = 3
for ; j > 0; { j -= 1 }
add_key(j, j)
for k = 0; ; k += 1 { if k == 2 { add_key(k, k)
break } }
`)
  assert.equal(r.error, null)
  assert.deepEqual([r.fields.n, r.fields.j, r.fields.k], [5, 0, 2])
  // An endless loop is stopped by the script time limit, like any runaway script.
  assert.match(String(run('for ;; { }').error), /interrupted/)
})

test('slices: strings and lists, negative bounds, steps, as the reference computes them', () => {
  const r = run(`
a = "abcdef"
l = [1, 2, 3, 4, 5]
add_key(s1, a[0:2])
add_key(s2, a[-3:])
add_key(s3, a[::-1])
add_key(s4, a[:])
add_key(s5, a[4:1:-1])
add_key(s6, a[1:100])
add_key(l1, l[1:4:2])
add_key(l2, l[::-2])
add_key(l3, l[-1])
add_key(l4, len(l[3:1]))
`)
  assert.equal(r.error, null)
  const f = r.fields
  assert.deepEqual(
    [f.s1, f.s2, f.s3, f.s4, f.s5, f.s6, f.l1, f.l2, f.l3, f.l4],
    ['ab', 'def', 'fedcba', 'abcdef', 'edc', 'bcdef', '[2,4]', '[5,3,1]', 5, 0],
  )
  assert.match(String(run('a = "ab"\nadd_key(x, a[::0])').error), /step must be non-zero/)
  assert.match(String(run('a = "ab"\nadd_key(x, a["1":])').error), /start type must be integer/)
})

test('tuple assignment: values first, then targets; counts must match', () => {
  const r = run(
    'a, b = 1, "two"\na, b = b, a\nm = {}\nm["x"], c = a, 3\nadd_key(a, a)\nadd_key(b, b)\nadd_key(x, m["x"])\nadd_key(c, c)',
  )
  assert.equal(r.error, null)
  assert.deepEqual([r.fields.a, r.fields.b, r.fields.x, r.fields.c], ['two', 1, 'two', 3])
  assert.deepEqual(pplError('a, b = 1'), [
    'the number of left and right operands is not equal',
    1,
    9,
    8,
  ])
  assert.deepEqual(pplError('a, 1 = 1, 2'), ['cannot assign to this expression', 1, 6, 5])
  assert.deepEqual(pplError('for a, b = 1, 2; a < 1; { }'), [
    'a tuple assignment in a for header',
    1,
    16,
    15,
  ])
})
