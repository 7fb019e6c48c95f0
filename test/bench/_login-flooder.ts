/**
 * The login flood of login-flood.ts, in a process of its own so that its clients do not delay the
 * door controller's own event loop (which would be charged to the door):
 *
 *   bun run _login-flooder.ts BASE CLIENTS SECONDS one-address|new-address
 *
 * Each client posts get-token with a random username as soon as it is answered; at the end one JSON
 * line on stdout: answers by status, errors, the first error.
 */
import http from 'node:http'

const [base, clients, seconds, mode] = process.argv.slice(2) as [string, string, string, string]

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))
const loginBody = () =>
  JSON.stringify({ username: `${crypto.randomUUID()}@flood.example`, password: 'not the password' })

/** One get-token from 127.0.0.1 (fetch, kept-alive connections). */
async function loginFromOneAddress(): Promise<string> {
  const res = await fetch(`${base}/api/get-token/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: loginBody(),
    signal: AbortSignal.timeout(30_000),
  })
  await res.arrayBuffer()
  return String(res.status)
}

/** One get-token from a random loopback address (127.x.y.z), on its own connection. */
function loginFromNewAddress(): Promise<string> {
  const url = new URL(base)
  const octet = () => 1 + Math.floor(Math.random() * 254)
  const body = loginBody()
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: url.hostname,
        port: Number(url.port),
        path: '/api/get-token/',
        method: 'POST',
        localAddress: `127.${octet()}.${octet()}.${octet()}`,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
        agent: false,
        timeout: 30_000,
      },
      (res) => {
        res.on('data', () => {})
        res.on('end', () => resolve(String(res.statusCode)))
      },
    )
    req.on('error', reject)
    req.on('timeout', () => req.destroy(new Error('timeout')))
    req.end(body)
  })
}

const login = mode === 'new-address' ? loginFromNewAddress : loginFromOneAddress
const answers: Record<string, number> = {}
let errors = 0
let firstError = ''
const deadline = performance.now() + Number(seconds) * 1000
await Promise.all(
  Array.from({ length: Number(clients) }, async () => {
    while (performance.now() < deadline) {
      try {
        const status = await login()
        answers[status] = (answers[status] ?? 0) + 1
      } catch (error) {
        errors++
        firstError ||= error instanceof Error ? error.message : String(error)
        await sleep(10)
      }
    }
  }),
)
console.log(JSON.stringify({ answers, errors, firstError }))
