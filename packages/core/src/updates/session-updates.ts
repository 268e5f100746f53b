import { DeliveryQueue } from './delivery-queue.js';
import { MAX_PENDING_UPDATES, PROGRESS_QUEUE_CAPACITY } from './progress-queue-capacity.js';
import type { SessionUpdate, SessionUpdateListener } from './session-update.js';

/**
 * The subscribers of one session. Each has its own ordered queue, so a slow subscriber only
 * loses its own progress (§8.3) and never holds up a call, the turn or another subscriber.
 */
export class SessionUpdates {
  readonly #queues = new Set<DeliveryQueue<SessionUpdate>>();

  /** Adds `listener`; the returned function removes it (calling it twice is harmless). */
  subscribe(listener: SessionUpdateListener): () => void {
    const queue: DeliveryQueue<SessionUpdate> = new DeliveryQueue(listener, {
      droppable: (update) => update.type === 'tool_call_progress',
      capacity: PROGRESS_QUEUE_CAPACITY,
      maxPending: MAX_PENDING_UPDATES,
      onOverflow: () => this.#queues.delete(queue),
    });
    this.#queues.add(queue);
    return () => {
      queue.close();
      this.#queues.delete(queue);
    };
  }

  /** Hands `update` to every subscriber; never waits, never throws. */
  publish(update: SessionUpdate): void {
    for (const queue of [...this.#queues]) queue.push(update);
  }

  get subscriberCount(): number {
    return this.#queues.size;
  }
}
