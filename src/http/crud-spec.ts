import type { Static } from 'elysia'
import type { TObject } from '@sinclair/typebox'
import type { Credential } from '../core/auth/authentication.ts'
import type { ListSource } from '../db/list-source.ts'
import type { Deps } from '../deps.ts'
import type { Actor } from '../domain/actor.ts'
import type { Permission } from './permissions.ts'
import type { Urls } from './urls.ts'
import type { CheckedBody } from './validation.ts'

/*
 * What a collection hands to collectionRoutes (crud.ts): its spec, and the types its use cases are
 * called with (who asks, the parent record's scope, a POST action on a record).
 */

/** What a use case gets besides its input: who asks, and how this request writes URLs. */
export interface RequestActor extends Actor {
  urls: Urls
  /** What authenticated the request: a password change keeps it while ending the others. */
  credential: Credential
  /** The request's session is in PIN mode (my-account says so). */
  pinMode?: boolean
  /** The request's session is the self check-in kiosk's (my-account says so). */
  kiosk?: boolean
}

/** A nested collection's parent record's id; null for a collection at the top level. */
export type ParentId = number | null

/**
 * Where a collection's records live: at the top level (`parentId` null) or under one parent record,
 * e.g. `/api/customers/<customer_id>/credits/`, whose id is `parentId` (checked to exist before any
 * of the spec's functions runs).
 */
export interface Scope<P extends ParentId = ParentId> {
  deps: Deps
  parentId: P
}

/** A nested collection's parent: its path parameter, and whether a record of that id exists. */
export interface Parent {
  param: string
  /**
   * The parameter's description in the docs, when its name does not say whose id it is: an event
   * type's questions sit under `/api/event-types/:id/`, whose records the router knows as `:id`.
   */
  description?: string
  exists(deps: Deps, id: number): Promise<boolean>
}

/** A list's filters: the query schema the docs show, and the parser of the raw values. */
export interface Filters {
  query: TObject
  parse(query: Record<string, string | undefined>): object
}

/** How a record's id appears in its path: an integer (most records) or a string (add-ons). */
export type IdKind = 'integer' | 'string'
export type IdOf<K extends IdKind> = K extends 'string' ? string : number

/**
 * A POST on one record (`/<id>/<name>/`) that changes it and answers 200 with the whole record, as a
 * DRF `@action(detail=True)` does: freezing a membership, cancelling a reservation.
 */
export interface RecordAction<Target, Body extends TObject, P extends ParentId = ParentId> {
  /** The path segment, e.g. 'freeze' */
  name: string
  summary: string
  /** What it changes and when it refuses, in words (Markdown), beneath who may run it. */
  description?: string
  /** Who may run it: the collection's write permission unless it names another. */
  permission?: Permission
  /** Documented and validated like a create body; `t.Object({})` for an action that takes none. */
  body: Body
  run(scope: Scope<P>, row: Target, body: CheckedBody<Static<Body>>, actor: RequestActor): Promise<void>
}

/**
 * One collection's ordinary routes (list, read, create, replace, update, remove), DRF-style: the
 * route table is the same for every collection, so it lives here once; each collection brings its
 * schemas, queries, rules and serializer. A method the spec leaves out answers 405.
 *
 * `Row` is a record as the API shows it (what `get` and the list read, what `serialize` takes);
 * `Target` is what writes and actions act on, `Row` unless the spec reads less for them (`target`).
 */
export interface CollectionSpec<
  Row,
  Out extends TObject,
  Create extends TObject,
  Replace extends TObject,
  F extends Filters,
  K extends IdKind = 'integer',
  P extends ParentId = null,
  Target = Row,
> {
  /** e.g. '/api/gyms', or '/api/customers/:customer_id/credits' with `parent` (no final slash) */
  path: string
  /** 'string' for records keyed by a text id (add-ons); integer ids otherwise. */
  idType?: K
  /**
   * The record path's id parameter, 'id' unless named otherwise. The router needs one name per
   * path position, so a collection with nested ones names it as they name their parent
   * (customers: `/api/customers/:customer_id/` beside `/api/customers/:customer_id/credits/`).
   */
  idParam?: string
  /** For a nested collection: its parent, whose id every function below gets as `parentId`. */
  parent?: Parent
  tag: string
  /** Singular name for summaries, e.g. 'gym' */
  noun: string
  /** Plural name for the list's summary, when adding an s is wrong ('event categories') */
  plural?: string
  read: Permission
  write: Permission
  filters: F
  output: Out
  /**
   * The records the filters select, as DRF's filtered queryset: the helper counts it and takes the
   * page (`listFrom` builds one from a Kysely query). It runs on the Kysely the collection picks:
   * `deps.reader` for a long list or a search, `deps.db` otherwise.
   */
  list(scope: Scope<P>, filters: ReturnType<F['parse']>): ListSource<Row> | Promise<ListSource<Row>>
  /** One record of the scope; undefined (404) for no such record or another parent's record. */
  get(scope: Scope<P>, id: IdOf<K>): Promise<Row | undefined>
  /**
   * The record a write or an action acts on, when it needs less than `get` reads (a customer's
   * rules need its stored columns, not the computed ones); undefined is 404 as for `get`.
   */
  target?(scope: Scope<P>, id: IdOf<K>): Promise<Target | undefined>
  serialize(row: Row, urls: Urls): Static<Out>
  /** POST: checks the body's remaining rules, then writes; returns the new id. */
  create?: {
    body: Create
    run(scope: Scope<P>, body: CheckedBody<Static<Create>>, actor: RequestActor): Promise<IdOf<K>>
  }
  /**
   * PUT: the whole writable record; PATCH gets the same schema with every field optional.
   * `patchOnly`: a record that is only ever amended (a customer membership) offers no PUT (405).
   */
  replace?: {
    body: Replace
    patchOnly?: boolean
    run(
      scope: Scope<P>,
      row: Target,
      body: CheckedBody<Partial<Static<Replace>>>,
      actor: RequestActor,
    ): Promise<void>
  }
  /** DELETE: 204 with no body. */
  /**
   * DELETE. With `refusal` (what a 400 means, e.g. "A climb is of this grade; nothing was deleted"),
   * `run` may refuse a record that must be kept (a domain `Refused`, answered as DRF's 400).
   */
  remove?: { run(scope: Scope<P>, row: Target, actor: RequestActor): Promise<void>; refusal?: string }
  /** POST `/<id>/<name>/` actions. */
  actions?: RecordAction<Target, any, P>[]
  /**
   * `?format=csv` on a top-level list (http/csv-export.ts): every record the filters select as a
   * streamed CSV file, when the list source reads in chunks (a keyset order). `permission` is asked
   * besides the list's own; `today` is the organization-local day the file is named after.
   */
  csv?: { permission?: Permission; today(deps: Deps): Promise<string> }
  /**
   * Each ordinary operation's rules in words (Markdown), shown on the docs page beneath who may
   * call it: what it changes, when it refuses and with which message, its order, its filters.
   */
  descriptions?: Partial<Record<CollectionOperation, string>>
}

/** The ordinary operations a collection may offer, by the name its description is given under. */
export type CollectionOperation = 'list' | 'read' | 'create' | 'replace' | 'update' | 'remove'
