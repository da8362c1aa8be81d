-- PostgreSQL only (the embedded store's connections define new_id() themselves: server/src/db/database.ts).
-- The ids a statement makes (the outbox's deliveries, one per subscribed webhook) are UUIDs of version 7, as
-- every id the server assigns (server/src/domain/new-id.ts): a random UUID whose first 48 bits are replaced by
-- the time in milliseconds and whose version nibble is set to 7 (bits 52 and 53; the variant stays).
CREATE OR REPLACE FUNCTION new_id() RETURNS text LANGUAGE sql VOLATILE AS $$ SELECT encode(set_bit(set_bit(overlay(uuid_send(gen_random_uuid()) PLACING substring(int8send(floor(extract(epoch FROM clock_timestamp()) * 1000)::bigint) FROM 3) FROM 1 FOR 6), 52, 1), 53, 1), 'hex')::uuid::text $$;
