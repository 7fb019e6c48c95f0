/**
 * How long this thread was held at a time: a timer ticking every `periodMs`, and the longest wait
 * between two of its ticks (the wait since the last tick included when stopped). A wait longer than
 * the period is time the thread spent on something else: a synchronous call, or a turn of the event
 * loop that ran long. What a benchmark measures on this thread meanwhile is late by as much.
 */
export function watchThread(periodMs: number): { stop(): number } {
  let last = performance.now()
  let longest = 0
  const timer = setInterval(() => {
    const now = performance.now()
    longest = Math.max(longest, now - last)
    last = now
  }, periodMs)
  return {
    stop() {
      clearInterval(timer)
      return Math.max(longest, performance.now() - last)
    },
  }
}
