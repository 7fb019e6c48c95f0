import { noteRequestUser } from './request-log.ts'
import { Elysia } from 'elysia'
import { authenticateToken } from '../core/auth/authentication.ts'
import type { StaffUser } from '../db/schema.ts'
import type { Deps } from '../deps.ts'
import { invalidToken, notAuthenticated } from './errors.ts'
import { Urls } from './urls.ts'

/** Reads `Authorization: Token <key>` ("Token" in any case), as DRF's TokenAuthentication does. */
export function tokenFromHeader(header: string | undefined): string | null {
  const parts = (header ?? '').trim().split(/\s+/)
  if (parts.length !== 2 || parts[0]!.toLowerCase() !== 'token') return null
  return parts[1]!
}

/**
 * The active staff user holding the request's token, and that token's key (logout revokes it, a
 * password change keeps it); 401 (DRF's two bodies) otherwise.
 */
export async function authenticateRequest(
  deps: Deps,
  authorization: string | null | undefined,
): Promise<{ user: StaffUser; token: string }> {
  const key = tokenFromHeader(authorization ?? undefined)
  if (key === null) throw notAuthenticated()
  const result = await authenticateToken(deps, key)
  if ('error' in result) throw invalidToken()
  return { user: result.user, token: key }
}

/** The active staff user holding the request's token; 401 (DRF's two bodies) otherwise. */
export async function requireStaffUser(
  deps: Deps,
  authorization: string | null | undefined,
): Promise<StaffUser> {
  return (await authenticateRequest(deps, authorization)).user
}

/**
 * The staff user behind the request, the token they presented, and the URL builder, for every route
 * of the feature that uses this. It runs as a derive, before body validation, so a request with
 * neither a token nor a valid body gets 401 first, as in DRF. Each feature uses its own (unnamed)
 * instance.
 */
export function authenticated(deps: Deps) {
  return new Elysia().derive(
    { as: 'scoped' },
    async ({ headers, request }): Promise<{ user: StaffUser; token: string; urls: Urls }> => {
      const authenticated = await authenticateRequest(deps, headers.authorization)
      noteRequestUser(request, authenticated.user.id)
      return { ...authenticated, urls: Urls.forRequest(request, deps.config.publicUrl) }
    },
  )
}
