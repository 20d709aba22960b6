/** Who this agent is: version, commit and host name, shown by /v1/ping and in headers. */
import fs from 'node:fs'
import os from 'node:os'

function packageVersion(): string {
  for (const rel of ['../package.json', '../../package.json']) {
    try {
      const pkg = JSON.parse(fs.readFileSync(new URL(rel, import.meta.url), 'utf8')) as {
        name?: string
        version?: string
      }
      if (pkg.name === 'ferry' && pkg.version) return pkg.version
    } catch {
      // Not at this depth (source tree versus compiled tree); try the next.
    }
  }
  return '0.0.0'
}

export interface Identity {
  version: string
  commit: string
  host: string
  startedAt: number
}

export function identity(hostnameOverride: string): Identity {
  return {
    version: packageVersion(),
    commit: process.env.FERRY_COMMIT ?? 'dev',
    host: hostnameOverride || os.hostname(),
    startedAt: Date.now(),
  }
}
