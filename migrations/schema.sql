-- The database's schema after every migration, as SQLite holds it, by table in name order: each
-- table (or view), then its indexes, then the triggers that fire on it, so a trigger that keeps a
-- derived table is listed under the table it watches.
-- Written from migrations/ by `npx bun run build/schema.ts`; do not edit by hand.

-- add_on_day_counts

CREATE TABLE add_on_day_counts (
  day TEXT NOT NULL,
  holding_id INTEGER NOT NULL,
  add_on_name TEXT NOT NULL,
  add_ons INTEGER NOT NULL,
  PRIMARY KEY (day, holding_id, add_on_name)
) WITHOUT ROWID;

-- add_ons

CREATE TABLE add_ons (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  fee_cents INTEGER NOT NULL DEFAULT 0,
  is_visible INTEGER NOT NULL DEFAULT 1 CHECK (is_visible IN (0, 1)),
  icon_color_hex TEXT NOT NULL DEFAULT '',
  icon_initials TEXT NOT NULL DEFAULT '',
  revenue_account_codes TEXT NOT NULL DEFAULT '{}',
  tax_rate_id INTEGER,
  tax_rate_per_location TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);

CREATE TRIGGER add_ons_rollup_update AFTER UPDATE OF name ON add_ons BEGIN
  UPDATE membership_rollup_state SET dirty_from = min(coalesce(dirty_from, rolled_through), rolled_through)
    WHERE rolled_through IS NOT NULL;
END;

-- auth_sessions

CREATE TABLE auth_sessions (
  id INTEGER PRIMARY KEY,
  key_hash TEXT NOT NULL UNIQUE,
  user_id INTEGER NOT NULL REFERENCES staff_users (id),
  created_at TEXT NOT NULL,
  last_seen_at TEXT NOT NULL,
  expires_at TEXT NOT NULL,
  pin_mode INTEGER NOT NULL DEFAULT 0 CHECK (pin_mode IN (0, 1))
, kiosk INTEGER NOT NULL DEFAULT 0 CHECK (kiosk IN (0, 1)));

CREATE INDEX auth_sessions_user ON auth_sessions (user_id);

-- auth_tokens

CREATE TABLE auth_tokens (
  id INTEGER PRIMARY KEY,
  key_hash TEXT NOT NULL UNIQUE,
  user_id INTEGER NOT NULL REFERENCES staff_users (id),
  created_at TEXT NOT NULL,
  expires_at TEXT
);

CREATE INDEX auth_tokens_user ON auth_tokens (user_id);

-- check_in_day_counts

CREATE TABLE check_in_day_counts (
  local_date TEXT NOT NULL,
  gym_id INTEGER NOT NULL,
  entry_method TEXT NOT NULL,
  product_id INTEGER NOT NULL,
  check_ins INTEGER NOT NULL,
  first_check_ins INTEGER NOT NULL,
  PRIMARY KEY (local_date, gym_id, entry_method, product_id)
) WITHOUT ROWID;

-- check_in_local_times

CREATE TABLE check_in_local_times (
  local_date TEXT NOT NULL,
  local_time TEXT NOT NULL,
  check_in_id INTEGER NOT NULL,
  gym_id INTEGER NOT NULL,
  entry_method TEXT NOT NULL,
  product_id INTEGER NOT NULL,
  customer_id INTEGER NOT NULL,
  check_in_count INTEGER,
  PRIMARY KEY (local_date, local_time, check_in_id)
) WITHOUT ROWID;

-- check_in_metrics_late

CREATE TABLE check_in_metrics_late (check_in_id INTEGER PRIMARY KEY);

-- check_in_metrics_state

CREATE TABLE check_in_metrics_state (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  counted_through INTEGER NOT NULL
);

-- check_ins

CREATE TABLE check_ins (
  id INTEGER PRIMARY KEY,
  customer_id INTEGER NOT NULL REFERENCES customers (id),
  gym_id INTEGER NOT NULL REFERENCES gyms (id),
  entry_method TEXT NOT NULL CHECK (entry_method IN ('MEM', 'ENT', 'EVE', 'GUE', 'FRE', 'MIG')),
  entry_method_description TEXT NOT NULL DEFAULT '',
  customer_membership_id INTEGER REFERENCES customer_memberships (id),
  customer_entry_pass_id INTEGER REFERENCES customer_entry_passes (id),
  reservation_id INTEGER REFERENCES reservations (id),
  host_customer_id INTEGER REFERENCES customers (id),
  free_entry_reason TEXT NOT NULL DEFAULT '',
  free_entry_granting_user_id INTEGER REFERENCES staff_users (id),
  converted_from_free_entry INTEGER NOT NULL DEFAULT 0 CHECK (converted_from_free_entry IN (0, 1)),
  milestone_list TEXT NOT NULL DEFAULT '[]',
  check_in_count INTEGER,
  -- the gym-local calendar day, for one-check-in-per-day gyms and day filters
  local_date TEXT NOT NULL,
  checked_in_by_id INTEGER REFERENCES staff_users (id),
  check_out_at TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
, local_time TEXT NOT NULL DEFAULT '');

CREATE INDEX check_ins_check_out ON check_ins (check_out_at) WHERE check_out_at IS NOT NULL;

CREATE INDEX check_ins_created ON check_ins (created_at);

CREATE INDEX check_ins_customer_gym ON check_ins (customer_id, gym_id, created_at);

CREATE INDEX check_ins_first_visit ON check_ins (created_at, customer_id, gym_id, entry_method,
customer_membership_id, customer_entry_pass_id, reservation_id) WHERE check_in_count = 1;

CREATE INDEX check_ins_method_created ON check_ins (entry_method, created_at);

CREATE TRIGGER check_in_day_counts_update AFTER UPDATE OF local_date, gym_id, entry_method,
    customer_membership_id, customer_entry_pass_id, reservation_id, check_in_count ON check_ins
    WHEN (old.id <= (SELECT counted_through FROM check_in_metrics_state) AND old.id NOT IN (SELECT check_in_id FROM check_in_metrics_late)) BEGIN
    UPDATE check_in_day_counts
    SET check_ins = check_ins - 1, first_check_ins = first_check_ins - (old.check_in_count IS 1)
    WHERE local_date = old.local_date AND gym_id = old.gym_id
      AND entry_method = old.entry_method AND product_id = coalesce(CASE
  WHEN old.entry_method IN ('MEM', 'GUE') THEN
    (SELECT membership_type_id FROM customer_memberships WHERE id = old.customer_membership_id)
  WHEN old.entry_method = 'ENT' THEN
    (SELECT entry_pass_type_id FROM customer_entry_passes WHERE id = old.customer_entry_pass_id)
  WHEN old.entry_method = 'EVE' THEN
    (SELECT events.event_type_id FROM reservations JOIN events ON events.id = reservations.event_id
      WHERE reservations.id = old.reservation_id)
END, 0);
    INSERT INTO check_in_day_counts
    (local_date, gym_id, entry_method, product_id, check_ins, first_check_ins)
    VALUES (new.local_date, new.gym_id, new.entry_method, coalesce(CASE
  WHEN new.entry_method IN ('MEM', 'GUE') THEN
    (SELECT membership_type_id FROM customer_memberships WHERE id = new.customer_membership_id)
  WHEN new.entry_method = 'ENT' THEN
    (SELECT entry_pass_type_id FROM customer_entry_passes WHERE id = new.customer_entry_pass_id)
  WHEN new.entry_method = 'EVE' THEN
    (SELECT events.event_type_id FROM reservations JOIN events ON events.id = reservations.event_id
      WHERE reservations.id = new.reservation_id)
END, 0), 1,
      new.check_in_count IS 1)
    ON CONFLICT DO UPDATE SET check_ins = check_ins + 1,
      first_check_ins = first_check_ins + excluded.first_check_ins;
  END;

CREATE TRIGGER check_in_local_times_delete AFTER DELETE ON check_ins BEGIN
    DELETE FROM check_in_local_times
WHERE local_date = old.local_date AND local_time = old.local_time AND check_in_id = old.id;
  END;

