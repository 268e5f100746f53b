import type { Session } from '@openwork/core';
import { terminalApprover } from '../approval/terminal-approver.js';
import type { CommandIo } from '../cli/command-spec.js';
import { optionValue, type ParsedArguments } from '../cli/parse-arguments.js';
import { openRuntime } from './open-runtime.js';
import { openOrCreateSession } from './open-or-create-session.js';
import { workspaceRootsOption } from './workspace-roots.js';

/**
 * What `openwork call` and `openwork session` share (architecture §7): the runtime over the
 * configured store with the terminal approver, the stored session they run in (new, or the one
 * `--session` names), a signal that Ctrl-C aborts; all closed again when `use` ends.
 */
export async function withCommandSession<T>(
  command: 'call' | 'session',
  parsed: ParsedArguments,
  io: CommandIo,
  use: (session: Session, signal: AbortSignal, stored: { readonly discard: () => Promise<void> }) => Promise<T>,
  terminal: { readonly beforeCard?: () => void; readonly afterCard?: (approved: boolean | undefined) => void } = {},
): Promise<T> {
  // Before anything opens: a refused root (`/`) changes nothing, not even the store.
  if (optionValue(parsed, 'session') === undefined) workspaceRootsOption(parsed);
  const opened = await openRuntime({
    environment: io.environment,
    database: optionValue(parsed, 'database'),
    network: optionValue(parsed, 'network') as 'allow' | 'none' | undefined,
    approver: terminalApprover({ interactive: io.interactive, approveAll: parsed.flags.has('approve'), output: io.stderr, ...terminal }),
  });
  const controller = new AbortController();
  const interrupt = () => controller.abort();
  process.once('SIGINT', interrupt);
  try {
    const session = await openOrCreateSession(opened.runtime, parsed, io.environment, command);
    // `discard` removes the session again (a call that ran nothing leaves no stored session behind).
    return await use(session, controller.signal, { discard: async () => void (await opened.runtime.deleteSession(session.id)) });
  } finally {
    process.removeListener('SIGINT', interrupt);
    await opened.close();
  }
}
