/** Properties and exact answers of the pipeline's parsers: Platypus, grok, dates. */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import fc from 'fast-check'
import { FerryError } from '../../../src/errors.js'
import { compileGrok } from '../../../src/pipeline/grok/grok.js'
import { BUILTIN_PATTERNS } from '../../../src/pipeline/grok/patterns.js'
import { compilePpl } from '../../../src/pipeline/ppl/compile.js'
import { PlSyntaxError } from '../../../src/pipeline/ppl/lexer.js'
import { parseTime } from '../../../src/pipeline/time/parse.js'
import { pplError } from '../../helpers/pipeline.js'

const lookup = (n: string) => BUILTIN_PATTERNS[n]
const PPLISH = fc.stringMatching(/^[a-z_(), "'=\n#[\]{}:.0-9!<>+-]{0,60}$/)

test('Platypus: any text either compiles or fails with a positioned PlSyntaxError', () => {
  fc.assert(
    fc.property(PPLISH, (src) => {
      try {
        compilePpl(src)
      } catch (e) {
        assert.ok(e instanceof PlSyntaxError, String(e))
        assert.ok(e.pos >= 0 && e.pos <= src.length && e.ln >= 1 && e.col >= 1)
      }
    }),
    { numRuns: 3000 },
  )
})

test('Platypus: compile output and errors, exactly', () => {
  assert.deepEqual(compilePpl('cast(status_code, "int")  # c'), {
    js: 'cast(key("status_code"), "int");',
    straight: true,
    uses: [],
  })
  const r = compilePpl('x = get_key(a)\nif x == "1" { drop() } else { add_key(y, x) }')
  assert.equal(r.straight, false)
  assert.equal(
    r.js,
    'let $v_x = null;\n$v_x = get_key(key("a"));\nif ($truthy(($v_x === "1"))) {\ndrop();\n} else {\nadd_key(key("y"), key("x", $v_x));\n}',
  )
  const at = pplError
  assert.deepEqual(at('grok(_, "a")\nnope(1)'), ['unknown function nope', 2, 1, 13])
  assert.deepEqual(at('add_key(a, "x)'), ['unterminated string', 1, 12, 11])
  assert.deepEqual(at('json(_, a, trim=true)'), ['json has no parameter trim', 1, 17, 16])
})

test('grok: every built-in pattern compiles; arbitrary patterns fail only with FerryError', () => {
  for (const name of Object.keys(BUILTIN_PATTERNS)) compileGrok(`%{${name}:x}`, lookup)
  fc.assert(
    fc.property(
      fc.string({ maxLength: 40 }),
      fc.constantFrom('INT', 'NOPE', 'DATA', 'IP'),
      (text, name) => {
        try {
          const g = compileGrok(`${text}%{${name}:v}`, lookup)
          g.re.exec(text)
        } catch (e) {
          assert.ok(e instanceof FerryError, String(e))
        }
      },
    ),
    { numRuns: 2000 },
  )
})

test('grok: captures, types, (?s) and non-participating groups', () => {
  const g = compileGrok('%{IP:ip} %{INT:n:int}(x%{WORD:w})?', lookup)
  const m = g.re.exec('from 10.1.2.3 42')!
  assert.deepEqual(
    g.captures.map((c) => [c.name, c.type, m[c.index]]),
    [
      ['ip', 'str', '10.1.2.3'],
      ['n', 'int', '42'],
      ['w', 'str', undefined],
    ],
  )
  const dot = compileGrok('a%{sqls:s}', (n) => (n === 'sqls' ? '(?s)(.*)' : lookup(n)))
  assert.equal(dot.re.exec('ab\nc')![dot.captures[0].index], 'b\nc')
})

test('dates: never throw; a table of formats', () => {
  fc.assert(
    fc.property(fc.string({ maxLength: 40 }), (s) => {
      const r = parseTime(s, 'UTC')
      assert.ok(r === null || typeof r === 'bigint')
    }),
    { numRuns: 3000 },
  )
  const table: [string, string, bigint][] = [
    ['2021-05-31 15:23:45.110 CST', 'UTC', 1622445825110000000n],
    ['02/Dec/2021:11:55:34 +0800', 'UTC', 1638417334000000000n],
    ['02 Dec 2021 12:55:34.000', 'Asia/Tokyo', 1638417334000000000n],
    ['Tue May 19 18:39:45.272121 2021', 'Asia/Shanghai', 1621420785272121000n],
    ['1700000000', 'UTC', 1700000000000000000n],
    ['1700000000123', 'UTC', 1700000000123000000n],
    ['2024-07-01 12:00:00', 'America/New_York', 1719849600000000000n],
    ['2024-01-01 12:00:00', 'America/New_York', 1704128400000000000n],
  ]
  for (const [s, tz, want] of table) assert.equal(parseTime(s, tz), want, s)
  assert.equal(parseTime('not a date', 'UTC'), null)
})
