import { describe, expect, test } from 'bun:test'
import { createHash } from 'node:crypto'
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'
import { TokenCache } from '../../../src/core/auth/token-cache.ts'
import type { StaffUser } from '../../../src/db/schema.ts'
import { hashTokenKey } from '../../../src/lib/secrets.ts'

/** The TokenCache on its own (core/auth/token-cache.ts); the API-level behaviour is test/api/auth/token-cache.test.ts. */

const T0 = Date.parse('2026-11-22T15:04:05.123Z')

const userNumbered = (id: number) => ({ id, email: `staff${id}@gym.example` }) as unknown as StaffUser

function cacheWith(keys: string[], maxEntries = 1_000, maxAgeMs = 5_000) {
  const cache = new TokenCache(maxEntries, maxAgeMs)
  keys.forEach((key, i) => cache.remember(key, userNumbered(i + 1), null, T0, cache.generation))
  return cache
}

describe('TokenCache', () => {
  test('answers a remembered token and nothing else', () => {
    const cache = cacheWith(['a'])
    expect(cache.lookUp('a', T0)).toEqual(userNumbered(1))
    expect(cache.lookUp('b', T0)).toBeUndefined()
  })

  test('an entry is trusted for maxAgeMs after its read, then dropped', () => {
    const cache = cacheWith(['a'])
    expect(cache.lookUp('a', T0 + 4_999)).toEqual(userNumbered(1))
    expect(cache.lookUp('a', T0 + 5_000)).toBeUndefined()
    expect(cache.size).toBe(0)
  })

  test('a clock gone backwards drops the entry', () => {
    const cache = cacheWith(['a'])
    expect(cache.lookUp('a', T0 - 1)).toBeUndefined()
    expect(cache.size).toBe(0)
  })

  test("a token's expiry is checked on every hit: refused from the moment it expires", () => {
    const cache = new TokenCache()
    cache.remember('a', userNumbered(1), T0 + 1_000, T0, cache.generation)
    expect(cache.lookUp('a', T0 + 999)).toEqual(userNumbered(1))
    expect(cache.lookUp('a', T0 + 1_000)).toBeUndefined()
    expect(cache.size).toBe(0)
  })

  test('bounded: past maxEntries the oldest-stored entries go', () => {
    const cache = cacheWith(['a', 'b', 'c', 'd', 'e'], 3)
    expect(cache.size).toBe(3)
    expect(['a', 'b', 'c', 'd', 'e'].map((k) => cache.lookUp(k, T0)?.id ?? null)).toEqual([
      null,
      null,
      3,
      4,
      5,
    ])
  })

  test('storing a token again refreshes its entry and its place', () => {
    const cache = cacheWith(['a', 'b', 'c'], 3)
    cache.remember('a', userNumbered(9), null, T0 + 1_000, cache.generation)
    cache.remember('d', userNumbered(4), null, T0 + 1_000, cache.generation)
    expect(cache.size).toBe(3)
    expect(cache.lookUp('b', T0 + 1_000)).toBeUndefined()
    expect(cache.lookUp('a', T0 + 5_500)?.id).toBe(9)
  })

  test('clear() forgets everything', () => {
    const cache = cacheWith(['a', 'b'])
    cache.clear()
    expect(cache.size).toBe(0)
    expect(cache.lookUp('a', T0)).toBeUndefined()
  })

  test('a read that began before a clear() is not remembered after it', () => {
    const cache = new TokenCache()
    const generation = cache.generation
    cache.clear() // e.g. the user was deactivated while this token's query was running
    cache.remember('a', userNumbered(1), null, T0, generation)
    expect(cache.size).toBe(0)
    cache.remember('a', userNumbered(1), null, T0, cache.generation)
    expect(cache.size).toBe(1)
  })
})

test('hashTokenKey is hex SHA-256, so the tokens already stored keep matching', () => {
  expect(hashTokenKey('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad')
  const key = 'a3f1'.repeat(10)
  expect(hashTokenKey(key)).toBe(createHash('sha256').update(key).digest('hex'))
})

/**
 * The cache is correct only if every write to staff_users or auth_tokens made while serving is
 * followed by `deps.tokenCache.clear()`. These pin who writes them today, so a new writer fails here
 * until it clears the cache (or, for a command that runs in its own process, is listed as one).
 */
describe('who writes staff_users and auth_tokens', () => {
  const root = join(import.meta.dir, '../../..')
  const sourceFiles = (dir: string): string[] =>
    readdirSync(dir).flatMap((name) => {
      const path = join(dir, name)
      return statSync(path).isDirectory() ? sourceFiles(path) : path.endsWith('.ts') ? [path] : []
    })
  const files = sourceFiles(join(root, 'src')).map((path) => ({
    path: relative(root, path),
    text: readFileSync(path, 'utf8'),
  }))
  const matching = (pattern: RegExp) =>
    files
      .filter((f) => pattern.test(f.text))
      .map((f) => f.path)
      .sort()

  test('only the two queries files write the tables', () => {
    const kysely = /(insertInto|updateTable|deleteFrom|replaceInto|mergeInto)\(\s*'(staff_users|auth_tokens)'/
    const rawSql =
      /(INSERT|REPLACE)\s+(OR\s+\w+\s+)?INTO\s+"?(staff_users|auth_tokens)|UPDATE\s+(OR\s+\w+\s+)?"?(staff_users|auth_tokens)|DELETE\s+FROM\s+"?(staff_users|auth_tokens)/i
    expect(matching(kysely)).toEqual(['src/api/users/queries.ts', 'src/core/auth/queries.ts'])
    expect(matching(rawSql)).toEqual([])
  })

  test('their write functions are called only where the cache is cleared, or outside the server', () => {
    const callers = matching(
      /\b(insertUser|updateUser|insertToken(?:IfUnchanged)?|deleteToken|deleteTokensOfUser)\(/,
    ).filter((path) => path !== 'src/api/users/queries.ts' && path !== 'src/core/auth/queries.ts')
    const clearing = [
      'src/api/my-account/rules.ts',
      'src/api/users/rules.ts',
      'src/core/auth/authentication.ts',
    ]
    // First start (before the server answers anything), `belay create-admin` and `belay seed-demo`:
    // separate processes or no server yet, covered by the cache's age cap.
    const outsideTheServer = ['src/bootstrap.ts', 'src/database-commands.ts', 'src/demo/organization.ts']
    expect(callers).toEqual([...clearing, ...outsideTheServer].sort())
    // One clear() per write call in each of those files.
    const count = (text: string, pattern: RegExp) => text.match(pattern)?.length ?? 0
    const perFile = clearing.map((path) => {
      const text = files.find((f) => f.path === path)!.text
      return {
        path,
        writes: count(
          text,
          /\b(insertUser|updateUser|insertToken(?:IfUnchanged)?|deleteToken|deleteTokensOfUser)\(/g,
        ),
        clears: count(text, /deps\.tokenCache\.clear\(\)/g),
      }
    })
    expect(perFile.filter((f) => f.writes !== f.clears)).toEqual([])
    expect(perFile.every((f) => f.writes > 0)).toBe(true)
  })
})