CREATE TRIGGER check_in_local_times_update AFTER UPDATE OF local_date, local_time, gym_id,
    entry_method, customer_membership_id, customer_entry_pass_id, reservation_id, customer_id,
    check_in_count ON check_ins
    WHEN (old.id <= (SELECT counted_through FROM check_in_metrics_state) AND old.id NOT IN (SELECT check_in_id FROM check_in_metrics_late)) BEGIN
    DELETE FROM check_in_local_times
WHERE local_date = old.local_date AND local_time = old.local_time AND check_in_id = old.id;
    INSERT INTO check_in_local_times (local_date, local_time, check_in_id, gym_id, entry_method, product_id, customer_id,
check_in_count) VALUES (new.local_date, new.local_time, new.id, new.gym_id,
new.entry_method, coalesce(CASE
  WHEN new.entry_method IN ('MEM', 'GUE') THEN
    (SELECT membership_type_id FROM customer_memberships WHERE id = new.customer_membership_id)
  WHEN new.entry_method = 'ENT' THEN
    (SELECT entry_pass_type_id FROM customer_entry_passes WHERE id = new.customer_entry_pass_id)
  WHEN new.entry_method = 'EVE' THEN
    (SELECT events.event_type_id FROM reservations JOIN events ON events.id = reservations.event_id
      WHERE reservations.id = new.reservation_id)
END, 0), new.customer_id, new.check_in_count);
  END;

CREATE TRIGGER check_in_metrics_delete AFTER DELETE ON check_ins BEGIN
    UPDATE check_in_day_counts
    SET check_ins = check_ins - 1, first_check_ins = first_check_ins - (old.check_in_count IS 1)
    WHERE local_date = old.local_date AND gym_id = old.gym_id
      AND entry_method = old.entry_method AND product_id = coalesce(CASE
  WHEN old.entry_method IN ('MEM', 'GUE') THEN
    (SELECT membership_type_id FROM customer_memberships WHERE id = old.customer_membership_id)
  WHEN old.entry_method = 'ENT' THEN
    (SELECT entry_pass_type_id FROM customer_entry_passes WHERE id = old.customer_entry_pass_id)
  WHEN old.entry_method = 'EVE' THEN
    (SELECT events.event_type_id FROM reservations JOIN events ON events.id = reservations.event_id
      WHERE reservations.id = old.reservation_id)
END, 0)
      AND (old.id <= (SELECT counted_through FROM check_in_metrics_state) AND old.id NOT IN (SELECT check_in_id FROM check_in_metrics_late));
    UPDATE check_in_metrics_state SET counted_through = (SELECT coalesce(max(id), 0) FROM check_ins)
      WHERE counted_through > (SELECT coalesce(max(id), 0) FROM check_ins);
  END;

CREATE TRIGGER check_in_metrics_late_insert AFTER INSERT ON check_ins
  WHEN new.id <= (SELECT counted_through FROM check_in_metrics_state) BEGIN
  INSERT OR IGNORE INTO check_in_metrics_late (check_in_id) VALUES (new.id);
END;

CREATE TRIGGER customer_first_visit_days_delete AFTER DELETE ON check_ins BEGIN
  DELETE FROM customer_first_visit_days
  WHERE customer_id = old.customer_id AND old.local_date IN (first_date, return_date);
INSERT INTO customer_first_visit_days (customer_id, first_date, return_date)
  SELECT old.customer_id, first_date,
    (SELECT min(local_date) FROM check_ins WHERE customer_id = old.customer_id AND local_date > first_date)
  FROM (SELECT min(local_date) AS first_date FROM check_ins WHERE customer_id = old.customer_id)
  WHERE first_date IS NOT NULL
  ON CONFLICT DO NOTHING;
END;

CREATE TRIGGER customer_first_visit_days_update AFTER UPDATE OF customer_id, local_date ON check_ins BEGIN
  DELETE FROM customer_first_visit_days
  WHERE customer_id = old.customer_id AND old.local_date IN (first_date, return_date);
INSERT INTO customer_first_visit_days (customer_id, first_date, return_date)
  SELECT old.customer_id, first_date,
    (SELECT min(local_date) FROM check_ins WHERE customer_id = old.customer_id AND local_date > first_date)
  FROM (SELECT min(local_date) AS first_date FROM check_ins WHERE customer_id = old.customer_id)
  WHERE first_date IS NOT NULL
  ON CONFLICT DO NOTHING;
  INSERT INTO customer_first_visit_days (customer_id, first_date, return_date)
  VALUES (new.customer_id, new.local_date, NULL)
  ON CONFLICT DO UPDATE SET
    first_date = min(first_date, excluded.first_date),
    return_date = CASE WHEN excluded.first_date < first_date THEN first_date ELSE excluded.first_date END
  WHERE excluded.first_date <> first_date AND (return_date IS NULL OR excluded.first_date < return_date);
END;

CREATE TRIGGER same_day_check_ins_delete AFTER DELETE ON check_ins BEGIN
  DELETE FROM same_day_check_ins
  WHERE local_date = old.local_date AND customer_id = old.customer_id AND check_in_id = old.id;
DELETE FROM same_day_check_ins
  WHERE local_date = old.local_date AND customer_id = old.customer_id
    AND (SELECT count(*) FROM same_day_check_ins
      WHERE local_date = old.local_date AND customer_id = old.customer_id) = 1;
END;

CREATE TRIGGER same_day_check_ins_update AFTER UPDATE OF customer_id, local_date ON check_ins BEGIN
  DELETE FROM same_day_check_ins
  WHERE local_date = old.local_date AND customer_id = old.customer_id AND check_in_id = old.id;
DELETE FROM same_day_check_ins
  WHERE local_date = old.local_date AND customer_id = old.customer_id
    AND (SELECT count(*) FROM same_day_check_ins
      WHERE local_date = old.local_date AND customer_id = old.customer_id) = 1;
  INSERT OR IGNORE INTO same_day_check_ins (local_date, customer_id, check_in_id)
  SELECT local_date, customer_id, id FROM check_ins WHERE customer_id = new.customer_id AND gym_id IN (SELECT id FROM gyms)
    AND created_at >= date(new.local_date, '-1 day') AND created_at < date(new.local_date, '+2 days')
    AND local_date = new.local_date AND EXISTS (SELECT 1 FROM check_ins WHERE customer_id = new.customer_id AND gym_id IN (SELECT id FROM gyms)
    AND created_at >= date(new.local_date, '-1 day') AND created_at < date(new.local_date, '+2 days')
    AND local_date = new.local_date AND id <> new.id);
END;

-- climb_setters

CREATE TABLE climb_setters (
  climb_id INTEGER NOT NULL REFERENCES climbs (id),
  staff_user_id INTEGER NOT NULL REFERENCES staff_users (id),
  position INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (climb_id, staff_user_id)
);

CREATE INDEX climb_setters_user ON climb_setters (staff_user_id, climb_id);

-- climbs

CREATE TABLE climbs (
  id INTEGER PRIMARY KEY,
  gym_id INTEGER NOT NULL REFERENCES gyms (id),
  section_id INTEGER NOT NULL REFERENCES sections (id),
  grade_id INTEGER NOT NULL REFERENCES grades (id),
  discipline TEXT NOT NULL CHECK (discipline IN ('BOU', 'TR', 'LEA', 'AUT')),
  name TEXT NOT NULL DEFAULT '',
  hold_color TEXT NOT NULL DEFAULT '',
  color_hex TEXT,
  set_date TEXT NOT NULL,
  planned_strip_date TEXT,
  stripped_date TEXT,
  description TEXT NOT NULL DEFAULT '',
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  CHECK (planned_strip_date IS NULL OR planned_strip_date >= set_date),
  CHECK (stripped_date IS NULL OR stripped_date >= set_date)
);

CREATE INDEX climbs_grade ON climbs (grade_id, stripped_date);

CREATE INDEX climbs_gym_set ON climbs (gym_id, set_date DESC, id DESC);

CREATE INDEX climbs_section_up ON climbs (section_id, stripped_date);

CREATE INDEX climbs_up ON climbs (gym_id, planned_strip_date) WHERE stripped_date IS NULL;

-- customer_alerts

CREATE TABLE customer_alerts (
  id INTEGER PRIMARY KEY,
  customer_id INTEGER NOT NULL REFERENCES customers (id),
  alert_text TEXT NOT NULL,
  color_hex TEXT NOT NULL DEFAULT 'FF0000',
  prevents_check_in INTEGER NOT NULL DEFAULT 0 CHECK (prevents_check_in IN (0, 1)),
  is_active INTEGER NOT NULL DEFAULT 1 CHECK (is_active IN (0, 1)),
  created_date TEXT NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);

