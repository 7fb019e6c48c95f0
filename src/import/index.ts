import { sql, type Kysely } from 'kysely'
import type { Database } from '../db/schema.ts'
import { TABLES, type TableName } from '../core/sites/tables.ts'
import {
  COLLECTIONS,
  RecordRefused,
  settleDerivedColumns,
  type Collection,
  type Rec,
  type WriteContext,
} from './collections/index.ts'
import { ImportError, Source, type Answer, type Page } from './source.ts'

export { ImportError } from './source.ts'

/*
 * `belay import`: copies an organization from a server that speaks this API into a new database,
 * keeping every id. Each collection is paged through in order (COLLECTIONS), each page written in
 * one transaction together with the collection's progress (import_progress), so a run stopped
 * anywhere is carried on by the next one from the page after the last one written.
 */

/** Records asked for a page: the API's largest. */
export const PAGE_SIZE = 100

/** What the organization's data holds that is not copied, and why: the closing output says so. */
export const LEFT_OUT: readonly { what: string; why: string }[] = [
  { what: 'staff passwords and PINs', why: 'the API never shows them: an admin sets them again' },
  {
    what: 'gift codes',
    why: 'the API does not say whether a code was redeemed: a copy could be redeemed twice',
  },
  { what: 'webhooks', why: 'a copy would send every check-in to the same receivers a second time' },
  { what: 'kiosk PINs', why: 'the API never shows them' },
  {
    what: "waiver signatures' details",
    why: 'not in the API; the signed document and its PDF are copied',
  },
  {
    what: "check-ins' membership, pass, reservation, host and staff links",
    why: 'not in the API: the check-ins keep their entry method and its description',
  },
  {
    what: "memberships' discount association, refunds' and credits' staff where not shown",
    why: 'not in the API',
  },
  {
    what: 'the members report, metrics, sessions, webhook deliveries, backups, sites',
    why: "worked out from the copied rows, or the box's own",
  },
]

export interface ImportOptions {
  from: string
  token: string
  /** the target database, migrated */
  db: Kysely<Database>
  dbPath: string
  /** a progress line (stderr) */
  progress: (line: string) => void
  /** the wait before the first retry of a failed request */
  firstWaitMs?: number
}

export interface CollectionResult {
  name: string
  state: 'done' | 'missing'
  records: number
}

export interface ImportResult {
  source: string
  organization: string
  resumed: boolean
  collections: CollectionResult[]
}

interface ProgressRow {
  collection: string
  source: string
  state: 'pending' | 'running' | 'done' | 'missing'
  parent_id: string | null
  next_url: string | null
  records: number
  total: number | null
}

const now = () => new Date().toISOString()

export async function importOrganization(options: ImportOptions): Promise<ImportResult> {
  const { db } = options
  const source = new Source(options.from, options.token, { firstWaitMs: options.firstWaitMs })
  const resumed = await claim(db, source.base, options.dbPath)
  if (resumed) options.progress(`carrying on the import from ${source.base}`)

  const context: WriteContext = { source, gymZones: new Map() }

  for (const collection of COLLECTIONS) {
    const row = await progressOf(db, collection.name)
    if (row.state === 'done' || row.state === 'missing') continue
    // Read outside the pages' transactions, which hold the one connection.
    context.gymZones = new Map(
      (await db.selectFrom('gyms').select(['id', 'time_zone']).execute()).map((g) => [g.id, g.time_zone]),
    )
    if (collection.single) await copySingle(db, collection, row, context, options.progress)
    else if (collection.parents) await copyNested(db, collection, row, context, options.progress)
    else await copyList(db, collection, row, context, options.progress)
  }
  await settleDerivedColumns(db)

  const rows = await db
    .selectFrom('import_progress')
    .select(['collection', 'state', 'records'])
    .orderBy('position')
    .execute()
  const organization = await db.selectFrom('organization').select('name').executeTakeFirst()
  return {
    source: source.base,
    organization: organization?.name ?? '',
    resumed,
    collections: rows.map((r) => ({
      name: r.collection,
      state: r.state === 'missing' ? 'missing' : 'done',
      records: r.records,
    })),
  }
}

