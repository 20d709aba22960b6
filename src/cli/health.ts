/**
 * `ferry health [--config PATH] [--url URL]`: asks the running agent's `GET /v1/ping` on the
 * listen address of the config the agent itself reads (so a container's ENV_HTTP_LISTEN is
 * followed) and exits 0 when it answers 2xx, else 1, printing one line either way. Docker's
 * HEALTHCHECK and the Kubernetes probes run it. Every failure, a bad config included, is 1:
 * Docker reserves exit code 2 for health checks.
 */
import http from 'node:http'
import https from 'node:https'
import { loadConfig } from '../config/load.js'
import { agentUrl } from '../monitor/cli.js'
import type { Args } from './args.js'

export const HEALTH_USAGE = `  health [--url URL]       exit 0 when the agent answers /v1/ping, else 1 (default URL from
                           [http_api] listen; used by the Docker HEALTHCHECK and probes)`

const TIMEOUT_MS = 3000

/** The ping URL: `--url` (the agent's address; /v1/ping unless it names a path), else config. */
export function healthUrl(args: Args): string {
  const given = args.flags.url
  if (typeof given !== 'string') {
    const { config } = loadConfig(args.config)
    return `${agentUrl(config.http_api.listen, Boolean(config['http_api.tls'].cert))}/v1/ping`
  }
  const url = new URL(given)
  if (url.pathname === '/') url.pathname = '/v1/ping'
  return url.toString()
}

/** One GET; resolves with the status, rejects on a network error or the timeout. */
export function ping(url: string, timeoutMs = TIMEOUT_MS): Promise<number> {
  return new Promise((resolve, reject) => {
    const get = url.startsWith('https:') ? https.get : http.get
    // Liveness, not identity: the agent's own (often self-signed) certificate is not checked.
    const req = get(url, { timeout: timeoutMs, rejectUnauthorized: false, agent: false }, (res) => {
      res.resume()
      resolve(res.statusCode ?? 0)
    })
    req.on('timeout', () => req.destroy(new Error(`no answer within ${timeoutMs}ms`)))
    req.on('error', reject)
  })
}

/** Prints one line and sets the exit code; never throws. */
export async function health(args: Args): Promise<void> {
  let url = ''
  try {
    url = healthUrl(args)
    const status = await ping(url)
    if (status >= 200 && status < 300) return void console.log(`healthy: ${url} answered ${status}`)
    console.error(`ferry: unhealthy: ${url} answered ${status}`)
  } catch (e) {
    console.error(`ferry: unhealthy: ${url ? `${url}: ` : ''}${(e as Error).message}`)
  }
  process.exitCode = 1
}
