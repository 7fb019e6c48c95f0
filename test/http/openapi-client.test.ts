import { expect, test } from 'bun:test'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import openapiTS, { astToString } from 'openapi-typescript'
import ts from 'typescript'
import { useTestApp } from '../helpers/seeded.ts'

/*
 * A client generated from the served document, as an integrator would make one (openapi-typescript
 * for the types, openapi-fetch for the calls), must type-check the calls the API takes: the door's
 * open-door check-in without a body, a list with typed filters. The calls it refuses are marked
 * @ts-expect-error, so that a document that allowed them would fail here too.
 */

const t = useTestApp({ once: true })

const client = `
import createClient from 'openapi-fetch'
import type { paths } from './api'

// JSON's media types only: the exported lists also answer text/csv (format=csv), which a client
// that reads JSON leaves out of its types, as openapi-fetch's second parameter allows.
const client = createClient<paths, \`\${string}/json\`>({ baseUrl: 'http://belay.local' })
const headers = { Authorization: 'Token 0123' }

/** What a door controller does: POST the scanned barcode, no body; 200 opens the door. */
export async function openDoor(barcode: string): Promise<boolean> {
  const { response } = await client.POST('/api/gym-endpoints/open-door-check-in/{barcode}/', {
    params: { path: { barcode } },
    headers,
  })
  return response.status === 200
}

export async function openDoorAt(barcode: string, location_id: number) {
  await client.POST('/api/gym-endpoints/open-door-check-in/{barcode}/', {
    params: { path: { barcode } },
    body: { location_id },
  })
  // @ts-expect-error: a location is an integer id
  await client.POST('/api/gym-endpoints/open-door-check-in/{barcode}/', { params: { path: { barcode } }, body: { location_id: 'x' } })
}

export async function checkedOutToday(customer_id: number): Promise<number | undefined> {
  const { data } = await client.GET('/api/check-ins/', {
    params: { query: { customer_id, has_checked_out: true, this_calendar_day: true, page: 'last', page_size: 100 } },
  })
  const count: number | undefined = data?.count
  const first: number | undefined = data?.results[0]?.id
  return count ?? first
}

export async function gymById(id: number) {
  const { data } = await client.GET('/api/gyms/{id}/', { params: { path: { id } } })
  const name: string | undefined = data?.name
  // @ts-expect-error: a gym id is an integer, not the text a URL carries
  await client.GET('/api/gyms/{id}/', { params: { path: { id: String(id) } } })
  return name
}

export async function gymWithoutBody() {
  // @ts-expect-error: creating a gym needs its body
  await client.POST('/api/gyms/', {})
}
`

test('a typed client generated from the document calls the door without a body, and type-checks', async () => {
  const document = (await t.request('GET', '/swagger/json')).body
  const dir = mkdtempSync(join(tmpdir(), 'belay-openapi-client-'))
  try {
    writeFileSync(join(dir, 'api.d.ts'), astToString(await openapiTS(document)))
    writeFileSync(join(dir, 'client.ts'), client)
    const program = ts.createProgram([join(dir, 'client.ts')], {
      strict: true,
      noEmit: true,
      skipLibCheck: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.ESNext,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'],
      types: [],
      // The temporary folder has no node_modules: openapi-fetch is this project's.
      paths: { 'openapi-fetch': [dirname(require.resolve('openapi-fetch/package.json'))] },
    })
    const problems = ts
      .getPreEmitDiagnostics(program)
      .map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'))
    expect(problems).toEqual([])
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}, 60_000)
