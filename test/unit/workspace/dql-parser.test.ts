/** The DQL parser: the AST of the reference examples, exact error positions, and a fuzz property. */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import fc from 'fast-check'
import { FerryError } from '../../../src/errors.js'
import { parseConditions, parseQuery } from '../../../src/workspace/dql/parser.js'

test('parses the reference examples', () => {
  const q = parseQuery(
    'metric::cpu:(usage_system,usage_user) {usage_idle>0.9} [2d:1d:1h] BY hostname',
  )
  assert.equal(q.category, 'metric')
  assert.equal(q.source, 'cpu')
  assert.deepEqual(q.select, [
    { expr: { kind: 'field', name: 'usage_system', pos: 13 }, alias: null },
    { expr: { kind: 'field', name: 'usage_user', pos: 26 }, alias: null },
  ])
  assert.deepEqual(q.where, { op: 'cmp', column: 'usage_idle', cmp: '>', value: 0.9 })
  assert.deepEqual(q.time, {
    start: { relativeMs: 2 * 86_400_000 },
    end: { relativeMs: 86_400_000 },
    intervalMs: 3_600_000,
    rollup: null,
  })
  assert.deepEqual(q.by, ['hostname'])
  const m = parseQuery('M::cpu:(avg(usage_total) AS a) [1h::5m] BY host')
  assert.deepEqual(m.select, [
    {
      expr: {
        kind: 'call',
        name: 'avg',
        args: [{ kind: 'field', name: 'usage_total', pos: 12 }],
        pos: 8,
      },
      alias: 'a',
    },
  ])
  assert.deepEqual(m.time, {
    start: { relativeMs: 3_600_000 },
    end: null,
    intervalMs: 300_000,
    rollup: null,
  })
  const l = parseQuery("M::mysql {host='h1'} ORDER BY time DESC LIMIT 1 # latest")
  assert.deepEqual(l.orderBy, [{ column: 'time', desc: true }])
  assert.equal(l.limit, 1)
  assert.equal(parseQuery('O::`my class`:(os, message)').source, 'my class')
  assert.equal(parseQuery('T::my_service {duration > 1000} [10m] BY operation').category, 'tracing')
})

test('where clauses: AND, OR, commas, parentheses, IN, NOT IN, re() and match()', () => {
  assert.deepEqual(parseConditions("{a = 1, b != 'x' || c IN [1, 'y']}"), {
    op: 'or',
    left: {
      op: 'and',
      left: { op: 'cmp', column: 'a', cmp: '=', value: 1 },
      right: { op: 'cmp', column: 'b', cmp: '!=', value: 'x' },
    },
    right: { op: 'in', column: 'c', values: [1, 'y'], negate: false },
  })
  assert.deepEqual(parseConditions("host != re('^web')"), {
    op: 're',
    column: 'host',
    pattern: '^web',
    negate: true,
  })
  assert.deepEqual(parseConditions('NOT (x NOT IN [true, null]) AND y <= -2.5'), {
    op: 'and',
    left: { op: 'not', expr: { op: 'in', column: 'x', values: [true, null], negate: true } },
    right: { op: 'cmp', column: 'y', cmp: '<=', value: -2.5 },
  })
})

const errors: [string, string][] = [
  ['X::cpu', 'DQL parse error at position 0: unknown namespace "X"'],
  ['M:cpu', 'DQL parse error at position 1: expected "::", got ":"'],
  ['M::cpu:(avg(usage)', 'DQL parse error at position 18: expected ")", got end of query'],
  [
    'M::cpu {host = }',
    'DQL parse error at position 15: expected a value (a quoted string, a number, true, false or null), got "}"',
  ],
  ['M::cpu [1h:2x]', 'DQL parse error at position 11: unknown time unit "x" in 2x'],
  [
    'M::cpu [::1m:5]',
    'DQL parse error at position 13: the rollup is a function name such as avg, last or rate',
  ],
  [
    'M::cpu LIMIT -1',
    'DQL parse error at position 13: expected a non-negative integer after LIMIT, got "-"',
  ],
  ["M::cpu {host = 'x}", 'DQL parse error at position 15: unterminated string'],
  [
    'M::cpu BY host HAVING x >',
    'DQL parse error at position 25: expected a value (a quoted string, a number, true, false or null), got end of query',
  ],
  [
    'M::cpu {x = fuzzy(1)}',
    'DQL parse error at position 12: unknown filter function fuzzy(); use re, match, wildcard or exists',
  ],
  ['M::cpu extra', 'DQL parse error at position 7: expected end of query, got "extra"'],
]

for (const [text, message] of errors)
  test(`error: ${text}`, () => {
    assert.throws(
      () => parseQuery(text),
      (e: unknown) => e instanceof FerryError && e.code === 'queryInvalid' && e.message === message,
    )
  })

test('fuzz: any text either parses or raises a coded queryInvalid error', () => {
  const alphabet = fc.constantFrom(
    ..."M::cpu:(avg(x) AS a){h=1 AND y!='z', IN [1,2]}[1h::5m]BY LIMIT 5 #`\"-.*".split(''),
  )
  fc.assert(
    fc.property(
      fc.oneof(
        fc.string(),
        fc.array(alphabet).map((a) => a.join('')),
      ),
      (text) => {
        try {
          parseQuery(text)
        } catch (e) {
          assert.ok(e instanceof FerryError && e.code === 'queryInvalid', String(e))
          assert.match(e.message, /^DQL parse error at position \d+: /)
        }
      },
    ),
    { numRuns: 3000 },
  )
})

test('LIMIT takes an integer', () => {
  assert.throws(() => parseQuery('M::cpu LIMIT 1.5'), {
    message:
      'DQL parse error at position 13: expected a non-negative integer after LIMIT, got "1.5"',
  })
})

test('nesting and condition limits: 400 queryInvalid, never a stack overflow', () => {
  const deep = `M::cpu {${'('.repeat(5000)}a = 1${')'.repeat(5000)}}`
  assert.throws(() => parseQuery(deep), {
    code: 'queryInvalid',
    message: 'DQL parse error at position 108: conditions nested deeper than 100 levels',
  })
  assert.throws(() => parseConditions(`${'NOT '.repeat(200)}a = 1`), {
    code: 'queryInvalid',
    message: 'DQL parse error at position 400: conditions nested deeper than 100 levels',
  })
  const chain = Array.from({ length: 1001 }, (_, i) => `a = ${i}`).join(' AND ')
  assert.throws(() => parseConditions(chain), {
    code: 'queryInvalid',
    message: `DQL parse error at position ${chain.lastIndexOf('a = 1000')}: more than 1000 conditions`,
  })
  const ok = `${'('.repeat(99)}a = 1${')'.repeat(99)}`
  assert.deepEqual(parseConditions(ok), { op: 'cmp', column: 'a', cmp: '=', value: 1 })
})

test('fuzz: deeply nested and long where-clauses only raise coded errors', () => {
  const piece = fc.constantFrom('(', ')', 'NOT ', 'a = 1', ' AND ', ' OR ', ', ', '{', '}')
  fc.assert(
    fc.property(fc.array(piece, { maxLength: 3000 }), fc.nat(6000), (parts, depth) => {
      const text = `M::cpu {${'('.repeat(depth)}${parts.join('')}`
      try {
        parseQuery(text)
      } catch (e) {
        assert.ok(e instanceof FerryError && e.code === 'queryInvalid', String(e))
      }
    }),
    { numRuns: Number(process.env.FUZZ_RUNS ?? 300) },
  )
})
