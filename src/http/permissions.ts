import type { StaffUser } from '../db/schema.ts'
import { permissionDenied } from './errors.ts'

/** The permission matrix (the OpenAPI document's conventions): an organization admin passes every check. */
export type Permission =
  | 'staff'
  | 'can_manage_members'
  | 'can_manage_events'
  | 'can_access_reports'
  | 'can_export_customers'
  | 'can_manage_climbs'
  | 'admin'

export function allows(user: StaffUser, permission: Permission): boolean {
  if (user.is_organization_admin === 1 || permission === 'staff') return true
  if (permission === 'admin') return false
  return user[permission] === 1
}

/** An operation's description in the document: who may call it, then its own rules (Markdown). */
export function whoMay(permission: Permission, rules?: string): string {
  const who =
    permission === 'staff'
      ? 'Any staff user.'
      : permission === 'admin'
        ? 'Organization admins only.'
        : `Staff users with \`${permission}\`, and organization admins.`
  return rules ? `${who}\n\n${rules}` : who
}

/**
 * Route option that checks `permission` before the body is validated, so a user without the right
 * gets 403 whatever they sent, as DRF checks permissions before running the serializer.
 */
export function requires(permission: Permission) {
  return {
    transform({ user }: { user: StaffUser }) {
      if (!allows(user, permission)) throw permissionDenied()
    },
  }
}
