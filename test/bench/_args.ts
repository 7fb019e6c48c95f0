/** A benchmark's numeric flag (`--seconds 12`), or `fallback` when it is not given. */
export function numberArg(name: string, fallback: number): number {
  const i = process.argv.indexOf(name)
  return i > 0 ? Number(process.argv[i + 1]) : fallback
}

/** A benchmark's flag that names something (`--db FILE`), or undefined when it is not given. */
export function stringArg(name: string): string | undefined {
  const i = process.argv.indexOf(name)
  return i > 0 ? process.argv[i + 1] : undefined
}
