/**
 * Background bash (docs/decisions/0033-tty-through-script.md): what a program on a pseudo-terminal printed, as the model should read it — the text
 * a person would see on the line, not the bytes that drew it:
 * - CSI sequences (`ESC [ … final`, and the one-byte C1 CSI U+009B) are removed; the ones that
 *   move the cursor within a line (`C` forward, `D` back, `G` to a column) and erase it (`K`) are
 *   applied, because line editors (readline, a REPL's prompt) redraw lines with them;
 * - OSC (window titles, hyperlinks), DCS, PM and APC strings up to BEL or `ESC \` are removed,
 *   as are the two- and three-byte escapes (`ESC =`, `ESC 7`, `ESC ( B`);
 * - `\r\n` is a line end; a lone `\r` returns to the start of the line, so what follows overwrites
 *   it (a progress bar ends at its last state); `\b` steps back one column;
 * - every other control character except tab and line feed is dropped (BEL, `^O`, …).
 * Cursor movement to other lines (`A`, `B`, `H`) cannot be followed in a text that is read in
 * parts; it is removed, and full-screen programs come out as their last lines of text.
 */
export function cleanTerminalOutput(text: string): string {
  const screen = new LineScreen();
  let index = 0;
  while (index < text.length) {
    const character = text[index] as string;
    if (character === '\x1b' || character === '\x9b') {
      const sequence = readEscape(text, index);
      if (sequence.csi !== undefined) screen.control(sequence.csi.final, sequence.csi.parameters);
      index = sequence.end;
      continue;
    }
    if (character === '\r') {
      if (text[index + 1] === '\n') {
        screen.newline();
        index += 2;
        continue;
      }
      screen.carriageReturn();
    } else if (character === '\n') screen.newline();
    else if (character === '\b') screen.back(1);
    else if (character === '\t' || !isControl(character)) screen.put(character);
    index += 1;
  }
  return screen.text();
}

/**
 * How much of `text`'s end is an escape sequence (or a `\r`) that the next part of the stream may
 * complete, so a reader that cleans text in parts can hold it back: 0 when the text ends cleanly.
 */
export function unfinishedTerminalSequenceLength(text: string): number {
  const start = Math.max(text.lastIndexOf('\x1b'), text.lastIndexOf('\x9b'));
  if (start !== -1 && text.length - start <= MAX_HELD_SEQUENCE && readEscape(text, start).unfinished) return text.length - start;
  return text.endsWith('\r') ? 1 : 0;
}

/** Longer unfinished sequences are not held back: no real one is, and memory stays bounded. */
const MAX_HELD_SEQUENCE = 256;

interface Escape {
  /** Index after the sequence. */
  readonly end: number;
  readonly csi?: { readonly final: string; readonly parameters: string };
  /** The text ended inside it. */
  readonly unfinished: boolean;
}

/** Reads the escape sequence that starts at `start` (an ESC or a C1 CSI). */
function readEscape(text: string, start: number): Escape {
  if (text[start] === '\x9b') return readCsi(text, start + 1);
  const kind = text[start + 1];
  if (kind === undefined) return { end: text.length, unfinished: true };
  if (kind === '[') return readCsi(text, start + 2);
  if (kind === ']' || kind === 'P' || kind === '^' || kind === '_' || kind === 'X') return readString(text, start + 2);
  // `ESC ( B` and friends carry one more character; the others are two bytes in all.
  if ('()*+-./#%'.includes(kind)) return text[start + 2] === undefined ? { end: text.length, unfinished: true } : { end: start + 3, unfinished: false };
  return { end: start + 2, unfinished: false };
}

/** `parameters (0x30–0x3f)* intermediates (0x20–0x2f)* final (0x40–0x7e)`. */
function readCsi(text: string, from: number): Escape {
  let index = from;
  while (index < text.length && isInRange(text, index, 0x30, 0x3f)) index += 1;
  const parameters = text.slice(from, index);
  while (index < text.length && isInRange(text, index, 0x20, 0x2f)) index += 1;
  if (index >= text.length) return { end: text.length, unfinished: true };
  if (!isInRange(text, index, 0x40, 0x7e)) return { end: index, unfinished: false }; // malformed: drop what was read
  return { end: index + 1, csi: { final: text[index] as string, parameters }, unfinished: false };
}

/** An OSC/DCS/PM/APC string, ended by BEL or ST (`ESC \`). */
function readString(text: string, from: number): Escape {
  for (let index = from; index < text.length; index += 1) {
    if (text[index] === '\x07') return { end: index + 1, unfinished: false };
    if (text[index] === '\x1b' && text[index + 1] === '\\') return { end: index + 2, unfinished: false };
    if (text[index] === '\x1b' && text[index + 1] === undefined) break;
  }
  return { end: text.length, unfinished: true };
}

function isInRange(text: string, index: number, low: number, high: number): boolean {
  const code = text.charCodeAt(index);
  return code >= low && code <= high;
}

function isControl(character: string): boolean {
  const code = character.charCodeAt(0);
  return code < 0x20 || code === 0x7f || (code >= 0x80 && code < 0xa0);
}

/** Finished lines, and the current one as cells under a cursor. */
class LineScreen {
  readonly #lines: string[] = [];
  #cells: string[] = [];
  #column = 0;

  put(character: string): void {
    while (this.#cells.length < this.#column) this.#cells.push(' ');
    this.#cells[this.#column] = character;
    this.#column += 1;
  }

  newline(): void {
    this.#lines.push(this.#cells.join(''));
    this.#cells = [];
    this.#column = 0;
  }

  carriageReturn(): void {
    this.#column = 0;
  }

  back(count: number): void {
    this.#column = Math.max(0, this.#column - count);
  }

  /** The CSI finals that act within one line; the rest only disappear. */
  control(final: string, parameters: string): void {
    const count = Math.max(1, Number.parseInt(parameters, 10) || 1);
    if (final === 'C') this.#column += count;
    else if (final === 'D') this.back(count);
    else if (final === 'G') this.#column = count - 1;
    else if (final === 'K') {
      if (parameters === '2') this.#cells = [];
      else if (parameters === '1') this.#cells.fill(' ', 0, Math.min(this.#cells.length, this.#column + 1));
      else this.#cells.length = Math.min(this.#cells.length, this.#column);
    }
  }

  text(): string {
    return [...this.#lines, this.#cells.join('')].join('\n');
  }
}
