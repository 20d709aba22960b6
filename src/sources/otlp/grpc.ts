/**
 * OTLP/gRPC receiver (`[otlp] grpc_listen`): the three collector services' `Export` methods,
 * with messages kept as raw protobuf bytes (no generated code: the decode worker reads them as
 * it reads OTLP/HTTP protobuf bodies). A request goes the write's way (decode task, checks,
 * pipeline, `[io]`, the durable buffer) and is answered only after the commit. Errors map to
 * OTLP's gRPC codes: busy or stopping → UNAVAILABLE (retried by exporters), a timeout →
 * DEADLINE_EXCEEDED, anything the client sent wrong → INVALID_ARGUMENT (not retried).
 *
 * Like the reference, a port that cannot be bound is logged and counted, and the rest of the
 * agent runs on; `shutdown` is idempotent and waits for calls in flight (up to 5 s).
 */
import {
  Server,
  ServerCredentials,
  status,
  type ServerUnaryCall,
  type ServiceDefinition,
  type sendUnaryData,
} from '@grpc/grpc-js'
import type { Component } from '../../component.js'
import { FerryError } from '../../errors.js'
import { accept } from '../../ingest/accept.js'
import type { OtlpSignal } from '../../decode/otlp/model.js'
import { exportResponse } from '../../decode/otlp/response.js'
import type { OtlpEvents } from '../../telemetry/otlp-events.js'
import { acceptDeps, type HttpDeps } from '../http/deps.js'
import { OTLP_CATEGORY, otlpTask } from './task.js'

const SERVICES: [OtlpSignal, string][] = [
  ['traces', 'opentelemetry.proto.collector.trace.v1.TraceService'],
  ['metrics', 'opentelemetry.proto.collector.metrics.v1.MetricsService'],
  ['logs', 'opentelemetry.proto.collector.logs.v1.LogsService'],
]

const raw = (b: Buffer) => b

function definition(service: string): ServiceDefinition {
  return {
    Export: {
      path: `/${service}/Export`,
      requestStream: false,
      responseStream: false,
      requestSerialize: raw,
      requestDeserialize: raw,
      responseSerialize: raw,
      responseDeserialize: raw,
    },
  }
}

/** The gRPC status of an agent error, by OTLP's rules for which codes are retried. */
export function grpcCode(e: FerryError): status {
  if (e.status === 429 || e.status === 503) return status.UNAVAILABLE
  if (e.status === 408) return status.DEADLINE_EXCEEDED
  if (e.status >= 400 && e.status < 500) return status.INVALID_ARGUMENT
  return status.INTERNAL
}

function peerIp(peer: string): string {
  const m = /^(?:ipv4:|ipv6:)?\[?([^\]]*?)\]?:\d+$/.exec(peer)
  return m ? m[1] : ''
}

export class OtlpGrpcServer implements Component {
  readonly name = 'otlp-grpc'
  private server: Server | null = null
  private port = 0

  constructor(
    private readonly deps: HttpDeps,
    private readonly events: OtlpEvents,
    private readonly listen: string,
  ) {}

  /** The bound port, 0 when not listening. */
  boundPort(): number {
    return this.port
  }

  async start(): Promise<void> {
    const server = new Server({
      'grpc.max_receive_message_length': this.deps.config.http_api.max_body_size,
    })
    for (const [signal, service] of SERVICES)
      server.addService(definition(service), {
        Export: (call: ServerUnaryCall<Buffer, Buffer>, done: sendUnaryData<Buffer>) =>
          void this.export(signal, call, done),
      })
    try {
      this.port = await new Promise<number>((resolve, reject) =>
        server.bindAsync(this.listen, ServerCredentials.createInsecure(), (err, port) =>
          err ? reject(err) : resolve(port),
        ),
      )
      this.server = server
      this.events.grpcListening(this.listen, this.port)
    } catch (e) {
      this.events.grpcUnavailable(this.listen, e as Error)
    }
  }

  private async export(
    signal: OtlpSignal,
    call: ServerUnaryCall<Buffer, Buffer>,
    done: sendUnaryData<Buffer>,
  ): Promise<void> {
    const category = OTLP_CATEGORY[signal]
    const body = new Uint8Array(call.request.buffer, call.request.byteOffset, call.request.length)
    try {
      this.deps.events.bodyReceived(category, body.length)
      const task = otlpTask(this.deps, {
        signal,
        body,
        contentType: 'application/x-protobuf',
        encoding: '',
        remoteIp: peerIp(call.getPeer()),
      })
      const out = await accept(acceptDeps(this.deps), task, {
        input: 'opentelemetry',
        abandoned: () => call.cancelled,
      })
      this.deps.events.writeAccepted({
        category,
        input: 'opentelemetry',
        points: out.points,
        warnings: out.warnings,
        dry: false,
      })
      this.events.exported(signal, out.points, out.otlp)
      const answer = exportResponse(
        signal,
        'protobuf',
        out.otlp?.rejected ?? 0,
        out.otlp?.reason ?? '',
      )
      done(null, Buffer.from(answer.body as Uint8Array))
    } catch (e) {
      const err = e instanceof FerryError ? e : new FerryError('internalError', String(e))
      this.deps.events.writeRejected(category, 'opentelemetry', err)
      done({ code: grpcCode(err), details: `agent.${err.code}: ${err.message}` })
    }
  }

  async shutdown(): Promise<void> {
    const server = this.server
    this.server = null
    this.port = 0
    if (!server) return
    await new Promise<void>((resolve) => {
      const force = setTimeout(() => {
        server.forceShutdown()
        resolve()
      }, 5_000)
      server.tryShutdown(() => {
        clearTimeout(force)
        resolve()
      })
    })
  }
}
