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
    // One in delivery and three waiting is the most it holds; the next push gives up.
    for (let n = 0; n < 4; n += 1) queue.push({ kind: 'final', n });
    expect(queue.closed).toBe(false);
    queue.push({ kind: 'final', n: 4 });
    expect(queue.closed).toBe(true);
    for (let n = 5; n < 10; n += 1) queue.push({ kind: 'final', n });
    expect(overflowed).toBe(1);
    // Without an overflow callback, giving up is silent too.
    const silent = new DeliveryQueue<Item>(() => new Promise(() => undefined), { ...options, maxPending: 1 });
    expect(() => {
      for (let n = 0; n < 5; n += 1) silent.push({ kind: 'final', n });
    }).not.toThrow();
    expect(silent.closed).toBe(true);
  });

  it('only progress counts against the 64: waiting final items neither use nor free its room', async () => {
    const releases: (() => void)[] = [];
    const seen: Item[] = [];
    const queue = new DeliveryQueue<Item>((item) => {
      seen.push(item);
      return new Promise<void>((resolve) => releases.push(resolve));
    }, options);
    // Ten final items go through one by one.
    for (let n = 0; n < 10; n += 1) queue.push({ kind: 'final', n });
    for (let step = 0; step < 9; step += 1) {
      releases.shift()?.();
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(seen).toHaveLength(10);
    // The last one is still being taken: 64 progress items wait, the rest are dropped.
    for (let n = 10; n < 80; n += 1) queue.push({ kind: 'progress', n });
    expect(queue.dropped).toBe(6);
    // Final items waiting meanwhile do not take progress room either.
    const other = new DeliveryQueue<Item>(() => new Promise(() => undefined), options);
    for (let n = 0; n < 11; n += 1) other.push({ kind: 'final', n });
    for (let n = 11; n < 81; n += 1) other.push({ kind: 'progress', n });
    expect(other.dropped).toBe(6);
  });

  it('only a thenable makes it wait: null, objects and numbers do not', async () => {
    const seen: number[] = [];
    const answers: unknown[] = [null, {}, { then: 'not a function' }, 7, 'text'];
    const queue = new DeliveryQueue<Item>((item) => {
      seen.push(item.n);
      return answers[item.n];
    }, options);
    for (let n = 0; n < answers.length; n += 1) expect(() => queue.push({ kind: 'final', n })).not.toThrow();
    expect(seen).toEqual([0, 1, 2, 3, 4]);
    // A function with a `then` is a thenable too.
    let resume = (): void => undefined;
    const thenableFunction = Object.assign(() => undefined, { then: (onSettled: () => void) => (resume = onSettled) });
    const waits: number[] = [];
    const waiting = new DeliveryQueue<Item>((item) => {
      waits.push(item.n);
      return item.n === 0 ? thenableFunction : undefined;
    }, options);
    waiting.push({ kind: 'final', n: 0 });
    waiting.push({ kind: 'final', n: 1 });
    expect(waits).toEqual([0]);
    resume();
    expect(waits).toEqual([0, 1]);
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
