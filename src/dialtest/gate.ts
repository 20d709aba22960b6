/** At most `debug_concurrency` dial tests at once; more are refused at once (429). */
import { ConcurrencyGate } from '../shared/gate.js'

export class DialGate extends ConcurrencyGate {
  constructor(max: number) {
    super(max, 'dial test(s) already running ([dialtesting] debug_concurrency)')
  }
}
