/**
 * VictoriaMetrics as the peer of `bench:system` and `bench:peers`: the Debian package's single
 * binary on a temp storage dir, fed the same line-protocol bodies on `/write`; what it stored is
 * read from its own `vm_rows_added_to_storage_total` (one row per field: divided by the fields
 * of a point).
 */
import { startGoPeer } from './go-peer.js'

export const VM_BINARY = '/usr/bin/victoria-metrics'

export interface Victoria {
  url: string
  pid: number | undefined
  peakRssMb(): number
  rowsStored(): Promise<number>
  stop(): Promise<void>
}

export async function startVictoria(): Promise<Victoria | null> {
  const peer = await startGoPeer(VM_BINARY, (dir, listen) => [
    `-storageDataPath=${dir}`,
    `-httpListenAddr=${listen}`,
    '-loggerLevel=ERROR',
  ])
  if (!peer) return null
  return {
    url: peer.url,
    pid: peer.pid,
    peakRssMb: peer.peakRssMb,
    async rowsStored() {
      const text = await peer.metrics()
      return Number(/^vm_rows_added_to_storage_total (\d+)/m.exec(text)?.[1] ?? 0)
    },
    stop: peer.stop,
  }
}
