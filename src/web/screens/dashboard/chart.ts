import uPlot from 'uplot'
import type { Figures, MetricUnit } from './figures.ts'

/**
 * How a chart's first and second series are drawn: blue and vermillion from Okabe and Ito's
 * palette, which people with each common colour-vision deficiency tell apart, the second dashed as
 * well, so the two differ even in grey. Both stand 3:1 or more against the white page, as WCAG asks
 * of the parts of a graphic.
 */
export const SERIES_STYLES = [
  { colour: '#0072b2', dash: [] as number[] },
  { colour: '#d55e00', dash: [8, 4] },
] as const

/** The desk's ink and lines (desk.css), for the axes drawn on the canvas. */
const INK = '#1f2328'
const LINE = '#d1d9e0'
const HEIGHT = 260

/** Bar charts at most this share of each bucket's width. */
const bars = uPlot.paths.bars!({ size: [0.7, 40] })

const wholeNumber = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 })

/** An axis's numbers, rounder than the table's: money without its cents, a fraction as a whole percentage. */
const axisText = (value: number, unit: MetricUnit) =>
  unit === 'percent' ? `${Math.round(value * 100)}%` : wholeNumber.format(value)

/** Keeps zero in view: counts and money read against it. */
const fromZero = (_: uPlot, min: number | null, max: number | null): uPlot.Range.MinMax => [
  Math.min(0, min ?? 0),
  Math.max(max ?? 0, 1) * 1.1,
]

/**
 * uPlot's options for the figures: the buckets along the bottom by their order (their dates
 * written as the table writes them), a scale per unit with its axis (the second on the right),
 * the first series as bars when asked, no legend or cursor of uPlot's own (the page draws the
 * legend, and the table holds the numbers for keyboards and screen readers).
 */
export function chartOptions(figures: Figures, width: number, drawBars: boolean): uPlot.Options {
  const units = [...new Set(figures.series.map((s) => s.unit))]
  const tick = (bucket: string) => (/^\d{4}-\d{2}-\d{2}$/.test(bucket) ? bucket.slice(5) : bucket)
  const unitAxis = (unit: MetricUnit, side: 1 | 3): uPlot.Axis => ({
    scale: unit,
    side,
    stroke: INK,
    grid: { show: side === 3, stroke: LINE, width: 1 },
    ticks: { stroke: LINE },
    size: 64,
    values: (_, splits) => splits.map((v) => axisText(v, unit)),
  })
  return {
    width,
    height: HEIGHT,
    legend: { show: false },
    cursor: { show: false },
    scales: {
      x: { time: false, range: (_, min, max) => [(min ?? 0) - 0.5, (max ?? 0) + 0.5] },
      ...Object.fromEntries(
        units.map((unit) => [unit, unit === 'percent' ? { range: [0, 1] } : { range: fromZero }]),
      ),
    },
    axes: [
      {
        stroke: INK,
        grid: { show: false },
        ticks: { stroke: LINE },
        incrs: [1, 2, 3, 4, 6, 7, 12, 14, 28],
        values: (_, splits) => splits.map((i) => (Number.isInteger(i) ? tick(figures.buckets[i] ?? '') : '')),
      },
      ...units.map((unit, i) => unitAxis(unit, i === 0 ? 3 : 1)),
    ],
    series: [
      {},
      ...figures.series.map((series, i): uPlot.Series => {
        const style = SERIES_STYLES[i % SERIES_STYLES.length]!
        const asBars = drawBars && i === 0
        return {
          label: series.label,
          scale: series.unit,
          stroke: style.colour,
          width: 2,
          dash: asBars ? undefined : [...style.dash],
          ...(asBars
            ? { fill: style.colour, paths: bars, points: { show: false } }
            : { points: { size: 5 } }),
        }
      }),
    ],
  }
}

/** uPlot's data: the bucket numbers, then each series' values (null draws a gap). */
export const chartData = (figures: Figures): uPlot.AlignedData => [
  figures.buckets.map((_, i) => i),
  ...figures.series.map((s) => s.values),
]