/**
 * Makes the database this source's import: a new one gets a progress row per collection; one
 * already begun from the same source is carried on (true); anything else is refused.
 */
async function claim(db: Kysely<Database>, source: string, dbPath: string): Promise<boolean> {
  const begun = await db.selectFrom('import_progress').select('source').executeTakeFirst()
  if (begun && begun.source !== source)
    throw new ImportError(
      `${dbPath} holds an import from ${begun.source}, not ${source}: run it again with --from ${begun.source}, or import into a new file`,
    )
  if (!begun) {
    const holding = await tablesWithRows(db)
    if (holding.length > 0)
      throw new ImportError(
        `${dbPath} is not empty (it holds ${holding.slice(0, 3).join(', ')}${holding.length > 3 ? ', ...' : ''}): belay import copies into a new database file`,
      )
  }
  // A collection this belay knows and the first run did not (a newer belay carrying on) is added.
  await db
    .insertInto('import_progress')
    .values(
      COLLECTIONS.map((c, position) => ({
        collection: c.name,
        position,
        source,
        state: 'pending' as const,
        updated_at: now(),
      })),
    )
    .onConflict((oc) => oc.doNothing())
    .execute()
  return begun !== undefined
}

/** The organization's own tables (those sites replicate) that hold a row. */
async function tablesWithRows(db: Kysely<Database>): Promise<string[]> {
  const holding: string[] = []
  for (const [table, declaration] of Object.entries(TABLES) as [TableName, { role: string }][]) {
    if (declaration.role !== 'replicated') continue
    const row = await sql<{ one: number }>`SELECT 1 AS one FROM ${sql.table(table)} LIMIT 1`.execute(db)
    if (row.rows.length > 0) holding.push(table)
  }
  return holding
}

async function progressOf(db: Kysely<Database>, name: string): Promise<ProgressRow> {
  return db
    .selectFrom('import_progress')
    .select(['collection', 'source', 'state', 'parent_id', 'next_url', 'records', 'total'])
    .where('collection', '=', name)
    .executeTakeFirstOrThrow()
}

type ProgressChange = Partial<Pick<ProgressRow, 'state' | 'parent_id' | 'next_url' | 'total'>> & {
  records: number
}

/** One page's rows and the progress that says they are in: one transaction. */
async function writePage(
  db: Kysely<Database>,
  collection: Collection,
  records: Rec[],
  parentId: string | null,
  context: WriteContext,
  change: (written: number) => ProgressChange,
): Promise<number> {
  const prepared = collection.prepare ? await collection.prepare(records, context) : undefined
  try {
    return await writeInTransaction(db, collection, records, parentId, context, prepared, change)
  } catch (error) {
    if (error instanceof RecordRefused)
      throw new ImportError(`${collection.name}: ${error.message}; nothing of its page was written`)
    throw error
  }
}

function writeInTransaction(
  db: Kysely<Database>,
  collection: Collection,
  records: Rec[],
  parentId: string | null,
  context: WriteContext,
  prepared: unknown,
  change: (written: number) => ProgressChange,
): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const written = await collection.write(trx, records, parentId, context, prepared)
    await trx
      .updateTable('import_progress')
      .set({ ...change(written), updated_at: now() })
      .where('collection', '=', collection.name)
      .execute()
    return written
  })
}

const markMissing = (db: Kysely<Database>, name: string) =>
  db
    .updateTable('import_progress')
    .set({ state: 'missing', updated_at: now() })
    .where('collection', '=', name)
    .execute()

const firstPage = (path: string) => `${path}${path.includes('?') ? '&' : '?'}page_size=${PAGE_SIZE}`

async function copySingle(
  db: Kysely<Database>,
  collection: Collection,
  row: ProgressRow,
  context: WriteContext,
  progress: (line: string) => void,
): Promise<void> {
  const answer = await context.source.json<Rec>(collection.path as string)
  if (!answer.found) {
    await markMissing(db, collection.name)
    progress(`${collection.name}: not offered by the source (404)`)
    return
  }
  const written = await writePage(db, collection, [answer.body], null, context, (n) => ({
    state: 'done',
    records: row.records + n,
    total: row.records + n,
  }))
  progress(`${collection.name}: ${row.records + written} / ${row.records + written}`)
}

