import { FOOTER_RESERVE_BYTES, MAX_RESULT_BYTES } from '@openwork/tools-contract';

/**
 * The body of a grep or glob result, kept within the result budget (§8.2: 32,000 bytes with the
 * footer, 512 of them reserved for it), so the tool's own caps and footer decide what the model
 * sees and the toolset's fallback cut never has to.
 */
export class BoundedText {
  readonly #parts: string[] = [];
  #bytes = 0;
  readonly #budget: number;

  constructor(budget = MAX_RESULT_BYTES - FOOTER_RESERVE_BYTES) {
    this.#budget = budget;
  }

  /** Appends `line` (a newline goes before it unless it is the first); `false` when it does not fit. */
  add(line: string): boolean {
    const cost = Buffer.byteLength(line, 'utf8') + (this.#parts.length === 0 ? 0 : 1);
    if (this.#bytes + cost > this.#budget) return false;
    this.#parts.push(line);
    this.#bytes += cost;
    return true;
  }

  get empty(): boolean {
    return this.#parts.length === 0;
  }

  toString(): string {
    return this.#parts.join('\n');
  }
}
