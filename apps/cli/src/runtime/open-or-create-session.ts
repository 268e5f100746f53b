import type { Runtime, Session } from '@openwork/core';
import { optionValue, type ParsedArguments } from '../cli/parse-arguments.js';
import { UsageError } from '../cli/usage-error.js';
import { restoreObservations } from './session-observations.js';
import { workspaceRootsOption } from './workspace-roots.js';

/**
 * The session a `call` or `session` command runs in: the stored one `--session ID` names (issue
 * 29: read in one call, edit in the next), with the observation table the last process saved, or
 * a new one from `--workspace`, `--mode` and `--agent`. A continued session keeps its own roots,
 * mode and role, so those options are refused beside `--session` rather than silently ignored.
 */
export async function openOrCreateSession(runtime: Runtime, parsed: ParsedArguments, environment: NodeJS.ProcessEnv, command: string): Promise<Session> {
  const id = optionValue(parsed, 'session');
  if (id === undefined) {
    const mode = optionValue(parsed, 'mode') as 'read-only' | 'workspace-write' | 'full-access' | undefined;
    const role = optionValue(parsed, 'agent') as 'default' | 'explorer' | undefined;
    return runtime.createSession({
      workspaceRoots: workspaceRootsOption(parsed),
      ...(mode === undefined ? {} : { mode }),
      ...(role === undefined ? {} : { role }),
    });
  }
  for (const name of ['workspace', 'mode', 'agent']) {
    if (optionValue(parsed, name) !== undefined) {
      throw new UsageError(`openwork ${command}: --${name} cannot change a continued session; --session ${id} keeps the roots, mode and agent it was created with (leave out --${name}, or start a new session)`);
    }
  }
  let session: Session;
  try {
    session = await runtime.openSession(id);
  } catch (error) {
    if ((error as { code?: unknown }).code === 'session_not_found') {
      throw new UsageError(`openwork ${command}: no stored session ${JSON.stringify(id)}; openwork changes lists the sessions with changes, and a call without --session starts a new one`);
    }
    throw error;
  }
  await restoreObservations(environment, session);
  return session;
}
