/**
 * What a shell task will run from what is typed into it (docs/decisions/0091-typed-input-judged-as-the-line-the-shell-runs.md).
 * A shell runs a line when it gets Enter, not when a `bash_input` call ends: `git reset ` and then
 * `--hard\n` are one command. So each task keeps the line typed since the last Enter, and the
 * analysis judges that line with what is typed now.
 *
 * On a pipe (no `tty`), the shell reads the bytes as they are: the line is the text since the last
 * `\n`. On a terminal, the line discipline and the shell's line editor change the line before the
 * shell runs it; the editing keys whose effect is the same in bash's readline, in zsh and fish, and
 * in the kernel's canonical mode (what `sh`/`dash` get) are applied to the model of the line:
 *
 * | key | effect on the line |
 * |---|---|
 * | Enter (`\r`, `\n`) | the line runs; a new one starts |
 * | Ctrl-U (`\x15`) | the whole line is erased |
 * | Ctrl-W (`\x17`) | the word before the cursor is erased (trailing blanks, then non-blanks) |
 * | Backspace (`\x7f`, `\b`) | the last character is erased |
 * | Ctrl-C (`\x03`) | the line is discarded (SIGINT) |
 * | Ctrl-D (`\x04`) | on an empty line the shell's input ends; otherwise nothing |
 * | Ctrl-V (`\x16`) | the next character is taken as it is |
 * | Ctrl-L (`\x0c`), Ctrl-G (`\x07`) | nothing (redraw, bell) |
 *
 * Every other control — an escape sequence (cursor and history keys, Alt-…), Tab (completion),
 * Ctrl-A/E/B/F/K/Y/T/R/P/N/O, Ctrl-Z, Ctrl-\ — moves the cursor, recalls, yanks or completes
 * text the model cannot know. A line that such a key edited is *unmodelled*: when it runs, it is
 * reported as dangerous (`unparseable`: what it runs cannot be told), so it is asked for like any
 * dangerous command.
 */
export interface TypedLine {
  /** What was typed since the last Enter, after line editing. */
  readonly line: string;
  /** The first key of this line the model does not follow, if any. */
  readonly unmodelled?: string;
  /** Ctrl-V was the last key: the next character is literal. */
  readonly literalNext?: boolean;
}

export const EMPTY_TYPED_LINE: TypedLine = Object.freeze({ line: '' });

/** What `typeInto` finds. */
export interface TypedText {
  /** The shell text to analyse: the lines this input completes (each as edited), then the line still being typed. */
  readonly text: string;
  /** A completed line holds a key the model does not follow: its name (`Tab`, `Escape`, `Ctrl-Y`…). */
  readonly unmodelled: string | undefined;
  /** Whether the text holds a line typed before this input (what the approval card should say). */
  readonly continuesLine: boolean;
  /** The line state once this input is typed. */
  readonly next: TypedLine;
}

/** A line longer than this is kept by its end and counted as unmodelled (a model of memory, not of the shell). */
const MAX_LINE_CHARACTERS = 1 << 20;

export function typeInto(state: TypedLine, input: string, tty: boolean): TypedText {
  return tty ? typeIntoTerminal(state, input) : typeIntoPipe(state, input);
}

function typeIntoPipe(state: TypedLine, input: string): TypedText {
  const whole = state.line + input;
  const end = whole.lastIndexOf('\n');
  const pending = whole.slice(end + 1);
  return { text: whole, unmodelled: state.unmodelled !== undefined && end !== -1 ? state.unmodelled : undefined, continuesLine: state.line !== '', next: bounded({ line: pending, ...(end === -1 && state.unmodelled !== undefined ? { unmodelled: state.unmodelled } : {}) }) };
}

function typeIntoTerminal(state: TypedLine, input: string): TypedText {
  const completed: string[] = [];
  let line = state.line;
  let unmodelled = state.unmodelled;
  let literalNext = state.literalNext === true;
  let completedUnmodelled: string | undefined;
  let ended = false;
  for (const character of input) {
    if (ended) break;
    if (literalNext) {
      line += character;
      literalNext = false;
      continue;
    }
    switch (character) {
      case '\r':
      case '\n':
        completed.push(line);
        completedUnmodelled ??= unmodelled;
        line = '';
        unmodelled = undefined;
        break;
      case '\x15': // Ctrl-U: the line is erased; what was unknown in it goes with it
      case '\x03': // Ctrl-C: the line is discarded
        line = '';
        unmodelled = undefined;
        break;
      case '\x17':
        line = line.replace(/\S*\s*$/u, '');
        break;
      case '\x7f':
      case '\b':
        line = Array.from(line).slice(0, -1).join('');
        break;
      case '\x04':
        if (line === '') ended = true;
        break;
      case '\x16':
        literalNext = true;
        break;
      case '\x0c':
      case '\x07':
        break;
      default:
        if (/[\x00-\x1f\x9b]/u.test(character)) unmodelled ??= keyName(character);
        else line += character;
    }
  }
  const text = [...completed, ...(line === '' ? [] : [line])].join('\n') + (line === '' && completed.length > 0 ? '\n' : '');
  return {
    text,
    unmodelled: completedUnmodelled,
    continuesLine: state.line !== '',
    next: bounded({ line: ended ? '' : line, ...(unmodelled === undefined || ended ? {} : { unmodelled }), ...(literalNext ? { literalNext } : {}) }),
  };
}

function bounded(state: TypedLine): TypedLine {
  if (state.line.length <= MAX_LINE_CHARACTERS) return state;
  return { ...state, line: state.line.slice(-MAX_LINE_CHARACTERS), unmodelled: state.unmodelled ?? 'a line of over a million characters' };
}

function keyName(character: string): string {
  if (character === '\x1b') return 'Escape (a cursor, history or Alt key)';
  if (character === '\t') return 'Tab (completion)';
  if (character === '\x9b') return 'a CSI sequence (a cursor or history key)';
  return `Ctrl-${String.fromCharCode(character.charCodeAt(0) + 64)}`;
}
