/**
 * What a person sees on a terminal after `bytes` were written to it: a small VT100 subset that
 * honours what a forged approval card uses (forged approval cards) — carriage return, line feed,
 * backspace, cursor up/down/forward/back (`ESC[nA` … `ESC[nD`), erase in line (`ESC[K`,
 * `ESC[2K`) and erase below (`ESC[J`). Other escape sequences are dropped, like a terminal
 * does with ones it does not know. Lines come back with trailing blanks trimmed.
 */
export function terminalScreen(bytes: string): string[] {
  const lines: string[][] = [[]];
  let row = 0;
  let column = 0;
  const line = (): string[] => (lines[row] ??= []);
  for (let index = 0; index < bytes.length; index += 1) {
    const character = bytes[index] as string;
    if (character === '\r') column = 0;
    else if (character === '\n') row += 1;
    else if (character === '\b') column = Math.max(0, column - 1);
    else if (character === '\x1b' && bytes[index + 1] === '[') {
      const match = /^\[([0-9;?]*)([A-Za-z])/.exec(bytes.slice(index + 1));
      if (match === null) continue;
      index += match[0].length;
      const count = Math.max(1, Number.parseInt(match[1] ?? '', 10) || 1);
      switch (match[2]) {
        case 'A': row = Math.max(0, row - count); break;
        case 'B': row += count; break;
        case 'C': column += count; break;
        case 'D': column = Math.max(0, column - count); break;
        case 'K': if (match[1] === '2') line().length = 0; else line().length = Math.min(line().length, column); break;
        case 'J': line().length = Math.min(line().length, column); lines.length = row + 1; break;
      }
    } else if (character >= ' ') {
      const current = line();
      while (current.length < column) current.push(' ');
      current[column] = character;
      column += 1;
    }
  }
  return Array.from(lines, (cells) => (cells ?? []).join('').trimEnd());
}
