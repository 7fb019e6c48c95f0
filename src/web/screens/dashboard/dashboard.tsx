import { DASHBOARD_CHARTS, todayIn } from './figures.ts'
import type { ScreenProps } from '../screen-props.ts'
import { ChartPanel } from './dashboard-panel.tsx'

/**
 * The manager's figures, every one from the metrics query for the whole organization, each chart
 * with its own range. Today is the desk's gym's calendar day, which the charts' ranges end on.
 */
export function DashboardScreen({ gym }: ScreenProps) {
  const today = todayIn(gym.time_zone)
  return (
    <main class="dashboard">
      {DASHBOARD_CHARTS.map((chart) => (
        <ChartPanel key={chart.id} chart={chart} today={today} />
      ))}
    </main>
  )
}
