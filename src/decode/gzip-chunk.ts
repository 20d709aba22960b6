/**
 * The output chunk size for inflating a gzip body: the size its trailer declares (ISIZE, the
 * last member's length mod 2^32), so a one-member body inflates into a single buffer that node
 * hands back as is, instead of 16 KiB pieces joined by one more whole-body copy.
 *
 * Invariant: ISIZE is the sender's word, so it only sizes an allocation already within what the
 * body could honestly produce: at most deflate's largest ratio (1032:1) of the body and at most
 * the output limit. A wrong ISIZE never changes the output, only costs the join again.
 */
const DEFAULT_CHUNK = 16 * 1024
const MAX_RATIO = 1032
/** Room past the declared size: an output that fills the chunk exactly would open another. */
const SLACK = 64

export function gzipChunkSize(body: Uint8Array, limit: number): number {
  const n = body.length
  if (n < 18) return DEFAULT_CHUNK // shorter than a gzip header and trailer
  const isize = (body[n - 4] | (body[n - 3] << 8) | (body[n - 2] << 16) | (body[n - 1] << 24)) >>> 0
  return Math.max(SLACK, Math.min(isize, n * MAX_RATIO, limit) + SLACK)
}