CREATE INDEX customer_alerts_customer ON customer_alerts (customer_id);

-- customer_credits

CREATE TABLE customer_credits (
  id INTEGER PRIMARY KEY,
  customer_id INTEGER NOT NULL REFERENCES customers (id),
  amount_total_cents INTEGER NOT NULL CHECK (amount_total_cents > 0),
  amount_remaining_cents INTEGER NOT NULL,
  expiry_date TEXT,
  is_removed INTEGER NOT NULL DEFAULT 0 CHECK (is_removed IN (0, 1)),
  created_by_id INTEGER REFERENCES staff_users (id),
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);

CREATE INDEX customer_credits_customer ON customer_credits (customer_id);

-- customer_document_files

CREATE TABLE customer_document_files (
  document_id INTEGER PRIMARY KEY REFERENCES customer_documents (id),
  content_type TEXT NOT NULL,
  content BLOB NOT NULL
);

-- customer_documents

CREATE TABLE customer_documents (
  id INTEGER PRIMARY KEY,
  customer_id INTEGER NOT NULL REFERENCES customers (id),
  name TEXT NOT NULL,
  kind TEXT NOT NULL CHECK (kind IN ('waiver', 'other')),
  expiration_date TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);

CREATE INDEX customer_documents_customer ON customer_documents (customer_id, kind, expiration_date);

-- customer_emergency_contacts

CREATE TABLE customer_emergency_contacts (
  id INTEGER PRIMARY KEY,
  customer_id INTEGER NOT NULL REFERENCES customers (id),
  first_name TEXT NOT NULL,
  last_name TEXT NOT NULL,
  telephone TEXT NOT NULL,
  email TEXT NOT NULL DEFAULT '',
  relation TEXT NOT NULL DEFAULT '',
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);

CREATE INDEX customer_emergency_contacts_customer ON customer_emergency_contacts (customer_id);

-- customer_entry_passes

CREATE TABLE customer_entry_passes (
  id INTEGER PRIMARY KEY,
  entry_pass_type_id INTEGER NOT NULL REFERENCES entry_pass_types (id),
  owner_id INTEGER NOT NULL REFERENCES customers (id),
  purchaser_id INTEGER REFERENCES customers (id),
  entries_total INTEGER NOT NULL,
  entries_remaining INTEGER NOT NULL CHECK (entries_remaining >= 0),
  expiry_date TEXT,
  acquired_via TEXT NOT NULL DEFAULT 'manual' CHECK (acquired_via IN ('purchase', 'gift', 'code', 'manual')),
  invoice_id INTEGER,
  created_by_id INTEGER REFERENCES staff_users (id),
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);

CREATE INDEX customer_entry_passes_created ON customer_entry_passes (created_at);

CREATE INDEX customer_entry_passes_invoice ON customer_entry_passes (invoice_id) WHERE invoice_id IS NOT NULL;

CREATE INDEX customer_entry_passes_owner ON customer_entry_passes (owner_id, expiry_date);

-- customer_event_vouchers

CREATE TABLE customer_event_vouchers (
  id INTEGER PRIMARY KEY,
  customer_id INTEGER NOT NULL REFERENCES customers (id),
  event_type_id INTEGER NOT NULL REFERENCES event_types (id),
  number_of_uses_total INTEGER NOT NULL CHECK (number_of_uses_total >= 1),
  number_of_uses_remaining INTEGER NOT NULL,
  expiry_date TEXT,
  is_removed INTEGER NOT NULL DEFAULT 0 CHECK (is_removed IN (0, 1)),
  created_by_id INTEGER REFERENCES staff_users (id),
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);

CREATE INDEX customer_event_vouchers_created ON customer_event_vouchers (created_at);

CREATE INDEX customer_event_vouchers_customer ON customer_event_vouchers (customer_id);

-- customer_first_visit_days

CREATE TABLE customer_first_visit_days (
  customer_id INTEGER PRIMARY KEY,
  first_date TEXT NOT NULL,
  return_date TEXT
);

-- customer_kiosk_pins

CREATE TABLE customer_kiosk_pins (
  customer_id INTEGER PRIMARY KEY REFERENCES customers (id),
  pin_hash TEXT NOT NULL,
  set_at TEXT NOT NULL
);

-- customer_medical_notes

CREATE TABLE customer_medical_notes (
  id INTEGER PRIMARY KEY,
  customer_id INTEGER NOT NULL REFERENCES customers (id),
  medical_notes TEXT NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);

CREATE INDEX customer_medical_notes_customer ON customer_medical_notes (customer_id);

-- customer_memberships

CREATE TABLE customer_memberships (
  id INTEGER PRIMARY KEY,
  membership_type_id INTEGER NOT NULL REFERENCES membership_types (id),
  owner_id INTEGER NOT NULL REFERENCES customers (id),
  status TEXT NOT NULL CHECK (status IN ('ACT', 'IPP', 'PPR', 'FRZ', 'FPR', 'PAF', 'FPF', 'PAY', 'IPC', 'CAN', 'END', 'DEN')),
  start_date TEXT NOT NULL,
  end_date TEXT,
  billing_location_id INTEGER REFERENCES gyms (id),
  has_payment_method INTEGER NOT NULL DEFAULT 0 CHECK (has_payment_method IN (0, 1)),
  is_pending_staff_approval INTEGER NOT NULL DEFAULT 0 CHECK (is_pending_staff_approval IN (0, 1)),
  billing_amount_cents INTEGER NOT NULL DEFAULT 0,
  discount_association_id INTEGER,
  referring_customer_id INTEGER REFERENCES customers (id),
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);

CREATE INDEX customer_memberships_created ON customer_memberships (created_at);

CREATE INDEX customer_memberships_owner ON customer_memberships (owner_id);

CREATE INDEX customer_memberships_status ON customer_memberships (status, membership_type_id);

CREATE TRIGGER customer_memberships_rollup_delete AFTER DELETE ON customer_memberships BEGIN
  UPDATE membership_rollup_state SET dirty_from = min(coalesce(dirty_from, rolled_through), rolled_through)
    WHERE rolled_through IS NOT NULL;
END;

CREATE TRIGGER customer_memberships_rollup_update AFTER UPDATE OF membership_type_id, billing_location_id, discount_association_id ON customer_memberships BEGIN
  UPDATE membership_rollup_state SET dirty_from = min(coalesce(dirty_from, rolled_through), rolled_through)
    WHERE rolled_through IS NOT NULL;
END;

-- customer_photos

CREATE TABLE customer_photos (
  customer_id INTEGER PRIMARY KEY REFERENCES customers (id),
  content_type TEXT NOT NULL,
  content BLOB NOT NULL,
  taken_at TEXT NOT NULL
);

-- customer_relations

CREATE TABLE customer_relations (
  id INTEGER PRIMARY KEY,
  customer_id INTEGER NOT NULL REFERENCES customers (id),
  related_customer_id INTEGER NOT NULL REFERENCES customers (id),
  relation TEXT NOT NULL CHECK (relation IN ('SPO', 'PRT', 'PRE', 'CHI', 'GUA', 'WAR', 'SIB', 'OTH')),
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  UNIQUE (customer_id, related_customer_id),
  CHECK (customer_id <> related_customer_id)
);

-- customers

CREATE TABLE customers (
  id INTEGER PRIMARY KEY,
  first_name TEXT NOT NULL,
  last_name TEXT NOT NULL,
  preferred_name TEXT NOT NULL DEFAULT '',
  email TEXT,
  telephone TEXT NOT NULL DEFAULT '',
  birthday TEXT NOT NULL,
  barcode TEXT UNIQUE,
  is_active INTEGER NOT NULL DEFAULT 1 CHECK (is_active IN (0, 1)),
  home_location_id INTEGER REFERENCES gyms (id),
  address_street_1 TEXT NOT NULL DEFAULT '',
  address_street_2 TEXT NOT NULL DEFAULT '',
  address_city TEXT NOT NULL DEFAULT '',
  address_state TEXT NOT NULL DEFAULT '',
  address_postcode TEXT NOT NULL DEFAULT '',
  address_country TEXT NOT NULL DEFAULT '',
  profile_image_url TEXT NOT NULL DEFAULT '',
  first_check_in_timestamp TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
, check_in_count INTEGER NOT NULL DEFAULT 0);

