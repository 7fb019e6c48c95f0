import { describe, expect, test } from 'bun:test'
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative, resolve, dirname } from 'node:path'

/**
 * The layout's import rules (src/README.md, "Who may import what"), read from the sources themselves: a room imports
 * only the rooms below it, so data flows one way and each concept has one home.
 *
 * | Room            | May import                                                       |
 * | api/<r>/        | http/, core/, domain/, db/, lib/; another resource's queries.ts,  |
 * |                 | schema.ts and serializer.ts (never its rules, actions or routes); |
 * |                 | api/customer-records/ (what every collection under a customer     |
 * |                 | shares) and api/sellable-products/ (the price, tax rate and       |
 * |                 | revenue account rule every product type keeps): shared rooms      |
 * |                 | without routes; api/index.ts alone imports routes                 |
 * | core/<e>/       | domain/, db/, lib/, another engine; never api/, http/, elysia,   |
 * |                 | even by type, nor deps.ts (the API's whole bag, which names      |
 * |                 | http/): an engine takes the few things it uses                   |
 * | core/metrics/   | its derived tables (tables/) never import a metric definition:   |
 * | tables/         | the definitions read the tables, not the other way round          |
 * | domain/         | lib/, kysely and luxon; the table types (type-only) for the       |
 * |                 | expressions it defines over them                                  |
 * | http/           | domain/, db/, lib/, core/auth/ (the token guard)                  |
 * | db/             | lib/, migrations/ (the migrator applies them)                     |
 * | lib/            | nothing of the project                                            |
 * | config.ts       | lib/, db/, domain/: a setting's default is the domain's, never an |
 * |                 | engine's                                                          |
 * | demo/           | domain/, db/, lib/, core/; a resource's queries.ts; worker-urls.ts |
 * | import/         | core/, domain/, db/, lib/: `belay import` speaks to the source     |
 * |                 | over HTTP with fetch, never through the API's code                |
 * | migrations/     | kysely, each other                                                |
 * | web/            | preact, uplot (its charts) and itself only: the browser's code    |
 * |                 | knows the server by its API's JSON; nothing on the server imports |
 * |                 | it                                                                |
 */
const ROOT = resolve(import.meta.dir, '../..')

export interface ImportOf {
  /** the importing file, relative to the repository root */
  file: string
  /** what it names: a repository-relative path for a relative import, else the package name */
  target: string
  typeOnly: boolean
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) return sourceFiles(path)
    return name.endsWith('.ts') || name.endsWith('.tsx') ? [path] : []
  })
}

