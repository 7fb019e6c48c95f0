import type { Static } from 'elysia'
import { gymExists } from '../gyms/queries.ts'
import { organizationToday } from '../organization/queries.ts'
import {
  customerBarcodesAndEmails,
  customerBarcodesAndEmailsStatement,
  gymThereStatement,
  insertCustomerStatement,
  type NewCustomerRow,
} from './queries.ts'
import { barcodeTakenMessage, checkCustomerInput, newCustomerRow, type CustomerLookups } from './rules.ts'
import { CustomerWrite } from './schema.ts'
import type { Database as BunDatabase } from 'bun:sqlite'
import type { Db } from '../../db/connection.ts'
import { nextSiteId } from '../../db/site-ids.ts'
import { syncTransaction } from '../../db/sync-transaction.ts'
import type { Deps } from '../../deps.ts'
import { ApiError, messages, ValidationError, type FieldErrors } from '../../http/errors.ts'
import { checkBody } from '../../http/validation.ts'
import { csvRecords, CsvUnclosedQuote } from '../../lib/csv-read.ts'

/**
 * Importing customers from a spreadsheet saved as CSV: all or nothing. Each row is checked as a
 * body of POST /api/customers/ is (its schema, then `checkCustomerInput`, with the same messages),
 * plus what only a file can get wrong: a barcode or an email (in any case) twice in the file, an
 * email another customer has. Nothing is written unless every row passes; then every row is written
 * in one transaction, as short as it can be: only a re-check and the inserts (`importCustomers`).
 */

type CustomerInput = Static<typeof CustomerWrite>
type Field = keyof CustomerInput & string

/** The rows with errors a refusal lists; the rest are counted in `more_rows_with_errors`. */
export const MAX_ROWS_LISTED = 100

/** Rows checked between two turns of the event loop, so the door's scans are served meanwhile. */
const ROWS_PER_TURN = 250

/**
 * The headers each field is known by besides its own name, compared as `normalized` leaves them:
 * `First Name`, `first_name`, `FIRST-NAME` and `FirstName` are all `firstname`.
 */
const OTHER_NAMES: Partial<Record<Field, string[]>> = {
  first_name: ['first', 'firstname', 'givenname', 'forename'],
  last_name: ['last', 'lastname', 'surname', 'familyname'],
  preferred_name: ['nickname', 'knownas'],
  email: ['emailaddress', 'mail'],
  telephone: ['phone', 'phonenumber', 'tel', 'telephonenumber', 'mobile', 'mobilephone', 'cellphone'],
  birthday: ['birthdate', 'dateofbirth', 'dob'],
  address_street_1: ['street', 'street1', 'streetaddress', 'address', 'address1', 'addressline1'],
  address_street_2: ['street2', 'address2', 'addressline2'],
  address_city: ['city', 'town'],
  address_state: ['state', 'province', 'region'],
  address_postcode: ['postcode', 'postalcode', 'zip', 'zipcode'],
  address_country: ['country', 'countrycode'],
  home_location_id: ['homelocation', 'homegymid', 'homegym'],
  is_active: ['active'],
  profile_image_url: ['photourl', 'imageurl'],
}

/** A header as it is compared: lower case, letters and digits only. */
const normalized = (header: string) => header.toLowerCase().replace(/[^\p{L}\p{N}]/gu, '')

const FIELDS = Object.keys(CustomerWrite.properties) as Field[]
const REQUIRED = (CustomerWrite.required ?? []) as Field[]

const FIELD_OF_HEADER = new Map<string, Field>(
  FIELDS.flatMap((field) => [field, ...(OTHER_NAMES[field] ?? [])].map((name) => [normalized(name), field])),
)

/** Every header each field is known by, for the documentation: `first_name` (First Name, ...). */
export const knownHeaders = (): Array<[Field, string[]]> =>
  FIELDS.map((field) => [field, [...(OTHER_NAMES[field] ?? [])]])

/** A refusal of the file as a whole: field errors under `file`. */
const fileError = (message: string) => ValidationError.field('file', message)

/** The header's columns: the field each names (null when none), and the names matching no field. */
function columnsOf(header: string[]): { fields: Array<Field | null>; ignored: string[] } {
  const fields: Array<Field | null> = []
  const ignored: string[] = []
  const given = new Map<Field, string[]>()
  for (const name of header) {
    const field = FIELD_OF_HEADER.get(normalized(name)) ?? null
    fields.push(field)
    if (field) given.set(field, [...(given.get(field) ?? []), name.trim()])
    else if (name.trim() !== '') ignored.push(name.trim())
  }
  const errors: Record<string, string[]> = {}
  for (const field of FIELDS) {
    const names = given.get(field) ?? []
    if (names.length === 0 && REQUIRED.includes(field)) errors[field] = ['This column is required.']
    if (names.length > 1)
      errors[field] = [`Only one column may give it: ${names.map((n) => `"${n}"`).join(', ')}.`]
  }
  if (Object.keys(errors).length > 0) throw new ApiError(400, { columns: errors })
  return { fields, ignored }
}

