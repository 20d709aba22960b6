/** The baseline: a bare node:http server that reads the whole body and answers 200. */
import http from 'node:http'
import { serveOnLoopback } from './serve.js'

const server = http.createServer((req, res) => {
  const chunks: Buffer[] = []
  req.on('data', (c: Buffer) => chunks.push(c))
  req.on('end', () => {
    Buffer.concat(chunks)
    res.end()
  })
})
serveOnLoopback(server)
