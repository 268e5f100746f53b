import type { FileLine } from '@openwork/fs-backend';
import { LINE_TRUNCATED_MARKER, READ_MAX_LINE_CHARS } from './read-limits.js';

/** The parts of a line a page looks at: a `FileLine` of `readLines`, or a rendered line (a notebook's). */
export type PageLine = Pick<FileLine, 'number' | 'text' | 'hasNul' | 'isValidUtf8' | 'terminator' | 'truncated'>;

/** Why a page stopped before the end of the file. */
export type PageStop = 'lines' | 'bytes';

/** A line of the page that cannot be shown as text (§7.1): the read fails and says why. */
export interface UnreadableLine {
  readonly number: number;
  readonly reason: 'nul' | 'invalid_utf8';
}

/**
 * Collects one page of `read` from the lines `readLines` delivers (§7.1): `{number}\t{content}`,
 * stopping at the first of three limits — `limit` lines, `budgetBytes` of output (only after the
 * last whole line), or an unreadable line. Lines past 2,000 characters are cut and marked. Holds
 * only the page itself, so memory does not depend on the file.
 */
export class ReadPage {
  readonly #limit: number;
  readonly #budgetBytes: number;
  readonly #lines: string[] = [];
  #bytes = 0;
  #firstLine: number | undefined;
  #lastLine: number | undefined;
  #stop: PageStop | undefined;
  #unreadable: UnreadableLine | undefined;

  constructor(limit: number, budgetBytes: number) {
    this.#limit = limit;
    this.#budgetBytes = budgetBytes;
  }

  /** `readLines`' `onLine`: returns `false` once the page is complete. */
  accept(line: PageLine): boolean {
    if (this.#lines.length >= this.#limit) {
      this.#stop = 'lines';
      return false;
    }
    if (line.hasNul || !line.isValidUtf8) {
      this.#unreadable = { number: line.number, reason: line.hasNul ? 'nul' : 'invalid_utf8' };
      return false;
    }
    const rendered = `${line.number}\t${shownContent(line)}`;
    const cost = byteLength(rendered) + (this.#lines.length === 0 ? 0 : 1);
    if (this.#bytes + cost > this.#budgetBytes) {
      this.#stop = 'bytes';
      return false;
    }
    this.#lines.push(rendered);
    this.#bytes += cost;
    this.#firstLine ??= line.number;
    this.#lastLine = line.number;
    return true;
  }

  get text(): string {
    return this.#lines.join('\n');
  }

  get lineCount(): number {
    return this.#lines.length;
  }

  get firstLine(): number | undefined {
    return this.#firstLine;
  }

  get lastLine(): number | undefined {
    return this.#lastLine;
  }

  /** Set when a limit stopped the page while more lines followed. */
  get stop(): PageStop | undefined {
    return this.#stop;
  }

  get unreadable(): UnreadableLine | undefined {
    return this.#unreadable;
  }
}

/** The line as shown: no trailing `\r` (§7.1), at most 2,000 code points plus the marker. */
function shownContent(line: PageLine): string {
  let text = line.text;
  if (line.terminator === 'none' && !line.truncated && text.endsWith('\r')) text = text.slice(0, -1);
  const cut = cutToCodePoints(text, READ_MAX_LINE_CHARS);
  // A line longer than the kept 8,000 bytes is longer than 2,000 characters too (a character is at most 4 bytes).
  if (cut !== undefined) return `${cut}${LINE_TRUNCATED_MARKER}`;
  if (line.truncated) return `${text}${LINE_TRUNCATED_MARKER}`;
  return text;
}

/** The first `max` code points of `text`, or `undefined` when it has no more than that. */
function cutToCodePoints(text: string, max: number): string | undefined {
  if (text.length <= max) return undefined;
  let index = 0;
  let count = 0;
  while (index < text.length) {
    if (count === max) return text.slice(0, index);
    const code = text.charCodeAt(index);
    index += code >= 0xd800 && code <= 0xdbff && index + 1 < text.length ? 2 : 1;
    count += 1;
  }
  return undefined;
}

function byteLength(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}
