import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FileSystemError, NodeFileSystem, WriteLocks } from './index.js';
import { createTemporaryDirectory } from './test-support/temporary-directory.js';

const fileSystem = new NodeFileSystem();
let directory: { path: string; remove(): Promise<void> };
beforeEach(async () => {
  directory = await createTemporaryDirectory();
});
afterEach(async () => {
  await directory.remove();
});

/** Read the counter, yield to the event loop like real work would, write counter + 1. */
async function increment(path: string): Promise<void> {
  const value = Number(Buffer.from(await fileSystem.readFile(path)).toString());
  await new Promise((resolve) => setImmediate(resolve));
  await fileSystem.atomicWrite(path, String(value + 1));
}

describe('WriteLocks', () => {
  it('serialises 50 concurrent read-modify-write increments: the counter ends at 50', async () => {
    const counter = join(directory.path, 'counter');
    await writeFile(counter, '0');
    const locks = new WriteLocks();
    await Promise.all(Array.from({ length: 50 }, () => locks.withLock(counter, () => increment(counter))));
    expect(await readFile(counter, 'utf8')).toBe('50');
    expect(locks.size).toBe(0);
  });

  it('without the lock the same 50 increments lose updates (why the lock exists)', async () => {
    const counter = join(directory.path, 'counter');
    await writeFile(counter, '0');
    await Promise.all(Array.from({ length: 50 }, () => increment(counter)));
    expect(Number(await readFile(counter, 'utf8'))).toBeLessThan(50);
    // Racing writers to one target never delete each other's temp files, and leave none behind.
    expect(await readdir(directory.path)).toEqual(['counter']);
  });

  it('grants the lock in arrival order, one holder at a time, per path', async () => {
    const locks = new WriteLocks();
    const events: string[] = [];
    let holders = 0;
    const task = (name: string, path: string) =>
      locks.withLock(path, async () => {
        holders += 1;
        events.push(`${name} in (${holders})`);
        await new Promise((resolve) => setTimeout(resolve, 2));
        holders -= 1;
        events.push(`${name} out`);
        return name;
      });
    const results = await Promise.all([task('a', '/x'), task('b', '/x'), task('c', '/x')]);
    expect(results).toEqual(['a', 'b', 'c']);
    expect(events).toEqual(['a in (1)', 'a out', 'b in (1)', 'b out', 'c in (1)', 'c out']);

    // Different paths do not wait for each other.
    const order: string[] = [];
    let releaseFirst!: () => void;
    const first = locks.withLock('/p', () => new Promise<void>((resolve) => (releaseFirst = resolve)).then(() => void order.push('p')));
    await locks.withLock('/q', () => void order.push('q'));
    releaseFirst();
    await first;
    expect(order).toEqual(['q', 'p']);
    expect(locks.size).toBe(0);
  });

  it('releases the lock when the holder throws, and keeps no entry afterwards', async () => {
    const locks = new WriteLocks();
    await expect(locks.withLock('/x', () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    await expect(locks.withLock('/x', () => 'next')).resolves.toBe('next');
    expect(locks.size).toBe(0);
  });

  it('a waiter that gives up leaves the queue intact: later waiters still wait for the holder', async () => {
    const locks = new WriteLocks();
    const events: string[] = [];
    let releaseHolder!: () => void;
    const holder = locks.withLock('/x', () => new Promise<void>((resolve) => (releaseHolder = resolve)).then(() => void events.push('holder done')));
    const controller = new AbortController();
    const quitter = locks.withLock('/x', () => void events.push('quitter ran'), { signal: controller.signal });
    const patient = locks.withLock('/x', () => void events.push('patient ran'));
    controller.abort();
    const quitError = await quitter.catch((error: unknown) => error);
    expect(FileSystemError.isInstance(quitError) && quitError.code).toBe('cancelled');
    expect(locks.size).toBe(1);
    // A newcomer after the quitter must still queue behind the holder.
    const newcomer = locks.withLock('/x', () => void events.push('newcomer ran'));
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(events).toEqual([]);
    releaseHolder();
    await Promise.all([holder, patient, newcomer]);
    expect(events).toEqual(['holder done', 'patient ran', 'newcomer ran']);
    expect(locks.size).toBe(0);
  });
});
