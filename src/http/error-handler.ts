import { Elysia } from 'elysia'
import type { Logger } from '../lib/log.ts'
import { Refused } from '../domain/refused.ts'
import { storageFailureOf } from '../db/storage-failure.ts'
import {
  ApiError,
  methodNotAllowed,
  notFound,
  parseError,
  serverError,
  storageUnavailable,
  ValidationError,
} from './errors.ts'
import type { OptionsAnswerer } from './options-metadata.ts'
import { allowList, type RouteIndex } from './route-index.ts'
import { toFieldErrors } from './validation.ts'

export function jsonResponse(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', ...headers },
  })
}

const respond = (e: ApiError) => jsonResponse(e.status, e.body, e.headers)

/**
 * The one exit for every error: ApiErrors as they are, an engine's Refused as a 400, Elysia's own validation, parse and routing
 * errors mapped to DRF shapes, a write the disk would not take as 503 (the request can succeed
 * unchanged once the disk does), and anything else logged and answered with a bare 500 (the cause
 * never reaches the client). OPTIONS, which no route serves, arrives here as a routing error and is
 * answered with the path's metadata (options-metadata.ts).
 */
export function errorHandling(deps: {
  log: Logger
  routes: RouteIndex
  /** Authenticates a request whose method the path does not offer (DRF checks the token first). */
  authenticate(request: Request, path: string): Promise<void>
  /** OPTIONS, which no route serves: the path's metadata, or undefined where it has none (405). */
  options?: OptionsAnswerer
}) {
  /** 405 for a method `offered` lacks, once authenticated (DRF checks the token before the method). */
  const methodRefused = async (request: Request, path: string, offered: string[]) => {
    if (offered.length === 0 || offered.includes(request.method)) return undefined
    try {
      await deps.authenticate(request, path)
    } catch (authError) {
      if (authError instanceof ApiError) return respond(authError)
      throw authError
    }
    return respond(methodNotAllowed(request.method, allowList(offered)))
  }
  return new Elysia({ name: 'error-handling' }).onError(
    { as: 'global' },
    async ({ code, error, request, path }) => {
      if (error instanceof ApiError) return respond(error)
      if (error instanceof Refused) return respond(new ValidationError(error.errors))
      switch (code) {
        case 'VALIDATION': {
          // A malformed id in the path is no such record, as with DRF's \d+ URL patterns, unless the
          // path is a static route's (`climbs/stats/`) asked with a method it does not offer.
          if (error.type === 'params')
            return (
              (await methodRefused(request, path, deps.routes.methodsOfTemplate(path))) ?? respond(notFound())
            )
          return respond(new ValidationError(toFieldErrors(error.all as never)))
        }
        case 'PARSE': {
          const cause = (error as Error).cause
          return respond(
            cause instanceof ApiError ? cause : parseError(String((cause as Error)?.message ?? cause)),
          )
        }
        case 'NOT_FOUND': {
          const described = request.method === 'OPTIONS' ? await deps.options?.(request, path) : undefined
          if (described !== undefined) return described
          return (await methodRefused(request, path, deps.routes.allowedMethods(path))) ?? respond(notFound())
        }
      }
      // A read that fails on the disk stays a 500: what the 503 says is about a write.
      const storageFailure = request.method === 'GET' ? undefined : storageFailureOf(error)
      if (storageFailure !== undefined) {
        deps.log.error('the database could not be written', {
          method: request.method,
          path,
          error: error instanceof Error ? error.message : String(error),
        })
        return respond(storageUnavailable(storageFailure))
      }
      deps.log.error('unhandled error', {
        method: request.method,
        path,
        code: String(code),
        error: error instanceof Error ? (error.stack ?? error.message) : String(error),
      })
      return respond(serverError())
    },
  )
}