CREATE INDEX customers_home_location ON customers (home_location_id);

CREATE INDEX customers_name ON customers (last_name, first_name);

CREATE TRIGGER invoice_search_customer AFTER UPDATE OF email, first_name, last_name, preferred_name
  ON customers
  WHEN old.email IS NOT new.email OR old.first_name IS NOT new.first_name
    OR old.last_name IS NOT new.last_name OR old.preferred_name IS NOT new.preferred_name
  BEGIN
  INSERT OR REPLACE INTO invoice_search (rowid, invoice_number, description, email, first_name,
    last_name, preferred_name)
    SELECT invoice_id, invoice_number, description, email, first_name, last_name, preferred_name
    FROM invoice_search_source WHERE customer_id = new.id;
END;

-- discounts

CREATE TABLE discounts (
  id INTEGER PRIMARY KEY,
  code TEXT NOT NULL UNIQUE COLLATE NOCASE,
  name TEXT NOT NULL DEFAULT '',
  display_name TEXT NOT NULL DEFAULT '',
  association_id INTEGER,
  percent_off_hundredths INTEGER CHECK (percent_off_hundredths > 0 AND percent_off_hundredths <= 10000),
  amount_off_cents INTEGER CHECK (amount_off_cents > 0),
  is_active INTEGER NOT NULL DEFAULT 1 CHECK (is_active IN (0, 1)),
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  CHECK ((percent_off_hundredths IS NULL) <> (amount_off_cents IS NULL))
);

-- entry_pass_types

CREATE TABLE entry_pass_types (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('DRA', 'ACT', 'RET')),
  number_of_entries INTEGER NOT NULL CHECK (number_of_entries >= 1),
  valid_days INTEGER,
  price_cents INTEGER NOT NULL DEFAULT 0,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
, tax_rate_id INTEGER REFERENCES tax_rates (id), revenue_account_code TEXT NOT NULL DEFAULT '');

-- event_categories

CREATE TABLE event_categories (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  is_removed INTEGER NOT NULL DEFAULT 0 CHECK (is_removed IN (0, 1)),
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);

-- event_questions

CREATE TABLE event_questions (
  id INTEGER PRIMARY KEY,
  event_type_id INTEGER NOT NULL REFERENCES event_types (id),
  text TEXT NOT NULL,
  kind TEXT NOT NULL DEFAULT 'TXT' CHECK (kind IN ('TXT', 'BOO', 'CHO')),
  choices TEXT NOT NULL DEFAULT '[]',
  is_required INTEGER NOT NULL DEFAULT 0 CHECK (is_required IN (0, 1)),
  sort_order INTEGER NOT NULL DEFAULT 0,
  is_active INTEGER NOT NULL DEFAULT 1 CHECK (is_active IN (0, 1)),
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);

CREATE INDEX event_questions_type ON event_questions (event_type_id, sort_order);

-- event_schedule_exceptions

CREATE TABLE event_schedule_exceptions (
  id INTEGER PRIMARY KEY,
  schedule_id INTEGER NOT NULL REFERENCES event_schedules (id),
  date TEXT NOT NULL,
  reason TEXT NOT NULL DEFAULT '',
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);

CREATE UNIQUE INDEX event_schedule_exceptions_date ON event_schedule_exceptions (schedule_id, date);

-- event_schedules

CREATE TABLE event_schedules (
  id INTEGER PRIMARY KEY,
  event_type_id INTEGER NOT NULL REFERENCES event_types (id),
  gym_id INTEGER NOT NULL REFERENCES gyms (id),
  weekdays TEXT NOT NULL,
  start_time TEXT NOT NULL,
  duration_minutes INTEGER NOT NULL CHECK (duration_minutes BETWEEN 1 AND 1440),
  start_date TEXT NOT NULL,
  end_date TEXT,
  capacity INTEGER CHECK (capacity BETWEEN 0 AND 1000),
  price_cents INTEGER NOT NULL DEFAULT 0 CHECK (price_cents >= 0),
  is_active INTEGER NOT NULL DEFAULT 1 CHECK (is_active IN (0, 1)),
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  CHECK (end_date IS NULL OR end_date >= start_date)
);

CREATE INDEX event_schedules_type ON event_schedules (event_type_id);

-- event_type_categories

CREATE TABLE event_type_categories (
  event_type_id INTEGER NOT NULL REFERENCES event_types (id),
  event_category_id INTEGER NOT NULL REFERENCES event_categories (id),
  PRIMARY KEY (event_type_id, event_category_id)
);

CREATE INDEX event_type_categories_category ON event_type_categories (event_category_id);

-- event_types

CREATE TABLE event_types (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  gym_id INTEGER NOT NULL REFERENCES gyms (id),
  status TEXT NOT NULL CHECK (status IN ('DRA', 'ACT', 'RET')),
  capacity INTEGER CHECK (capacity BETWEEN 1 AND 1000),
  late_booking_window_minutes INTEGER NOT NULL DEFAULT 15 CHECK (late_booking_window_minutes < 60),
  is_listed INTEGER NOT NULL DEFAULT 1 CHECK (is_listed IN (0, 1)),
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
, schedule_type TEXT NOT NULL DEFAULT 'recurring'
  CHECK (schedule_type IN ('recurring', 'multi_part', 'rolling')), max_reservations_per_day_for_customer INTEGER
  CHECK (max_reservations_per_day_for_customer >= 1), waitlist_promotion_cutoff_hours INTEGER NOT NULL DEFAULT 2
  CHECK (waitlist_promotion_cutoff_hours BETWEEN 0 AND 720), booking_horizon_days INTEGER NOT NULL DEFAULT 28
  CHECK (booking_horizon_days BETWEEN 1 AND 366));

CREATE INDEX event_types_gym ON event_types (gym_id);

-- events

CREATE TABLE events (
  id INTEGER PRIMARY KEY,
  event_type_id INTEGER NOT NULL REFERENCES event_types (id),
  gym_id INTEGER NOT NULL REFERENCES gyms (id),
  name TEXT NOT NULL DEFAULT '',
  start_at TEXT NOT NULL,
  end_at TEXT NOT NULL,
  includes_entry INTEGER NOT NULL DEFAULT 1 CHECK (includes_entry IN (0, 1)),
  is_cancelled INTEGER NOT NULL DEFAULT 0 CHECK (is_cancelled IN (0, 1)),
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL, price_cents INTEGER NOT NULL DEFAULT 0, tax_rate_id INTEGER REFERENCES tax_rates (id), revenue_account_code TEXT NOT NULL DEFAULT '', capacity INTEGER CHECK (capacity BETWEEN 0 AND 1000), schedule_id INTEGER REFERENCES event_schedules (id), schedule_date TEXT,
  CHECK (end_at > start_at)
);

CREATE INDEX events_gym_time ON events (gym_id, start_at, end_at);

CREATE UNIQUE INDEX events_schedule_date ON events (schedule_id, schedule_date)
WHERE schedule_id IS NOT NULL;

CREATE INDEX events_type_time ON events (event_type_id, start_at, end_at);

-- gifts

CREATE TABLE "gifts" (
  id INTEGER PRIMARY KEY,
  code TEXT NOT NULL UNIQUE,
  invoice_line_item_id INTEGER NOT NULL UNIQUE REFERENCES invoice_line_items (id),
  entry_pass_type_id INTEGER REFERENCES entry_pass_types (id),
  voucher_pack_id INTEGER REFERENCES voucher_packs (id),
  membership_type_id INTEGER REFERENCES membership_types (id),
  purchaser_id INTEGER REFERENCES customers (id),
  redeemed_by_id INTEGER REFERENCES customers (id),
  redeemed_at TEXT,
  customer_entry_pass_id INTEGER REFERENCES customer_entry_passes (id),
  customer_event_voucher_id INTEGER REFERENCES customer_event_vouchers (id),
  customer_membership_id INTEGER REFERENCES customer_memberships (id),
  created_at TEXT NOT NULL,
  CHECK ((entry_pass_type_id IS NOT NULL) + (voucher_pack_id IS NOT NULL) + (membership_type_id IS NOT NULL) = 1)
);

