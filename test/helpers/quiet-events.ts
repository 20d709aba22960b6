/** Event sinks that record nothing, for tests that drive the buffer and the uploader. */
import type { BufferEvents } from '../../src/buffer/disk/types.js'
import type { UploadEvents } from '../../src/sinks/dataway/upload-types.js'

export const quietUpload: UploadEvents = {
  uploadAttempt() {},
  uploadRetry() {},
  deadLettered() {},
  pointsDropped() {},
  loopFailed() {},
}

export const quietBuffer: BufferEvents = {
  committed() {},
  pointsDropped() {},
  recordDamaged() {},
  storageFailed() {},
  recordsLost() {},
}
