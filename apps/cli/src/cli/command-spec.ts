import type { OptionSpec, ParsedArguments } from './parse-arguments.js';

/** Streams and terminal facts a command runs with (tests pass their own). */
export interface CommandIo {
  readonly stdin: NodeJS.ReadableStream;
  /** The descriptor behind `stdin` (0 in the real program), so input can be read without a stream. */
  readonly stdinDescriptor?: number;
  readonly stdout: NodeJS.WritableStream;
  readonly stderr: NodeJS.WritableStream;
  /** Whether stdin and stdout are a terminal: live bash output, approval prompts. */
  readonly interactive: boolean;
  readonly environment: NodeJS.ProcessEnv;
}

/**
 * One `openwork` command (architecture §7). The spec itself is light; `run` loads what the command
 * needs (core, a store, the MCP SDK) when it runs, so `--help` and `--version` load nothing heavy.
 */
export interface CommandSpec {
  readonly name: string;
  readonly summary: string;
  readonly usage: string;
  /** Lines of the help after the usage line. */
  readonly details: readonly string[];
  readonly options: readonly OptionSpec[];
  /** Resolves to the exit status. */
  readonly run: (parsed: ParsedArguments, io: CommandIo) => Promise<number>;
}
