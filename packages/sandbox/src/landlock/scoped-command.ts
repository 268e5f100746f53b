import type { SandboxCommand } from '../backend/sandbox-backend.js';
import { SandboxConfigurationError } from '../policy/sandbox-error.js';

/**
 * `command` run through the Landlock scope helper (architecture §3.7): `helper <program> <args…>`.
 * The helper calls `execve`, which does not search `PATH`; a bare program name (`true`, as bwrap
 * would find it with `execvp`) goes through `/bin/sh -c 'exec "$0" "$@"'`, whose `exec` searches
 * the command's own `PATH` inside the sandbox. The bash tool's argv (`/bin/bash -c …`) is absolute
 * and costs no extra program.
 */
export function scopedCommand(helperPath: string, command: SandboxCommand): SandboxCommand {
  const [program] = command.argv;
  // An empty argv would start the helper's probe instead of a command.
  if (program === undefined) throw new SandboxConfigurationError('the command argv is empty');
  const argv = program.includes('/') ? [helperPath, ...command.argv] : [helperPath, '/bin/sh', '-c', 'exec "$0" "$@"', ...command.argv];
  return { ...command, argv };
}
