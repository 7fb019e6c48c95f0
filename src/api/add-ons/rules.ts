import type { Static } from 'elysia'
import { getAddOn, insertAddOn, listAddOnIdsStartingWith, updateAddOn, type AddOnRow } from './queries.ts'
import { ADD_ON_ID_MAX_LENGTH, type AddOnWrite } from './schema.ts'
import { gymExists } from '../gyms/queries.ts'
import { checkSaleTerms } from '../sellable-products/rules.ts'
import type { Db } from '../../db/connection.ts'
import type { Deps } from '../../deps.ts'
import { parseDecimal } from '../../http/decimal.ts'
import { messages, type FieldErrorCollector } from '../../http/errors.ts'
import type { CheckedBody } from '../../http/validation.ts'
import { toFlag } from '../../db/flags.ts'
import { jsonTypeName } from '../../lib/json.ts'

type AddOnInput = Static<typeof AddOnWrite>

export const addOnIdTaken = messages.unique('add-on', 'id')

export const byLocationMessages = {
  notObject: (got: string) => `Expected a dictionary of items but got type "${got}".`,
  notLocationId: (key: string) => `"${key}" is not a location id.`,
  accountCode: (key: string) => `Location ${key}: the revenue account code must be a string.`,
  taxRate: (key: string, message: string) => `Location ${key}: ${message}`,
}

/**
 * A short id from a name ("Chalk & Towel" -> "chalk-towel"), made unique with -2, -3, ... when taken.
 * Add-on ids are text because member rows and revenue reports name add-ons by a stable slug.
 */
export async function slugForAddOn(db: Db, name: string): Promise<string> {
  const base =
    name
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, ADD_ON_ID_MAX_LENGTH - 4)
      .replace(/-+$/, '') || 'add-on'
  const taken = await listAddOnIdsStartingWith(db, base)
  if (!taken.has(base)) return base
  for (let n = 2; ; n += 1) if (!taken.has(`${base}-${n}`)) return `${base}-${n}`
}

/**
 * A JSON object keyed by location (gym) id: reports each key that is not an existing gym's id and
 * each value `checkValue` refuses. Returns the object to store, or undefined when it has errors.
 */
async function checkByLocation(
  db: Db,
  value: unknown,
  name: string,
  errors: FieldErrorCollector,
  checkValue: (key: string, value: unknown) => string | null,
): Promise<Record<string, unknown> | undefined> {
  if (value === null) {
    errors.add(name, messages.null)
    return undefined
  }
  if (typeof value !== 'object' || Array.isArray(value)) {
    errors.add(name, byLocationMessages.notObject(jsonTypeName(value)))
    return undefined
  }
  let ok = true
  for (const [key, item] of Object.entries(value as Record<string, unknown>)) {
    if (!/^\d+$/.test(key)) {
      errors.add(name, byLocationMessages.notLocationId(key))
      ok = false
      continue
    }
    if (!(await gymExists(db, Number(key)))) {
      errors.add(name, messages.doesNotExist(key))
      ok = false
    }
    const problem = checkValue(key, item)
    if (problem !== null) {
      errors.add(name, problem)
      ok = false
    }
  }
  return ok ? (value as Record<string, unknown>) : undefined
}

const accountCode = (key: string, value: unknown) =>
  typeof value === 'string' ? null : byLocationMessages.accountCode(key)

const taxRate = (key: string, value: unknown) => {
  const result = parseDecimal(value, { min: 0, maxDigits: 7, places: 4 })
  return 'error' in result ? byLocationMessages.taxRate(key, result.error) : null
}

interface Checked {
  feeCents?: number
  revenueAccountCodes?: string
  /** undefined: not sent */
  taxRatePerLocation?: string | null
}

async function checkAddOn(
  deps: Pick<Deps, 'db'>,
  fields: Partial<AddOnInput>,
  errors: FieldErrorCollector,
  existing?: AddOnRow,
): Promise<Checked> {
  const checked: Checked = {}
  if (fields.id !== undefined) {
    if (existing) {
      if (fields.id !== existing.id) errors.add('id', messages.cannotChange)
    } else if (await getAddOn(deps.db, fields.id)) {
      errors.add('id', addOnIdTaken)
    }
  }
  // An add-on's price is its fee; its revenue accounts and rates may differ by location.
  checked.feeCents = (await checkSaleTerms(deps.db, fields, errors, 'fee')).price_cents
  if (fields.revenue_account_codes !== undefined) {
    const codes = await checkByLocation(
      deps.db,
      fields.revenue_account_codes,
      'revenue_account_codes',
      errors,
      accountCode,
    )
    checked.revenueAccountCodes = codes && JSON.stringify(codes)
  }
  if (fields.tax_rate_per_location === null) checked.taxRatePerLocation = null
  else if (fields.tax_rate_per_location !== undefined) {
    const rates = await checkByLocation(
      deps.db,
      fields.tax_rate_per_location,
      'tax_rate_per_location',
      errors,
      taxRate,
    )
    checked.taxRatePerLocation = rates && JSON.stringify(rates)
  }
  return checked
}

export async function createAddOn(
  deps: Pick<Deps, 'db' | 'clock'>,
  body: CheckedBody<AddOnInput>,
): Promise<string> {
  const checked = await checkAddOn(deps, body.fields, body.errors)
  const input = body.valid()
  const now = deps.clock.now().toISOString()
  return insertAddOn(deps.db, {
    id: input.id ?? (await slugForAddOn(deps.db, input.name)),
    name: input.name,
    fee_cents: checked.feeCents ?? 0,
    is_visible: toFlag(input.is_visible) ?? 1,
    icon_color_hex: input.icon_color_hex ?? '',
    icon_initials: input.icon_initials ?? '',
    revenue_account_codes: checked.revenueAccountCodes ?? '{}',
    tax_rate_id: input.tax_rate_id ?? null,
    tax_rate_per_location: checked.taxRatePerLocation ?? null,
    created_at: now,
    updated_at: now,
  })
}

/** PUT/PATCH; `id` may be sent again but not changed. */
export async function changeAddOn(
  deps: Pick<Deps, 'db' | 'clock'>,
  row: AddOnRow,
  body: CheckedBody<Partial<AddOnInput>>,
): Promise<void> {
  const checked = await checkAddOn(deps, body.fields, body.errors, row)
  const input = body.valid()
  await updateAddOn(deps.db, row.id, {
    name: input.name,
    fee_cents: checked.feeCents,
    is_visible: toFlag(input.is_visible),
    icon_color_hex: input.icon_color_hex,
    icon_initials: input.icon_initials,
    revenue_account_codes: checked.revenueAccountCodes,
    tax_rate_id: input.tax_rate_id,
    tax_rate_per_location: checked.taxRatePerLocation,
    updated_at: deps.clock.now().toISOString(),
  })
}
