import { lookUpGym } from '../gyms/queries.ts'
import { checkSaleTerms, newSaleTerms } from '../sellable-products/rules.ts'
import type { Static } from 'elysia'
import type { MembershipTypeRow } from './queries.ts'
import { insertMembershipType, updateMembershipType } from './queries.ts'
import type { MembershipTypeWrite } from './schema.ts'
import type { BillingInterval, PurchaseType } from '../../db/schema.ts'
import type { Deps } from '../../deps.ts'
import type { FieldErrorCollector } from '../../http/errors.ts'
import type { CheckedBody } from '../../http/validation.ts'
import type { SaleTerms } from '../../domain/products.ts'
import { parseAccessHours, type AccessWindow } from '../../domain/access-hours.ts'
import { toFlag } from '../../db/flags.ts'

type MembershipTypeInput = Static<typeof MembershipTypeWrite>

export const intervalMessages = {
  required: 'A recurring membership type needs a billing interval.',
  notRecurring: 'Only a recurring membership type has a billing interval; leave it empty.',
}

/** What the rules beyond the schema produce: the values to store, in their stored form. */
interface Checked {
  saleTerms: Partial<SaleTerms>
  /** undefined: not sent; null: any time */
  accessHours?: AccessWindow[] | null
  interval?: BillingInterval
}

/**
 * The rules a schema cannot say: the terms it is sold on, the location, access hours, and an interval
 * that exactly recurring types have. `existing` is the type being changed: its purchase type and
 * interval count where the request leaves them out, and a change away from recurring clears the
 * interval it no longer needs.
 */
async function checkMembershipType(
  deps: Pick<Deps, 'db'>,
  fields: Partial<MembershipTypeInput>,
  errors: FieldErrorCollector,
  existing?: MembershipTypeRow,
): Promise<Checked> {
  const checked: Checked = { saleTerms: await checkSaleTerms(deps.db, fields, errors) }
  await lookUpGym(deps.db, errors, 'location_id', fields.location_id)
  if (fields.access_hours !== undefined) {
    const parsed = parseAccessHours(fields.access_hours)
    for (const message of parsed.errors) errors.add('access_hours', message)
    checked.accessHours = parsed.windows
  }

  const purchaseType: PurchaseType | undefined = fields.purchase_type ?? existing?.purchase_type
  const sentInterval = fields.interval === undefined ? undefined : (fields.interval ?? '')
  if (purchaseType !== undefined && !errors.has('interval')) {
    if (purchaseType === 'REC') {
      const interval = sentInterval ?? existing?.interval ?? ''
      if (interval === '') errors.add('interval', intervalMessages.required)
      checked.interval = interval
    } else if (sentInterval !== undefined && sentInterval !== '') {
      errors.add('interval', intervalMessages.notRecurring)
    } else {
      checked.interval = ''
    }
  }
  return checked
}

const storedAccessHours = (windows: AccessWindow[] | null | undefined) =>
  windows === undefined ? undefined : windows === null ? null : JSON.stringify(windows)

export async function createMembershipType(
  deps: Pick<Deps, 'db' | 'clock'>,
  body: CheckedBody<MembershipTypeInput>,
): Promise<number> {
  const checked = await checkMembershipType(deps, body.fields, body.errors)
  const input = body.valid()
  const now = deps.clock.now().toISOString()
  return insertMembershipType(deps.db, {
    name: input.name,
    description: input.description ?? '',
    status: input.status,
    purchase_type: input.purchase_type,
    interval: checked.interval ?? '',
    ...newSaleTerms(checked.saleTerms),
    is_group: toFlag(input.is_group) ?? 0,
    is_youth_programming: toFlag(input.is_youth_programming) ?? 0,
    duration_years: input.duration_years ?? null,
    duration_months: input.duration_months ?? null,
    duration_days: input.duration_days ?? null,
    location_id: input.location_id ?? null,
    access_hours: storedAccessHours(checked.accessHours) ?? null,
    guest_passes_per_month: input.guest_passes_per_month ?? 0,
    created_at: now,
    updated_at: now,
  })
}

/** PUT/PATCH: fields left out keep their values (as a DRF serializer's update does). */
export async function changeMembershipType(
  deps: Pick<Deps, 'db' | 'clock'>,
  row: MembershipTypeRow,
  body: CheckedBody<Partial<MembershipTypeInput>>,
): Promise<void> {
  const checked = await checkMembershipType(deps, body.fields, body.errors, row)
  const input = body.valid()
  await updateMembershipType(deps.db, row.id, {
    name: input.name,
    description: input.description,
    status: input.status,
    purchase_type: input.purchase_type,
    interval: checked.interval,
    ...checked.saleTerms,
    is_group: toFlag(input.is_group),
    is_youth_programming: toFlag(input.is_youth_programming),
    duration_years: input.duration_years,
    duration_months: input.duration_months,
    duration_days: input.duration_days,
    location_id: input.location_id,
    access_hours: storedAccessHours(checked.accessHours),
    guest_passes_per_month: input.guest_passes_per_month,
    updated_at: deps.clock.now().toISOString(),
  })
}
