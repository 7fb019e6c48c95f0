import { cpus, loadavg, totalmem } from 'node:os'

/**
 * The benchmarks' tables: rows as aligned columns two spaces apart, the first `leftColumns`
 * left-aligned (labels) and the rest right-aligned (figures); with `rule`, a line of dashes under
 * the first row. Not a benchmark itself: test/bench/run.ts skips files whose name starts with `_`.
 */
export function formatTable(table: string[][], { leftColumns = 1, rule = false } = {}): string {
  const widths = table[0]!.map((_, c) => Math.max(...table.map((row) => row[c]!.length)))
  const line = (row: string[]) =>
    row.map((cell, c) => (c < leftColumns ? cell.padEnd(widths[c]!) : cell.padStart(widths[c]!))).join('  ')
  const lines = table.map(line)
  if (rule) lines.splice(1, 0, widths.map((w) => '-'.repeat(w)).join('  '))
  return lines.join('\n')
}

/** "1.40, 1.37, 1.21": the machine's load average over 1, 5 and 15 minutes, printed beside figures. */
export const loadAverage = (): string =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(', ')

/** "machine: 2 × Intel(R) Xeon(R) Processor, 24 GiB, linux-x64, Bun 1.4.5; load average ...": what a bench ran on. */
export function machineLine(): string {
  const cpu = cpus()
  return (
    `machine: ${cpu.length} × ${cpu[0]?.model.trim() ?? 'unknown CPU'}, ` +
    `${Math.round(totalmem() / 2 ** 30)} GiB, ${process.platform}-${process.arch}, Bun ${Bun.version}; ` +
    `load average ${loadAverage()}`
  )
}
