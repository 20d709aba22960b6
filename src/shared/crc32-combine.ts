/**
 * CRC-32 (zlib's, the one `zlib.crc32` computes) of a concatenation from the CRCs of its
 * parts: `crc32Combine(crc32(a), crc32(b), b.length) === crc32(a ++ b)`. The decode worker
 * already holds a payload's bytes, so it computes their CRC there; the buffer then needs only
 * its own short header's CRC and this combination, instead of reading the payload again on
 * the HTTP thread. Node does not expose zlib's `crc32_combine`; this is the same arithmetic
 * (multiplication by x^(8·len) modulo the CRC polynomial, bit-reflected), O(log len).
 */

const POLY = 0xedb88320

/** a·b modulo the polynomial (both reflected, x^0 in the top bit). */
function multModP(a: number, b: number): number {
  let m = 0x80000000
  let p = 0
  for (;;) {
    if ((a & m) !== 0) {
      p ^= b
      if ((a & (m - 1)) === 0) break
    }
    m >>>= 1
    b = b & 1 ? (b >>> 1) ^ POLY : b >>> 1
  }
  return p >>> 0
}

/** X2N[k] = x^(2^k) modulo the polynomial. */
const X2N = new Uint32Array(32)
X2N[0] = 0x40000000
for (let k = 1; k < 32; k++) X2N[k] = multModP(X2N[k - 1], X2N[k - 1])

/** x^(n·2^k) modulo the polynomial. */
function x2nModP(n: number, k: number): number {
  let p = 0x80000000
  while (n > 0) {
    if (n & 1) p = multModP(X2N[k & 31], p)
    n = Math.floor(n / 2)
    k++
  }
  return p
}

/** The CRC of `a` followed by `b`, from crc32(a), crc32(b) and b's length in bytes. */
export function crc32Combine(crcA: number, crcB: number, lengthB: number): number {
  return (multModP(x2nModP(lengthB, 3), crcA) ^ crcB) >>> 0
}
