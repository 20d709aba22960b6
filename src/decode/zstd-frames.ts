/**
 * Checks every zstd frame header of a body before any of it is decompressed (RFC 8878, 3.1).
 * The decoder allocates a window of the size a frame declares (for a single-segment frame, its
 * content size) and moves that window along once per block, so a frame of a few bytes that
 * declares a 2 GiB window costs gigabytes and seconds before it produces a byte. Walking the
 * headers and block sizes costs nothing, so frames declaring a window over `maxWindow`, or
 * content sizes adding up to more than `maxOutput`, are refused here, before allocation.
 */
import { FerryError } from '../errors.js'

const ZSTD_MAGIC = 0xfd2fb528
const SKIPPABLE_MASK = 0xfffffff0
const SKIPPABLE_MAGIC = 0x184d2a50
const BLOCK_RLE = 1
const BLOCK_RESERVED = 3

export interface ZstdLimits {
  maxWindow: number
  maxOutput: number
}

interface FrameHeader {
  /** Bytes of the header (magic included). */
  size: number
  window: number
  /** Declared content size, or null when absent. */
  content: number | null
  checksum: boolean
}

const mib = (n: number) => `${(n / 1024 / 1024).toFixed(n % (1024 * 1024) ? 2 : 0)} MiB`

function truncated(at: number): FerryError {
  return new FerryError(
    'decodeBodyFailed',
    `cannot decode zstd body: truncated frame at byte ${at}`,
  )
}

function readLE(b: Uint8Array, at: number, n: number): number {
  let v = 0
  for (let i = n - 1; i >= 0; i--) v = v * 256 + b[at + i]
  return v
}

function readHeader(b: Uint8Array, at: number): FrameHeader {
  if (at + 6 > b.length) throw truncated(at)
  const fhd = b[at + 4]
  const single = (fhd >> 5) & 1
  const fcsFlag = fhd >> 6
  const dictBytes = [0, 1, 2, 4][fhd & 3]
  const fcsBytes = fcsFlag === 0 ? single : 1 << fcsFlag
  let i = at + 5
  let window = 0
  if (!single) {
    const wd = b[i++]
    const base = 2 ** (10 + (wd >> 3))
    window = base + (base / 8) * (wd & 7)
  }
  i += dictBytes
  if (i + fcsBytes > b.length) throw truncated(at)
  let content: number | null = null
  if (fcsBytes > 0) content = readLE(b, i, fcsBytes) + (fcsBytes === 2 ? 256 : 0)
  if (single) window = content ?? 0
  return { size: i + fcsBytes - at, window, content, checksum: ((fhd >> 2) & 1) === 1 }
}

/** Skips the blocks of one frame; returns the offset after it (checksum included). */
function skipBlocks(b: Uint8Array, at: number, checksum: boolean): number {
  let i = at
  for (;;) {
    if (i + 3 > b.length) throw truncated(i)
    const h = readLE(b, i, 3)
    const type = (h >> 1) & 3
    if (type === BLOCK_RESERVED)
      throw new FerryError('decodeBodyFailed', `cannot decode zstd body: bad block at byte ${i}`)
    const end = i + 3 + (type === BLOCK_RLE ? 1 : h >>> 3) + (h & 1 && checksum ? 4 : 0)
    if (end > b.length) throw truncated(i)
    if (h & 1) return end
    i = end
  }
}

function refuse(message: string): FerryError {
  return new FerryError('decoderLimitExceeded', `zstd body refused: ${message}`)
}

/** Throws a coded error for the first frame over a limit; returns the number of frames. */
export function checkZstdFrames(b: Uint8Array, limits: ZstdLimits): number {
  let at = 0
  let declared = 0
  let frames = 0
  while (at < b.length) {
    if (at + 8 > b.length) throw truncated(at)
    const magic = readLE(b, at, 4)
    if ((magic & SKIPPABLE_MASK) >>> 0 === SKIPPABLE_MAGIC) {
      at += 8 + readLE(b, at + 4, 4)
      continue
    }
    if (magic !== ZSTD_MAGIC)
      throw new FerryError('decodeBodyFailed', `cannot decode zstd body: no frame at byte ${at}`)
    const h = readHeader(b, at)
    if (h.window > limits.maxWindow)
      throw refuse(
        `the frame at byte ${at} declares a window of ${mib(h.window)}, over the limit of ${mib(limits.maxWindow)}`,
      )
    declared += h.content ?? 0
    if (declared > limits.maxOutput)
      throw refuse(
        `the frame at byte ${at} declares ${declared} bytes of content in all, over the limit of ${limits.maxOutput} bytes`,
      )
    at = skipBlocks(b, at + h.size, h.checksum)
    frames++
  }
  return frames
}
