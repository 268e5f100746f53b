/**
 * One line of a file as the tolerant matcher sees it: `text` is the line without its line break
 * (`\n` or `\r\n`, which read never shows either, §7.1), `start` its offset in the content.
 */
export interface FileLine {
  readonly start: number;
  readonly text: string;
}

/**
 * The lines of `content`, split after every `\n` (a `\r` just before it belongs to the break).
 * Content ending with a line break has a last, empty line after it, so every offset of the
 * content lies on exactly one line and a text ending with `\n` ends at the start of a line.
 */
export function splitFileLines(content: string): FileLine[] {
  const lines: FileLine[] = [];
  let start = 0;
  for (let newline = content.indexOf('\n'); newline >= 0; newline = content.indexOf('\n', start)) {
    const end = newline > start && content.charCodeAt(newline - 1) === 13 ? newline - 1 : newline;
    lines.push({ start, text: content.slice(start, end) });
    start = newline + 1;
  }
  lines.push({ start, text: content.slice(start) });
  return lines;
}

/** 1-based line numbers of sorted offsets into `content`, in one pass. */
export function lineNumbersAt(content: string, sortedOffsets: readonly number[]): number[] {
  const numbers: number[] = [];
  let line = 1;
  let cursor = 0;
  for (const offset of sortedOffsets) {
    for (let newline = content.indexOf('\n', cursor); newline >= 0 && newline < offset; newline = content.indexOf('\n', newline + 1)) {
      line += 1;
      cursor = newline + 1;
    }
    numbers.push(line);
  }
  return numbers;
}
