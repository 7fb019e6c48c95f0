/**
 * A fixed set of codes and the words for each, defined once: written as `{ ACT: 'Active', ... }`,
 * it is the codes in that order (an array, for validation, filters and loops) carrying `labels`, the
 * words a person reads for each code (the API documents them, and OPTIONS gives them as DRF's
 * `display_name`).
 */
export type Choices<C extends string> = readonly C[] & { readonly labels: Readonly<Record<C, string>> }

/** The codes of `labels` in the order written, carrying their words. */
export function choices<const L extends Record<string, string>>(
  labels: L,
): Choices<Extract<keyof L, string>> {
  const codes = Object.keys(labels)
  // An integer-like key would be moved to the front by JavaScript's key order.
  if (codes.some((code) => /^(0|[1-9]\d*)$/.test(code))) throw new Error(`choice codes must not be integers`)
  return Object.freeze(Object.assign(codes, { labels: Object.freeze({ ...labels }) })) as never
}

/** Some codes of `set` in the order given, with the set's words for them. */
export function someOf<C extends string, const S extends C>(
  set: Choices<C>,
  codes: readonly S[],
): Choices<S> {
  const labels = Object.fromEntries(codes.map((code) => [code, set.labels[code]]))
  return Object.freeze(Object.assign([...codes], { labels: Object.freeze(labels) })) as never
}

/** The words for each of `values`, when they are a choice set that has them. */
export function labelsOf(values: readonly string[]): Readonly<Record<string, string>> | undefined {
  const labels = (values as { labels?: Record<string, string> }).labels
  return labels !== undefined && typeof labels === 'object' ? labels : undefined
}
