import { revealHiddenCharacters } from '@openwork/core';

// What reaches a person's terminal from the model, a command or a file (architecture §3.9,
// docs/decisions/0090-terminal-output-is-shown-not-obeyed.md). Loaded by a command when it runs: it
// needs core, which `--help` and `--version` never load.

/**
 * `text` as a terminal must show it: line feeds and tabs stay (a CR LF is a line end), every other
 * control, format or look-alike character is written as its escape (`\x1b`, `\r`, `\x9b`,
 * `\u202e`), so the text can neither move the cursor, set the title or the clipboard, nor change
 * colours for what follows: it is printed, never obeyed.
 */
export function visibleText(text: string): string {
  return text
    .replace(/\r\n/g, '\n')
    .split('\n')
    .map((line) => line.split('\t').map(revealHiddenCharacters).join('\t'))
    .join('\n');
}

/**
 * A line of JSON for stdout (`--json`, `openwork session`): `JSON.stringify` escapes C0 controls
 * but keeps DEL, C1 controls (`\x9b` is a one-byte CSI), bidirectional and other invisible
 * characters as they are. Here they are `\uXXXX` escapes too — the same JSON value, with nothing a
 * terminal would act on if the line ends up on one.
 */
export function jsonLine(value: unknown): string {
  return `${JSON.stringify(value).replace(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\u00a0\u1680\u2000-\u200a\u202f\u205f\u3000\u115f\u1160\u3164\uffa0\ufe00-\ufe0f]/gu, (character) => `\\u${(character.codePointAt(0) ?? 0).toString(16).padStart(4, '0')}`)}\n`;
}

/** What marks a line of a command's output, a file or a result on a terminal; openwork's own lines never start with it. */
export const OUTPUT_GUTTER = '│ ';
const GUTTER_WIDTH = 2;
const TAB_WIDTH = 8;

/**
 * Writes text that is not openwork's own (a command's output as it streams, a tool's result) to a
 * terminal: shown with `visibleText`, every line behind `OUTPUT_GUTTER`, wrapped by openwork at the
 * terminal's width so that the terminal never wraps it (a wrapped line would start in column 1 and
 * could pass for an openwork line such as the `[exit 0; …]` status). Tabs become spaces to the next
 * stop of 8, so the width stays known. openwork's own lines are written flush left with
 * `ownLine`, which first ends a line the output left open.
 */
export class GutteredTerminal {
  readonly #stream: NodeJS.WritableStream;
  readonly #columns: number;
  #column = 0;
  #atLineStart = true;
  /** A CR at the end of the last chunk: a line end if the next chunk starts with LF. */
  #pendingReturn = false;

  constructor(stream: NodeJS.WritableStream, columns: number | undefined) {
    this.#stream = stream;
    // Below 20 columns nothing is readable anyway; wrapping at 20 keeps the arithmetic meaningful.
    this.#columns = Math.max(20, columns === undefined || columns === 0 ? 80 : columns);
  }

  /** Part of a command's output or a result, as it arrives (a line may span chunks). */
  output(chunk: string): void {
    let text = chunk;
    if (this.#pendingReturn) text = `\r${text}`;
    this.#pendingReturn = text.endsWith('\r');
    if (this.#pendingReturn) text = text.slice(0, -1);
    if (text === '') return;
    const lines = text.replace(/\r\n/g, '\n').split('\n');
    const pieces: string[] = [];
    lines.forEach((line, index) => {
      if (index > 0) {
        if (this.#atLineStart) pieces.push(OUTPUT_GUTTER.trimEnd());
        pieces.push('\n');
        this.#atLineStart = true;
        this.#column = 0;
      }
      for (const character of line.split('\t').map(revealHiddenCharacters).join('\t')) {
        const width = character === '\t' ? TAB_WIDTH - (this.#column % TAB_WIDTH) : characterWidth(character);
        if (this.#atLineStart) {
          pieces.push(OUTPUT_GUTTER);
          this.#atLineStart = false;
        }
        if (GUTTER_WIDTH + this.#column + width > this.#columns && this.#column > 0) {
          pieces.push(`\n${OUTPUT_GUTTER}`);
          this.#column = 0;
        }
        pieces.push(character === '\t' ? ' '.repeat(width) : character);
        this.#column += width;
      }
    });
    this.#stream.write(pieces.join(''));
  }

  /** Ends a line the output left open, so that what follows starts in column 1. */
  endLine(): void {
    if (this.#pendingReturn) {
      this.#pendingReturn = false;
      this.output('\r');
    }
    if (!this.#atLineStart) this.#stream.write('\n');
    this.#atLineStart = true;
    this.#column = 0;
  }

  /** One of openwork's own lines (its words first; any text in it from elsewhere is made visible by the caller). */
  ownLine(line: string): void {
    this.endLine();
    this.#stream.write(`${line}\n`);
  }

  /** Whether the output left a line open. */
  get lineOpen(): boolean {
    return !this.#atLineStart || this.#pendingReturn;
  }
}

/**
 * Columns a printable character takes on a terminal: 0 for combining marks, 2 for East Asian wide
 * and fullwidth forms and the emoji blocks, else 1. Ambiguous-width characters count 1 (what
 * terminals do outside CJK locales). Escapes from `revealHiddenCharacters` are ASCII.
 */
function characterWidth(character: string): number {
  if (/\p{M}/u.test(character)) return 0;
  const code = character.codePointAt(0) ?? 0;
  if (
    (code >= 0x1100 && code <= 0x115f) ||
    (code >= 0x2e80 && code <= 0xa4cf && code !== 0x303f) ||
    (code >= 0xac00 && code <= 0xd7a3) ||
    (code >= 0xf900 && code <= 0xfaff) ||
    (code >= 0xfe30 && code <= 0xfe4f) ||
    (code >= 0xff00 && code <= 0xff60) ||
    (code >= 0xffe0 && code <= 0xffe6) ||
    (code >= 0x1f300 && code <= 0x1f64f) ||
    (code >= 0x1f900 && code <= 0x1f9ff) ||
    (code >= 0x20000 && code <= 0x3fffd)
  ) {
    return 2;
  }
  return 1;
}
