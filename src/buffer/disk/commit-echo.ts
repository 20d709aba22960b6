/**
 * lmdb-js rejects one failed commit (ENOSPC, EIO) more than once: the write's own promise,
 * which the buffer awaits and answers 503 (logged and counted as `buffer_storage_failed`),
 * then a second promise inside the library that no caller holds, with an error of the same
 * shape ("Commit failed", sharing the commit's `commitError` promise, itself rejected with the
 * disk's error). All of them are the one failure already reported: recognised here, they are
 * settled quietly instead of surfacing as unhandled rejections.
 */

interface CommitFailure extends Error {
  commitError: Promise<unknown>
}

/** Whether `reason` is lmdb's rejection of a failed commit. */
export function isCommitFailure(reason: unknown): reason is CommitFailure {
  return (
    reason instanceof Error &&
    reason.message.startsWith('Commit failed') &&
    typeof (reason as Partial<CommitFailure>).commitError?.catch === 'function'
  )
}

/** Settles the commit's detail promise, which nothing else awaits. */
export function settleCommitFailure(reason: unknown): void {
  if (isCommitFailure(reason)) reason.commitError.catch(() => undefined)
}
