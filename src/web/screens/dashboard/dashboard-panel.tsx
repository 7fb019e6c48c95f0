import { useEffect, useMemo, useState } from 'preact/hooks'
import { api, ApiError, messageOf } from '../../api.ts'
import {
  figuresCsv,
  figureText,
  type ChartDefinition,
  type DateRange,
  type Figures,
  type MetricsResult,
} from './figures.ts'
import { Chart } from './dashboard-chart.tsx'
import { ErrorLine } from '../../components/error-line.tsx'

interface Shown {
  range: DateRange
  figures: Figures
}

/**
 * One chart of the dashboard: its range (the chart's own until the two dates are changed and
 * shown), the chart, its figures as a table behind "Show figures", and its series as a CSV file.
 * Each range asks the metrics query once; an answer to an earlier range that arrives late is
 * dropped.
 */
export function ChartPanel({ chart, today }: { chart: ChartDefinition; today: string }) {
  const [range, setRange] = useState(() => chart.defaultRange(today))
  const [draft, setDraft] = useState(range)
  const [shown, setShown] = useState<Shown | null>(null)
  const [loading, setLoading] = useState(true)
  const [error, setError] = useState<string | null>(null)

  useEffect(() => {
    let current = true
    setLoading(true)
    api<MetricsResult>('POST', '/api/metrics/query/', chart.query(range))
      .then((result) => {
        if (!current) return
        setShown({ range, figures: chart.figures(result, range) })
        setError(null)
      })
      .catch((e: unknown) => {
        if (!current || (e instanceof ApiError && e.status === 401)) return
        // Figures of another range beside the dates asked for would mislead: the refusal alone shows.
        setShown(null)
        setError(messageOf(e))
      })
      .finally(() => current && setLoading(false))
    return () => {
      current = false
    }
  }, [range])

  // The file is made once per answer, and let go when the figures change or the panel closes.
  const csv = useMemo(
    () => shown && URL.createObjectURL(new Blob([figuresCsv(shown.figures)], { type: 'text/csv' })),
    [shown],
  )
  useEffect(() => {
    if (csv === null) return
    return () => URL.revokeObjectURL(csv)
  }, [csv])

  const headingId = `${chart.id}-heading`
  const [fromLabel, toLabel] = chart.rangeLabels
  return (
    <section class="chart-panel" aria-labelledby={headingId} aria-busy={loading}>
      <h2 id={headingId}>{chart.title}</h2>
      <form
        class="range"
        onSubmit={(event) => {
          event.preventDefault()
          setRange({ ...draft })
        }}
      >
        <label>
          {fromLabel}
          <input
            type="date"
            name="start_date"
            required
            value={draft.start}
            onInput={(e) => setDraft({ ...draft, start: e.currentTarget.value })}
          />
        </label>
        <label>
          {toLabel}
          <input
            type="date"
            name="end_date"
            required
            value={draft.end}
            onInput={(e) => setDraft({ ...draft, end: e.currentTarget.value })}
          />
        </label>
        <button type="submit">Show</button>
        <span class="spacer" />
        {shown && csv && (
          <a
            class="download"
            href={csv}
            download={`${chart.id}-${shown.range.start}-to-${shown.range.end}.csv`}
          >
            Download CSV
          </a>
        )}
      </form>
      <ErrorLine message={error} />
      {shown === null ? (
        !error && <p class="muted">Loading…</p>
      ) : (
        <>
          <p class="covers">{shown.figures.covers}</p>
          <Chart figures={shown.figures} bars={chart.bars ?? false} />
          <FiguresTable title={chart.title} figures={shown.figures} />
        </>
      )}
    </section>
  )
}

/** The chart's numbers for anyone who cannot see the canvas, or wants them exact. */
function FiguresTable({ title, figures }: { title: string; figures: Figures }) {
  return (
    <details class="figures">
      <summary>Show figures</summary>
      <table>
        <caption>
          {title}, {figures.covers}
        </caption>
        <thead>
          <tr>
            <th scope="col">{figures.bucketHeading}</th>
            {figures.series.map((s) => (
              <th scope="col" key={s.id}>
                {s.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {figures.buckets.map((bucket, i) => (
            <tr key={bucket}>
              <th scope="row">{bucket}</th>
              {figures.series.map((s) => (
                <td key={s.id}>{figureText(s.values[i] ?? null, s.unit)}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </details>
  )
}
