/** How a `DeliveryQueue` treats its items. */
export interface DeliveryQueueOptions<T> {
  /** Items that may be dropped when `capacity` of them are waiting (progress, §8.3). */
  readonly droppable: (item: T) => boolean;
  /** How many droppable items may wait; default none dropped. */
  readonly capacity: number;
  /** How many items of any kind may wait before the consumer counts as gone. */
  readonly maxPending: number;
  /** Called once when the consumer is given up on (`maxPending` exceeded). */
  readonly onOverflow?: () => void;
}

/**
 * An ordered, non-blocking hand-over to one consumer (spec §8.3 `try_send` on a channel of 64).
 * `push` never waits and never throws. A consumer that returns synchronously gets each item at
 * once; one that returns a promise gets the next item when it settles, and meanwhile items wait:
 * droppable ones up to `capacity` (then new ones are dropped), the others up to `maxPending`
 * (then the consumer is given up on). A throw or rejection only loses that item. Items are
 * delivered in the order pushed, so a final update pushed after the progress it follows is always
 * delivered after it.
 */
export class DeliveryQueue<T> {
  readonly #consumer: (item: T) => unknown;
  readonly #options: DeliveryQueueOptions<T>;
  readonly #waiting: T[] = [];
  #waitingDroppable = 0;
  #delivering = false;
  #closed = false;
  #dropped = 0;

  constructor(consumer: (item: T) => unknown, options: DeliveryQueueOptions<T>) {
    this.#consumer = consumer;
    this.#options = options;
  }

  /** Items dropped so far because the queue was full. */
  get dropped(): number {
    return this.#dropped;
  }

  /** Whether the consumer was given up on, or `close` was called. */
  get closed(): boolean {
    return this.#closed;
  }

  push(item: T): void {
    if (this.#closed) return;
    const droppable = this.#options.droppable(item);
    if (droppable && this.#waitingDroppable >= this.#options.capacity) {
      this.#dropped += 1;
      return;
    }
    if (this.#waiting.length >= this.#options.maxPending) {
      this.close();
      this.#options.onOverflow?.();
      return;
    }
    this.#waiting.push(item);
    if (droppable) this.#waitingDroppable += 1;
    this.#deliver();
  }

  /** Stops delivering; waiting items are discarded. */
  close(): void {
    this.#closed = true;
    this.#waiting.length = 0;
    this.#waitingDroppable = 0;
  }

  #deliver(): void {
    if (this.#delivering) return;
    this.#delivering = true;
    while (!this.#closed && this.#waiting.length > 0) {
      const item = this.#waiting.shift() as T;
      if (this.#options.droppable(item)) this.#waitingDroppable -= 1;
      let returned: unknown;
      try {
        returned = this.#consumer(item);
      } catch {
        continue;
      }
      if (isThenable(returned)) {
        const resume = (): void => {
          this.#delivering = false;
          this.#deliver();
        };
        returned.then(resume, resume);
        return;
      }
    }
    this.#delivering = false;
  }
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (typeof value === 'object' || typeof value === 'function') && value !== null && typeof (value as { then?: unknown }).then === 'function';
}
