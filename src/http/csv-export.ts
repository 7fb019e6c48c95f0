import { Type as t } from '@sinclair/typebox'
import type { StaffUser } from '../db/schema.ts'
import { csvHeader, csvLine, type CsvColumn } from '../lib/csv-write.ts'
import type { Logger } from '../lib/log.ts'
import { permissionDenied } from './errors.ts'
import { allows, type Permission } from './permissions.ts'

/**
 * `?format=csv` on a list: every record the filters select (never a page), as a CSV file the
 * response streams. The records come a chunk at a time, each chunk read (by keyset) only when the
 * client has taken the one before, so an export of the whole check-in history holds one chunk in
 * memory, not the history. Each record is the JSON list's own (the same serializer), written by
 * lib/csv-write.ts.
 */

/** Records read per statement: large enough that a chunk's round trip to the reader is nothing. */
export const CSV_CHUNK_ROWS = 1_000

/**
 * Chunks sent between two full collections of the server's heap. Each chunk leaves its rows, its
 * records, its text and its bytes behind, megabytes of garbage; left to itself, the heap grew by
 * well over a hundred megabytes of it during an export of the whole check-in history before it
 * collected. Collected this often, an export holds the server within a few tens of megabytes of its
 * working size. It costs CPU: over the large demo's check-ins since mid-2025, collecting every four
 * chunks took a fifth more than never, every chunk two thirds more (test/bench/export.ts).
 */
const CHUNKS_BETWEEN_COLLECTIONS = 2

/** Whether the request asks for the CSV file rather than the JSON list. */
export const wantsCsv = (query: Record<string, string | undefined>): boolean => query.format === 'csv'

/** The `format` query parameter as the document shows it. */
export const csvFormatParam = t.Optional(
  t.Literal('csv', {
    description: 'csv: every record the filters select as a CSV file (no pages), instead of the JSON list',
  }),
)

/** 403 unless `user` may export (admins may): checked before the filters, as any permission. */
export function demandExport(user: StaffUser, permission: Permission): void {
  if (!allows(user, permission)) throw permissionDenied()
}

/** The export's rules, for the list operation's description (Markdown). */
export function csvRules(permission?: Permission): string {
  const who = permission
    ? ` It needs \`${permission}\` (organization admins have it), else 403.`
    : ' It needs what the list needs.'
  return [
    '`format=csv` answers `text/csv; charset=utf-8`, a file named after the collection and the',
    'organization\'s today (`Content-Disposition: attachment; filename="<collection>-YYYY-MM-DD.csv"`),',
    "with every record the filters select, in the list's order: never paginated (`page` and",
    `\`page_size\` are ignored), streamed as it is read.${who} The header line is the JSON's field`,
    "names in the JSON's order (a field with fields of its own gives a column each, `field.name`);",
    'each record a line, CRLF-ended, quoted as RFC 4180 quotes (a cell holding a comma, a quote or a',
    'line break is in double quotes, a quote doubled). A value is as the JSON has it (money as',
    'its decimal text, dates ISO, booleans `true`/`false`); null is an empty cell; a list or an',
    'object keyed by data is one cell of compact JSON. A cell beginning with `=`, `+`, `-`, `@`, a',
    "tab or a carriage return starts with `'` so that a spreadsheet never runs it as a formula (a",
    'negative number is written as it is). A record written while the file is read may be in it or',
    "not; none is there twice. A filter with a bad value is the JSON list's 400.",
  ].join(' ')
}

/** The CSV body's schema: its header line, one of `headers` (what the document check reads). */
export function csvBody(...columnSets: ReadonlyArray<readonly CsvColumn[]>) {
  const lines = columnSets.map((columns) => csvHeader(columns).trimEnd())
  const escape = (line: string) => line.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
  return t.String({
    pattern: `^(?:${lines.map(escape).join('|')})\\r\\n`,
    description: `CSV (RFC 4180, UTF-8, CRLF): the header line ${lines
      .map((line) => `\`${line}\``)
      .join(' or ')}, then a line per record`,
  })
}

/** The 200's Content-Disposition header, as the document shows it. */
export const contentDispositionHeader = {
  description: 'With `format=csv`: `attachment; filename="<collection>-YYYY-MM-DD.csv"`',
  schema: t.String(),
}

export interface CsvExport<Record> {
  /** The file name's first part: the collection, e.g. `customers` */
  collection: string
  /** The organization-local day (YYYY-MM-DD), the file name's second part */
  day: string
  columns: readonly CsvColumn[]
  /** The records (as the JSON shows them), a chunk at a time, in the list's order */
  chunks: AsyncIterator<Record[], void, undefined>
  log: Logger
}

/**
 * The streamed CSV response: the header at once, then each chunk's lines as the client takes them.
 * Should reading fail midway, the response ends there, cut short (its status was sent long before):
 * the client sees a broken download, never a truncated file passed off as whole; the cause is logged.
 */
export function csvResponse<Record>(e: CsvExport<Record>): Response {
  const encoder = new TextEncoder()
  let headerSent = false
  let chunksSent = 0
  const body = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (!headerSent) {
          headerSent = true
          controller.enqueue(encoder.encode(csvHeader(e.columns)))
          return
        }
        try {
          const next = await e.chunks.next()
          if (next.done) {
            controller.close()
            return
          }
          let text = ''
          for (const record of next.value) text += csvLine(e.columns, record)
          controller.enqueue(encoder.encode(text))
          if (++chunksSent % CHUNKS_BETWEEN_COLLECTIONS === 0) Bun.gc(true)
        } catch (error) {
          e.log.error('a CSV export failed midway', {
            collection: e.collection,
            error: error instanceof Error ? error.message : String(error),
          })
          controller.error(error)
        }
      },
      async cancel() {
        // The client went away: stop reading (the generator's own finally blocks run).
        await e.chunks.return?.()
      },
    },
    { highWaterMark: 0 },
  )
  return new Response(body, {
    headers: {
      'content-type': 'text/csv; charset=utf-8',
      'content-disposition': `attachment; filename="${e.collection}-${e.day}.csv"`,
    },
  })
}

/** Each chunk of `source` serialized, record by record, as the JSON list does. */
export async function* serializedChunks<Row, Out>(
  source: AsyncIterable<Row[]>,
  serialize: (row: Row) => Out,
): AsyncGenerator<Out[], void, undefined> {
  for await (const rows of source) yield rows.map(serialize)
}
