import { asText, type TextReply } from '../write-thread.ts';
import type { StoredReply } from './idempotency.ts';

/** Replies remembered at once, at most; the oldest goes first. Each is one read's JSON, a kilobyte or two. */
const MAX_REPLIES = 1_000;

export interface ReplyCacheOptions {
  /**
   * Answer with the body as an object, made anew from the kept JSON for each request: responses are checked
   * against the contract (`VALIDATE_RESPONSES=true`), which express-openapi-validator does on the object sent.
   */
  bodies?: boolean;
  maxReplies?: number;
  /**
   * Where taking the version costs a round trip (PostgreSQL), a check that misses costs its read one more: while
   * fewer than three in four of the last checks hit, the cache pauses (`CheckingPays`).
   */
  pauseWhileMissing?: boolean;
}

/**
 * The replies of reads, sent again while the store has not changed. Each read first takes the store's committed
 * version (`Store.committedVersion`): while it is the one the remembered replies were read at, a reply remembered
 * for the same request is sent as it is; when it has moved (a write committed anywhere), every remembered reply is
 * forgotten. A reply is remembered at the version taken before its read (on PostgreSQL, answered before the read is
 * sent), so a write committed between the two only makes it one that no later read will match: a read never
 * answers with data older than its own start.
 * Only replies that depend on nothing but the request and the stored data may be kept here (`REUSABLE_REPLIES`).
 */
export class ReplyCache {
  readonly #committedVersion: () => string | Promise<string>;
  readonly #bodies: boolean;
  readonly #maxReplies: number;
  readonly #checking: CheckingPays | undefined;
  #version: string | undefined;
  readonly #replies = new Map<string, TextReply>();
  /** Reads on their way, by request: a request at the same version waits for one instead of reading again. */
  readonly #pending = new Map<string, PendingRead>();

  constructor(
    committedVersion: () => string | Promise<string>,
    { bodies = false, maxReplies = MAX_REPLIES, pauseWhileMissing = false }: ReplyCacheOptions = {},
  ) {
    this.#committedVersion = committedVersion;
    this.#bodies = bodies;
    this.#maxReplies = maxReplies;
    this.#checking = pauseWhileMissing ? new CheckingPays() : undefined;
  }

  /** The reply to the request `key` names: remembered from a read since the last commit, or `read` now. */
  async reply(key: string, read: () => Promise<StoredReply>): Promise<TextReply | StoredReply> {
    if (this.#checking?.paused()) return read();
    // The embedded store's version is at hand: no turn of the event loop is spent waiting for it.
    const taken = this.#committedVersion();
    const version = typeof taken === 'string' ? taken : await taken;
    if (version !== this.#version) {
      this.#version = version;
      this.#replies.clear();
    }
    const remembered = this.#replies.get(key);
    const pending = this.#pending.get(key);
    this.#checking?.checked(remembered !== undefined || pending?.version === version);
    if (remembered) return this.#bodies ? withBody(remembered) : remembered;
    if (pending?.version === version) return this.#shared(pending, read);
    const reading = read();
    const text = reading.then(asText);
    // What a request at the same version gets while this read is on its way: its reply, or nothing if it fails.
    const shared: PendingRead = { version, text: text.catch(() => undefined) };
    this.#pending.set(key, shared);
    try {
      const fresh = await reading;
      const reply = await text;
      // Another read may have seen a newer version meanwhile: then this one is already out of date to keep.
      if (this.#version === version) this.#remember(key, reply);
      return this.#bodies ? fresh : reply;
    } finally {
      if (this.#pending.get(key) === shared) this.#pending.delete(key);
    }
  }

  /**
   * The reply of a read of the same request begun at the same version, which no commit has changed since: sent
   * as it is when it comes, as a remembered one would be. Should that read fail, this request reads for itself.
   */
  async #shared(pending: PendingRead, read: () => Promise<StoredReply>): Promise<TextReply | StoredReply> {
    const reply = await pending.text;
    if (reply === undefined) return read();
    return this.#bodies ? withBody(reply) : reply;
  }

  #remember(key: string, reply: TextReply): void {
    if (this.#replies.size >= this.#maxReplies) {
      const oldest = this.#replies.keys().next();
      if (!oldest.done) this.#replies.delete(oldest.value);
    }
    this.#replies.set(key, reply);
  }
}

interface PendingRead {
  version: string;
  text: Promise<TextReply | undefined>;
}

/** Checks judged together; below HITS_THAT_PAY hits among them, checking is paused for PAUSED_READS reads. */
const JUDGED_CHECKS = 64;
const HITS_THAT_PAY = (JUDGED_CHECKS * 3) / 4;
const PAUSED_READS = 4_096;

/**
 * Whether checking the version pays where it costs a round trip. A hit saves the read's work (on PostgreSQL the row,
 * its decoding and its JSON) but not a round trip: measured, a GET that hits costs 0.6-0.7 of one that reads. A
 * miss costs the check's round trip on top of the read. So checking pays only while about three checks in four
 * hit; while writes keep moving the version (creates among the reads) fewer do, and the next reads run without the
 * cache, as if it were not there, checking again after them.
 */
export class CheckingPays {
  #checks = 0;
  #hits = 0;
  #pausedFor = 0;

  /** Whether this read goes without the cache (and counts down the pause). */
  paused(): boolean {
    if (this.#pausedFor === 0) return false;
    this.#pausedFor -= 1;
    return true;
  }

  checked(hit: boolean): void {
    this.#checks += 1;
    if (hit) this.#hits += 1;
    if (this.#checks < JUDGED_CHECKS) return;
    if (this.#hits < HITS_THAT_PAY) this.#pausedFor = PAUSED_READS;
    this.#checks = 0;
    this.#hits = 0;
  }
}

/** A kept reply with its body made anew from its JSON, so that nothing done to one answer reaches the next. */
function withBody({ json, ...reply }: TextReply): StoredReply {
  return { ...reply, body: json === undefined ? undefined : JSON.parse(json) };
}
