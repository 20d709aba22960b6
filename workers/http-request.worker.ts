/**
 * Helper thread of a decode worker for http_request: receives calls and answers each in its
 * shared reply buffer while the decode worker waits (pipeline/http/). Imports only that code.
 */
import { parentPort } from 'node:worker_threads'
import { runCall } from '../src/pipeline/http/fetch-call.js'
import type { HttpCall } from '../src/pipeline/http/reply.js'

parentPort?.on('message', (c: HttpCall) => void runCall(c))
