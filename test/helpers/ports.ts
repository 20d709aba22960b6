/**
 * Free loopback ports for the servers tests start as child processes. Ports picked one after
 * another by binding port 0 and closing it can repeat; `freePorts` holds all of them open
 * together, so the ports of one server (or of servers started together) are always distinct.
 */
import net from 'node:net'

export async function freePort(): Promise<number> {
  return (await freePorts(1))[0]
}

/**
 * `n` distinct free ports: all are held open together before any is closed, so the system
 * cannot hand the same port out twice (one after another, it may: a server given the same port
 * for two of its listeners fails its start with "Address already in use").
 */
export async function freePorts(n: number): Promise<number[]> {
  const servers = Array.from({ length: n }, () => net.createServer())
  await Promise.all(servers.map((s) => new Promise<void>((r) => s.listen(0, '127.0.0.1', r))))
  const ports = servers.map((s) => (s.address() as net.AddressInfo).port)
  await Promise.all(servers.map((s) => new Promise((r) => s.close(r))))
  return ports
}
