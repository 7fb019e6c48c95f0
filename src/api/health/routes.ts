import { Elysia, t } from 'elysia'
import { sql } from 'kysely'
import type { Deps } from '../../deps.ts'
import { docs, named } from '../../http/docs.ts'
import { jsonResponse } from '../../http/error-handler.ts'

const healthFields = { database: t.String(), version: t.String() }

/** Unauthenticated liveness for monitoring: answers 503 when the database cannot be read. */
export const healthRoutes = (deps: Deps) =>
  new Elysia().get(
    '/healthz',
    async () => {
      try {
        await sql`SELECT 1`.execute(deps.db)
        return { status: 'ok', database: 'ok', version: deps.version }
      } catch (error) {
        deps.log.error('health check failed', { error: String(error) })
        return jsonResponse(503, { status: 'unavailable', database: 'unreachable', version: deps.version })
      }
    },
    {
      ...docs({
        tag: 'Health',
        summary: 'Is the appliance up and its database readable',
        public: true,
        ok: { status: 200, schema: named('Health', t.Object({ status: t.Literal('ok'), ...healthFields })) },
        errorBodies: {
          503: {
            description: 'The database cannot be read',
            json: named('Unhealthy', t.Object({ status: t.Literal('unavailable'), ...healthFields })),
          },
        },
      }),
    },
  )
