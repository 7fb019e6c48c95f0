import { useEffect, useRef } from 'preact/hooks'
import uPlot from 'uplot'
import 'uplot/dist/uPlot.min.css'
import { chartData, chartOptions, SERIES_STYLES } from './chart.ts'
import type { Figures } from './figures.ts'

/**
 * The figures drawn by uPlot on a canvas as wide as the panel, redrawn at the panel's new width
 * when the window changes, and a legend that names each series by its colour and line. The canvas
 * is hidden from screen readers: the panel's table holds the same numbers.
 */
export function Chart({ figures, bars }: { figures: Figures; bars: boolean }) {
  const box = useRef<HTMLDivElement>(null)
  useEffect(() => {
    const element = box.current!
    const plot = new uPlot(chartOptions(figures, element.clientWidth, bars), chartData(figures), element)
    const resized = new ResizeObserver(() => {
      if (element.clientWidth !== plot.width)
        plot.setSize({ width: element.clientWidth, height: plot.height })
    })
    resized.observe(element)
    return () => {
      resized.disconnect()
      plot.destroy()
    }
  }, [figures, bars])
  return (
    <>
      <div class="chart" ref={box} aria-hidden="true" />
      <ul class="legend" aria-hidden="true">
        {figures.series.map((series, i) => {
          const { colour, dash } = SERIES_STYLES[i % SERIES_STYLES.length]!
          const bar = bars && i === 0
          return (
            <li key={series.id}>
              <span
                class={bar ? 'swatch filled' : 'swatch'}
                style={{ borderColor: colour, borderStyle: dash.length > 0 ? 'dashed' : 'solid' }}
              />
              {series.label}
            </li>
          )
        })}
      </ul>
    </>
  )
}
