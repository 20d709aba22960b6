/**
 * One table of every error Ferry reports, fastify-style: a stable code, an HTTP status and a
 * class (permanent or retryable). Codes are never reused. The HTTP layer renders them as
 * `{error_code: "agent.<code>", message}`; nothing else decides a status.
 */
export const ERRORS = {
  badRequest: { status: 400, retryable: false },
  invalidCategory: { status: 400, retryable: false },
  decodeBodyFailed: { status: 400, retryable: false },
  emptyBody: { status: 400, retryable: false },
  noPoints: { status: 400, retryable: false },
  invalidLinePoint: { status: 400, retryable: false },
  invalidJsonPoint: { status: 400, retryable: false },
  invalidProtobufPoint: { status: 400, retryable: false },
  pointGotWarning: { status: 400, retryable: false },
  invalidPrecision: { status: 400, retryable: false },
  invalidStorageIndex: { status: 400, retryable: false },
  invalidEcho: { status: 400, retryable: false },
  bodyTooLarge: { status: 413, retryable: false },
  /** A compressed body whose decoder would need more memory than allowed (zstd window). */
  decoderLimitExceeded: { status: 413, retryable: false },
  /** More points in one body than `[http_api] max_points_per_request`. */
  tooManyPoints: { status: 413, retryable: false },
  routeNotFound: { status: 404, retryable: false },
  /** A non-public route called from another machine (spec 5). */
  publicAccessDisabled: { status: 403, retryable: false },
  /** Over `[http_api] request_rate_limit` for this client and route. */
  reachMaxAPILimit: { status: 429, retryable: true },
  /** This client used more than `[decode] client_share` of decoding while others decode. */
  decodeShareExceeded: { status: 429, retryable: true },
  /** Not answered within `[http_api] timeout`; a write answered so stored nothing. */
  requestTimeout: { status: 408, retryable: true },
  /** `/v1/lasterror` without `input` or `err_content`. */
  invalidLastError: { status: 400, retryable: false },
  /** Election tag change while `[election] enable = false` (spec 4.9: 500). */
  electionDisabled: { status: 500, retryable: false },
  /** The main config file could not be rewritten (tag persistence). */
  configWriteFailed: { status: 500, retryable: false },
  methodNotAllowed: { status: 405, retryable: false },
  agentBusy: { status: 503, retryable: true },
  bufferFull: { status: 503, retryable: true },
  /** The disk buffer's storage failed (EIO, ENOSPC, map full): retry once it clears. */
  bufferUnavailable: { status: 503, retryable: true },
  /** The buffer holds less than its ledger says it did: it must be salvaged before use. */
  bufferDamaged: { status: 500, retryable: false },
  shuttingDown: { status: 503, retryable: true },
  /** The decode worker running this request died (it is replaced); the request can be retried. */
  decodeWorkerDied: { status: 503, retryable: true },
  internalError: { status: 500, retryable: false },
  /** An upstream refused a body for good (4xx other than 408/429): dead-lettered. */
  uploadRejected: { status: 502, retryable: false },
  /** An upload failed in a way worth retrying (408, 429, 5xx, network, timeout). */
  uploadFailed: { status: 502, retryable: true },
  configInvalid: { status: 500, retryable: false },
  invalidJson: { status: 400, retryable: false },
  /** Dial-test debug: an unknown `task_type` (spec 4.12). */
  invalidClass: { status: 400, retryable: false },
  /** Dial-test debug: a task that cannot run (bad JSON, failed check, refused target). */
  invalidRequest: { status: 400, retryable: false },
  /** Pipeline debug: the named script is not among the request's scripts. */
  invalidPipeline: { status: 400, retryable: false },
  /** Pipeline debug: undecodable data or an oversized script or record. */
  invalidData: { status: 400, retryable: false },
  /** Query or label forwarding with no upstream configured. */
  noUpstream: { status: 500, retryable: false },
  forwardFailed: { status: 500, retryable: true },
  // RUM (the reference's codes, in Ferry's spelling).
  /** A RUM point's app_id is not in `[rum] app_id_white_list`. */
  rumAppIdNotInWhiteList: { status: 403, retryable: false },
  /** A RUM point's measurement is not in `[rum] measurements`. */
  unknownRumMeasurement: { status: 400, retryable: false },
  /** A RUM point without a string app_id, or an error point without sdk_name. */
  invalidRumKey: { status: 500, retryable: false },
  /** A session replay upload that is not a readable multipart body. */
  invalidReplay: { status: 413, retryable: false },
  /** The session replay queue is at `[rum] replay_queue_size` or its disk failed. */
  replayQueueFull: { status: 503, retryable: true },
  // The workspace service (rendered as `errorCode: "InvalidApiKey"` etc. in its envelope).
  invalidToken: { status: 403, retryable: false },
  invalidApiKey: { status: 403, retryable: false },
  routerNotFound: { status: 400, retryable: false },
  /** An unknown Dataway route (`/v1/...`): 404 as Dataway answers, rendered `RouterNotFound`. */
  datawayRouteNotFound: { status: 404, retryable: false },
  objectNotFound: { status: 404, retryable: false },
  /** An Open API object named (or given an id) like one that exists: dashboards are unique by name. */
  duplicateName: { status: 400, retryable: false },
  /** An unexpected failure of the workspace service: 503 `InternalError`, as spec 000 names it. */
  workspaceInternalError: { status: 503, retryable: false },
  invalidParameter: { status: 400, retryable: false },
  queryInvalid: { status: 400, retryable: false },
  queryTimeout: { status: 504, retryable: true },
  storageFailed: { status: 503, retryable: true },
  workspaceBusy: { status: 503, retryable: true },
  /** A body that failed alone with a data error (names, types): it can never be stored. */
  unstorablePoints: { status: 422, retryable: false },
  /** Over the workspace's `[workspace] ingest_quota` (points per second). */
  ingestQuotaExceeded: { status: 429, retryable: true },
  databaseLocked: { status: 500, retryable: false },
  /** A UI change (POST, DELETE) from another origin than the UI's own, or naming none. */
  crossOriginRefused: { status: 403, retryable: false },
  /** A UI data change that is not `application/json`; an OTLP body neither protobuf nor JSON. */
  unsupportedMediaType: { status: 415, retryable: false },
  /** Over `[workspace] login_failures` wrong API keys from one client address in the window. */
  tooManyKeyAttempts: { status: 429, retryable: true },
  /**
   * The workspace database or one of its tables cannot be read (`ferry workspace verify`, and
   * the start probe: the service does not start on it).
   */
  workspaceDamaged: { status: 500, retryable: false },
  // The command line: `usage` exits 2, every other code exits 1 (src/main.ts).
  /** A command line the CLI cannot run: unknown command or option, missing or extra argument. */
  usage: { status: 400, retryable: false },
  /** A file or directory the user named cannot be read (--config, --input, --path). */
  fileUnreadable: { status: 400, retryable: false },
  /** `ferry migrate`: a file it would write exists already (and --force was not given). */
  outputExists: { status: 409, retryable: false },
  /** A listener could not bind its address (in use, no permission). */
  listenFailed: { status: 500, retryable: false },
  /** `ferry health`: the agent did not answer its ping. */
  unhealthy: { status: 503, retryable: true },
  /** An input's run passed its time limit (the next run starts on schedule). */
  collectTimeout: { status: 504, retryable: true },
  /** An input could not read what it observes (a /proc file, a scrape target, a log file). */
  collectFailed: { status: 502, retryable: true },
  /** `GET /v1/tap`: `[tap] max_clients` taps are attached already. */
  tapBusy: { status: 503, retryable: true },
  /** A scraped body is not valid Prometheus text or OpenMetrics exposition. */
  invalidExposition: { status: 400, retryable: false },
  /** An OTLP export request that does not decode (protobuf or OTLP/JSON). */
  invalidOtlp: { status: 400, retryable: false },
  /** A Datadog tracer's request that does not decode (msgpack, v0.5 string table, or JSON). */
  invalidDdtrace: { status: 400, retryable: false },
  /** A Datadog tracer's request nested deeper, or with longer strings, than the receiver reads. */
  ddtraceLimitExceeded: { status: 413, retryable: false },
} as const satisfies Record<string, { status: number; retryable: boolean }>