CREATE INDEX gifts_created ON gifts (created_at);

CREATE INDEX gifts_entry_pass ON gifts (customer_entry_pass_id) WHERE customer_entry_pass_id IS NOT NULL;

CREATE INDEX gifts_membership ON gifts (customer_membership_id) WHERE customer_membership_id IS NOT NULL;

CREATE INDEX gifts_voucher ON gifts (customer_event_voucher_id) WHERE customer_event_voucher_id IS NOT NULL;

-- grades

CREATE TABLE grades (
  id INTEGER PRIMARY KEY,
  gym_id INTEGER NOT NULL REFERENCES gyms (id),
  name TEXT NOT NULL COLLATE NOCASE,
  system TEXT NOT NULL CHECK (system IN ('V', 'YDS', 'FONT', 'FRENCH', 'CIRCUIT', 'OTHER')),
  discipline TEXT NOT NULL CHECK (discipline IN ('BOU', 'ROP')),
  rank INTEGER NOT NULL,
  color_hex TEXT,
  target_count INTEGER CHECK (target_count >= 0),
  is_active INTEGER NOT NULL DEFAULT 1 CHECK (is_active IN (0, 1)),
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);

CREATE UNIQUE INDEX grades_name ON grades (gym_id, discipline, name);

CREATE INDEX grades_rank ON grades (gym_id, discipline, rank);

-- gyms

CREATE TABLE gyms (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  hide_setter INTEGER NOT NULL DEFAULT 0 CHECK (hide_setter IN (0, 1)),
  time_zone TEXT NOT NULL,
  scheduler_url_path TEXT NOT NULL DEFAULT '',
  scheduler_landing_page_text TEXT NOT NULL DEFAULT '',
  scheduler_first_day_of_week TEXT NOT NULL DEFAULT 'SUN' CHECK (scheduler_first_day_of_week IN ('SUN', 'MON')),
  capacity INTEGER,
  combine_same_day_check_ins INTEGER NOT NULL DEFAULT 0 CHECK (combine_same_day_check_ins IN (0, 1)),
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);

-- import_progress

CREATE TABLE import_progress (
  collection TEXT PRIMARY KEY,
  position INTEGER NOT NULL,
  source TEXT NOT NULL,
  state TEXT NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'running', 'done', 'missing')),
  parent_id TEXT,
  next_url TEXT,
  records INTEGER NOT NULL DEFAULT 0,
  total INTEGER,
  updated_at TEXT NOT NULL
);

-- invoice_discounts

CREATE TABLE invoice_discounts (
  id INTEGER PRIMARY KEY,
  invoice_id INTEGER NOT NULL REFERENCES invoices (id),
  position INTEGER NOT NULL,
  discount_id INTEGER NOT NULL REFERENCES discounts (id),
  code TEXT NOT NULL,
  name TEXT NOT NULL,
  display_name TEXT NOT NULL,
  association_id INTEGER,
  amount_cents INTEGER NOT NULL CHECK (amount_cents >= 0),
  UNIQUE (invoice_id, position)
);

-- invoice_line_items

CREATE TABLE invoice_line_items (
  id INTEGER PRIMARY KEY,
  invoice_id INTEGER NOT NULL REFERENCES invoices (id),
  position INTEGER NOT NULL,
  purchase_type TEXT NOT NULL,
  description TEXT NOT NULL DEFAULT '',
  quantity INTEGER NOT NULL CHECK (quantity >= 1),
  unit_price_cents INTEGER NOT NULL CHECK (unit_price_cents >= 0),
  discount_cents INTEGER NOT NULL CHECK (discount_cents >= 0),
  net_cents INTEGER NOT NULL CHECK (net_cents >= 0),
  tax_rate_id INTEGER REFERENCES tax_rates (id),
  tax_rate_basis_points INTEGER NOT NULL DEFAULT 0,
  tax_cents INTEGER NOT NULL CHECK (tax_cents >= 0),
  revenue_account_code TEXT NOT NULL DEFAULT '',
  membership_type_id INTEGER REFERENCES membership_types (id),
  entry_pass_type_id INTEGER REFERENCES entry_pass_types (id),
  event_id INTEGER REFERENCES events (id),
  voucher_pack_id INTEGER REFERENCES voucher_packs (id),
  customer_membership_id INTEGER REFERENCES customer_memberships (id),
  reservation_id INTEGER REFERENCES reservations (id),
  customer_event_voucher_id INTEGER REFERENCES customer_event_vouchers (id), period_start TEXT,
  UNIQUE (invoice_id, position)
);

CREATE INDEX invoice_line_items_membership ON invoice_line_items (customer_membership_id)
WHERE customer_membership_id IS NOT NULL;

CREATE INDEX invoice_line_items_reservation ON invoice_line_items (reservation_id)
WHERE reservation_id IS NOT NULL;

CREATE INDEX invoice_line_items_voucher ON invoice_line_items (customer_event_voucher_id)
WHERE customer_event_voucher_id IS NOT NULL;

-- invoice_search

CREATE VIRTUAL TABLE invoice_search USING fts5(
  invoice_number, description, email, first_name, last_name, preferred_name,
  tokenize = 'trigram', content = '', contentless_delete = 1
);

-- invoice_search_config

CREATE TABLE 'invoice_search_config'(k PRIMARY KEY, v) WITHOUT ROWID;

-- invoice_search_data

CREATE TABLE 'invoice_search_data'(id INTEGER PRIMARY KEY, block BLOB);

-- invoice_search_docsize

CREATE TABLE 'invoice_search_docsize'(id INTEGER PRIMARY KEY, sz BLOB, origin INTEGER);

-- invoice_search_idx

CREATE TABLE 'invoice_search_idx'(segid, term, pgno, PRIMARY KEY(segid, term)) WITHOUT ROWID;

-- invoice_search_source

CREATE VIEW invoice_search_source AS
SELECT i.id AS invoice_id, cast(i.id AS TEXT) AS invoice_number, i.description,
  coalesce(c.email, '') AS email, coalesce(c.first_name, '') AS first_name,
  coalesce(c.last_name, '') AS last_name, coalesce(c.preferred_name, '') AS preferred_name,
  i.customer_id
FROM invoices i LEFT JOIN customers c ON c.id = i.customer_id;

-- invoices

CREATE TABLE invoices (
  id INTEGER PRIMARY KEY,
  customer_id INTEGER REFERENCES customers (id),
  gym_id INTEGER NOT NULL REFERENCES gyms (id),
  staff_user_id INTEGER REFERENCES staff_users (id),
  description TEXT NOT NULL DEFAULT '',
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
, idempotency_key TEXT, request_digest TEXT);

CREATE INDEX invoices_created ON invoices (created_at, id);

CREATE INDEX invoices_customer ON invoices (customer_id, created_at);

CREATE INDEX invoices_gym ON invoices (gym_id, created_at);

CREATE UNIQUE INDEX invoices_idempotency_key ON invoices (staff_user_id, idempotency_key)
WHERE idempotency_key IS NOT NULL;

CREATE TRIGGER invoice_search_delete AFTER DELETE ON invoices BEGIN
  DELETE FROM invoice_search WHERE rowid = old.id;
END;

CREATE TRIGGER invoice_search_insert AFTER INSERT ON invoices BEGIN
  INSERT INTO invoice_search (rowid, invoice_number, description, email, first_name, last_name,
    preferred_name)
    SELECT invoice_id, invoice_number, description, email, first_name, last_name, preferred_name
    FROM invoice_search_source WHERE invoice_id = new.id;
END;

CREATE TRIGGER invoice_search_update AFTER UPDATE OF description, customer_id ON invoices BEGIN
  INSERT OR REPLACE INTO invoice_search (rowid, invoice_number, description, email, first_name,
    last_name, preferred_name)
    SELECT invoice_id, invoice_number, description, email, first_name, last_name, preferred_name
    FROM invoice_search_source WHERE invoice_id = new.id;
END;

-- member_day_counts

CREATE TABLE member_day_counts (
  day TEXT NOT NULL,
  set_id INTEGER NOT NULL,
  members INTEGER NOT NULL,
  PRIMARY KEY (day, set_id)
) WITHOUT ROWID;

