/**
 * The sandbox holds: no way out to the host, and runaway scripts (endless loops, memory
 * bombs, deep recursion) are stopped, counted, and leave their points unchanged, while the
 * engine goes on running other scripts.
 */
import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { PipelineEngine } from '../../../src/pipeline/engine.js'
import { kv, runOn, testEngine } from '../../helpers/pipeline.js'

let e: PipelineEngine
before(async () => {
  e = await testEngine({ batchTimeoutMs: 200, memoryBytes: 8 << 20 })
})
after(() => e.dispose())

function js(name: string, source: string): void {
  assert.deepEqual(
    e.load({ category: 'logging', name, lang: 'js', source, file: `${name}.js` }),
    [],
  )
}

/** Runs a probe script that writes what it found into the `found` field. */
function probe(expr: string): unknown {
  js(
    'probe',
    `let v; try { v = ${expr} } catch (err) { v = 'threw ' + err.name } add_key('found', String(v))`,
  )
  const r = runOn(e, 'probe', ['x'])
  assert.equal(r.stats.errors, 0, String(r.stats.firstError))
  return kv(r.points[0]).found
}

test('sandbox: no host objects are reachable', () => {
  assert.equal(probe('typeof require'), 'undefined')
  assert.equal(probe('typeof process'), 'undefined')
  assert.equal(probe('typeof globalThis.process'), 'undefined')
  assert.equal(probe('typeof setTimeout'), 'undefined')
  assert.equal(probe('typeof fetch'), 'undefined')
  assert.equal(probe("typeof Function('return this')().process"), 'undefined')
  assert.equal(probe("typeof (0, eval)('this').require"), 'undefined')
  assert.equal(probe('typeof $host'), 'undefined')
})

test('sandbox: scripts cannot change the library or built-ins for other scripts', () => {
  js(
    'vandal',
    "try { grok = null } catch {} try { Object.prototype.polluted = 1 } catch {} try { Array.prototype.push = null } catch {} add_key('ok', true)",
  )
  const r = runOn(e, 'vandal', ['x'])
  assert.equal(r.stats.errors, 0)
  assert.equal(probe('typeof grok'), 'function')
  assert.equal(probe('({}).polluted'), 'undefined')
  assert.equal(probe('typeof [].push'), 'function')
})

const RUNAWAYS: [string, string, RegExp][] = [
  ['loop', 'while (true) {}', /interrupted/],
  ['bomb', "let a = []; for (;;) a.push('x'.repeat(1024))", /out of memory|interrupted/],
  [
    'deep',
    'function f(n) { return f(n + 1) + 1 } f(0)',
    /stack overflow|too much recursion|Maximum call stack/i,
  ],
  ['throws', "throw new Error('boom')", /boom/],
]

for (const [name, body, why] of RUNAWAYS) {
  test(`sandbox: a ${name} script is stopped; its points go on unchanged and are counted`, () => {
    js(name, `add_key('touched', true)\n${body}`)
    const r = runOn(e, name, ['line one', 'line two'])
    assert.equal(r.stats.errors, 2)
    assert.match(String(r.stats.firstError), why)
    assert.deepEqual(r.points.map(kv), [{ message: 'line one' }, { message: 'line two' }])
    // The engine still runs a good script afterwards.
    js('good', "add_key('after', 1)")
    assert.deepEqual(kv(runOn(e, 'good', ['z']).points[0]), {
      message: 'z',
      after: 1,
      status: 'info',
    })
  })
}

test('sandbox: a library error in batch mode fails each point, which goes on unchanged', () => {
  const source = 'add_key(touched, true)\ngrok(_, "%{NO_SUCH_PATTERN:x}")'
  assert.deepEqual(
    e.load({ category: 'logging', name: 'badgrok', lang: 'p', source, file: 'badgrok.p' }),
    [],
  )
  const r = runOn(e, 'badgrok', ['a', 'b'])
  assert.equal(r.stats.batch, true)
  assert.equal(r.stats.errors, 2)
  assert.equal(r.stats.firstError, 'no grok pattern named NO_SUCH_PATTERN')
  assert.deepEqual(r.points.map(kv), [{ message: 'a' }, { message: 'b' }])
})

test('sandbox: a script that fails to compile keeps the previous version', () => {
  js('versioned', "add_key('v', 1)")
  const errors = e.load({
    category: 'logging',
    name: 'versioned',
    lang: 'js',
    source: "add_key('v', 2",
    file: 'versioned.js',
  })
  assert.equal(errors.length, 1)
  assert.equal(errors[0].pos_chain[0].file, 'versioned.js')
  assert.match(errors[0].error, /SyntaxError/)
  assert.equal(kv(runOn(e, 'versioned', ['x']).points[0]).v, 1)
})
