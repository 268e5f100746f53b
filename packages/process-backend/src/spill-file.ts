import { mkdir, open, unlink } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { SpillRecord } from './process-outcome.js';

/** Queued bytes above which the reader should pause the pipes until the disk catches up. */
const HIGH_WATER_BYTES = 1024 * 1024;
/** Queued bytes at or below which paused pipes may resume. */
const LOW_WATER_BYTES = 256 * 1024;

/** What a closed spill file amounts to: the record, or why there is none. */
export type SpillResult = { readonly record: SpillRecord } | { readonly error: string };

/**
 * Streams bytes into one spill file (§8.2): the file is opened (parents created) when the first
 * byte arrives, bytes past `capBytes` are dropped and only counted as truncation, and a write
 * failure deletes the partial file so that nobody is ever pointed at a missing or half-written
 * path. Memory holds at most about `HIGH_WATER_BYTES` of queued chunks because the reader pauses
 * on `needsBackpressure`.
 */
export class SpillFile {
  readonly path: string;
  readonly #capBytes: number;
  #queue: Buffer[] = [];
  #queuedBytes = 0;
  #acceptedBytes = 0;
  #writtenBytes = 0;
  #truncated = false;
  #error: string | undefined;
  #discarded = false;
  #handle: Promise<FileHandle | undefined>;
  #pumping: Promise<void> | undefined;
  #drainWaiters: Array<() => void> = [];

  constructor(filePath: string, capBytes: number) {
    this.path = filePath;
    this.#capBytes = capBytes;
    this.#handle = this.#open();
  }

  /** Queues a chunk. The chunk must not be modified afterwards (it is written later, without a copy). */
  write(chunk: Buffer): void {
    if (this.#error !== undefined || this.#discarded || chunk.length === 0) return;
    const room = this.#capBytes - this.#acceptedBytes;
    if (room <= 0) {
      this.#truncated = true;
      return;
    }
    let part = chunk;
    if (chunk.length > room) {
      part = chunk.subarray(0, room);
      this.#truncated = true;
    }
    this.#acceptedBytes += part.length;
    this.#queue.push(part);
    this.#queuedBytes += part.length;
    this.#pumping ??= this.#pump();
  }

  /** True while more than the high-water mark is queued; the reader should pause until `whenDrained`. */
  get needsBackpressure(): boolean {
    return this.#queuedBytes > HIGH_WATER_BYTES;
  }

  /** Resolves once the queue is at or below the low-water mark (or writing has stopped for good). */
  whenDrained(): Promise<void> {
    if (this.#queuedBytes <= LOW_WATER_BYTES) return Promise.resolve();
    return new Promise((resolve) => this.#drainWaiters.push(resolve));
  }

  /** Flushes and closes. A failed file is deleted and reported as an error instead of a record. */
  async close(): Promise<SpillResult> {
    await this.#settle();
    const handle = await this.#handle;
    if (handle !== undefined) {
      try {
        await handle.close();
      } catch (error) {
        this.#fail(error);
      }
    }
    if (this.#error !== undefined) {
      await removeQuietly(this.path);
      return { error: this.#error };
    }
    return { record: { path: this.path, bytesWritten: this.#writtenBytes, truncated: this.#truncated } };
  }

  /** Stops writing and deletes whatever was written: the execution failed (§8.2). */
  async discard(): Promise<void> {
    this.#discarded = true;
    this.#dropQueue();
    await this.#settle();
    const handle = await this.#handle;
    await handle?.close().catch(() => undefined);
    await removeQuietly(this.path);
  }

  async #open(): Promise<FileHandle | undefined> {
    try {
      await mkdir(dirname(this.path), { recursive: true, mode: 0o700 });
      // 0600: command output can hold secrets; the spill directory is OpenWork's own (§8.2).
      return await open(this.path, 'w', 0o600);
    } catch (error) {
      this.#fail(error);
      return undefined;
    }
  }

  async #pump(): Promise<void> {
    const handle = await this.#handle;
    try {
      while (this.#queue.length > 0 && handle !== undefined && this.#error === undefined && !this.#discarded) {
        const batch = this.#queue;
        this.#queue = [];
        await writeAll(handle, batch);
        for (const chunk of batch) {
          this.#writtenBytes += chunk.length;
          this.#queuedBytes -= chunk.length;
        }
        this.#wakeDrainWaiters();
      }
    } catch (error) {
      this.#fail(error);
    } finally {
      this.#dropQueue();
      this.#pumping = undefined;
      this.#wakeDrainWaiters();
    }
  }

  async #settle(): Promise<void> {
    while (this.#pumping !== undefined) await this.#pumping;
  }

  #fail(error: unknown): void {
    const code = (error as { code?: unknown } | null)?.code;
    this.#error ??= `could not write ${this.path}: ${typeof code === 'string' ? code : error instanceof Error ? error.message : String(error)}`;
    this.#dropQueue();
  }

  #dropQueue(): void {
    if (this.#error === undefined && !this.#discarded && this.#pumping !== undefined) return;
    this.#queue = [];
    this.#queuedBytes = 0;
    this.#wakeDrainWaiters();
  }

  #wakeDrainWaiters(): void {
    if (this.#queuedBytes > LOW_WATER_BYTES && this.#error === undefined && !this.#discarded) return;
    const waiters = this.#drainWaiters;
    this.#drainWaiters = [];
    for (const wake of waiters) wake();
  }
}

/** `writev` may write less than asked on a full disk or a signal; keep going until all is out or it throws. */
async function writeAll(handle: FileHandle, chunks: Buffer[]): Promise<void> {
  let pending = chunks;
  while (pending.length > 0) {
    const { bytesWritten } = await handle.writev(pending);
    let skip = bytesWritten;
    const rest: Buffer[] = [];
    for (const chunk of pending) {
      if (skip >= chunk.length) {
        skip -= chunk.length;
      } else {
        rest.push(skip > 0 ? chunk.subarray(skip) : chunk);
        skip = 0;
      }
    }
    if (bytesWritten === 0 && rest.length > 0) throw new Error('write made no progress');
    pending = rest;
  }
}

async function removeQuietly(filePath: string): Promise<void> {
  try {
    await unlink(filePath);
  } catch {
    // Already gone, or never created.
  }
}
