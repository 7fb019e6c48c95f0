import { organizationToday } from '../organization/queries.ts'
import type { Static } from 'elysia'
import { insertAlert, updateAlert, type AlertRow } from './queries.ts'
import { DEFAULT_ALERT_COLOR, type AlertWrite } from './schema.ts'
import type { Deps } from '../../deps.ts'
import type { CheckedBody } from '../../http/validation.ts'
import { toFlag } from '../../db/flags.ts'

type AlertInput = Static<typeof AlertWrite>

const alertChanges = (input: Partial<AlertInput>) => ({
  alert_text: input.alert_text,
  color_hex: input.color_hex?.toUpperCase(),
  prevents_check_in: toFlag(input.prevents_check_in),
  is_active: toFlag(input.is_active),
})

/** A new alert on `customerId`, dated on the organization-local day it is created. */
export async function createAlert(
  deps: Pick<Deps, 'db' | 'clock'>,
  customerId: number,
  body: CheckedBody<AlertInput>,
): Promise<number> {
  const changes = alertChanges(body.valid())
  const now = deps.clock.now().toISOString()
  return insertAlert(deps.db, {
    customer_id: customerId,
    alert_text: changes.alert_text!,
    color_hex: changes.color_hex ?? DEFAULT_ALERT_COLOR,
    prevents_check_in: changes.prevents_check_in ?? 0,
    is_active: changes.is_active ?? 1,
    created_date: await organizationToday(deps),
    created_at: now,
    updated_at: now,
  })
}

export async function changeAlert(
  deps: Pick<Deps, 'db' | 'clock'>,
  alert: AlertRow,
  body: CheckedBody<Partial<AlertInput>>,
): Promise<void> {
  const changes = alertChanges(body.valid())
  await updateAlert(deps.db, alert.id, { ...changes, updated_at: deps.clock.now().toISOString() })
}
