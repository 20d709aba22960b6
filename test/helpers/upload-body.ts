/**
 * One upload body and the send options for tests of an upload attempt (`sinks/dataway/send.ts`).
 * Type-only imports of the sink: a test may load the upload code only after this (see
 * send-dispatcher.test.ts).
 */
import type { UploadBody } from '../../src/sinks/dataway/bodies.js'
import type { SendOptions } from '../../src/sinks/dataway/send.js'

/** A metric body of one point, the first record of the buffer. */
export function uploadBody(payload: Uint8Array): UploadBody {
  return {
    category: 'metric',
    payload,
    points: 1,
    pkgId: 'p1',
    firstSeq: 1,
    lastSeq: 1,
    receivedAt: Date.now(),
    expiredPoints: 0,
  }
}

export const GZIP_SEND: SendOptions = { compression: 'gzip', gzipLevel: 1, userAgent: 'test' }
