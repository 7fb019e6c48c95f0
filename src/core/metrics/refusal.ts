/**
 * A metrics query the engine will not run, with the one sentence that says why, led by where in the
 * request the problem is (`metrics[2].filters.product_ids: may not be an empty list`). The route
 * answers it as a 400 whose body is that sentence as a bare JSON string.
 */
export class MetricsQueryRefused extends Error {
  constructor(
    readonly where: string,
    problem: string,
  ) {
    super(`${where}: ${problem}`)
    this.name = 'MetricsQueryRefused'
  }
}

/** Refuses the query: `where` is the request path of the offending value. */
export function refuse(where: string, problem: string): never {
  throw new MetricsQueryRefused(where, problem)
}
