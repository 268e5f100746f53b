import { describe, expect, it } from 'vitest';
import { DeliveryQueue } from './delivery-queue.js';

type Item = { readonly kind: 'progress' | 'final'; readonly n: number };
const options = { droppable: (item: Item) => item.kind === 'progress', capacity: 64, maxPending: 1000 };

describe('DeliveryQueue (§8.3: a channel of 64, try_send)', () => {
  it('a synchronous consumer gets every item at once, in order', () => {
    const seen: number[] = [];
    const queue = new DeliveryQueue<Item>((item) => {
      seen.push(item.n);
    }, options);
    for (let n = 0; n < 200; n += 1) queue.push({ kind: 'progress', n });
    expect(seen).toEqual(Array.from({ length: 200 }, (_, n) => n));
    expect(queue.dropped).toBe(0);
  });

  it('a slow consumer: 64 progress items wait, newer ones are dropped, a final item is never dropped and comes after them', async () => {
    const seen: Item[] = [];
    let release = (): void => undefined;
    const queue = new DeliveryQueue<Item>((item) => {
      seen.push(item);
      if (item.n === 0) return new Promise<void>((resolve) => (release = resolve));
      return undefined;
    }, options);
    for (let n = 0; n < 100; n += 1) queue.push({ kind: 'progress', n }); // 0 in delivery, 1–64 wait, 65–99 dropped
    queue.push({ kind: 'final', n: 100 });
    expect(seen.map((item) => item.n)).toEqual([0]);
    expect(queue.dropped).toBe(35);
    release();
    await new Promise((resolve) => setImmediate(resolve));
    expect(seen.map((item) => item.n)).toEqual([...Array.from({ length: 65 }, (_, n) => n), 100]);
  });

  it('a consumer that throws or rejects loses only that item; push never throws', async () => {
    const seen: number[] = [];
    const queue = new DeliveryQueue<Item>((item) => {
      seen.push(item.n);
      if (item.n % 2 === 0) throw new Error('socket closed');
      return Promise.reject(new Error('write after end'));
    }, options);
    for (let n = 0; n < 5; n += 1) expect(() => queue.push({ kind: 'final', n })).not.toThrow();
    await new Promise((resolve) => setImmediate(resolve));
    expect(seen).toEqual([0, 1, 2, 3, 4]);
  });

  it('a consumer that never settles is given up on once too much waits for it', () => {
    let overflowed = 0;
    const queue = new DeliveryQueue<Item>(() => new Promise(() => undefined), { ...options, maxPending: 3, onOverflow: () => (overflowed += 1) });
    for (let n = 0; n < 10; n += 1) queue.push({ kind: 'final', n });
    expect(queue.closed).toBe(true);
    expect(overflowed).toBe(1);
  });

  it('an item pushed by the consumer itself is delivered after the current one', () => {
    const seen: number[] = [];
    const queue: DeliveryQueue<Item> = new DeliveryQueue<Item>((item) => {
      seen.push(item.n);
      if (item.n === 1) queue.push({ kind: 'final', n: 3 });
    }, options);
    queue.push({ kind: 'final', n: 1 });
    queue.push({ kind: 'final', n: 2 });
    expect(seen).toEqual([1, 3, 2]);
  });
});
