import type { Socket } from 'node:net';

const WRITE_METHODS = ['_write', '_writev'] as const;
type Writes = Record<(typeof WRITE_METHODS)[number], (...args: unknown[]) => unknown>;

export interface SocketWrites {
  /** Writes counted since the start or the last `reset()`. */
  readonly count: number;
  reset(): void;
  /** Puts the socket's own write methods back; the count stays as it was. */
  stop(): void;
}

/**
 * Counts the writes that reach `target`: one socket, or `Socket.prototype` for every socket of this process.
 * Counted below the stream's buffering, so a corked batch is one write: what a pipeline sends together.
 */
export function countSocketWrites(target: Socket): SocketWrites {
  const methods = target as unknown as Writes;
  let count = 0;
  const restores = WRITE_METHODS.map((method) => {
    // A single socket inherits its methods: stopping removes the wrapper rather than copying them onto it.
    const own = Object.getOwnPropertyDescriptor(methods, method);
    const original = methods[method];
    methods[method] = function (this: Socket, ...args: unknown[]) {
      count += 1;
      return original.apply(this, args);
    };
    return () => (own ? Object.defineProperty(methods, method, own) : delete methods[method]);
  });
  return {
    get count() {
      return count;
    },
    reset() {
      count = 0;
    },
    stop() {
      for (const restore of restores) restore();
    },
  };
}
