import type { ResolvedWord } from './shell-word-resolver.js';

/** The command that actually runs once wrappers like `sudo`, `env`, `xargs` are peeled off. */
export interface UnwrappedCommand {
  /** Program and arguments of the innermost command; empty when the wrapper runs nothing. */
  readonly words: readonly ResolvedWord[];
  /** Wrapper program names, outermost first (`['sudo', 'env']`). */
  readonly wrappers: readonly string[];
  /**
   * The privilege wrappers among them that run something as another user: a command, or a shell
   * or an editor without one (`sudo -i`, `sudo -e f`, a bare `pkexec`). `sudo --help`, `sudo -l`,
   * `sudo -v` only inform.
   */
  readonly privileged: readonly string[];
}

interface WrapperSyntax {
  /** Short options that take an argument (`-u root`, `-uroot`). */
  readonly shortWithArgument?: string;
  /** Long options that take an argument when not written with `=`. */
  readonly longWithArgument?: readonly string[];
  /** Short options after which no command runs (`sudo -l`, `command -v`). */
  readonly shortWithoutCommand?: string;
  /** `NAME=value` words before the command are environment settings. */
  readonly assignments?: boolean;
  /** Positional words before the command (`timeout 5 cmd`, `chrt 10 cmd`). */
  readonly positionals?: number;
  /** `-10` is an option (`nice -10 cmd`). */
  readonly numericOptions?: boolean;
  /** Options that only inform (`--help`, `-l`); without a command, nothing runs. */
  readonly informational?: readonly string[];
  /** Without a command it still runs something privileged (a root shell, an editor): these options, or `'always'`. */
  readonly runsWithoutCommand?: readonly string[] | 'always';
}

// Wrappers that run their arguments as a command (§3.6: they must not hide what runs).
const wrapperSyntax: Readonly<Record<string, WrapperSyntax>> = {
  env: { shortWithArgument: 'uCSP', longWithArgument: ['--unset', '--chdir', '--split-string'], assignments: true },
  sudo: {
    shortWithArgument: 'CDgpRrtTUu',
    longWithArgument: ['--chdir', '--close-from', '--group', '--prompt', '--chroot', '--role', '--type', '--command-timeout', '--other-user', '--user', '--host'],
    shortWithoutCommand: 'elvVkK',
    assignments: true,
    informational: ['-h', '--help', '-V', '--version', '-l', '--list', '-v', '--validate', '-k', '--reset-timestamp', '-K', '--remove-timestamp'],
    runsWithoutCommand: ['-s', '--shell', '-i', '--login', '-e', '--edit'],
  },
  doas: { shortWithArgument: 'uC', shortWithoutCommand: 'L', informational: ['-L'], runsWithoutCommand: ['-s'] },
  pkexec: { longWithArgument: ['--user'], informational: ['--help', '--version'], runsWithoutCommand: 'always' },
  run0: {
    shortWithArgument: 'ugD',
    longWithArgument: ['--user', '--group', '--nice', '--chdir', '--setenv', '--property', '--unit', '--description', '--slice', '--machine'],
    informational: ['-h', '--help', '--version'],
    runsWithoutCommand: 'always',
  },
  xargs: {
    shortWithArgument: 'adEILnPs',
    longWithArgument: ['--arg-file', '--delimiter', '--max-lines', '--max-args', '--max-procs', '--max-chars', '--process-slot-var'],
  },
  command: { shortWithoutCommand: 'vV' },
  builtin: {},
  exec: { shortWithArgument: 'a' },
  nice: { shortWithArgument: 'n', longWithArgument: ['--adjustment'], numericOptions: true },
  nohup: {},
  setsid: {},
  timeout: { shortWithArgument: 'sk', longWithArgument: ['--signal', '--kill-after'], positionals: 1 },
  time: { shortWithArgument: 'fo', longWithArgument: ['--format', '--output'] },
  stdbuf: { shortWithArgument: 'ioe', longWithArgument: ['--input', '--output', '--error'] },
  ionice: { shortWithArgument: 'cnp', longWithArgument: ['--class', '--classdata', '--pid', '--pgid', '--uid'], shortWithoutCommand: 'pPu' },
  chrt: { shortWithoutCommand: 'p', positionals: 1 },
  taskset: { shortWithoutCommand: 'p', positionals: 1 },
  busybox: {},
  unbuffer: {},
  fakeroot: {},
  chroot: { longWithArgument: ['--userspec', '--groups'], positionals: 1 },
  strace: { shortWithArgument: 'abeEIoOpPsSuUX', longWithArgument: ['--output', '--attach', '--user', '--string-limit', '--trace', '--signal', '--status'] },
  ltrace: { shortWithArgument: 'aAeDlnopsSuwx', longWithArgument: ['--output', '--library'] },
};

