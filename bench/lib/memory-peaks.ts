/**
 * Where a benchmarked process's resident memory is, sampled every 250 ms while it runs: the
 * peak of its anonymous part (V8 heaps, native buffers, DuckDB's buffer manager) and the peak of
 * the disk buffer's LMDB pages resident, beside the LMDB file's size at that moment. The two
 * differ in kind: anonymous memory is the process's own, LMDB's pages are clean page cache
 * mapped into it (counted in its RSS, reclaimed by the kernel under memory pressure).
 *
 * Sampling reads /proc/<pid>/status and /proc/<pid>/smaps; a process that has exited keeps the
 * peaks seen so far. A process without an LMDB file (a peer) reports 0 for it.
 */
import { anonRssOf, mappedRssOf } from './go-peer.js'

export interface MemoryPeaks {
  /** Peak RssAnon, in MB. */
  anonMb: number
  /** Peak resident pages of the mapped `data.mdb`, in MB. */
  lmdbMb: number
  /** The LMDB file's size when its resident pages peaked, in MB. */
  lmdbFileMb: number
}

const STEP_MS = 250

export function sampleMemory(pid: number | undefined): { stop(): MemoryPeaks } {
  const peaks: MemoryPeaks = { anonMb: 0, lmdbMb: 0, lmdbFileMb: 0 }
  const take = () => {
    try {
      peaks.anonMb = Math.max(peaks.anonMb, anonRssOf(pid))
      const [lmdb, file] = mappedRssOf(pid, '/data.mdb')
      if (lmdb >= peaks.lmdbMb) Object.assign(peaks, { lmdbMb: lmdb, lmdbFileMb: file })
    } catch {
      // The process has exited (or the file was just removed): keep the peaks seen so far.
    }
  }
  const timer = setInterval(take, STEP_MS)
  let stopped = false
  return {
    stop: () => {
      if (!stopped) take()
      stopped = true
      clearInterval(timer)
      return { ...peaks }
    },
  }
}

/** `anonymous A MB, LMDB pages resident L MB of an F MB file` for a row's line. */
export function memoryText(m: MemoryPeaks): string {
  return `anonymous ${m.anonMb.toFixed(0)} MB, LMDB pages resident ${m.lmdbMb.toFixed(0)} MB of a ${m.lmdbFileMb.toFixed(0)} MB file`
}
