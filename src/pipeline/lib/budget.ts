/**
 * Per-run caps on what a script may add: points from create_point and bytes written into
 * points. Without them one small request can make a script amplify itself into millions of
 * points or gigabytes of fields before its time limit (the sandbox's memory limit does not
 * cover what the host-side library stores).
 *
 * Invariant: a charge over a cap throws before the point grows, so host memory per run stays
 * within the caps; the point fails and goes on unchanged, like any failed run, and the script
 * is stopped (CapExceeded crosses into the sandbox as an exception) rather than left to spin.
 */
import { FerryError } from '../../errors.js'
import type { PlValue } from './pl-value.js'
import { jsonText } from './json-text.js'

export interface ScriptCaps {
  /** Points create_point may add in one run (one batch). */
  maxCreatedPoints: number
  /** Bytes of keys and values a run may write into points, created ones included. */
  maxOutputBytes: number
}

/** A cap was hit: unlike other library errors, this one also stops the script. */
export class CapExceeded extends FerryError {
  constructor(message: string) {
    super('badRequest', message)
    this.name = 'CapExceeded'
  }
}

export class RunBudget {
  private created = 0
  private bytes = 0
  /** Points refused by a cap in this run. */
  hits = 0

  constructor(readonly caps: ScriptCaps) {}

  create(): void {
    if (++this.created > this.caps.maxCreatedPoints)
      this.refuse(
        `create_point: more than ${this.caps.maxCreatedPoints} points in one run ([pipeline] max_created_points)`,
      )
  }

  charge(n: number): void {
    this.bytes += n
    if (this.bytes > this.caps.maxOutputBytes)
      this.refuse(
        `script output over ${this.caps.maxOutputBytes} bytes in one run ([pipeline] max_output_bytes)`,
      )
  }

  private refuse(message: string): never {
    this.hits++
    throw new CapExceeded(message)
  }
}

/** Approximate bytes of a value as it will be encoded. */
export function sizeOf(v: PlValue): number {
  if (typeof v === 'string') return v.length
  if (v === null || typeof v !== 'object') return 8
  if (v instanceof Uint8Array) return v.byteLength
  return jsonText(v)?.length ?? 8
}
