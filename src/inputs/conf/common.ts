/** Keys every input has, in the reference agent's names: its interval and its extra tags. */
import { positive } from '../../config/checks.js'

export function commonKeys<const D extends number>(interval: D) {
  return {
    interval: { type: 'duration', default: interval, check: positive },
    tags: { type: 'tags', default: {} },
  } as const
}
