import { useMemo } from 'preact/hooks'
import type { ClimbStats } from '../../types.ts'
import { Chart } from '../dashboard/dashboard-chart.tsx'
import { curveRows, curveSummary, gradeCurveFigures, KIND_WORDS, kindOf } from './wall-words.ts'

/**
 * The grade curve: the climbs up per grade as bars against the setters' targets as a dashed line,
 * drawn by the dashboard's own chart; a line that says which grades are short, and the figures as
 * a table for keyboards, screen readers and anyone who wants them exact.
 */
export function GradeCurve({ stats }: { stats: ClimbStats }) {
  const figures = useMemo(() => gradeCurveFigures(stats), [stats])
  const rows = curveRows(stats)
  const kind = KIND_WORDS[kindOf(stats.discipline)]
  return (
    <section class="grade-curve" aria-labelledby="grade-curve-heading">
      <h2 id="grade-curve-heading">Grade curve: {kind.toLowerCase()}</h2>
      <p class="curve-summary">{curveSummary(stats)}</p>
      {rows.length > 0 && (
        <>
          <Chart figures={figures} bars />
          <details class="figures">
            <summary>Show figures</summary>
            <table>
              <caption>{kind} up per grade, against the targets</caption>
              <thead>
                <tr>
                  <th scope="col">Grade</th>
                  <th scope="col">Up</th>
                  <th scope="col">Against target</th>
                </tr>
              </thead>
              <tbody>
                {rows.map((row) => (
                  <tr key={row.grade}>
                    <th scope="row">{row.grade}</th>
                    <td>{row.up}</td>
                    <td>{row.gap}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </details>
        </>
      )}
    </section>
  )
}
