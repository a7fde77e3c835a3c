-- A business's own settings (GET/PUT /api/v1/settings). One row per business, written by its
-- first PUT; a NULL column follows the service's default (the configuration or the built-in words).
-- The review site address is the business's own column (businesses.review_url).
CREATE TABLE business_settings (
  business_id {{bigint}} PRIMARY KEY,
  sms_template TEXT,
  email_subject TEXT,
  email_template TEXT,
  reminder_after_days INTEGER CHECK (reminder_after_days BETWEEN 0 AND 14),
  -- `HH:MM-HH:MM`, or `off` (any hour).
  quiet_hours TEXT,
  time_zone TEXT,
  updated_at {{bigint}} NOT NULL
) {{strict}};
