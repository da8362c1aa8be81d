/**
 * What `format: uuid` accepts in this contract (info: Query strings): the 36-character hyphenated form of RFC 9562,
 * in any letter case. ajv-formats' own `uuid` also accepts a `urn:uuid:` prefix, which names no record here: the
 * server's validator and the conformance suite's use this one instead.
 */
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
