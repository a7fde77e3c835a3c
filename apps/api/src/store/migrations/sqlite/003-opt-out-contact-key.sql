-- An email opt-out covers the mailbox, not one spelling of it: each stored email opt-out is also
-- recorded under its contact key (as new opt-outs are), so `ana+1@gmail.com` opting out stops
-- sends to `ana@gmail.com` and `ana+2@gmail.com` too.
INSERT OR IGNORE INTO opt_outs (business_id, contact, created_at)
  SELECT business_id, email_contact_key(contact), created_at FROM opt_outs WHERE contact LIKE '%@%';