/** The file's text: UTF-8 only, as spreadsheets save "CSV UTF-8". */
function textOf(bytes: Uint8Array): string {
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes)
  } catch {
    throw fileError('The file is not UTF-8 text: save the spreadsheet as "CSV UTF-8".')
  }
}

/** One row of the file as the body POST /api/customers/ would get: an empty cell is not given. */
function bodyOf(record: string[], fields: Array<Field | null>): Record<string, string> {
  const body: Record<string, string> = {}
  for (let i = 0; i < fields.length; i++) {
    const field = fields[i]
    const value = record[i]
    if (field && value !== undefined && value.trim() !== '') body[field] = value
  }
  return body
}

export interface RowErrors {
  row: number
  errors: FieldErrors
}

/** What a file holds, every row checked. */
interface CheckedFile {
  /** The customers the file holds (counted on a dry run too). */
  count: number
  /**
   * Each customer's row, every value as it will be written but its id and timestamps (set under the
   * lock), in file order; none on a dry run or once a row is refused.
   */
  rows: NewCustomerRow[]
  /** rows[i]'s number in the file. */
  rowNumbers: number[]
  /** Row errors, in file order (all of them: the answer lists the first MAX_ROWS_LISTED). */
  refused: RowErrors[]
  ignoredColumns: string[]
}

/** The barcodes and emails (lower case) customers already hold. */
async function heldUniques(db: Db) {
  const barcodes = new Set<string>()
  const emails = new Set<string>()
  for (const { barcode, email } of await customerBarcodesAndEmails(db)) {
    if (barcode) barcodes.add(barcode)
    if (email) emails.add(email.toLowerCase())
  }
  return { barcodes, emails }
}

/**
 * Every row of the file checked against the customer's rules and against each other; unless
 * `rowsWanted` is false, each good row's values built too, so that the transaction only writes.
 */
async function checkFile(
  deps: Pick<Deps, 'db' | 'clock'>,
  bytes: Uint8Array,
  rowsWanted: boolean,
): Promise<CheckedFile> {
  if (bytes.byteLength === 0) throw fileError('The submitted file is empty.')
  // Read a record at a time between the checks, so that neither the reading holds the thread for long
  // nor every record is held at once beside the rows built from them.
  const records = csvRecords(textOf(bytes))
  const next = (): string[] | undefined => {
    try {
      return records.next().value ?? undefined
    } catch (error) {
      if (error instanceof CsvUnclosedQuote)
        throw fileError(`Row ${error.record} opens a quoted field that is never closed.`)
      throw error
    }
  }
  let columns: ReturnType<typeof columnsOf>
  try {
    columns = columnsOf(next() ?? [])
  } catch (error) {
    // A file that cannot be read is refused for that before its columns are.
    while (next() !== undefined);
    throw error
  }
  const { fields, ignored } = columns
  const today = await organizationToday(deps)
  const held = await heldUniques(deps.db)
  const gyms = new Map<number, Promise<boolean>>()
  const lookups: CustomerLookups = {
    today: async () => today,
    barcodeTaken: async (barcode) => held.barcodes.has(barcode),
    gymExists: (id) => {
      if (!gyms.has(id)) gyms.set(id, gymExists(deps.db, id))
      return gyms.get(id)!
    },
  }
  const barcodeRows = new Map<string, number>()
  const emailRows = new Map<string, number>()
  let count = 0
  let rows: NewCustomerRow[] = []
  let rowNumbers: number[] = []
  const refused: RowErrors[] = []
  let row = 1
  for (;;) {
    if (row % ROWS_PER_TURN === 0) await new Promise((resolve) => setImmediate(resolve))
    const record = next()
    if (record === undefined) break
    row++
    if (record.every((value) => value.trim() === '')) continue // a blank line of the spreadsheet
    const body = checkBody(CustomerWrite, bodyOf(record, fields))
    const { errors } = body
    const extra = record.slice(fields.length).filter((value) => value.trim() !== '').length
    if (extra > 0)
      errors.add(
        'non_field_errors',
        `This row has ${fields.length + extra} values; the header names ${fields.length} columns.`,
      )
    await checkCustomerInput(lookups, body.fields, errors)
    const barcode = body.fields.barcode
    if (barcode && !errors.has('barcode')) {
      const first = barcodeRows.get(barcode)
      if (first === undefined) barcodeRows.set(barcode, row)
      else errors.add('barcode', `This barcode is also on row ${first}.`)
    }
    const email = body.fields.email?.toLowerCase()
    if (email && !errors.has('email')) {
      const first = emailRows.get(email)
      if (held.emails.has(email)) errors.add('email', messages.unique('customer', 'email'))
      else if (first === undefined) emailRows.set(email, row)
      else errors.add('email', `This email is also on row ${first}.`)
    }
    const collected = errors.collected()
    if (Object.keys(collected).length > 0) {
      refused.push({ row, errors: collected })
      // Nothing will be written: the rows built so far can go.
      rows = []
      rowNumbers = []
    } else {
      count++
      if (rowsWanted && refused.length === 0) {
        rows.push({ id: null, ...newCustomerRow(body.fields as CustomerInput, '') } as NewCustomerRow)
        rowNumbers.push(row)
      }
    }
  }
  if (count === 0 && refused.length === 0)
    throw fileError('The file has no customers: a header and then a row per customer.')
  return { count, rows, rowNumbers, refused, ignoredColumns: ignored }
}

