import type { Database as BunDatabase, SQLQueryBindings } from 'bun:sqlite'
import {
  DummyDriver,
  Kysely,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
  type Compilable,
  type InferResult,
} from 'kysely'
import type { Database } from './schema.ts'
import { prepared } from './statements.ts'

/**
 * Statements written with Kysely's query builder, typed against the table types, compiled once and
 * run synchronously on the raw connection: for work that must not await, such as the door's
 * check-in transaction (group-commit.ts), and that runs too often to build a query each time.
 *
 *   const getGym = compiledStatement((db, p: { id: number }) =>
 *     db.selectFrom('gyms').select(['id', 'name']).where('id', '=', p.id),
 *   )
 *   getGym.get(sqlite, { id: 1 }) // { id: number; name: string } | null
 *
 * The builder runs once, on first use, with a placeholder standing for each named parameter it reads;
 * the placeholders are found again among the compiled query's parameters, so each call binds its own
 * values in the order the SQL has them, beside the constants the builder wrote. The SQL comes from
 * the connection's statement cache (statements.ts).
 */

/** A Kysely that only compiles: SQLite's SQL, a driver that never runs anything. */
const compiler = new Kysely<Database>({
  dialect: {
    createAdapter: () => new SqliteAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (db) => new SqliteIntrospector(db),
    createQueryCompiler: () => new SqliteQueryCompiler(),
  },
})

/** Stands for the named parameter while the query is built. */
class Placeholder {
  constructor(readonly name: string) {}
}

/** What a query gives for each row: Kysely's result type of it. */
type QueryRow<Q extends Compilable<any>> = InferResult<Q>[number]

/** A statement's named parameters, left out when it has none. */
type Args<Params> = {} extends Params ? [params?: Params] : [params: Params]

export interface CompiledStatement<Params, Row> {
  /** The SQL as compiled (for EXPLAIN QUERY PLAN in tests). */
  readonly sql: string
  /** The values bound for `params`, in the order of the SQL's parameters. */
  bind(...params: Args<Params>): SQLQueryBindings[]
  all(sqlite: BunDatabase, ...params: Args<Params>): Row[]
  /** The first row, or null when there is none. */
  get(sqlite: BunDatabase, ...params: Args<Params>): Row | null
  run(sqlite: BunDatabase, ...params: Args<Params>): { changes: number; lastInsertRowid: number | bigint }
}

/** The row type of a compiled statement. */
export type RowOf<S> = S extends CompiledStatement<any, infer Row> ? Row : never

interface Plan {
  sql: string
  /** The compiled parameters, with null where a named parameter goes. */
  constants: SQLQueryBindings[]
  /** Where each named parameter goes: positions[i] takes params[names[i]]. */
  positions: number[]
  names: string[]
}

function plan(build: (db: Kysely<Database>, params: any) => Compilable<any>): Plan {
  const read = new Map<string, Placeholder>()
  const params = new Proxy(
    {},
    {
      get(_, name) {
        if (typeof name !== 'string') return undefined
        let placeholder = read.get(name)
        if (placeholder === undefined) read.set(name, (placeholder = new Placeholder(name)))
        return placeholder
      },
    },
  )
  const { sql, parameters } = build(compiler, params).compile()
  const constants: SQLQueryBindings[] = []
  const positions: number[] = []
  const names: string[] = []
  parameters.forEach((value, index) => {
    if (value instanceof Placeholder) {
      positions.push(index)
      names.push(value.name)
      constants.push(null)
    } else {
      constants.push(value as SQLQueryBindings)
    }
  })
  // A parameter read but not bound was used some other way (in JavaScript, or inlined into the SQL):
  // every call would then run the first call's statement.
  for (const name of read.keys()) {
    if (!names.includes(name)) throw new Error(`Parameter "${name}" is not bound in: ${sql}`)
  }
  return { sql, constants, positions, names }
}

/**
 * A statement built by `build` from its named parameters (a query builder of the compiling Kysely,
 * and placeholders standing for the parameters: use them as values only), compiled on first use.
 */
export function compiledStatement<Params extends object, Q extends Compilable<any>>(
  build: (db: Kysely<Database>, params: Params) => Q,
): CompiledStatement<Params, QueryRow<Q>> {
  let compiled: Plan | undefined
  const planned = () => (compiled ??= plan(build))
  const bind = (params?: Params): SQLQueryBindings[] => {
    const { constants, positions, names } = planned()
    const values = constants.slice()
    for (let i = 0; i < positions.length; i++) {
      values[positions[i]!] = (params as Record<string, SQLQueryBindings>)[names[i]!] as SQLQueryBindings
    }
    return values
  }
  const statement = (sqlite: BunDatabase) => prepared<QueryRow<Q>, SQLQueryBindings[]>(sqlite, planned().sql)
  return {
    get sql() {
      return planned().sql
    },
    bind,
    all: (sqlite, params?: Params) => statement(sqlite).all(...bind(params)),
    get: (sqlite, params?: Params) => statement(sqlite).get(...bind(params)),
    run: (sqlite, params?: Params) => statement(sqlite).run(...bind(params)),
  }
}
