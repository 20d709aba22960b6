/**
 * Walks README.md, deploy/README.md and every page of docs/ (test/helpers/readme-walk.ts): starts
 * the built agent as the quick start does, with its ports and data directory moved by ENV_*
 * overrides, then runs every shell example in order and checks that it answers as the page
 * says; the README's "start it again" restarts the agent. An example with no check
 * (test/helpers/readme-checks.ts) fails the test, so a new one must come with its expectation;
 * only what cannot run here is skipped, with the reason logged.
 */
import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { after, before, test } from 'node:test'
import { shellExamples } from '../helpers/readme.js'
import { ReadmeRun, ROOT } from '../helpers/readme-walk.js'

const run = new ReadmeRun()
let started = false

before(async () => {
  started = await run.setup()
})

after(() => run.teardown())

/** Every Markdown page of docs/, in name order. */
const docPages = () =>
  fs
    .readdirSync(path.join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .sort()
    .map((f) => `docs/${f}`)

test(
  'every shell example of the READMEs and docs answers as documented',
  { timeout: 300_000 },
  async (t) => {
    if (!started) return t.skip('dist/ is not built (npm test builds it first)')
    const examples = [
      ...shellExamples(path.join(ROOT, 'README.md'), 'README.md'),
      ...shellExamples(path.join(ROOT, 'deploy/README.md'), 'deploy/README.md'),
      ...docPages().flatMap((f) => shellExamples(path.join(ROOT, f), f)),
    ]
    assert.ok(examples.length >= 15, `only ${examples.length} examples found`)
    for (const e of examples)
      await t.test(`${e.file}:${e.line} ${e.command.split('\n')[0]}`, async () => {
        await run.walk(e)
      })
    const key = fs.statSync(path.join(run.dataDir, 'workspace/default.api-key'))
    assert.equal(key.mode & 0o777, 0o600)
    assert.match(run.logs.join('\n'), /API key for workspace default: \w+ \(shown once; stored in /)
  },
)
