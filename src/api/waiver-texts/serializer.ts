import type { Urls } from '../../http/urls.ts'
import type { WaiverTextRow } from './queries.ts'

export function serializeWaiverText(row: WaiverTextRow, urls: Urls) {
  const name = [row.created_by_first_name, row.created_by_last_name].filter((n) => n).join(' ')
  return {
    id: row.id,
    url: urls.abs('/api/waiver-texts', row.id),
    version: row.id,
    text: row.text,
    valid_for_days: row.valid_for_days,
    is_current: row.id === row.current_id,
    created_at: row.created_at,
    created_by_id: row.created_by_user_id,
    created_by_name: name || (row.created_by_email ?? ''),
  }
}
