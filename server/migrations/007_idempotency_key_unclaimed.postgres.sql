-- PostgreSQL only (the embedded store runs its writes one at a time and claims a key before the write).
-- A write with an Idempotency-Key sends its claim ahead, unanswered (server/src/http/idempotency-store.ts ›
-- claimingAhead); when the key is taken or in use the claim fails with this function's SQLSTATE, which fails the
-- transaction, and the write runs again claiming first. SFK01 is ours: the class SF is not PostgreSQL's.
CREATE OR REPLACE FUNCTION idempotency_key_unclaimed() RETURNS integer LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'Idempotency-Key not claimed: taken or in use' USING ERRCODE = 'SFK01'; END $$;
