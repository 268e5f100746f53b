import type { CommandIo, CommandSpec } from './command-spec.js';
import { parseArguments } from './parse-arguments.js';
import { UsageError } from './usage-error.js';
import { COMMANDS } from '../commands/commands.js';
import { cliVersion } from './cli-version.js';


function mainHelp(): string {
  const width = Math.max(...COMMANDS.map((command) => command.name.length));
  return [
    'openwork — the OpenWork tools for people and MCP clients',
    '',
    'Usage: openwork <command> [options]',
    '',
    ...COMMANDS.map((command) => `  ${command.name.padEnd(width)}  ${command.summary}`),
    '',
    'openwork <command> --help shows a command\'s options; openwork --version prints the version.',
    'Environment: OPENWORK_HOME (default ~/.openwork), OPENWORK_DATABASE_URL (PostgreSQL store).',
  ].join('\n');
}

function commandHelp(command: CommandSpec): string {
  return [`Usage: ${command.usage}`, '', `${command.summary[0]?.toUpperCase() ?? ''}${command.summary.slice(1)}.`, ...command.details].join('\n');
}

/**
 * Runs `openwork` with `argv` (without node and the script) and resolves to the exit status:
 * 0 success, 1 a failed call or operation, 2 bad arguments (one line on stderr).
 */
export async function runCli(argv: readonly string[], io: CommandIo): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    io.stdout.write(`${mainHelp()}\n`);
    return name === undefined ? 2 : 0;
  }
  if (name === '--version' || name === '-v') {
    io.stdout.write(`${cliVersion()}\n`);
    return 0;
  }
  const command = COMMANDS.find((candidate) => candidate.name === name);
  try {
    if (command === undefined) {
      // Loaded only here: the start-up path of every command stays free of core.
      const { closestName } = await import('@openwork/core');
      const names = COMMANDS.map((c) => c.name);
      const closest = closestName(name, names);
      throw new UsageError(`openwork: unknown command ${JSON.stringify(name)}${closest === undefined ? '' : ` (did you mean ${closest}?)`}; commands: ${names.join(', ')}`);
    }
    if (rest.includes('--help') || rest.includes('-h')) {
      io.stdout.write(`${commandHelp(command)}\n`);
      return 0;
    }
    const parsed = parseArguments(command.name, rest, command.options);
    return await command.run(parsed, io);
  } catch (error) {
    if (UsageError.isInstance(error) || isInvalidArgument(error)) {
      io.stderr.write(`${firstLine(error)}\n`);
      return 2;
    }
    io.stderr.write(`openwork ${name}: ${firstLine(error)}\n`);
    return 1;
  }
}

/** Core's `invalid_argument` (e.g. a workspace that does not exist) is a bad argument too. */
function isInvalidArgument(error: unknown): error is Error {
  return error instanceof Error && error.name === 'CoreError' && (error as { code?: unknown }).code === 'invalid_argument';
}

function firstLine(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.split('\n')[0] ?? text;
}
