import { beforeAll, describe, expect, test } from 'bun:test'
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { useTestApp } from '../helpers/seeded.ts'

/**
 * The README's "Endpoints" tables against the served OpenAPI document, so the overview a gym owner
 * or an integrator reads cannot drift from what is served: every path has its row, every row names a
 * path that is served, with the same methods, and "public" only where no token is asked for.
 */

const README = readFileSync(resolve(import.meta.dir, '../../README.md'), 'utf8')

/** The docs page and the document itself: served beside the API, not described in the document. */
const DOCS_PAGES = ['/swagger', '/swagger/json']

interface Row {
  path: string
  methods: string[]
  who: string
}

/** The rows of every table in the README's "## Endpoints" section whose first cell is a `/path`. */
function endpointRows(readme: string): Row[] {
  const start = readme.indexOf('\n## Endpoints\n')
  if (start < 0) throw new Error('README.md has no "## Endpoints" section')
  const end = readme.indexOf('\n## ', start + 1)
  const section = readme.slice(start, end < 0 ? undefined : end)
  return section
    .split('\n')
    .filter((line) => line.startsWith('| `/'))
    .map((line) => {
      const [path, methods, who] = line
        .split('|')
        .slice(1, 4)
        .map((cell) => cell.trim())
      return { path: path!.replaceAll('`', ''), methods: methods!.split(/\s+/), who: who! }
    })
}

/** Each path's methods in one spelling (`GET POST`), whatever order they are listed in. */
const methodList = (methods: string[]) =>
  methods
    .map((m) => m.toUpperCase())
    .sort()
    .join(' ')

/**
 * Each path of the document with its methods, but OPTIONS: every /api/ path answers it, as the
 * README says once above the tables rather than on every row.
 */
const methodsByPath = (doc: any): Record<string, string> =>
  Object.fromEntries(
    Object.entries(doc.paths as Record<string, object>).map(([path, operations]) => [
      path,
      methodList(Object.keys(operations).filter((method) => method !== 'options')),
    ]),
  )

const t = useTestApp({ once: true })
let doc: any
const rows = endpointRows(README)

beforeAll(async () => {
  const res = await t.request('GET', '/swagger/json')
  expect(res.status).toBe(200)
  doc = res.body
})

describe('README endpoints overview', () => {
  test('every path the document serves has a row', () => {
    const listed = new Set(rows.map((r) => r.path))
    expect(Object.keys(doc.paths).filter((path) => !listed.has(path))).toEqual([])
  })

  test('every row names a path that is served', () => {
    const served = new Set([...Object.keys(doc.paths), ...DOCS_PAGES])
    expect(rows.map((r) => r.path).filter((path) => !served.has(path))).toEqual([])
  })

  test('each path has one row', () => {
    const paths = rows.map((r) => r.path)
    expect(paths.filter((path, i) => paths.indexOf(path) !== i)).toEqual([])
  })

  test("each row lists its path's methods", () => {
    const documented = methodsByPath(doc)
    const listed = Object.fromEntries(
      rows.filter((r) => documented[r.path] !== undefined).map((r) => [r.path, methodList(r.methods)]),
    )
    expect(listed).toEqual(documented)
  })

  test('"public" marks exactly the operations that ask for no token', () => {
    const publicInDoc = Object.entries(doc.paths as Record<string, Record<string, any>>)
      .filter(([, operations]) => Object.values(operations).every((o) => o.security?.length === 0))
      .map(([path]) => path)
    const publicRows = rows.filter((r) => r.who === 'public').map((r) => r.path)
    expect(publicRows.sort()).toEqual([...publicInDoc, ...DOCS_PAGES].sort())
  })

  test('the docs page and the document answer without a token', async () => {
    for (const path of DOCS_PAGES) {
      const res = await t.request('GET', path)
      expect({ path, status: res.status }).toEqual({ path, status: 200 })
    }
  })
})
