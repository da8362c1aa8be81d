import type { Logger } from 'pino';

/**
 * An object whose `log` is made on first read: most requests never log beyond their access line, and building a
 * child logger for each would cost more than the request.
 *
 * A class, so that the getter is one function on one prototype. Written as a getter in an object literal, it was a
 * new function for every request, and V8's young-generation collections kept it alive, and through the getter's
 * closure the whole request, until the next full collection (measured with `--trace-gc-nvp`, even at one
 * connection: 13% of what GETs allocated was copied and promoted, and each collection paused the thread for
 * 10-25 ms instead of 1-3). The objects still share one hidden class; what V8 keeps them by was not traced.
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