export type ErrorCode = keyof typeof ERRORS

/** The only error type Ferry throws on purpose. */
export class FerryError extends Error {
  readonly code: ErrorCode
  readonly status: number
  readonly retryable: boolean
  /** Seconds a client should wait before retrying (503 answers). */
  retryAfter?: number

  constructor(code: ErrorCode, message = '', options?: { cause?: unknown; retryAfter?: number }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause })
    this.name = 'FerryError'
    this.code = code
    this.status = ERRORS[code].status
    this.retryable = ERRORS[code].retryable
    if (options?.retryAfter !== undefined) this.retryAfter = options.retryAfter
  }

  /** The wire form of spec 7: `message` is omitted when empty. */
  toBody(): { error_code: string; message?: string } {
    const body: { error_code: string; message?: string } = { error_code: `agent.${this.code}` }
    if (this.message) body.message = this.message
    return body
  }
}

export function isFerryError(e: unknown): e is FerryError {
  return e instanceof FerryError
}

/** Errors crossing a worker boundary lose their class; this is their plain form. */
export interface ErrorPayload {
  code: ErrorCode
  message: string
}

export function toPayload(e: FerryError): ErrorPayload {
  return { code: e.code, message: e.message }
}

export function fromPayload(p: ErrorPayload): FerryError {
  return new FerryError(p.code, p.message)
}
