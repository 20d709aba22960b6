/**
 * The residual case of exactly-once on plain MergeTree (docs/clickhouse.md): a body whose rows
 * are stored while its package record is not. Whoever sends it again gets it stored twice, and
 * nothing on a single node can tell. The engine tells its listener of each one it sees:
 * - `unrecorded`: every insert succeeded, the package record failed; the body is answered
 *   stored (it is), so the agent does not send it again, but another copy (a second agent,
 *   a replay of the disk buffer) would not be caught;
 * - `partial`: one table's insert failed after another's succeeded; the body is answered 503
 *   and its retry stores the first tables again.
 * An instance killed between the rows and the record tells nobody: that case is only bounded
 * (the bodies in flight, at most `max_pending_points` points) and documented.
 */
import type { WriteRequest } from '../write-request.js'

export type ResidualReason = 'unrecorded' | 'partial'

export type ResidualListener = (reason: ResidualReason, req: WriteRequest, why: string) => void
