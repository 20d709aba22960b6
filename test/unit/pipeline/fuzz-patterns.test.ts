/**
 * Properties of pattern compilation with RE2: random expressions, grok patterns and Platypus
 * scripts with pattern arguments only ever compile and match, or fail with a coded error
 * (positioned, for scripts); nothing throws anything else, and no case takes long.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import fc from 'fast-check'
import { FerryError } from '../../../src/errors.js'
import { compileGrok } from '../../../src/pipeline/grok/grok.js'
import { BUILTIN_PATTERNS } from '../../../src/pipeline/grok/patterns.js'
import { compilePpl } from '../../../src/pipeline/ppl/compile.js'
import { PlSyntaxError } from '../../../src/pipeline/ppl/lexer.js'
import { compileLinear } from '../../../src/pipeline/regex/linear.js'

const RUNS = Number(process.env.FUZZ_RUNS ?? 1500)
/** Per case: far above a linear match of these sizes, far below any backtracking blow-up. */
const CASE_MS = 250
const lookup = (n: string) => BUILTIN_PATTERNS[n]

const PIECES = [
  'a',
  'b',
  '.',
  '*',
  '+',
  '?',
  '|',
  '(',
  ')',
  '[',
  ']',
  '^',
  '$',
  '{2}',
  '{1,3}',
  '\\d',
  '\\w',
  '\\s',
  '\\1',
  '\\k<n>',
  '(?=',
  '(?!',
  '(?<=',
  '(?<!',
  '(?P<n>',
  '(?<n>',
  '(?:',
  '(?i)',
  '(?s)',
  '[[:alpha:]]',
  '\\',
  '\\z',
  '\\A',
  '.*',
  '.*?',
  '(a+)+',
  '(a|aa)*',
  '%{INT:i}',
  '%{DATA:d}',
  '%{GREEDYDATA:g}',
  '%{NOPE}',
  '%{WORD:w:int}',
  '%{IP}',
  '"',
  ' ',
  ',',
  'x{1001}',
]
const pattern = fc.array(fc.constantFrom(...PIECES), { maxLength: 12 }).map((a) => a.join(''))
const text = fc.oneof(
  fc.string({ maxLength: 60 }),
  fc
    .tuple(fc.constantFrom('a', 'ab', ' a', '1.2', '"x" '), fc.integer({ min: 1, max: 400 }))
    .map(([s, n]) => s.repeat(n) + '!'),
)

function timed(f: () => void): void {
  const started = performance.now()
  f()
  const ms = performance.now() - started
  assert.ok(ms < CASE_MS, `${ms.toFixed(0)} ms`)
}

test('fuzz: random expressions compile and match in bounded time, or fail coded', () => {
  fc.assert(
    fc.property(pattern, text, (p, s) =>
      timed(() => {
        try {
          const re = compileLinear(p)
          const m = re.exec(s)
          assert.ok(m === null || typeof m[0] === 'string')
          re.replaceAll(s, '<$0>')
          re.split(s)
        } catch (e) {
          assert.ok(e instanceof FerryError && e.code === 'badRequest', String(e))
        }
      }),
    ),
    { numRuns: RUNS },
  )
})

test('fuzz: random grok patterns expand, compile and match in bounded time, or fail coded', () => {
  fc.assert(
    fc.property(pattern, text, (p, s) =>
      timed(() => {
        try {
          const g = compileGrok(p, lookup)
          const m = g.re.exec(s)
          if (m) for (const c of g.captures) assert.ok(c.index < m.length)
        } catch (e) {
          assert.ok(e instanceof FerryError, String(e))
        }
      }),
    ),
    { numRuns: RUNS },
  )
})

const CALLS = [
  'grok(_, %)',
  'add_pattern("p", %)',
  'replace(a, %, "x")',
  'match(%, _)',
  'kv_split(_, field_split_pattern=%)',
]

test('fuzz: Platypus with random pattern literals compiles or fails positioned', () => {
  const script = fc.tuple(
    fc.array(fc.tuple(fc.constantFrom(...CALLS), pattern, fc.constantFrom('"', "'", "'''")), {
      minLength: 1,
      maxLength: 4,
    }),
  )
  fc.assert(
    fc.property(script, ([calls]) => {
      const src = calls
        .map(([call, p, q]) => {
          const lit = q === "'''" ? p : p.replace(/\\/g, '\\\\').replaceAll(q, '\\' + q)
          return call.replace('%', q + lit + q)
        })
        .join('\n')
      timed(() => {
        try {
          compilePpl(src)
        } catch (e) {
          assert.ok(e instanceof PlSyntaxError, String(e))
          assert.ok(e.pos >= 0 && e.pos <= src.length && e.ln >= 1 && e.col >= 1, src)
        }
      })
    }),
    { numRuns: RUNS },
  )
})

test('fuzz: where V8 runs a pattern, it answers exactly as RE2 does', () => {
  let onV8 = 0
  fc.assert(
    fc.property(pattern, text, fc.boolean(), (p, s, ignoreCase) => {
      let re
      try {
        re = compileLinear(p, { ignoreCase })
      } catch {
        return
      }
      if (re.engine !== 'v8') return
      onV8++
      const ref = compileLinear(p, { ignoreCase, engine: 're2js' })
      assert.deepEqual(re.exec(s), ref.exec(s), `exec ${p}`)
      assert.equal(re.test(s), ref.test(s), `test ${p}`)
      assert.deepEqual(re.split(s), ref.split(s), `split ${p}`)
      assert.equal(re.replaceAll(s, '<$1>'), ref.replaceAll(s, '<$1>'), `replace ${p}`)
    }),
    { numRuns: RUNS * 2 },
  )
  assert.ok(onV8 > RUNS / 10, `only ${onV8} patterns ran on V8`)
})

test('crafted input on the V8 road stays linear: ^(a+)+$ against 10,000 characters', () => {
  const re = compileLinear('^(a+)+$')
  assert.equal(re.engine, 'v8')
  timed(() => assert.equal(re.exec(`${'a'.repeat(10_000)}b`), null))
})
