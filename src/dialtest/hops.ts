/** The `hops` checks shared by TCP and ICMP, with the reference's texts. */
import { checkNumber } from './opts.js'
import type { Hop, NumberOpt, Verdict } from './types.js'

export function checkHops(v: Verdict, hops: Hop[], opts: NumberOpt[] | undefined): void {
  if (!hops.length) {
    v.reasons.push('traceroute failed with no hops')
    return
  }
  for (const o of opts ?? []) {
    const err = checkNumber(o, hops.length)
    if (err === null) v.passed = true
    else v.reasons.push(`traceroute hops check failed: ${err}`)
  }
}
