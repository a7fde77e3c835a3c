-- How many calls the last statement let through: the calls of one user that arrive in the same
-- turn of the event loop are counted by one UPSERT (user-rate.ts), which grants the first so many.
ALTER TABLE user_rate ADD COLUMN granted INTEGER NOT NULL DEFAULT 0;
