import { createRequire } from 'node:module';

// The package is CommonJS with typings for its named exports only.
const { Terminal } = createRequire(import.meta.url)('@xterm/headless') as typeof import('@xterm/headless');

/** What a terminal did with the bytes written to it: its screen and the requests it obeyed. */
export interface XtermScreen {
  /** Every line of the buffer (scrollback included), trailing blanks trimmed. */
  readonly lines: readonly string[];
  /** Window titles set (OSC 0, 1, 2). */
  readonly titles: readonly string[];
  /** Clipboard writes requested (OSC 52). */
  readonly clipboard: readonly string[];
  /** Lines with a cell drawn invisible (SGR 8) or with the same foreground and background colour. */
  readonly hiddenLines: readonly string[];
  /** Whether the screen was ever cleared (ED 2/3) or the cursor moved up (CUU, CUP, RI …). */
  readonly cursorMovedUp: boolean;
}

/**
 * Feeds `bytes` to xterm.js's headless terminal (the emulator of VS Code's terminal), 80 columns
 * like the pseudo-terminal of `run-on-terminal.py`, and reports what a person would see.
 */
export async function xtermScreen(bytes: string, columns = 80): Promise<XtermScreen> {
  const terminal = new Terminal({ cols: columns, rows: 50, scrollback: 5000, allowProposedApi: true });
  const titles: string[] = [];
  const clipboard: string[] = [];
  let cursorMovedUp = false;
  terminal.onTitleChange((title) => titles.push(title));
  terminal.parser.registerOscHandler(52, (data) => (clipboard.push(data), false));
  // Cursor up (CUU), previous line (CPL), position (CUP, HVP), row (VPA), reverse index (RI), erase display 2/3.
  const upward = () => ((cursorMovedUp = true), false);
  for (const final of ['A', 'F', 'H', 'f', 'd']) terminal.parser.registerCsiHandler({ final }, upward);
  terminal.parser.registerEscHandler({ final: 'M' }, upward);
  terminal.parser.registerCsiHandler({ final: 'J' }, (parameters) => ((cursorMovedUp ||= parameters[0] === 2 || parameters[0] === 3), false));
  await new Promise<void>((resolve) => terminal.write(bytes, resolve));
  const buffer = terminal.buffer.active;
  const lines: string[] = [];
  const hiddenLines: string[] = [];
  for (let row = 0; row < buffer.length; row += 1) {
    const line = buffer.getLine(row);
    if (line === undefined) continue;
    const text = line.translateToString(true);
    lines.push(text);
    for (let column = 0; column < text.length; column += 1) {
      const cell = line.getCell(column);
      if (cell === undefined || cell.getChars().trim() === '') continue;
      const sameColour = !cell.isFgDefault() && cell.getFgColorMode() === cell.getBgColorMode() && cell.getFgColor() === cell.getBgColor();
      if (cell.isInvisible() !== 0 || sameColour) {
        hiddenLines.push(text);
        break;
      }
    }
  }
  terminal.dispose();
  while (lines.length > 0 && lines.at(-1) === '') lines.pop();
  return { lines, titles, clipboard, hiddenLines, cursorMovedUp };
}
