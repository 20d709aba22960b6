/**
 * The hostile client of `bench:hostile` in a process of its own (`fork`ed with the agent's URL):
 * building a 9M-point gzip bomb or a 64 MiB body and keeping 250 requests in flight are the load
 * generator's work, and on the good clients' event loop they would delay those clients' requests
 * and be counted as the agent's latency. It sends the cases of `hostile.ts` in turn, without
 * pause, until the parent sends `stop`; then it finishes the case under way, sends the statuses
 * it got by case and exits.
 */
import { hostileCases, type Case } from './hostile.js'

const url = new URL(process.argv[2])
const answered: Record<string, Record<number, number>> = {}
let stop = false
process.on('message', (m) => {
  if (m === 'stop') stop = true
})

async function attack(cases: Case[]): Promise<void> {
  while (!stop)
    for (const c of cases) {
      if (stop) break
      const counts = (answered[c.name] ??= {})
      for (const r of await c.run(url)) counts[r.status] = (counts[r.status] ?? 0) + 1
    }
}

// HOSTILE_CASES (words of the case names, comma-separated: `flood,gzip`) sends only those.
const only = (process.env.HOSTILE_CASES ?? '').split(',').filter(Boolean)
const picked = (c: Case) => only.length === 0 || only.some((w) => c.name.includes(w))
// Ready once the bodies are built, so the parent starts its clock on the attack itself.
const cases = hostileCases().filter(picked)
process.send?.('ready')
attack(cases).then(
  () => process.send?.(answered, () => process.exit(0)),
  (e) => {
    console.error(e)
    process.exit(1)
  },
)
