/**
 * A thread for the GeoIP memory figure of bench:rum: it either adopts the main thread's shared
 * database (`workerData.shared`) or loads a copy of its own, then looks up addresses and says
 * so. Its cost shows in the process's RSS.
 */
import { parentPort, workerData } from 'node:worker_threads'
import { IpDb, type SharedGeo } from '../../src/rum/geo/ipdb.js'

const data = workerData as { shared: SharedGeo | null }
const db = data.shared ? IpDb.adopt(data.shared) : IpDb.instance()
if (!data.shared) await db.load()
let found = 0
for (let i = 0; i < 10_000; i++) if (db.lookup(`${(i % 200) + 1}.${i & 255}.7.9`)) found++
parentPort?.postMessage(found)
