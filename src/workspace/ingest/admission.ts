/**
 * The bound on upload bytes inside the workspace: every write holds its body's size (the
 * declared Content-Length as soon as the request arrives, the real size once read) from
 * arrival until it is answered, through reading, decoding and waiting for the commit. A write
 * that would take the total past `ingest_queue_bytes` is refused at once with 503 and
 * Retry-After, before its body is read, so a backlog waits on the agents' disks (they retry
 * retryable answers) and never in this heap. One write is always admitted when none is held,
 * so a body larger than the bound still gets through alone.
 */
import { FerryError } from '../../errors.js'

export interface Ticket {
  /** Holds `bytes` instead of what the ticket held (the body's real size once read). */
  resize(bytes: number): void
  release(): void
}

export class Admission {
  private held = 0

  constructor(private readonly limit: number) {}

  get bytes(): number {
    return this.held
  }

  admit(bytes: number): Ticket {
    if (this.held > 0 && this.held + bytes > this.limit)
      throw new FerryError(
        'workspaceBusy',
        'too many upload bytes waiting to be stored (ingest_queue_bytes); retry later',
        { retryAfter: 1 },
      )
    this.held += bytes
    let mine = bytes
    return {
      resize: (n) => {
        this.held += n - mine
        mine = n
      },
      release: () => {
        this.held -= mine
        mine = 0
      },
    }
  }
}
