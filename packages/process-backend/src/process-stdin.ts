import type { Writable } from 'node:stream';

/** The most input a process may have queued and not yet read; more is refused (bounded memory, §5). */
export const MAX_QUEUED_STDIN_BYTES = 1024 * 1024;

/** What became of one `ProcessStdin.write`. */
export type StdinWrite =
  /** Handed to the pipe; `queuedBytes` of it (and earlier input) the process has not read yet. */
  | { readonly kind: 'written'; readonly queuedBytes: number }
  /** The process is gone, has not started, or closed its end: nothing was written. */
  | { readonly kind: 'closed' }
  /** The process has not read `queuedBytes` of earlier input; taking more would grow memory without end. */
  | { readonly kind: 'full'; readonly queuedBytes: number };

/**
 * A pipe to a process's stdin, for a caller that types into a long-running process (background
 * bash). Pass one as `ProcessSpawnOptions.stdin`: the backend opens a pipe instead of
 * `/dev/null`, attaches it while the process runs and closes it at the exit. Writes never wait for
 * the process to read: at most `MAX_QUEUED_STDIN_BYTES` may be queued.
 */
export class ProcessStdin {
  #stream: Writable | undefined;
  #ended = false;

  /** Whether a write can reach the process now. */
  get open(): boolean {
    return this.#stream !== undefined && !this.#ended && this.#stream.writable;
  }

  /** Writes `data` as it is (no newline added). */
  write(data: string | Uint8Array): StdinWrite {
    const stream = this.#stream;
    if (stream === undefined || this.#ended || !stream.writable) return { kind: 'closed' };
    const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : Buffer.from(data);
    if (stream.writableLength + bytes.length > MAX_QUEUED_STDIN_BYTES) return { kind: 'full', queuedBytes: stream.writableLength };
    stream.write(bytes);
    return { kind: 'written', queuedBytes: stream.writableLength };
  }

  /** @internal The backend hands over the child's stdin pipe once the process started. */
  attach(stream: Writable): void {
    if (this.#stream !== undefined) throw new TypeError('A ProcessStdin serves one process; create one per spawn.');
    this.#stream = stream;
    // EPIPE once the process closed its end: later writes say `closed`, nothing is thrown.
    stream.on('error', () => {
      this.#ended = true;
    });
    stream.once('close', () => {
      this.#ended = true;
    });
  }

  /** @internal The process exited: drop what it never read and close the pipe. */
  detach(): void {
    this.#ended = true;
    this.#stream?.destroy();
  }
}