-- member_holding_set_items

CREATE TABLE member_holding_set_items (
  set_id INTEGER NOT NULL,
  holding_id INTEGER NOT NULL,
  PRIMARY KEY (holding_id, set_id)
) WITHOUT ROWID;

-- member_holding_sets

CREATE TABLE member_holding_sets (
  id INTEGER PRIMARY KEY,
  holding_ids TEXT NOT NULL UNIQUE
);

-- membership_day_counts

CREATE TABLE membership_day_counts (
  day TEXT NOT NULL,
  holding_id INTEGER NOT NULL,
  memberships INTEGER NOT NULL,
  PRIMARY KEY (day, holding_id)
) WITHOUT ROWID;

-- membership_holdings

CREATE TABLE membership_holdings (
  id INTEGER PRIMARY KEY,
  membership_type_id INTEGER NOT NULL,
  billing_location_id INTEGER NOT NULL,
  discount_association_id INTEGER NOT NULL,
  status_class TEXT NOT NULL CHECK (status_class IN ('active', 'frozen', 'payment_failed')),
  UNIQUE (membership_type_id, billing_location_id, discount_association_id, status_class)
);

-- membership_member_add_ons

CREATE TABLE membership_member_add_ons (
  membership_member_id INTEGER NOT NULL REFERENCES membership_members (id),
  add_on_id TEXT NOT NULL REFERENCES add_ons (id),
  PRIMARY KEY (membership_member_id, add_on_id)
);

CREATE TRIGGER membership_member_add_ons_rollup_delete AFTER DELETE ON membership_member_add_ons BEGIN
  UPDATE membership_rollup_state SET dirty_from = min(coalesce(dirty_from, rolled_through), rolled_through)
    WHERE rolled_through IS NOT NULL;
END;

CREATE TRIGGER membership_member_add_ons_rollup_insert AFTER INSERT ON membership_member_add_ons BEGIN
  UPDATE membership_rollup_state SET dirty_from = min(coalesce(dirty_from, rolled_through), rolled_through)
    WHERE rolled_through IS NOT NULL;
END;

CREATE TRIGGER membership_member_add_ons_rollup_update AFTER UPDATE ON membership_member_add_ons BEGIN
  UPDATE membership_rollup_state SET dirty_from = min(coalesce(dirty_from, rolled_through), rolled_through)
    WHERE rolled_through IS NOT NULL;
END;

-- membership_members

CREATE TABLE membership_members (
  id INTEGER PRIMARY KEY,
  customer_membership_id INTEGER NOT NULL REFERENCES customer_memberships (id),
  customer_id INTEGER NOT NULL REFERENCES customers (id),
  is_frozen INTEGER NOT NULL DEFAULT 0 CHECK (is_frozen IN (0, 1)),
  UNIQUE (customer_membership_id, customer_id)
);

CREATE INDEX membership_members_customer ON membership_members (customer_id);

CREATE TRIGGER membership_members_rollup_delete AFTER DELETE ON membership_members BEGIN
  UPDATE membership_rollup_state SET dirty_from = min(coalesce(dirty_from, rolled_through), rolled_through)
    WHERE rolled_through IS NOT NULL;
END;

CREATE TRIGGER membership_members_rollup_insert AFTER INSERT ON membership_members BEGIN
  UPDATE membership_rollup_state SET dirty_from = min(coalesce(dirty_from, rolled_through), rolled_through)
    WHERE rolled_through IS NOT NULL;
END;

CREATE TRIGGER membership_members_rollup_update AFTER UPDATE OF customer_membership_id, customer_id ON membership_members BEGIN
  UPDATE membership_rollup_state SET dirty_from = min(coalesce(dirty_from, rolled_through), rolled_through)
    WHERE rolled_through IS NOT NULL;
END;

-- membership_rollup_state

CREATE TABLE membership_rollup_state (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  rolled_through TEXT,
  dirty_from TEXT
);

-- membership_status_changes

CREATE TABLE membership_status_changes (
  id INTEGER PRIMARY KEY,
  customer_membership_id INTEGER NOT NULL REFERENCES customer_memberships (id),
  member_customer_id INTEGER REFERENCES customers (id),
  from_status TEXT,
  to_status TEXT NOT NULL,
  changed_on TEXT NOT NULL,
  changed_by_id INTEGER REFERENCES staff_users (id),
  created_at TEXT NOT NULL
);

CREATE INDEX membership_status_changes_by_day
ON membership_status_changes (customer_membership_id, changed_on, id, to_status)
WHERE member_customer_id IS NULL;

CREATE INDEX membership_status_changes_day ON membership_status_changes (changed_on);

CREATE INDEX membership_status_changes_history
ON membership_status_changes (changed_on, from_status, to_status, customer_membership_id)
WHERE member_customer_id IS NULL;

CREATE INDEX membership_status_changes_membership ON membership_status_changes (customer_membership_id, id);

CREATE INDEX membership_status_changes_standing
ON membership_status_changes (customer_membership_id, member_customer_id, changed_on, id);

CREATE TRIGGER membership_status_changes_rollup_delete AFTER DELETE ON membership_status_changes BEGIN
  UPDATE membership_rollup_state SET dirty_from = min(coalesce(dirty_from, old.changed_on), old.changed_on)
    WHERE rolled_through IS NOT NULL;
END;

CREATE TRIGGER membership_status_changes_rollup_insert AFTER INSERT ON membership_status_changes BEGIN
  UPDATE membership_rollup_state SET dirty_from = min(coalesce(dirty_from, new.changed_on), new.changed_on)
    WHERE rolled_through IS NOT NULL;
END;

CREATE TRIGGER membership_status_changes_rollup_update AFTER UPDATE ON membership_status_changes BEGIN
  UPDATE membership_rollup_state SET dirty_from = min(coalesce(dirty_from, min(old.changed_on, new.changed_on)), min(old.changed_on, new.changed_on))
    WHERE rolled_through IS NOT NULL;
END;

-- membership_types

CREATE TABLE membership_types (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  description TEXT NOT NULL DEFAULT '',
  status TEXT NOT NULL CHECK (status IN ('DRA', 'ACT', 'RET')),
  purchase_type TEXT NOT NULL CHECK (purchase_type IN ('REC', 'PRE', 'BEN')),
  interval TEXT NOT NULL DEFAULT '' CHECK (interval IN ('', 'WEE', 'BWK', 'FWK', 'MON', 'QUA', 'HYR', 'YRL')),
  price_cents INTEGER NOT NULL DEFAULT 0,
  is_group INTEGER NOT NULL DEFAULT 0 CHECK (is_group IN (0, 1)),
  is_youth_programming INTEGER NOT NULL DEFAULT 0 CHECK (is_youth_programming IN (0, 1)),
  duration_years INTEGER,
  duration_months INTEGER,
  duration_days INTEGER,
  location_id INTEGER REFERENCES gyms (id),
  access_hours TEXT,
  guest_passes_per_month INTEGER NOT NULL DEFAULT 0,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
, tax_rate_id INTEGER REFERENCES tax_rates (id), revenue_account_code TEXT NOT NULL DEFAULT '');

-- organization

CREATE TABLE organization (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  name TEXT NOT NULL,
  time_zone TEXT NOT NULL,
  currency TEXT NOT NULL DEFAULT 'USD',
  waiver_required INTEGER NOT NULL DEFAULT 1 CHECK (waiver_required IN (0, 1)),
  milestones TEXT NOT NULL DEFAULT '[1,10,25,50,100,250,500,1000]',
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);

-- payment_line_shares

CREATE VIEW payment_line_shares AS
SELECT p.id AS payment_id, p.created_at, p.status, p.payment_type, p.amount_cents,
  p.processor_fee_cents, l.id AS line_id, l.purchase_type, i.gym_id,
  CASE
    WHEN l.purchase_type IN ('MIN', 'MRE', 'MFA', 'MFR', 'MAC') THEN coalesce(l.membership_type_id,
      (SELECT membership_type_id FROM customer_memberships WHERE id = l.customer_membership_id))
    WHEN l.purchase_type = 'EPA' THEN l.entry_pass_type_id
    WHEN l.purchase_type = 'BOO' THEN (SELECT event_type_id FROM events WHERE id = l.event_id)
    WHEN l.purchase_type = 'VPO' THEN l.voucher_pack_id
  END AS product_id,
  l.net_cents, l.net_cents + l.tax_cents AS line_total,
  (SELECT sum(net_cents + tax_cents) FROM invoice_line_items WHERE invoice_id = p.invoice_id)
    AS invoice_total