/** The 400 that refuses the file for its rows. */
function rowsRefused(refused: RowErrors[]): ApiError {
  const more = refused.length - MAX_ROWS_LISTED
  return new ApiError(400, {
    rows: refused.slice(0, MAX_ROWS_LISTED),
    ...(more > 0 ? { more_rows_with_errors: more } : {}),
  })
}

/**
 * Under the lock: the rows a customer written since the file was checked (another import at the
 * same moment, a desk's edit) has made wrong, each with the errors the check would now give it: its
 * barcode or email taken, its home location gone. Only these can change between the check and the
 * write; every other rule reads the row alone.
 */
function refusedSinceChecked(sqlite: BunDatabase, file: CheckedFile): RowErrors[] {
  const barcodes = new Set<string>()
  const emails = new Set<string>()
  for (const { barcode, email } of customerBarcodesAndEmailsStatement.all(sqlite)) {
    if (barcode) barcodes.add(barcode)
    if (email) emails.add(email.toLowerCase())
  }
  const gyms = new Map<number, boolean>()
  const refused: RowErrors[] = []
  const { rows, rowNumbers } = file
  for (let i = 0; i < rows.length; i++) {
    const { barcode, email, home_location_id: gym } = rows[i]!
    let errors: FieldErrors | undefined
    if (barcode !== null && barcodes.has(barcode)) (errors ??= {}).barcode = [barcodeTakenMessage]
    if (gym !== null) {
      let there = gyms.get(gym)
      if (there === undefined) gyms.set(gym, (there = gymThereStatement.get(sqlite, { id: gym }) !== null))
      if (!there) (errors ??= {}).home_location_id = [messages.doesNotExist(gym)]
    }
    if (email !== null && emails.has(email.toLowerCase()))
      (errors ??= {}).email = [messages.unique('customer', 'email')]
    if (errors) refused.push({ row: rowNumbers[i]!, errors })
  }
  return refused
}

/**
 * Under the lock: the file's rows written, each with its id (the site's allocation on a site of a
 * hub) and `now` as its timestamps; or the rows refused, and nothing written.
 */
function writeRows(sqlite: BunDatabase, file: CheckedFile, now: string): RowErrors[] | null {
  const refused = refusedSinceChecked(sqlite, file)
  if (refused.length > 0) return refused
  for (const row of file.rows) {
    row.id = nextSiteId(sqlite, 'customers')
    row.created_at = now
    row.updated_at = now
    insertCustomerStatement.run(sqlite, row)
  }
  return null
}

export interface ImportResult {
  count: number
  ignoredColumns: string[]
}

/**
 * Checks every row of the CSV file `bytes` and, unless `dryRun`, writes them all in one transaction.
 * Throws the 400 listing the rows with errors (or the file's or its columns' error) and writes
 * nothing when any row fails.
 */
export async function importCustomers(
  deps: Pick<Deps, 'db' | 'sqlite' | 'clock'>,
  bytes: Uint8Array,
  { dryRun }: { dryRun: boolean },
): Promise<ImportResult> {
  const file = await checkFile(deps, bytes, !dryRun)
  if (file.refused.length > 0) throw rowsRefused(file.refused)
  const result = { count: file.count, ignoredColumns: file.ignoredColumns }
  if (dryRun) return result
  // Everything but the write is done outside the lock, so the door's scans go on meanwhile: every
  // row checked and its values built. Under the lock (one synchronous transaction, group-commit.ts,
  // where nothing else writes) only what another write may have changed since is checked again,
  // against the customers as they now are (another import at the same moment: one of the two is
  // refused for its rows), and the rows are inserted by a statement compiled once.
  const refused = await syncTransaction(deps, () =>
    writeRows(deps.sqlite, file, deps.clock.now().toISOString()),
  )
  if (refused) throw rowsRefused(refused)
  return result
}
