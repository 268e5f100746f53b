import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sanitizeSpillId } from '@openwork/tools-contract';
import { openSpillFile, removeSpillFile } from '../spill/open-spill-file.js';
import type { SpillDirectory } from '../spill/spill-directory.js';
import { BASH_PATH } from './bash-limits.js';

/**
 * The longest command passed inline as `bash -c <command>`: Linux refuses any single argv string
 * of 128 KiB or more (`MAX_ARG_STRLEN`, NUL included) with E2BIG, and macOS counts every argument
 * against one 1 MiB `ARG_MAX`, the Seatbelt profile included.
 */
export const LONGEST_INLINE_COMMAND_BYTES = 128 * 1024 - 1;

/** How a run's bash is started besides the command (background tasks). */
export interface BashInvocationOptions {
  /** `--norc`: a background task's stdin is a socket pair, which makes bash source ~/.bashrc (its rshd rule). */
  readonly norc?: boolean;
  /** A smaller inline limit, when the argv is quoted again into one string (a tty task's `script -c`). */
  readonly maxInlineBytes?: number;
}

/** The argv of one bash run, and what to remove once it exited. */
export interface BashInvocation {
  readonly argv: readonly string[];
  dispose(): Promise<void>;
}

/**
 * §7.9 `/bin/bash -c <command>`. A command too long for one argv string (up to the 1 MiB bash
 * accepts) is saved to a file bash runs instead — `/bin/bash <file>`, the same non-interactive
 * shell reading the same text — in this session's spill directory (hard-protected: the sandbox can
 * read it, never change it), or else in a private temp folder; it is removed after the run.
 */
export async function bashInvocation(command: string, spill: SpillDirectory | undefined, callId: string, options: BashInvocationOptions = {}): Promise<BashInvocation> {
  const bytes = new TextEncoder().encode(command);
  const bash = options.norc === true ? [BASH_PATH, '--norc'] : [BASH_PATH];
  if (bytes.length <= (options.maxInlineBytes ?? LONGEST_INLINE_COMMAND_BYTES)) return { argv: [...bash, '-c', command], dispose: async () => undefined };
  if (spill !== undefined) {
    const file = `${spill.directory}/${sanitizeSpillId(callId)}.command.sh`;
    await saveCommand(file, bytes);
    return { argv: [...bash, file], dispose: () => removeSpillFile(file) };
  }
  const folder = await mkdtemp(join(tmpdir(), 'openwork-bash-'));
  try {
    await saveCommand(join(folder, 'command.sh'), bytes);
  } catch (error) {
    await rm(folder, { recursive: true, force: true });
    throw error;
  }
  return { argv: [...bash, join(folder, 'command.sh')], dispose: () => rm(folder, { recursive: true, force: true }) };
}

async function saveCommand(file: string, bytes: Uint8Array): Promise<void> {
  const handle = await openSpillFile(file);
  try {
    await handle.writeFile(bytes);
  } catch (error) {
    await handle.close().catch(() => undefined);
    await removeSpillFile(file);
    throw error;
  }
  await handle.close();
}
