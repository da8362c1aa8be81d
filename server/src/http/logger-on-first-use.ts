import type { Logger } from 'pino';

/**
 * An object whose `log` is made on first read: most requests never log beyond their access line, and building a
 * child logger for each would cost more than the request.
 *
 * A class, so that the getter is one function on one prototype. Written as a getter in an object literal, it was a
 * new function for every request, which gave every such object a hidden class of its own; the young-generation
 * collector kept each of those classes alive, and through the getter's closure the whole request, until the next
 * full collection: about a fifth of everything a request allocated was copied and promoted, and each collection
 * paused the thread for 10 to 40 ms instead of under one.
 */
export class LoggerOnFirstUse {
  readonly #make: () => Logger;
  #log: Logger | undefined;

  constructor(make: () => Logger) {
    this.#make = make;
  }

  get log(): Logger {
    this.#log ??= this.#make();
    return this.#log;
  }
}
