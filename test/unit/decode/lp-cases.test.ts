/**
 * Every case of test/fixtures/lp-cases.json, parsed, timed and corrected with neutral
 * options (no category rules), compared exactly. Where the corpus and the reference agent
 * disagree, Ferry follows the reference agent (`datakit` of the case) or the spec; each such
 * case is listed in FERRY with the reason.
 */
import assert from 'node:assert/strict'
import fs from 'node:fs'
import { test } from 'node:test'
import { checkPoint } from '../../../src/decode/check/check.js'
import { parseBody } from '../../../src/decode/parse-body.js'
import { parsePrecision, resolveTime } from '../../../src/decode/precision.js'
import { FerryError } from '../../../src/errors.js'
import { FIXTURES } from '../../helpers/app.js'
import { caseShape } from '../../helpers/points.js'

interface Case {
  id: string
  input: string
  precision?: string
  default_time: string
  expect: { points?: unknown[]; error?: boolean; error_contains?: string }
  datakit?: { points?: unknown[]; error?: boolean; message?: string; panic?: string }
}

const cases: Case[] = JSON.parse(fs.readFileSync(new URL('lp-cases.json', FIXTURES), 'utf8'))

/** Cases where Ferry deliberately differs from `expect`, and why. */
const FERRY: Record<string, { use: 'datakit' } | { time: string }> = {
  'gc1-negative-timestamp': { time: 'receive' }, // negative time -> receive time (reference)
  'lpc-explicit-zero-timestamp': { time: 'receive' }, // spec: receive time when absent or 0
  'lpc-no-ts-precision-s': { time: 'receive' }, // spec: receive time whatever the precision
  'lpc-leading-tab': { use: 'datakit' }, // leading blanks are skipped (reference)
  'lpc-control-char-in-measurement': { use: 'datakit' },
  'vm-empty-tag-values': { use: 'datakit' }, // VictoriaMetrics is lenient; we are not
  'vm-missing-measurement': { use: 'datakit' },
  'vm-skip-invalid-middle-line': { use: 'datakit' },
  'vm-escape-soup': { use: 'datakit' },
}

const NEUTRAL = { dotToUnderscore: false, dropStrings: false, disabledKeys: [], required: [] }

function run(c: Case) {
  const now = BigInt(c.default_time)
  // The corpus' own default is nanoseconds; `dyn` asks for the agent's guess (no ?precision).
  const precision = c.precision === 'dyn' ? null : parsePrecision(c.precision ?? 'n')!
  const { points } = parseBody('', Buffer.from(c.input))
  for (const p of points) {
    p.time = resolveTime(p.time, precision, now)
    checkPoint(p, NEUTRAL)
  }
  return points.map(caseShape)
}

for (const c of cases) {
  test(`lp case ${c.id}`, () => {
    const override = FERRY[c.id]
    let expect = override && 'use' in override ? c.datakit! : c.expect
    if (override && 'time' in override) {
      expect = { points: c.expect.points!.map((p) => ({ ...(p as object), time: c.default_time })) }
    }
    if (!expect.error) {
      assert.deepEqual(run(c), expect.points)
      return
    }
    assert.throws(
      () => run(c),
      (e: unknown) => {
        assert.ok(e instanceof FerryError)
        assert.equal(e.code, 'invalidLinePoint')
        if (c.expect.error_contains)
          assert.ok(e.message.includes(c.expect.error_contains), e.message)
        // Where the reference agent's exact message is known, ours is the same text.
        if (c.datakit?.message && !c.datakit.panic) assert.equal(e.message, c.datakit.message)
        return true
      },
    )
  })
}