FROM payments p
JOIN invoices i ON i.id = p.invoice_id
JOIN invoice_line_items l ON l.invoice_id = p.invoice_id;

-- payments

CREATE TABLE payments (
  id INTEGER PRIMARY KEY,
  invoice_id INTEGER NOT NULL REFERENCES invoices (id),
  status TEXT NOT NULL CHECK (status IN ('PEN', 'PRO', 'COM', 'FAI', 'PRF', 'REF', 'CAN')),
  payment_type TEXT NOT NULL,
  payment_method_type TEXT NOT NULL DEFAULT 'NA',
  amount_cents INTEGER NOT NULL CHECK (amount_cents >= 0),
  amount_refunded_cents INTEGER NOT NULL DEFAULT 0 CHECK (amount_refunded_cents >= 0),
  processor_fee_cents INTEGER NOT NULL DEFAULT 0 CHECK (processor_fee_cents >= 0),
  failure_message TEXT NOT NULL DEFAULT '',
  credit_id INTEGER REFERENCES customer_credits (id),
  voucher_id INTEGER REFERENCES customer_event_vouchers (id),
  credit_card_last4 TEXT NOT NULL DEFAULT '',
  credit_card_brand TEXT NOT NULL DEFAULT '',
  bank_account_last4 TEXT NOT NULL DEFAULT '',
  bank_account_bank_name TEXT NOT NULL DEFAULT '',
  processor_a_payment_intent_id TEXT NOT NULL DEFAULT '',
  processor_b_external_transaction_id TEXT NOT NULL DEFAULT '',
  processor_b_unique_transaction_id TEXT NOT NULL DEFAULT '',
  processor_c_payment_link_name TEXT NOT NULL DEFAULT '',
  processor_c_payment_link_id TEXT NOT NULL DEFAULT '',
  processor_c_payment_id TEXT NOT NULL DEFAULT '',
  gift_card_number TEXT NOT NULL DEFAULT '',
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);

CREATE INDEX payments_created ON payments (created_at, id);

CREATE INDEX payments_invoice ON payments (invoice_id, status, created_at);

CREATE INDEX payments_status ON payments (status, created_at, id);

CREATE TRIGGER revenue_entries_paid AFTER UPDATE OF status ON payments
    WHEN new.status IN ('COM', 'PRF', 'REF') AND old.status NOT IN ('COM', 'PRF', 'REF') BEGIN
    INSERT INTO revenue_entries (at, payment_id, refund_id, line_id,
  purchase_type, product_id, gym_id, payment_type, amount, fee)
SELECT created_at, payment_id, 0, line_id, purchase_type, product_id, gym_id, payment_type,
  net_cents * CAST(amount_cents AS REAL) / invoice_total,
  line_total * CAST(processor_fee_cents AS REAL) / invoice_total
FROM payment_line_shares WHERE payment_id = new.id AND invoice_total > 0;
  END;

CREATE TRIGGER revenue_entries_payment AFTER INSERT ON payments
    WHEN new.status IN ('COM', 'PRF', 'REF') BEGIN
    INSERT INTO revenue_entries (at, payment_id, refund_id, line_id,
  purchase_type, product_id, gym_id, payment_type, amount, fee)
SELECT created_at, payment_id, 0, line_id, purchase_type, product_id, gym_id, payment_type,
  net_cents * CAST(amount_cents AS REAL) / invoice_total,
  line_total * CAST(processor_fee_cents AS REAL) / invoice_total
FROM payment_line_shares WHERE payment_id = new.id AND invoice_total > 0;
  END;

CREATE TRIGGER revenue_entries_unpaid AFTER UPDATE OF status ON payments
  WHEN old.status IN ('COM', 'PRF', 'REF') AND new.status NOT IN ('COM', 'PRF', 'REF') BEGIN
  DELETE FROM revenue_entries WHERE at = old.created_at AND payment_id = old.id AND refund_id = 0;
END;

-- product_first_uses

CREATE TABLE product_first_uses (
  customer_id INTEGER NOT NULL,
  product_type TEXT NOT NULL CHECK (product_type IN ('membership', 'entry_pass', 'event')),
  product_id INTEGER NOT NULL,
  used_at TEXT NOT NULL,
  -- the membership the first use was made with (membership products only)
  customer_membership_id INTEGER,
  PRIMARY KEY (customer_id, product_type, product_id)
) WITHOUT ROWID;

CREATE INDEX product_first_uses_by_day
ON product_first_uses (product_type, used_at, product_id, customer_id, customer_membership_id);

-- quick_sales

CREATE TABLE quick_sales (
  position INTEGER PRIMARY KEY CHECK (position BETWEEN 0 AND 7),
  purchase_type TEXT NOT NULL CHECK (purchase_type IN ('MIN', 'EPA', 'VPO')),
  product_id INTEGER NOT NULL,
  label TEXT NOT NULL
);

-- refunds

CREATE TABLE refunds (
  id INTEGER PRIMARY KEY,
  payment_id INTEGER NOT NULL REFERENCES payments (id),
  amount_cents INTEGER NOT NULL CHECK (amount_cents > 0),
  processor_fee_cents INTEGER NOT NULL DEFAULT 0 CHECK (processor_fee_cents >= 0),
  reason TEXT NOT NULL DEFAULT '',
  staff_user_id INTEGER REFERENCES staff_users (id),
  created_at TEXT NOT NULL
);

CREATE INDEX refunds_created ON refunds (created_at, id);

CREATE INDEX refunds_payment ON refunds (payment_id);

CREATE TRIGGER revenue_entries_refund AFTER INSERT ON refunds BEGIN
    INSERT INTO revenue_entries (at, payment_id,
  refund_id, line_id, purchase_type, product_id, gym_id, payment_type, amount, fee)
SELECT new.created_at, s.payment_id, new.id, s.line_id, s.purchase_type, s.product_id,
  s.gym_id, s.payment_type,
  -s.net_cents * CAST(new.amount_cents AS REAL) / s.invoice_total,
  s.line_total * CAST(new.processor_fee_cents AS REAL) / s.invoice_total
FROM payment_line_shares AS s WHERE s.payment_id = new.payment_id AND s.invoice_total > 0;
  END;

-- reservations

CREATE TABLE reservations (
  id INTEGER PRIMARY KEY,
  event_id INTEGER NOT NULL REFERENCES events (id),
  customer_id INTEGER NOT NULL REFERENCES customers (id),
  includes_entry INTEGER NOT NULL DEFAULT 1 CHECK (includes_entry IN (0, 1)),
  is_cancelled INTEGER NOT NULL DEFAULT 0 CHECK (is_cancelled IN (0, 1)),
  checked_in INTEGER NOT NULL DEFAULT 0 CHECK (checked_in IN (0, 1)),
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
, answers TEXT NOT NULL DEFAULT '[]', event_voucher_id INTEGER REFERENCES customer_event_vouchers (id));

CREATE INDEX reservations_created ON reservations (created_at);

CREATE INDEX reservations_customer ON reservations (customer_id, event_id);

CREATE INDEX reservations_event ON reservations (event_id);

-- revenue_entries

CREATE TABLE revenue_entries (
  at TEXT NOT NULL,
  payment_id INTEGER NOT NULL,
  refund_id INTEGER NOT NULL,
  line_id INTEGER NOT NULL,
  purchase_type TEXT NOT NULL,
  product_id INTEGER,
  gym_id INTEGER NOT NULL,
  payment_type TEXT NOT NULL,
  amount REAL NOT NULL,
  fee REAL NOT NULL,
  PRIMARY KEY (at, payment_id, refund_id, line_id)
) WITHOUT ROWID;

-- same_day_check_ins

CREATE TABLE same_day_check_ins (
  local_date TEXT NOT NULL,
  customer_id INTEGER NOT NULL,
  check_in_id INTEGER NOT NULL,
  PRIMARY KEY (local_date, customer_id, check_in_id)
) WITHOUT ROWID;