async function copyList(
  db: Kysely<Database>,
  collection: Collection,
  row: ProgressRow,
  context: WriteContext,
  progress: (line: string) => void,
): Promise<void> {
  let url = row.next_url ?? firstPage(collection.path as string)
  let records = row.records
  let asked = ask(context, url)
  for (;;) {
    const answer = await asked
    if (!answer.found) {
      if (records > 0)
        throw new ImportError(`the source no longer finds ${context.source.resolve(url)} (404)`)
      await markMissing(db, collection.name)
      progress(`${collection.name}: not offered by the source (404)`)
      return
    }
    const page = answer.body
    const next = page.next === null ? null : context.source.resolve(page.next)
    // The next page is asked for while this one is written.
    if (next !== null) asked = ask(context, next)
    records += await writePage(db, collection, page.results, null, context, (n) => ({
      state: next === null ? 'done' : 'running',
      next_url: next,
      records: records + n,
      total: page.count,
    }))
    progress(`${collection.name}: ${records} / ${page.count}`)
    if (next === null) return
    url = next
  }
}

/** A page asked for ahead of its turn: its failure waits for its turn too. */
function ask(context: WriteContext, url: string): Promise<Answer<Page<Rec>>> {
  const answer = context.source.json<Page<Rec>>(url)
  answer.catch(() => {})
  return answer
}

/** How many parents' first pages are asked for ahead of the one being written. */
const PARENTS_AHEAD = 8

async function copyNested(
  db: Kysely<Database>,
  collection: Collection,
  row: ProgressRow,
  context: WriteContext,
  progress: (line: string) => void,
): Promise<void> {
  const parents = await collection.parents!(db)
  const pathOf = collection.path as (parentId: string) => string
  let index = row.parent_id === null ? 0 : Math.max(0, parents.indexOf(row.parent_id))
  let url = row.parent_id !== null && row.next_url !== null ? row.next_url : null
  let records = row.records
  if (parents.length === 0) {
    await db
      .updateTable('import_progress')
      .set({ state: 'done', total: 0, updated_at: now() })
      .where('collection', '=', collection.name)
      .execute()
    return
  }
  // '/api/customers/ID/credits/' -> 'customers'
  const parts = pathOf('#').split('/')
  const parentWord = parts[parts.indexOf('#') - 1]
  const ahead = new Map<number, Promise<Answer<Page<Rec>>>>()
  while (index < parents.length) {
    const parent = parents[index]!
    for (let i = index + 1; i <= index + PARENTS_AHEAD && i < parents.length; i++)
      if (!ahead.has(i)) ahead.set(i, ask(context, firstPage(pathOf(parents[i]!))))
    const answer = await (url !== null
      ? ask(context, url)
      : (ahead.get(index) ?? ask(context, firstPage(pathOf(parent)))))
    ahead.delete(index)
    if (!answer.found) {
      // The first parent's 404 says the source has no such collection; a later one, a parent gone.
      if (records === 0 && index === 0) {
        await markMissing(db, collection.name)
        progress(`${collection.name}: not offered by the source (404)`)
        return
      }
      url = null
      index++
      continue
    }
    const page = answer.body
    const next = page.next === null ? null : context.source.resolve(page.next)
    const following = parents[index + 1]
    // A parent with nothing under it is passed over unrecorded: asked again after a stop, it
    // writes nothing either.
    if (page.results.length > 0 || next !== null)
      records += await writePage(db, collection, page.results, parent, context, (n) => ({
        state: 'running',
        parent_id: next === null ? (following ?? parent) : parent,
        next_url: next,
        records: records + n,
        total: records + n,
      }))
    if (page.results.length > 0 || index === parents.length - 1 || index % 20 === 0)
      progress(`${collection.name}: ${records} (${parentWord} ${index + 1} / ${parents.length})`)
    if (next === null) {
      url = null
      index++
    } else url = next
  }
  await db
    .updateTable('import_progress')
    .set({ state: 'done', total: records, updated_at: now() })
    .where('collection', '=', collection.name)
    .execute()
}
