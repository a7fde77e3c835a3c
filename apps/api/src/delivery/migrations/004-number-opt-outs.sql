-- A STOP texted to one of the service's numbers (or Messaging Services) opts the phone out of that
-- sender, for every business that sends from it, now and later — also when no business had texted
-- the phone yet. START opts it in again. Each row keeps the message that set it (Twilio's
-- MessageSid and the time Twilio received it): a message is applied at most once, and an older
-- one never undoes a newer one (docs/api.md, "STOP and START"). The older per-business rows of
-- sms_opt_outs (STOPs recorded before, and opt-outs the carrier reported) still refuse.
CREATE TABLE sms_number_opt_outs (
  sender TEXT NOT NULL,
  phone TEXT NOT NULL,
  opted_out INTEGER NOT NULL CHECK (opted_out IN (0, 1)),
  message_sid TEXT NOT NULL,
  message_at {{bigint}} NOT NULL,
  updated_at {{bigint}} NOT NULL,
  PRIMARY KEY (sender, phone)
) {{strict-without-rowid}};
