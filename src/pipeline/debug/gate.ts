/**
 * At most `debug_concurrency` pipeline debug requests at once; more are refused at once (429).
 * A debug script may spin for its whole time limit on a decode worker, so without this a few
 * concurrent requests would hold every worker and stall all writes.
 */
import { ConcurrencyGate } from '../../shared/gate.js'

export class DebugGate extends ConcurrencyGate {
  constructor(max: number) {
    super(max, 'pipeline debug request(s) already running ([pipeline] debug_concurrency)')
  }
}
