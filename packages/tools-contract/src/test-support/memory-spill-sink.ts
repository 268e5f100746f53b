import type { SpillSink } from '../index.js';

/** A spill sink that keeps saved texts in memory, or fails on demand. */
export class MemorySpillSink implements SpillSink {
  readonly saved = new Map<string, string>();
  readonly #failure: Error | undefined;

  constructor(options: { fail?: Error } = {}) {
    this.#failure = options.fail;
  }

  async save(callId: string, text: string): Promise<string> {
    if (this.#failure !== undefined) throw this.#failure;
    this.saved.set(callId, text);
    return `~/.openwork/spill/session_1/${callId}.txt`;
  }
}
