/**
 * Password verification is argon2id: a tenth of a second or more of a core and 64 MiB each. The gate
 * lets `maxRunning` run at once, so a flood of logins leaves the other core to the door, and holds at
 * most `maxWaiting` more in a short queue; past that a login is refused at once (the caller answers
 * 429) instead of queueing work the box cannot do.
 */
export class LoginGate {
  private running = 0
  private readonly waiting: Array<() => void> = []

  constructor(
    readonly maxRunning = 1,
    readonly maxWaiting = 4,
    /**
     * How long a refused login (throttled, or past the queue) is held before its 429. A refusal is
     * cheap but not free: a client that sends its next guess as soon as it is answered would
     * otherwise keep the door's thread answering refusals. Held, it costs only a timer.
     */
    readonly refusalPauseMs = 1000,
  ) {}

  /** Password verifications running now (for monitoring). */
  get runningCount(): number {
    return this.running
  }

  /** Logins queued behind them now (for monitoring). */
  get waitingCount(): number {
    return this.waiting.length
  }

  /** Resolves after `refusalPauseMs`. */
  pauseBeforeRefusal(): Promise<void> {
    return new Promise((resolve) => setTimeout(resolve, this.refusalPauseMs))
  }

  /** `work`'s result once a slot is free, or `busy` at once when the queue is full. */
  async run<T>(work: () => Promise<T>): Promise<T | typeof LoginGate.busy> {
    if (this.running < this.maxRunning) this.running++
    else if (this.waiting.length < this.maxWaiting) await new Promise<void>((go) => this.waiting.push(go))
    else return LoginGate.busy
    try {
      return await work()
    } finally {
      // The slot passes straight to the next in line; only an empty queue frees it.
      const next = this.waiting.shift()
      if (next) next()
      else this.running--
    }
  }

  static readonly busy: unique symbol = Symbol('login gate busy')
}
