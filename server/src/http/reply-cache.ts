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
}

/**
 * The replies of reads, sent again while the store has not changed. Each read first takes the store's committed
 * version (`Store.committedVersion`): while it is the one the remembered replies were read at, a reply remembered
 * for the same request is sent as it is; when it has moved (a write committed anywhere), every remembered reply is
 * forgotten. A reply is remembered at the version taken before its read, so a write committed between the two only
 * makes it one that no later read will match: a read never answers with data older than its own start.
 * Only replies that depend on nothing but the request and the stored data may be kept here (`REUSABLE_REPLIES`).
 */
export class ReplyCache {
  readonly #committedVersion: () => string;
  readonly #bodies: boolean;
  readonly #maxReplies: number;
  #version: string | undefined;
  readonly #replies = new Map<string, TextReply>();

  constructor(committedVersion: () => string, { bodies = false, maxReplies = MAX_REPLIES }: ReplyCacheOptions = {}) {
    this.#committedVersion = committedVersion;
    this.#bodies = bodies;
    this.#maxReplies = maxReplies;
  }

  /** The reply to the request `key` names: remembered from a read since the last commit, or `read` now. */
  async reply(key: string, read: () => Promise<StoredReply>): Promise<TextReply | StoredReply> {
    const version = this.#committedVersion();
    if (version !== this.#version) {
      this.#version = version;
      this.#replies.clear();
    } else {
      const remembered = this.#replies.get(key);
      if (remembered) return this.#bodies ? withBody(remembered) : remembered;
    }
    const fresh = await read();
    const reply = asText(fresh);
    // Another read may have seen a newer version meanwhile: then this one is already out of date to keep.
    if (this.#version === version) this.#remember(key, reply);
    return this.#bodies ? fresh : reply;
  }

  #remember(key: string, reply: TextReply): void {
    if (this.#replies.size >= this.#maxReplies) {
      const oldest = this.#replies.keys().next();
      if (!oldest.done) this.#replies.delete(oldest.value);
    }
    this.#replies.set(key, reply);
  }
}

/** A kept reply with its body made anew from its JSON, so that nothing done to one answer reaches the next. */
function withBody({ json, ...reply }: TextReply): StoredReply {
  return { ...reply, body: json === undefined ? undefined : JSON.parse(json) };
}
