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
  const transform = ({ user }: { user: StaffUser }) => {
    if (!allows(user, permission)) throw permissionDenied()
  }
  checks.set(transform, permission)
  return { transform }
}

/** Each check `requires` made, by its function: a registered route's hooks hold the function. */
const checks = new WeakMap<object, Permission>()

/**
 * The permission a registered route `requires` (its hooks as Elysia's route table keeps them);
 * undefined for a route that checks none (any authenticated user, or a public route).
 */
export function requiredPermission(hooks: { transform?: unknown } | undefined): Permission | undefined {
  const transforms = Array.isArray(hooks?.transform) ? hooks.transform : [hooks?.transform]
  for (const hook of transforms) {
    const fn = typeof hook === 'function' ? hook : (hook as { fn?: unknown } | undefined)?.fn
    const permission = typeof fn === 'function' ? checks.get(fn) : undefined
    if (permission !== undefined) return permission
  }
  return undefined
}