-- schema_migrations

CREATE TABLE schema_migrations (
  name TEXT PRIMARY KEY NOT NULL,
  applied_at TEXT NOT NULL
);

-- sections

CREATE TABLE sections (
  id INTEGER PRIMARY KEY,
  gym_id INTEGER NOT NULL REFERENCES gyms (id),
  name TEXT NOT NULL COLLATE NOCASE,
  discipline TEXT NOT NULL CHECK (discipline IN ('BOU', 'ROP', 'MIX')),
  sort_order INTEGER NOT NULL DEFAULT 0,
  description TEXT NOT NULL DEFAULT '',
  is_active INTEGER NOT NULL DEFAULT 1 CHECK (is_active IN (0, 1)),
  last_reset_date TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);

CREATE UNIQUE INDEX sections_name ON sections (gym_id, name);

-- staff_users

CREATE TABLE staff_users (
  id INTEGER PRIMARY KEY,
  email TEXT NOT NULL UNIQUE COLLATE NOCASE,
  first_name TEXT NOT NULL DEFAULT '',
  last_name TEXT NOT NULL DEFAULT '',
  default_gym_id INTEGER NOT NULL REFERENCES gyms (id),
  date_joined TEXT NOT NULL,
  is_active INTEGER NOT NULL CHECK (is_active IN (0, 1)),
  can_manage_events INTEGER NOT NULL CHECK (can_manage_events IN (0, 1)),
  can_manage_members INTEGER NOT NULL CHECK (can_manage_members IN (0, 1)),
  can_manage_customer_proficiencies INTEGER NOT NULL CHECK (can_manage_customer_proficiencies IN (0, 1)),
  can_export_customers INTEGER NOT NULL CHECK (can_export_customers IN (0, 1)),
  can_access_reports INTEGER NOT NULL CHECK (can_access_reports IN (0, 1)),
  is_organization_admin INTEGER NOT NULL CHECK (is_organization_admin IN (0, 1)),
  pin_mode_required INTEGER NOT NULL DEFAULT 0 CHECK (pin_mode_required IN (0, 1)),
  password_hash TEXT,
  pin_hash TEXT
, can_manage_climbs INTEGER NOT NULL DEFAULT 0
  CHECK (can_manage_climbs IN (0, 1)));

CREATE INDEX staff_users_default_gym ON staff_users (default_gym_id);

-- sync_applied

CREATE TABLE sync_applied (
  site TEXT PRIMARY KEY,
  change_seq INTEGER NOT NULL
) WITHOUT ROWID;

-- sync_clocks

CREATE TABLE sync_clocks (
  table_name TEXT NOT NULL,
  row_key TEXT NOT NULL,
  column_name TEXT NOT NULL,
  hlc TEXT NOT NULL,
  site TEXT NOT NULL,
  PRIMARY KEY (table_name, row_key, column_name)
) WITHOUT ROWID;

-- sync_conflicts

CREATE TABLE sync_conflicts (
  id INTEGER PRIMARY KEY,
  detected_at TEXT NOT NULL,
  table_name TEXT NOT NULL,
  column_names TEXT NOT NULL,
  value TEXT NOT NULL,
  kept_row_key TEXT NOT NULL,
  lost_row_key TEXT NOT NULL,
  lost_site TEXT NOT NULL,
  resolution TEXT NOT NULL CHECK (resolution IN ('cleared', 'refused', 'not applied'))
);

CREATE INDEX sync_conflicts_lost ON sync_conflicts (table_name, lost_row_key);

-- sync_outbox

CREATE TABLE sync_outbox (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  tx INTEGER NOT NULL,
  hlc TEXT NOT NULL,
  table_name TEXT NOT NULL,
  op TEXT NOT NULL CHECK (op IN ('insert', 'update', 'delete')),
  row_key TEXT NOT NULL,
  old_values TEXT,
  new_values TEXT
);

-- sync_state

CREATE TABLE sync_state (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  site TEXT NOT NULL,
  database_id TEXT NOT NULL,
  site_number INTEGER NOT NULL CHECK (site_number BETWEEN 1 AND 1023),
  hub_organization TEXT NOT NULL,
  tx INTEGER NOT NULL DEFAULT 0,
  hlc TEXT NOT NULL,
  applying INTEGER NOT NULL DEFAULT 0 CHECK (applying IN (0, 1)),
  applied_stream_sequence INTEGER NOT NULL DEFAULT 0,
  stopped_reason TEXT
);

-- tax_rates

CREATE TABLE tax_rates (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  rate_basis_points INTEGER NOT NULL CHECK (rate_basis_points >= 0 AND rate_basis_points < 10000),
  is_active INTEGER NOT NULL DEFAULT 1 CHECK (is_active IN (0, 1)),
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);

-- voucher_packs

CREATE TABLE voucher_packs (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('DRA', 'ACT', 'RET')),
  event_type_id INTEGER NOT NULL REFERENCES event_types (id),
  number_of_uses INTEGER NOT NULL CHECK (number_of_uses >= 1),
  valid_days INTEGER,
  price_cents INTEGER NOT NULL DEFAULT 0,
  tax_rate_id INTEGER REFERENCES tax_rates (id),
  revenue_account_code TEXT NOT NULL DEFAULT '',
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);

-- waitlist_entries

CREATE TABLE waitlist_entries (
  id INTEGER PRIMARY KEY,
  event_id INTEGER NOT NULL REFERENCES events (id),
  customer_id INTEGER NOT NULL REFERENCES customers (id),
  answers TEXT NOT NULL DEFAULT '[]',
  status TEXT NOT NULL DEFAULT 'WAI' CHECK (status IN ('WAI', 'PRO', 'CAN')),
  reservation_id INTEGER REFERENCES reservations (id),
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);

CREATE INDEX waitlist_entries_customer ON waitlist_entries (customer_id);

CREATE INDEX waitlist_entries_event ON waitlist_entries (event_id, status, created_at);

-- waiver_signatures

CREATE TABLE waiver_signatures (
  document_id INTEGER PRIMARY KEY REFERENCES customer_documents (id),
  waiver_text_id INTEGER NOT NULL REFERENCES waiver_texts (id),
  first_name TEXT NOT NULL,
  last_name TEXT NOT NULL,
  birthday TEXT NOT NULL,
  email TEXT NOT NULL,
  telephone TEXT NOT NULL,
  guardian_name TEXT NOT NULL,
  signed_at TEXT NOT NULL,
  staff_user_id INTEGER REFERENCES staff_users (id)
);

-- waiver_texts

CREATE TABLE waiver_texts (
  id INTEGER PRIMARY KEY,
  text TEXT NOT NULL,
  valid_for_days INTEGER CHECK (valid_for_days IS NULL OR valid_for_days > 0),
  created_at TEXT NOT NULL,
  created_by_user_id INTEGER REFERENCES staff_users (id)
);

-- webhook_deliveries

CREATE TABLE webhook_deliveries (
  id INTEGER PRIMARY KEY,
  webhook_event_id INTEGER NOT NULL REFERENCES webhook_events (id) ON DELETE CASCADE,
  attempt INTEGER NOT NULL,
  attempted_at TEXT NOT NULL,
  status_code INTEGER,
  error TEXT NOT NULL DEFAULT '',
  duration_ms INTEGER NOT NULL,
  response_body TEXT NOT NULL DEFAULT ''
);

CREATE INDEX webhook_deliveries_event ON webhook_deliveries (webhook_event_id, id);

-- webhook_events

CREATE TABLE webhook_events (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  webhook_id INTEGER NOT NULL REFERENCES webhooks (id) ON DELETE CASCADE,
  event_type TEXT NOT NULL,
  body TEXT NOT NULL,
  status TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'delivered', 'failed')),
  attempts INTEGER NOT NULL DEFAULT 0,
  next_attempt_at TEXT NOT NULL,
  delivered_at TEXT,
  created_at TEXT NOT NULL
);

CREATE INDEX webhook_events_pending ON webhook_events (status, webhook_id, id);

-- webhooks

CREATE TABLE webhooks (
  id INTEGER PRIMARY KEY,
  event_type TEXT NOT NULL CHECK (event_type IN ('check_in')),
  webhook_url TEXT NOT NULL,
  secret TEXT NOT NULL DEFAULT '',
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
