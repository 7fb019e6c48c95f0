import type { StaffUser } from '../db/schema.ts'

/**
 * Who makes a change: the staff user behind the request's token. Records that say who wrote them
 * (a credit's or voucher's `created_by`, a membership status change's `changed_by_id`) take it from
 * here, and rules that depend on who asks (a user may not deactivate themselves) read it.
 */
export interface Actor {
  user: StaffUser
}
