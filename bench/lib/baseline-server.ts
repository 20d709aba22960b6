/** The baseline: a bare node:http server that reads the whole body and answers 200. */
import http from 'node:http'
import type { AddressInfo } from 'node:net'

const server = http.createServer((req, res) => {
  const chunks: Buffer[] = []
  req.on('data', (c: Buffer) => chunks.push(c))
  req.on('end', () => {
    Buffer.concat(chunks)
    res.end()
  })
})
server.keepAliveTimeout = 65_000
server.listen(0, '127.0.0.1', () => {
  const a = server.address() as AddressInfo
  console.log(`listening ${a.address}:${a.port}`)
})
process.on('SIGTERM', () => server.close(() => process.exit(0)))
