import type { Migration } from './migration.ts'
import * as m0001 from './0001_foundation.ts'
import * as m0002 from './0002_customers_memberships.ts'
import * as m0003 from './0003_check_ins_webhooks.ts'
import * as m0004 from './0004_door_write_path.ts'
import * as m0005 from './0005_sales_catalogue.ts'
import * as m0006 from './0006_sales.ts'
import * as m0007 from './0007_membership_gifts.ts'
import * as m0008 from './0008_payments_search.ts'
import * as m0009 from './0009_event_type_attributes.ts'
import * as m0010 from './0010_membership_rollup.ts'
import * as m0011 from './0011_revenue_entries.ts'
import * as m0012 from './0012_check_in_metrics.ts'
import * as m0014 from './0014_product_first_uses.ts'
import * as m0015 from './0015_membership_history_index.ts'
import * as m0016 from './0016_customer_visit_days.ts'
import * as m0017 from './0017_check_in_metrics_trigger.ts'
import * as m0018 from './0018_latest_check_in_date.ts'
import * as m0019 from './0019_check_in_metrics_catch_up.ts'
import * as m0020 from './0020_check_in_local_times.ts'
import * as m0021 from './0021_renewal_periods.ts'
import * as m0022 from './0022_staff_sessions.ts'
import * as m0024 from './0024_waivers.ts'
import * as m0025 from './0025_quick_sales.ts'
import * as m0027 from './0027_customer_photos.ts'
import * as m0028 from './0028_kiosk.ts'
import * as m0029 from './0029_sites.ts'
import * as m0030 from './0030_check_in_metrics_late.ts'
import * as m0031 from './0031_classes.ts'
import * as m0032 from './0032_walls.ts'
import * as m0033 from './0033_org_import.ts'

/**
 * Every migration, by name, imported statically so the compiled executable carries them all.
 * A test fails when a NNNN_*.ts file in this folder is missing here.
 */
export const migrations: Record<string, Migration> = {
  '0001_foundation': m0001,
  '0002_customers_memberships': m0002,
  '0003_check_ins_webhooks': m0003,
  '0004_door_write_path': m0004,
  '0005_sales_catalogue': m0005,
  '0006_sales': m0006,
  '0007_membership_gifts': m0007,
  '0008_payments_search': m0008,
  '0009_event_type_attributes': m0009,
  '0010_membership_rollup': m0010,
  '0011_revenue_entries': m0011,
  '0012_check_in_metrics': m0012,
  '0014_product_first_uses': m0014,
  '0015_membership_history_index': m0015,
  '0016_customer_visit_days': m0016,
  '0017_check_in_metrics_trigger': m0017,
  '0018_latest_check_in_date': m0018,
  '0019_check_in_metrics_catch_up': m0019,
  '0020_check_in_local_times': m0020,
  '0021_renewal_periods': m0021,
  '0022_staff_sessions': m0022,
  '0024_waivers': m0024,
  '0025_quick_sales': m0025,
  '0027_customer_photos': m0027,
  '0028_kiosk': m0028,
  '0029_sites': m0029,
  '0030_check_in_metrics_late': m0030,
  '0031_classes': m0031,
  '0032_walls': m0032,
  '0033_org_import': m0033,
}
