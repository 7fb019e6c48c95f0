import type { Database as BunDatabase, SQLQueryBindings, Statement } from 'bun:sqlite'
import {
  DummyDriver,
  Kysely,
  OperationNodeTransformer,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
  ValueNode,
  type Compilable,
  type InferResult,
  type KyselyPlugin,
} from 'kysely'
import type { Database } from './schema.ts'
import { heldStatement } from './statements.ts'

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
 * values in the order the SQL has them. Each connection prepares the SQL once and holds it
 * (statements.ts).
 */

/** Stands for the named parameter while the query is built. */
class Placeholder {
  constructor(readonly name: string) {}
}

/**
 * Writes the builder's constants into the SQL (`"is_active" = 1`, `limit 2`), so that a call binds
 * only its own values: a statement without any runs without binding at all, and a bound LIMIT made
 * a two-row read several times slower than the same LIMIT written out. (Constants in an INSERT's
 * values or an IN list stay bound.)
 */
class InlineConstants extends OperationNodeTransformer {
  protected override transformValue(node: ValueNode): ValueNode {
    return node.immediate || node.value instanceof Placeholder ? node : ValueNode.createImmediate(node.value)
  }
}

const inlineConstants: KyselyPlugin = {
  transformQuery: ({ node }) => new InlineConstants().transformNode(node),
  transformResult: async ({ result }) => result,
}

/** A Kysely that only compiles: SQLite's SQL, a driver that never runs anything. */
const compiler = new Kysely<Database>({
  dialect: {
    createAdapter: () => new SqliteAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (db) => new SqliteIntrospector(db),
    createQueryCompiler: () => new SqliteQueryCompiler(),
  },
  plugins: [inlineConstants],
})

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

function bindValues({ constants, positions, names }: Plan, params: object | undefined): SQLQueryBindings[] {
  const values = constants.slice()
  for (let i = 0; i < positions.length; i++) {
    values[positions[i]!] = (params as Record<string, SQLQueryBindings>)[names[i]!] as SQLQueryBindings
  }
  return values
}

type Method = 'all' | 'get' | 'run'
type Call = (statement: Statement<any, any>, method: Method, params: any) => any

/**
 * How a plan's statement is called with a call's params. The door runs a dozen statements per scan,
 * most with one to four parameters, all of them placeholders: those pass their values straight to
 * the statement, without an array of them to spread.
 */
function callerOf(plan: Plan): Call {
  const { names } = plan
  if (plan.constants.length !== names.length) return (st, m, p) => st[m](...bindValues(plan, p))
  const [a, b, c, d] = names as [string, string, string, string]
  switch (names.length) {
    case 0:
      return (st, m) => st[m]()
    case 1:
      return (st, m, p) => st[m](p[a])
    case 2:
      return (st, m, p) => st[m](p[a], p[b])
    case 3:
      return (st, m, p) => st[m](p[a], p[b], p[c])
    case 4:
      return (st, m, p) => st[m](p[a], p[b], p[c], p[d])
    default:
      return (st, m, p) => {
        const values = new Array<SQLQueryBindings>(names.length)
        for (let i = 0; i < names.length; i++) values[i] = p[names[i]!]
        return st[m].apply(st, values)
      }
  }
}

/** Numbers the compiled statements: each connection holds each one's prepared statement by it. */
let statementCount = 0

/** Every statement made so far, each able to compile itself and be prepared on a connection. */
const made: Array<(sqlite: BunDatabase) => void> = []

/**
 * Compiles every statement made so far (every module the server loaded has made its own) and
 * prepares each one on `sqlite`, as their first use would: done before the server listens, so the
 * first scan after a start costs no more than any other.
 */
export function prepareCompiledStatements(sqlite: BunDatabase): void {
  for (const prepare of made) prepare(sqlite)
}

/**
 * A statement built by `build` from its named parameters (a query builder of the compiling Kysely,
 * and placeholders standing for the parameters: use them as values only), compiled on first use.
 * Make each one once, at a module's top level: every connection holds a prepared statement for
 * each statement ever made.
 */
export function compiledStatement<Params extends object, Q extends Compilable<any>>(
  build: (db: Kysely<Database>, params: Params) => Q,
): CompiledStatement<Params, QueryRow<Q>> {
  const slot = statementCount++
  let compiled: { plan: Plan; call: Call } | undefined
  const ready = () => {
    if (compiled === undefined) {
      const planned = plan(build)
      compiled = { plan: planned, call: callerOf(planned) }
    }
    return compiled
  }
  made.push((sqlite) => void heldStatement(sqlite, slot, ready().plan.sql))
  const runner =
    (method: Method) =>
    (sqlite: BunDatabase, params?: Params): any => {
      const { plan, call } = compiled ?? ready()
      return call(heldStatement(sqlite, slot, plan.sql), method, params)
    }
  return {
    get sql() {
      return ready().plan.sql
    },
    bind: (params?: Params) => bindValues(ready().plan, params),
    all: runner('all'),
    get: runner('get'),
    run: runner('run'),
  }
}
