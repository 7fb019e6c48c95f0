import { Elysia, t } from 'elysia'
import { importCustomers, knownHeaders, MAX_ROWS_LISTED } from './import-rules.ts'
import type { Deps } from '../../deps.ts'
import { authenticated } from '../../http/auth.ts'
import { MAX_UPLOAD_BYTES, UnreadableBody } from '../../http/body.ts'
import { docs, FieldErrors, named, paragraphs } from '../../http/docs.ts'
import { ValidationError } from '../../http/errors.ts'
import { filterQuery, readFilters } from '../../http/filters.ts'
import { requires, whoMay } from '../../http/permissions.ts'

const PATH = '/api/customers/import'

/** The paths whose POST may be multipart/form-data, or text/csv (app.ts hands these to the body parser). */
export const CUSTOMER_IMPORT_PATHS = [/^\/api\/customers\/import\/$/]

const QUERY = { dry_run: { kind: 'bool', description: 'true: check the file, write nothing (200)' } } as const

const MiB = MAX_UPLOAD_BYTES / (1024 * 1024)

const ImportResult = t.Object({
  created: t.Integer({
    minimum: 0,
    description: 'The customers created; on a dry run, the customers the file would create',
  }),
  ignored_columns: t.Array(t.String(), {
    description: "The header's columns that name no customer field, as written: their values were not read",
  }),
})

const RowErrors = t.Object(
  {
    rows: t.Array(
      t.Object({
        row: t.Integer({ minimum: 2, description: "The row's number in the file; the header is row 1" }),
        errors: FieldErrors,
      }),
      {
        description: `The first ${MAX_ROWS_LISTED} rows with errors, in file order, each with all its errors`,
      },
    ),
    more_rows_with_errors: t.Optional(
      t.Integer({
        minimum: 1,
        description: `Rows with errors after the first ${MAX_ROWS_LISTED}, not listed`,
      }),
    ),
  },
  { description: 'Rows with errors: the whole file is refused, nothing was written' },
)

const ColumnErrors = t.Object(
  {
    columns: t.Record(t.String(), t.Array(t.String()), {
      description: 'By field: a required column missing, or a field given by two columns',
    }),
  },
  { description: "The header's columns do not fit: nothing was read further" },
)

const headerList = knownHeaders()
  .map(([field, others]) => (others.length > 0 ? `\`${field}\` (${others.join(', ')})` : `\`${field}\``))
  .join(', ')

const importDocs = docs({
  tag: 'Customers',
  summary: 'Import customers from a spreadsheet (CSV)',
  description: whoMay(
    'can_manage_members',
    paragraphs(
      [
        'The file is CSV, UTF-8 (a byte order mark is dropped), sent as the file part `file` of a',
        '`multipart/form-data` body or as the whole `text/csv` body, at most',
        `${MiB} MiB (a larger one is 413: split it). Fields are separated by commas, or by semicolons`,
        'when the header holds more of those; rows end in CRLF or LF; a field in double quotes may hold',
        'separators, line breaks and doubled quotes.',
      ],
      [
        'The first row is the header: each column is the customer field it names, compared in any case',
        `and ignoring spaces, underscores and other separators (\`First Name\` is \`first_name\`). Known:`,
        `${headerList}. Columns naming no field are not read and are listed in \`ignored_columns\`.`,
        'A header without a `first_name`, `last_name` or `birthday` column, or with two columns for one',
        'field, is 400 `{"columns": {"last_name": ["This column is required."]}}`.',
      ],
      [
        'Every other row is a customer, checked exactly as the body of `POST /api/customers/` (the same',
        'rules and messages); an empty cell is a field not given, and a row of empty cells is skipped.',
        'Dates are `YYYY-MM-DD`. Besides: a barcode on an earlier row (compared exactly, as the door',
        'reads it) is `This barcode is also on row 5.`, an email on an earlier row in any case `This',
        'email is also on row 5.`, an email another customer has in any case `customer with this email',
        'already exists.`, and a row with more values than the header has columns an error under',
        '`non_field_errors`.',
      ],
      [
        'All or nothing: any row with an error refuses the whole file with 400',
        '`{"rows": [{"row": 13, "errors": {"birthday": ["…"]}}]}`, rows numbered as in the file (the',
        `header is row 1), each with every error it has; the first ${MAX_ROWS_LISTED} rows with errors are`,
        'listed, and `more_rows_with_errors` counts the rest. Otherwise every row is created in one',
        'transaction, as `POST /api/customers/` would create it: 201 `{"created": N, ...}`. Two imports',
        "at once are checked against each other's rows: the second gets the 400. A file that cannot be",
        'read (none, empty, not UTF-8, a quoted field never closed, no rows) is 400 on `file`.',
      ],
      ['`?dry_run=true` checks the file the same way and writes nothing: 200 with the same body.'],
    ),
  ),
  query: filterQuery(QUERY, { paginated: false }),
  body: named(
    'CustomerImportUpload',
    t.Object({ file: t.String({ format: 'binary', description: `The CSV file, at most ${MiB} MiB` }) }),
  ),
  bodyMediaType: 'multipart/form-data',
  bodyAlso: { 'text/csv': t.String({ description: `The CSV file itself, at most ${MiB} MiB` }) },
  ok: { status: 201, schema: named('CustomerImportResult', ImportResult), description: 'Every row created' },
  errorBodies: {
    200: {
      description: 'A dry run: every row passed, nothing written',
      json: named('CustomerImportResult', ImportResult),
    },
    400: {
      description: "The file is refused, nothing written: its rows' errors, its columns', or the file's",
      json: t.Union([
        named('CustomerImportRowErrors', RowErrors),
        named('CustomerImportColumnErrors', ColumnErrors),
      ]),
    },
  },
})

/** The CSV file's bytes from either body; a DRF FileField's messages when there is none. */
async function fileOf(raw: unknown): Promise<Uint8Array> {
  if (raw instanceof UnreadableBody) throw raw.error
  const file = (raw ?? {}) as Record<string, unknown>
  if (file.file === undefined || file.file === '')
    throw ValidationError.field('file', 'No file was submitted.')
  if (!(file.file instanceof Blob))
    throw ValidationError.field(
      'file',
      'The submitted data was not a file. Check the encoding type on the form.',
    )
  return new Uint8Array(await file.file.arrayBuffer())
}

/** POST /api/customers/import/: a spreadsheet of customers, all or nothing (import-rules.ts). */
export const customerImportRoutes = (deps: Deps) =>
  new Elysia({ prefix: PATH }).use(authenticated(deps)).post(
    '/',
    async ({ query, body, set }) => {
      const { values, errors } = readFilters(QUERY, query as Record<string, string | undefined>)
      if (Object.keys(errors).length > 0) throw new ValidationError(errors)
      const dryRun = values.dry_run ?? false
      const result = await importCustomers(deps, await fileOf(body), { dryRun })
      set.status = dryRun ? 200 : 201
      return { created: result.count, ignored_columns: result.ignoredColumns }
    },
    { ...requires('can_manage_members'), ...importDocs },
  )
