/** The query box's completion: what fits where the cursor is, and what a choice writes. */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { applyChoice, contextAt, matches } from '../../../ui/src/complete.js'

const at = (text: string) => {
  const pos = text.indexOf('|')
  const t = text.replace('|', '')
  return { t, pos, ctx: contextAt(t, pos) }
}

test('the kind of name that fits the cursor', () => {
  const cases: [string, string | null, string][] = [
    ['M::c|', 'source', 'M::c'],
    ['|', 'source', ''],
    ['M::cpu:(us|)', 'field', 'us'],
    ['M::cpu:(|)', 'field', ''],
    ['M::cpu:(avg(us|))', 'field', 'us'],
    ['M::cpu:(avg(a), |)', 'field', ''],
    ['M::cpu:(avg(a)) {ho|}', 'filter', 'ho'],
    ["M::cpu:(avg(a)) {host = 'x', cp|}", 'filter', 'cp'],
    ['M::cpu:(avg(a)) BY h|', 'tag', 'h'],
    ['M::cpu:(avg(a)) BY host, c|', 'tag', 'c'],
    ["M::cpu:(avg(a)) {host = 'ab|'}", null, ''],
    ['M::cpu:(avg(a)) [1|h]', null, ''],
  ]
  for (const [text, kind, prefix] of cases) {
    const { ctx } = at(text)
    assert.equal(ctx?.kind ?? null, kind, text)
    if (ctx) assert.equal(ctx.prefix, prefix, text)
    if (ctx && kind !== 'source') assert.equal(ctx.source, 'M::cpu', text)
  }
})

test('names starting with the prefix first, then containing it', () => {
  const names = ['usage_user', 'usage_system', 'load5s', 'cpu_usage']
  assert.deepEqual(matches(names, 'usage'), ['usage_user', 'usage_system', 'cpu_usage'])
  assert.deepEqual(matches(names, ''), names)
  assert.deepEqual(matches(names, 'load5s'), [])
})

test('a choice replaces the word; a source opens its field list, an aggregate its parenthesis', () => {
  const take = (text: string, choice: string) => {
    const { t, pos, ctx } = at(text)
    const out = applyChoice(t, pos, ctx!, choice)
    return out.text.slice(0, out.pos) + '|' + out.text.slice(out.pos)
  }
  assert.equal(take('M::c|', 'M::cpu'), 'M::cpu:(|)')
  assert.equal(take('M::c|pu:(a)', 'M::cpu'), 'M::cpu|:(a)')
  assert.equal(take('M::cpu:(us|)', 'usage_user'), 'M::cpu:(usage_user|)')
  assert.equal(take('M::cpu:(av|)', 'avg'), 'M::cpu:(avg(|))')
  assert.equal(take('M::cpu:(avg(a)) BY h|', 'host'), 'M::cpu:(avg(a)) BY host|')
})
