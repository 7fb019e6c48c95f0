import type { FunctionComponent } from 'preact'
import { CheckInScreen } from './screens/check-in/check-in.tsx'
import { ClassesScreen } from './screens/classes/classes.tsx'
import { CustomersScreen } from './screens/customers/customers.tsx'
import { DashboardScreen } from './screens/dashboard/dashboard.tsx'
import { KioskStartScreen } from './screens/kiosk/kiosk-start.tsx'
import { SellScreen } from './screens/sell/sell.tsx'
import { TodayScreen } from './screens/today/today.tsx'
import { WaiverScreen } from './screens/waiver/waiver.tsx'
import { WallsScreen } from './screens/walls/walls.tsx'
import type { ScreenProps } from './screens/screen-props.ts'
import type { Account } from './types.ts'

export interface Screen {
  id: string
  label: string
  /** Whether the menu offers it: what the API lets this user do (the API still decides). */
  allowed(account: Account): boolean
  View: FunctionComponent<ScreenProps>
}

const manageMembers = (a: Account) => a.can_manage_members || a.is_organization_admin
const manageEvents = (a: Account) => a.can_manage_events || a.is_organization_admin
const manageClimbs = (a: Account) => a.can_manage_climbs || a.is_organization_admin
const accessReports = (a: Account) => a.can_access_reports || a.is_organization_admin

/** The desk's screens, in the menu's order; the first one allowed opens after the login. */
export const SCREENS: Screen[] = [
  { id: 'check-in', label: 'Check-in', allowed: () => true, View: CheckInScreen },
  // The day's list reads the check-ins collection, which needs the manage-members permission.
  { id: 'today', label: 'Today', allowed: manageMembers, View: TodayScreen },
  // A customer's page lists their check-ins, and every action on it changes their records.
  { id: 'customers', label: 'Customers', allowed: manageMembers, View: CustomersScreen },
  // Signing finds or creates the customer and stores their waiver: the manage-members permission.
  { id: 'waiver', label: 'Waiver', allowed: manageMembers, View: WaiverScreen },
  // Posting an invoice needs the manage-members permission.
  { id: 'sell', label: 'Sell', allowed: manageMembers, View: SellScreen },
  // Booking, cancelling and promoting are the events permission's writes (the rosters read for any staff).
  { id: 'classes', label: 'Classes', allowed: manageEvents, View: ClassesScreen },
  // Adding, stripping and resetting are the climbs permission's writes (the walls read for any staff).
  { id: 'walls', label: 'Walls', allowed: manageClimbs, View: WallsScreen },
  // Every chart is the metrics query, which needs report access.
  { id: 'dashboard', label: 'Dashboard', allowed: accessReports, View: DashboardScreen },
  // Starting the kiosk needs the manage-members permission (POST /api/kiosk/start/).
  { id: 'kiosk', label: 'Kiosk', allowed: manageMembers, View: KioskStartScreen },
]
