import { access, constants, readFile, realpath, stat } from 'node:fs/promises';

/**
 * `tty: true` (docs/decisions/0033-tty-through-script.md): the program that gives a task a pseudo-terminal. `script` ships with every
 * Linux (util-linux, Debian's `bsdutils`) and with macOS, and needs no compiler (node-pty does); it
 * runs INSIDE the kernel sandbox, so the terminal is the sandbox's own (bubblewrap's private
 * devpts, Seatbelt's `pseudo-tty`) and nothing of the host is a terminal for the command.
 */
export type TerminalProgram =
  | { readonly available: true; readonly path: string; readonly flavour: 'util-linux' | 'bsd' }
  | { readonly available: false; readonly reason: string };

/** Where `script` is on Linux and macOS alike. */
export const SCRIPT_PATH = '/usr/bin/script';

/** The terminal size a task gets (`stty`): wide enough that programs do not wrap a model's output early. */
export const TERMINAL_COLUMNS = 200;
export const TERMINAL_ROWS = 50;

/** `TERM` of a tty task: what most terminals say, so programs behave as they do for a person. */
export const TTY_TERM = 'xterm-256color';

let found: Promise<TerminalProgram> | undefined;

/**
 * Finds `script` once per process: on macOS the BSD one of the system; on Linux util-linux's,
 * recognised by the name its binary carries (BusyBox's `script` has other flags). Nothing is run
 * for this: bash's runner stays the only place that starts a process (acceptance 10d). Never throws.
 */
export function findTerminalProgram(platform: NodeJS.Platform = process.platform): Promise<TerminalProgram> {
  found ??= locate(platform);
  return found;
}

/** util-linux binaries are a few hundred KiB; a larger file is not read. */
const LARGEST_SCRIPT_BINARY = 8 * 1024 * 1024;

async function locate(platform: NodeJS.Platform): Promise<TerminalProgram> {
  const missing = `${SCRIPT_PATH} is missing`;
  if (!(await access(SCRIPT_PATH, constants.X_OK).then(() => true, () => false))) {
    return { available: false, reason: platform === 'darwin' ? missing : `${missing}; install util-linux (Debian and Ubuntu: bsdutils) for tty: true` };
  }
  if (platform === 'darwin') return { available: true, path: SCRIPT_PATH, flavour: 'bsd' };
  const binary = await realpath(SCRIPT_PATH).catch(() => SCRIPT_PATH);
  const size = await stat(binary).then((entry) => entry.size, () => Infinity);
  const bytes = size <= LARGEST_SCRIPT_BINARY ? await readFile(binary).catch(() => undefined) : undefined;
  if (bytes?.includes('util-linux') === true) return { available: true, path: SCRIPT_PATH, flavour: 'util-linux' };
  return { available: false, reason: `${SCRIPT_PATH} (${binary}) is not util-linux's script; install util-linux (Debian and Ubuntu: bsdutils) for tty: true` };
}

/** `'it'\''s'`: one POSIX shell word, whatever `text` holds. */
export function shellQuote(text: string): string {
  return `'${text.replaceAll("'", "'\\''")}'`;
}

/**
 * The argv that runs `bashArgv` on a new pseudo-terminal of `program`, inside the sandbox. util-linux
 * `script -c` runs its command with `$SHELL -c`, so the caller starts it with `SHELL=/bin/sh` and
 * the inner `/bin/sh` puts the session's `shell` back before it sizes the terminal and `exec`s bash:
 * the command sees the environment of any other bash call. `-q` quiet, `-f` flush at once, `-e` the
 * command's exit code, `/dev/null` for the typescript file (nothing is recorded on disk).
 */
export function terminalArgv(program: { readonly path: string; readonly flavour: 'util-linux' | 'bsd' }, bashArgv: readonly string[], shell: string | undefined): string[] {
  const restoreShell = shell === undefined ? 'unset SHELL' : `SHELL=${shellQuote(shell)}; export SHELL`;
  const inner = `${restoreShell}; stty cols ${TERMINAL_COLUMNS} rows ${TERMINAL_ROWS} 2>/dev/null; exec ${bashArgv.map(shellQuote).join(' ')}`;
  if (program.flavour === 'bsd') return [program.path, '-q', '/dev/null', '/bin/sh', '-c', inner];
  return [program.path, '-qfec', inner, '/dev/null'];
}

/** The bytes `terminalArgv` adds around the quoted bash argv (a bound for the inline command size). */
export const TERMINAL_ARGV_OVERHEAD_BYTES = 4096;
