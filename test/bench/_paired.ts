/**
 * Two builds measured in the same rounds, one after the other: how far apart they are, with the
 * round-to-round noise of a shared machine taken into account.
 *
 * Each round's two figures share that round's conditions (other guests, the disk's writeback), so
 * the ratio within a round is steadier than either figure alone. The ratios are averaged as
 * logarithms (a round at 1.10 and one at 1/1.10 cancel), and a Student's t interval on those
 * logarithms says how sure the mean is: an interval that holds 1 means the rounds cannot tell the
 * builds apart; one wholly below 1 means the first build is slower.
 */
export interface PairedRatio {
  /** first / second, round by round */
  ratios: number[]
  /** the geometric mean of `ratios` */
  mean: number
  /** the 95% confidence interval of that mean; NaN with fewer than two rounds */
  low: number
  high: number
}

/**
 * Two-sided 95% quantiles of Student's t for 1 to 30 degrees of freedom; above 30 the last serves,
 * for an interval a little wider than it need be.
 */
const T_95 = [
  12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.16, 2.145, 2.131,
  2.12, 2.11, 2.101, 2.093, 2.086, 2.08, 2.074, 2.069, 2.064, 2.06, 2.056, 2.052, 2.048, 2.045, 2.042,
]

export function pairedRatio(first: readonly number[], second: readonly number[]): PairedRatio {
  if (first.length !== second.length || first.length === 0)
    throw new Error('pairedRatio: one figure of each build per round')
  const ratios = first.map((value, i) => value / second[i]!)
  const logs = ratios.map(Math.log)
  const n = logs.length
  const meanLog = logs.reduce((sum, x) => sum + x, 0) / n
  if (n < 2) return { ratios, mean: Math.exp(meanLog), low: NaN, high: NaN }
  const variance = logs.reduce((sum, x) => sum + (x - meanLog) ** 2, 0) / (n - 1)
  const halfWidth = T_95[Math.min(n - 1, T_95.length) - 1]! * Math.sqrt(variance / n)
  return {
    ratios,
    mean: Math.exp(meanLog),
    low: Math.exp(meanLog - halfWidth),
    high: Math.exp(meanLog + halfWidth),
  }
}

/** `0.981 (95% CI 0.952 to 1.011; by round 1.02, 0.95, ...)`: a paired ratio in one line. */
export function describePairedRatio(paired: PairedRatio): string {
  const interval = Number.isNaN(paired.low)
    ? 'one round: no interval'
    : `95% CI ${paired.low.toFixed(3)} to ${paired.high.toFixed(3)}`
  return `${paired.mean.toFixed(3)} (${interval}; by round ${paired.ratios.map((r) => r.toFixed(2)).join(', ')})`
}
