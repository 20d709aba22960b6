/**
 * The logging input's positions under `kill -9`: a real agent tails a file a writer keeps
 * appending to, and is killed and restarted on the same data folder several times. Every line
 * reaches the upstream at least once; duplicates are counted, and bounded by one batch per kill.
 */
import assert from 'node:assert/strict'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { test } from 'node:test'
import { startAgent } from '../helpers/agent-process.js'
import { SinkServer, waitFor } from '../helpers/sink-server.js'

const KILLS = Number(process.env.TAIL_KILLS ?? 20)
/** The input's batch: what one kill may re-send. */
const BATCH = 500

function messages(sink: SinkServer): string[] {
  return sink
    .points()
    .filter((p) => p.name === 'tailkill')
    .map((p) => String(p.fields.find((f) => f.key === 'message')!.value))
}

test(
  `kill -9 ${KILLS} times while a writer appends: every line arrives`,
  { timeout: 300_000 },
  async (t) => {
    const sink = new SinkServer()
    const url = await sink.start()
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ferry-tailkill-'))
    const logDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ferry-tailkill-logs-'))
    const log = path.join(logDir, 'app.log')
    fs.mkdirSync(path.join(dataDir, 'conf.d'))
    // Named by `pipeline`, not after the source: the key selects the script.
    fs.mkdirSync(path.join(dataDir, 'pipeline', 'logging'), { recursive: true })
    fs.writeFileSync(
      path.join(dataDir, 'pipeline', 'logging', 'tagged.js'),
      `add_key('piped', 'yes')\n`,
    )
    fs.writeFileSync(
      path.join(dataDir, 'conf.d', 'logging.conf'),
      `[[inputs.logging]]\nlogfiles = ["${logDir}/*.log"]\nsource = "tailkill"\npipeline = "tagged.js"\nfrom_beginning = true\n`,
    )
    const env = {
      ENV_DATAWAY: url,
      ENV_DATAWAY_RETRY_INITIAL: '20ms',
      ENV_DATAWAY_RETRY_MAX: '100ms',
    }
    let n = 0
    let writing = true
    const writer = (async () => {
      while (writing) {
        fs.appendFileSync(log, Array.from({ length: 20 }, () => `tail ${n++}\n`).join(''))
        await new Promise((r) => setTimeout(r, 5))
      }
    })()
    try {
      for (let k = 0; k < KILLS; k++) {
        const agent = await startAgent(env, '', dataDir)
        await new Promise((r) => setTimeout(r, 400 + Math.random() * 800))
        await agent.stop('SIGKILL')
      }
      writing = false
      await writer
      const agent = await startAgent(env, '', dataDir)
      try {
        await waitFor(() => new Set(messages(sink)).size === n, 30_000, `all ${n} lines`).catch(
          (e) => {
            const seen = new Set(messages(sink))
            const lost = Array.from({ length: n }, (_, i) => `tail ${i}`).filter(
              (m) => !seen.has(m),
            )
            throw new Error(`${e.message}: ${lost.length} missing, e.g. ${lost.slice(0, 5)}`)
          },
        )
      } finally {
        await agent.stop()
      }
      const got = messages(sink)
      const duplicates = got.length - new Set(got).size
      t.diagnostic(
        `${n} lines over ${KILLS} kills; received ${got.length}, duplicates ${duplicates}`,
      )
      assert.equal(new Set(got).size, n)
      const tailed = sink.points().filter((p) => p.name === 'tailkill')
      assert.deepEqual(
        new Set(
          tailed.map(
            (p) =>
              `${p.fields.find((f) => f.key === 'piped')?.value} ${p.tags.find((x) => x.key === 'filename')?.value}`,
          ),
        ),
        new Set(['yes app.log']),
      )
      assert.ok(duplicates <= KILLS * BATCH, `${duplicates} duplicates for ${KILLS} kills`)
    } finally {
      writing = false
      await writer
      await sink.stop()
    }
  },
)
