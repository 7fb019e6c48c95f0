import { DateTime } from 'luxon'
import {
  listAllAddOns,
  listGymNames,
  listMemberRows,
  listReportMembershipTypes,
  membershipTypeExists,
  type MemberAddOnRow,
  type MemberFilters,
  type MemberRow,
  type ReportMembershipType,
} from '../../api/members/queries.ts'
import type { MembershipStatus, PurchaseType } from '../../db/schema.ts'
import type { Deps } from '../../deps.ts'
import { FieldErrorCollector, messages } from '../../http/errors.ts'
import { STATUS_TOKENS } from '../../domain/membership-status.ts'

/**
 * The members report (reference 2.12, 3.3, 4.8): who is covered by a membership that counts
 * (active, frozen, payment failed), one row per covered person per membership.
 */

/** The query as it arrives: strings, possibly repeated (the last one wins, as Django's QueryDict.get). */
export type RawQuery = Record<string, string | string[] | undefined>

export interface MembersReport {
  /** Each with `add_on_ids`, a JSON array of the member's add-on ids on that membership */
  rows: MemberRow[]
  /** What rows share, read once: membership types and gym names by id, add-ons by name then id */
  types: Map<number, ReportMembershipType>
  gymNames: Map<number, string>
  addOns: MemberAddOnRow[]
  includeBillingInfo: boolean
}

/** The fields of the filter form, in its order: a 400 lists failing filters in this order. */
const FILTER_ORDER = [
  'status_in',
  'membership_id',
  'purchase_type',
  'is_group',
  'is_youth_programming',
  'add_on_name',
  'home_location_id',
  'start_date_min',
  'start_date_max',
  'has_payment_method',
  'include_billing_info',
] as const

const PURCHASE_TYPES: readonly PurchaseType[] = ['REC', 'PRE', 'BEN']
const DEFAULT_STATUSES: readonly MembershipStatus[] = Object.values(STATUS_TOKENS).flat()

/** django's ChoiceField / MultipleChoiceField wording. */
const invalidChoice = (value: string) =>
  `Select a valid choice. ${value} is not one of the available choices.`
/** django's ModelChoiceField wording (it does not name the value). */
export const unknownMembershipType = 'Select a valid choice. That choice is not one of the available choices.'

/** A real calendar day written YYYY-MM-DD (django's DateField with the ISO input format). */
const isIsoDate = (value: string) =>
  /^\d{4}-\d{2}-\d{2}$/.test(value) && DateTime.fromISO(value, { zone: 'utc' }).isValid

const isTokenOf = (token: string): token is keyof typeof STATUS_TOKENS => Object.hasOwn(STATUS_TOKENS, token)

/**
 * Reads the filters as django-filter would: an empty value means "not given", a bad one is 400 on
 * its parameter, every bad parameter at once. Checks that need the database come later.
 */
export function readMemberQuery(query: RawQuery): {
  filters: MemberFilters
  includeBillingInfo: boolean
  errors: FieldErrorCollector
} {
  const errors = new FieldErrorCollector({}, FILTER_ORDER)
  const value = (name: string): string | undefined => {
    const raw = query[name]
    const last = Array.isArray(raw) ? raw[raw.length - 1] : raw
    return last === undefined || last === '' ? undefined : last
  }
  const bool = (name: string): boolean | undefined => {
    const raw = value(name)?.trim().toLowerCase()
    if (raw === undefined) return undefined
    if (raw === 'true' || raw === 'false') return raw === 'true'
    errors.add(name, messages.boolean)
  }
  const id = (name: string): number | undefined => {
    const raw = value(name)?.trim()
    if (raw === undefined) return undefined
    if (/^-?\d+$/.test(raw)) return Number(raw)
    errors.add(name, messages.filterNumber)
  }
  const date = (name: string): string | undefined => {
    const raw = value(name)?.trim()
    if (raw === undefined) return undefined
    if (isIsoDate(raw)) return raw
    errors.add(name, 'Enter a valid date.')
  }

  let statuses = DEFAULT_STATUSES
  const tokens = (value('status_in') ?? '')
    .split(',')
    .map((token) => token.trim())
    .filter((token) => token !== '')
  if (tokens.length > 0) {
    // Like MultipleChoiceField, name the first value that is not a choice.
    const unknown = tokens.find((token) => !isTokenOf(token))
    if (unknown !== undefined) errors.add('status_in', invalidChoice(unknown))
    else
      statuses = [...new Set(tokens.flatMap((token) => STATUS_TOKENS[token as keyof typeof STATUS_TOKENS]))]
  }

  const membershipTypeId = id('membership_id')
  const purchaseType = value('purchase_type')
  if (purchaseType !== undefined && !PURCHASE_TYPES.includes(purchaseType as PurchaseType))
    errors.add('purchase_type', invalidChoice(purchaseType))
  const isGroup = bool('is_group')
  const isYouth = bool('is_youth_programming')
  const homeLocationId = id('home_location_id')
  const startMin = date('start_date_min')
  const startMax = date('start_date_max')
  // The reference: "true: has a saved payment method; any other value: without".
  const paymentMethod = value('has_payment_method')
  const includeBillingInfo = bool('include_billing_info') ?? false

  return {
    filters: {
      statuses,
      membership_type_id: membershipTypeId,
      purchase_type: PURCHASE_TYPES.includes(purchaseType as PurchaseType)
        ? (purchaseType as PurchaseType)
        : undefined,
      is_group: isGroup,
      is_youth_programming: isYouth,
      add_on_name: value('add_on_name'),
      home_location_id: homeLocationId,
      start_date_min: startMin,
      start_date_max: startMax,
      has_payment_method:
        paymentMethod === undefined ? undefined : paymentMethod.trim().toLowerCase() === 'true',
    },
    includeBillingInfo,
    errors,
  }
}

/**
 * GET /api/members/: 400 for any bad filter (an unknown membership type among them), else the rows.
 * Read through `deps.reader` (committed data, off the server's thread): the report writes nothing.
 */
export async function reportMembers(deps: Pick<Deps, 'reader'>, query: RawQuery): Promise<MembersReport> {
  const { filters, includeBillingInfo, errors } = readMemberQuery(query)
  const typeId = filters.membership_type_id
  if (
    typeId !== undefined &&
    !errors.has('membership_id') &&
    !(await membershipTypeExists(deps.reader, typeId))
  )
    errors.add('membership_id', unknownMembershipType)
  errors.throwIfAny()

  // One snapshot, so every type, gym and add-on a row names is in the lists.
  return deps.reader.transaction().execute(async (trx) => {
    const types = new Map((await listReportMembershipTypes(trx)).map((type) => [type.id, type]))
    const gymNames = new Map((await listGymNames(trx)).map((gym) => [gym.id, gym.name]))
    const addOns = await listAllAddOns(trx)
    const rows = await listMemberRows(trx, filters, includeBillingInfo)
    return { rows, types, gymNames, addOns, includeBillingInfo }
  })
}