const IMPORT =
  /^\s*(import|export)\s+(type\s+)?[^'"]*?from\s+['"]([^'"]+)['"]|^\s*import\s+['"]([^'"]+)['"]|\bimport\(\s*['"]([^'"]+)['"]\s*\)/gm

/** Every import and re-export of the files below `dirs`, as text (what a reader sees). */
export function importsOf(dirs: string[], root = ROOT): ImportOf[] {
  return dirs.flatMap((dir) =>
    sourceFiles(join(root, dir)).flatMap((path) => {
      const text = readFileSync(path, 'utf8')
      const file = relative(root, path)
      return [...text.matchAll(IMPORT)].map((m) => {
        const spec = (m[3] ?? m[4] ?? m[5])!
        const target = spec.startsWith('.') ? relative(root, resolve(dirname(path), spec)) : spec
        return { file, target, typeOnly: m[2] !== undefined }
      })
    }),
  )
}

/** The room of a repository path: 'api/customers', 'core/door', 'domain', 'http', 'main.ts', ... */
export function roomOf(path: string): string {
  const parts = path.split('/')
  if (parts[0] === 'migrations') return 'migrations'
  if (parts[0] !== 'src') return parts[0]!
  if ((parts[1] === 'api' || parts[1] === 'core') && parts.length > 3) return `${parts[1]}/${parts[2]}`
  return parts[1] === 'api' ? 'api/index.ts' : parts[1]!
}

const PACKAGES_OF_THE_WEB_LAYER = ['elysia', '@elysiajs/openapi', '@sinclair/typebox']
const isPackage = (target: string) => !target.startsWith('src/') && !target.startsWith('migrations/')
const pkgName = (target: string) =>
  target.startsWith('@') ? target.split('/').slice(0, 2).join('/') : target.split('/')[0]!

/** What the page is built with: its components, and its dashboard's charts. */
const PAGE_LIBRARIES = ['preact', 'uplot']

const kindOf = (room: string) => room.split('/')[0]!

/** Rooms under api/ that are no resource: what several resources share, imported whole. */
const SHARED_API_ROOMS = ['api/customer-records', 'api/sellable-products']

/** Why an import breaks the rules, or null when it keeps them. */
export function breach({ file, target, typeOnly }: ImportOf): string | null {
  const from = roomOf(file)
  if (from === 'migrations') {
    if (isPackage(target)) return pkgName(target) === 'kysely' ? null : 'a migration imports only kysely'
    return roomOf(target) === 'migrations' ? null : 'a migration never imports src/'
  }
  if (from === 'web') {
    if (isPackage(target))
      return PAGE_LIBRARIES.includes(pkgName(target))
        ? null
        : `web imports ${target}: the page's libraries are ${PAGE_LIBRARIES.join(' and ')}`
    return roomOf(target) === 'web'
      ? null
      : `web imports ${target}: the page knows the server only by its API`
  }
  if (!isPackage(target) && roomOf(target) === 'web')
    return `${from} imports ${target}: the server never runs the page's code`
  if (isPackage(target)) {
    const web = PACKAGES_OF_THE_WEB_LAYER.includes(pkgName(target))
    if (!web)
      return from !== 'domain' || ['kysely', 'luxon'].includes(pkgName(target)) || target.startsWith('node:')
        ? null
        : `domain imports ${target}`
    if (from.startsWith('api/') || from === 'http' || (!from.includes('/') && from.endsWith('.ts')))
      return null
    return `${from} never imports ${pkgName(target)}: only http/ and api/ speak HTTP`
  }
  const to = roomOf(target)
  if (from === 'config.ts' && kindOf(to) === 'core')
    return `config.ts imports ${target}: an engine's constant`
  if (to === from && !(from === 'core/metrics' && file.startsWith('src/core/metrics/tables/'))) return null
  const [fromKind] = from.split('/')
  const [toKind] = to.split('/')
  switch (fromKind) {
    case 'api':
      if (toKind === 'api') {
        // A resource with more than one routes file names each <part>-routes.ts.
        if (from === 'api/index.ts')
          return /\/([a-z]+-)*routes\.ts$/.test(target) ? null : `api/index.ts imports ${target}`
        if (SHARED_API_ROOMS.includes(to) && !target.endsWith('/routes.ts')) return null
        return /\/(queries|schema|serializer)\.ts$/.test(target)
          ? null
          : `${from} imports ${target}: another resource's rules, actions and routes are its own`
      }
      return ['http', 'core', 'domain', 'db', 'lib'].includes(toKind!) || to === 'deps.ts'
        ? null
        : `${from} imports ${to}`
    case 'core':
      if (to === 'deps.ts') return `${from} imports deps.ts: an engine takes the few things it uses`
      if (from === 'core/metrics' && file.startsWith('src/core/metrics/tables/')) {
        if (target.startsWith('src/core/metrics/') && !target.startsWith('src/core/metrics/tables/'))
          return `${file} imports ${target}: the derived tables never import a metric definition`
      }
      return ['core', 'domain', 'db', 'lib'].includes(toKind!) ? null : `${from} imports ${to}`
    case 'domain':
      if (toKind === 'lib') return null
      if (typeOnly && (target.startsWith('src/db/tables/') || target === 'src/db/schema.ts')) return null
      return `domain imports ${to}`
    case 'http':
      if (['domain', 'db', 'lib'].includes(toKind!) || to === 'core/auth' || to === 'deps.ts') return null
      return `http imports ${to}`
    case 'db':
      return toKind === 'lib' || toKind === 'migrations' || to === 'worker-urls.ts'
        ? null
        : `db imports ${to}`
    case 'lib':
      return `lib imports ${to}`
    case 'demo':
      if (toKind === 'api' && target.endsWith('/queries.ts')) return null
      return ['core', 'domain', 'db', 'lib'].includes(toKind!) || to === 'worker-urls.ts'
        ? null
        : `demo imports ${to}`
    case 'import':
      return ['core', 'domain', 'db', 'lib'].includes(toKind!) ? null : `import imports ${to}`
    default:
      return null // the top level (main.ts, app.ts, serve.ts, config.ts, deps.ts) composes the rest
  }
}

describe('import rules', () => {
  test('no file in src/ or migrations/ breaks them', () => {
    const breaches = importsOf(['src', 'migrations']).flatMap((i) => {
      const why = breach(i)
      return why ? [`${i.file}: ${why}`] : []
    })
    expect(breaches).toEqual([])
  })

  test.each([
    ['a core engine importing a resource', 'src/core/door/record.ts', 'src/api/customers/queries.ts', false],
    [
      'a core engine importing the DRF layer',
      'src/core/reports/members-report.ts',
      'src/http/errors.ts',
      false,
    ],
    ['a core engine importing elysia', 'src/core/door/record.ts', 'elysia', false],
    ['a core engine naming an http/ type', 'src/core/reports/members-report.ts', 'src/http/errors.ts', true],
    [
      'a core engine naming an api/ type',
      'src/core/sales/post-invoice.ts',
      'src/api/invoices/schema.ts',
      true,
    ],
    ["a core engine taking the API's whole bag", 'src/core/door/record.ts', 'src/deps.ts', true],
    [
      'the derived tables importing a metric definition',
      'src/core/metrics/tables/check-in-catch-up.ts',
      'src/core/metrics/check-in-count.ts',
      false,
    ],
    ['config.ts importing an engine', 'src/config.ts', 'src/core/webhooks/queries.ts', false],
    ["a resource importing another's rules", 'src/api/customers/rules.ts', 'src/api/gyms/rules.ts', false],
    ["a resource importing another's routes", 'src/api/customers/routes.ts', 'src/api/gyms/routes.ts', false],
    ['domain importing db at run time', 'src/domain/waiver.ts', 'src/db/tables/customers.ts', false],
    ['domain importing http', 'src/domain/access-hours.ts', 'src/http/errors.ts', true],
    ['lib importing db', 'src/lib/clock.ts', 'src/db/connection.ts', false],
    ['db importing core', 'src/db/reader.ts', 'src/core/door/queries.ts', false],
    ['a migration importing src', 'migrations/0005_x.ts', 'src/db/schema.ts', false],
    ['the page importing a resource', 'src/web/screens/today/today.tsx', 'src/api/check-ins/schema.ts', true],
    ['the page importing the domain', 'src/web/types.ts', 'src/domain/statuses.ts', true],
    ['the page importing elysia', 'src/web/api.ts', 'elysia', false],
    ['a resource importing the page', 'src/api/desk/routes.ts', 'src/web/types.ts', false],
  ])('%s is a breach', (_, file, target, typeOnly) => {
    expect(breach({ file, target, typeOnly })).not.toBeNull()
  })

  test.each([
    [
      "a resource looking another's record up",
      'src/api/customers/rules.ts',
      'src/api/gyms/queries.ts',
      false,
    ],
    ['a resource calling an engine', 'src/api/door/routes.ts', 'src/core/door/record.ts', false],
    [
      'a product type keeping the sellable product rule',
      'src/api/events/rules.ts',
      'src/api/sellable-products/rules.ts',
      false,
    ],
    ['an engine calling another', 'src/core/door/record.ts', 'src/core/webhooks/outbox.ts', false],
    [
      'a metric reading its derived tables',
      'src/core/metrics/check-in-count.ts',
      'src/core/metrics/tables/check-in-day-counts.ts',
      false,
    ],
    ['config.ts taking a default from the domain', 'src/config.ts', 'src/domain/webhooks.ts', false],
    ['domain naming a table type', 'src/domain/waiver.ts', 'src/db/tables/customers.ts', true],
    ['the page using its hooks', 'src/web/screens/today/today.tsx', 'preact/hooks', false],
    ['the page importing its styles', 'src/web/main.tsx', 'src/web/desk.css', false],
    ['the page drawing a chart', 'src/web/screens/dashboard/chart.ts', 'uplot', false],
  ])('%s is allowed', (_, file, target, typeOnly) => {
    expect(breach({ file, target, typeOnly })).toBeNull()
  })

  test('nothing an engine reaches, however indirectly, is in http/ or api/', () => {
    const graph = importGraph(importsOf(['src']))
    const reached = new Set<string>()
    const queue = [...graph.keys()].filter((file) => file.startsWith('src/core/'))
    while (queue.length > 0) {
      const file = queue.pop()!
      for (const next of graph.get(file) ?? []) {
        if (reached.has(next)) continue
        reached.add(next)
        queue.push(next)
      }
    }
    const wrong = [...reached].filter(
      (file) =>
        ['http', 'api/index.ts'].includes(roomOf(file)) ||
        file.startsWith('src/api/') ||
        file === 'src/deps.ts',
    )
    expect(wrong).toEqual([])
  })
})

/** Each source file and the source files it imports (packages left out). */
function importGraph(imports: ImportOf[]): Map<string, string[]> {
  const graph = new Map<string, string[]>()
  for (const { file, target } of imports) {
    if (isPackage(target)) continue
    const list = graph.get(file) ?? []
    list.push(target)
    graph.set(file, list)
  }
  return graph
}

/** Every circle of imports, each as the files around it, the first repeated last. */
export function importCircles(graph: Map<string, string[]>): string[][] {
  const circles: string[][] = []
  const state = new Map<string, 'open' | 'done'>()
  const path: string[] = []
  const visit = (file: string) => {
    state.set(file, 'open')
    path.push(file)
    for (const next of graph.get(file) ?? []) {
      if (state.get(next) === 'open') circles.push([...path.slice(path.indexOf(next)), next])
      else if (!state.has(next)) visit(next)
    }
    path.pop()
    state.set(file, 'done')
  }
  for (const file of [...graph.keys()].sort()) if (!state.has(file)) visit(file)
  return circles
}

describe('import circles', () => {
  test('no file in src/ imports itself through others', () => {
    expect(importCircles(importGraph(importsOf(['src'])))).toEqual([])
  })

  test('a circle is found', () => {
    const graph = new Map([
      ['a.ts', ['b.ts']],
      ['b.ts', ['c.ts']],
      ['c.ts', ['a.ts']],
    ])
    expect(importCircles(graph)).toEqual([['a.ts', 'b.ts', 'c.ts', 'a.ts']])
  })
})