/** Programs that run their command with other privileges (rule `privilege-escalation`). */
export const privilegeWrappers: ReadonlySet<string> = new Set(['sudo', 'doas', 'pkexec', 'run0']);

const maximumWrappers = 16;

/** The program name a word invokes: `/usr/bin/rm`, `./rm` and `$HOME/bin/rm` all invoke `rm`. */
export function programName(word: ResolvedWord | undefined): string | undefined {
  if (word === undefined) return undefined;
  const text = word.value ?? word.pattern;
  const name = text.slice(text.lastIndexOf('/') + 1);
  return name === '' || /[\u0000-\u0004]/.test(name) ? undefined : name;
}

/** Peels wrappers off a command; nothing is dropped that could be the real program. */
export function unwrapCommand(words: readonly ResolvedWord[]): UnwrappedCommand {
  const wrappers: string[] = [];
  const privileged: string[] = [];
  let current = words;
  while (wrappers.length < maximumWrappers) {
    const name = programName(current[0]);
    const syntax = name === undefined ? undefined : wrapperSyntax[name];
    if (name === undefined || syntax === undefined) break;
    wrappers.push(name);
    const options = current.slice(1);
    current = skipWrapperOptions(name, syntax, options);
    if (privilegeWrappers.has(name) && runsSomething(syntax, options.slice(0, options.length - current.length), current.length > 0)) {
      privileged.push(name);
    }
  }
  return { words: current, wrappers, privileged };
}

/** Whether a privilege wrapper with these options runs anything (see `UnwrappedCommand.privileged`). */
function runsSomething(syntax: WrapperSyntax, options: readonly ResolvedWord[], hasCommand: boolean): boolean {
  if (hasCommand) return true;
  const given = options.map((word) => word.value ?? '');
  if (syntax.runsWithoutCommand === 'always') return !given.some((text) => syntax.informational?.includes(text));
  const letters = given.filter((text) => /^-[A-Za-z]+$/.test(text)).flatMap((text) => [...text.slice(1)].map((letter) => `-${letter}`));
  return [...given, ...letters].some((text) => syntax.runsWithoutCommand?.includes(text.split('=')[0] ?? text) === true);
}

function skipWrapperOptions(name: string, syntax: WrapperSyntax, words: readonly ResolvedWord[]): readonly ResolvedWord[] {
  let index = 0;
  let positionals = syntax.positionals ?? 0;
  let splitString: string | undefined;
  while (index < words.length) {
    const text = words[index]?.value;
    if (text === undefined) break;
    if (text === '--') {
      index++;
      break;
    }
    if (text.startsWith('--') && text.length > 2) {
      const option = text.split('=')[0] ?? text;
      if (name === 'env' && option === '--split-string') {
        splitString = text.includes('=') ? text.slice(text.indexOf('=') + 1) : words[index + 1]?.value;
      }
      index += !text.includes('=') && syntax.longWithArgument?.includes(option) ? 2 : 1;
      continue;
    }
    if (text.startsWith('-') && text.length > 1) {
      if (syntax.numericOptions && /^-\d+$/.test(text)) {
        index++;
        continue;
      }
      const letters = text.slice(1);
      if (syntax.shortWithoutCommand !== undefined && [...letters].some((letter) => syntax.shortWithoutCommand?.includes(letter))) {
        return [];
      }
      const argumentAt = [...letters].findIndex((letter) => syntax.shortWithArgument?.includes(letter));
      if (argumentAt >= 0) {
        const attached = letters.slice(argumentAt + 1);
        if (name === 'env' && letters[argumentAt] === 'S') splitString = attached !== '' ? attached : words[index + 1]?.value;
        index += attached === '' ? 2 : 1;
      } else {
        index++;
      }
      continue;
    }
    if (syntax.assignments && /^[A-Za-z_][A-Za-z0-9_]*=/.test(text)) {
      index++;
      continue;
    }
    if (positionals > 0) {
      positionals--;
      index++;
      continue;
    }
    break;
  }
  const rest = words.slice(index);
  if (splitString === undefined) return rest;
  // `env -S 'rm -rf /'` splits its string into the command's words.
  const split = splitString
    .split(/[ \t\n]+/)
    .filter((text) => text !== '')
    .map((text): ResolvedWord => ({ value: text, pattern: text, script: text, substitutions: [] }));
  return [...split, ...rest];
}
