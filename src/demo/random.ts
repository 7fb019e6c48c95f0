/**
 * The demo's only source of randomness: mulberry32, seeded. Never Math.random, so a seed gives the
 * same database every time. Each area draws from its own stream (`fork`), so adding a draw to one
 * area (check-ins or sales, say) leaves the others' data unchanged.
 */
export class Random {
  private state: number

  constructor(seed: number) {
    this.state = seed >>> 0
  }

  /** A float in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0
    let t = this.state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }

  /** An integer in [min, max], both included. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1))
  }

  chance(probability: number): boolean {
    return this.next() < probability
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error('pick from an empty list')
    return items[Math.floor(this.next() * items.length)]!
  }

  /** One value, drawn with the given relative weights. */
  weighted<T>(choices: readonly (readonly [T, number])[]): T {
    const total = choices.reduce((sum, [, w]) => sum + w, 0)
    let x = this.next() * total
    for (const [value, weight] of choices) {
      x -= weight
      if (x < 0) return value
    }
    return choices[choices.length - 1]![0]
  }

  /** `count` distinct items in random order (all of them when there are fewer). */
  sample<T>(items: readonly T[], count: number): T[] {
    if (count * 4 < items.length) {
      // A few from many: draw indexes until enough distinct ones, without copying the list.
      const chosen = new Set<number>()
      while (chosen.size < count) chosen.add(Math.floor(this.next() * items.length))
      return [...chosen].map((i) => items[i]!)
    }
    const copy = [...items]
    const n = Math.min(count, copy.length)
    for (let i = 0; i < n; i++) {
      const j = i + Math.floor(this.next() * (copy.length - i))
      ;[copy[i], copy[j]] = [copy[j]!, copy[i]!]
    }
    return copy.slice(0, n)
  }
}

/** A 32-bit hash of the seed and a label (FNV-1a), so each area's stream is independent. */
export function streamFor(seed: number, label: string): Random {
  let h = 0x811c9dc5 ^ (seed >>> 0)
  h = Math.imul(h, 0x01000193)
  for (let i = 0; i < label.length; i++) {
    h ^= label.charCodeAt(i)
    h = Math.imul(h, 0x01000193)
  }
  // One extra mix step: seeds that differ in one bit should not give near-identical first draws.
  h ^= h >>> 16
  h = Math.imul(h, 0x85ebca6b)
  h ^= h >>> 13
  return new Random(h >>> 0)
}
