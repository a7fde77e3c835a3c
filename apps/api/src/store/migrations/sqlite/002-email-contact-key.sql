-- The frequency cap counts an email address under its contact key (packages/shared contact.ts:
-- lower case; for providers that ignore it, the +tag dropped; for Gmail also the dots), so
-- `ana+1@gmail.com` is capped after `ana@gmail.com`. customer_email keeps the address as given:
-- it is where the message went. Rows already stored are keyed here, from their address.
ALTER TABLE requests ADD COLUMN email_key TEXT;
UPDATE requests SET email_key = email_contact_key(customer_email) WHERE customer_email IS NOT NULL;
DROP INDEX requests_email;
CREATE INDEX requests_email_key ON requests (business_id, email_key, created_at) WHERE email_key IS NOT NULL;
