import { UsageError } from '../cli/usage-error.js';

/**
 * The UNIX sockets of host daemons that sandboxed commands may reach (architecture §3.7):
 * `OPENWORK_ALLOW_SOCKETS`, absolute paths separated by `:` like `PATH` (e.g.
 * `OPENWORK_ALLOW_SOCKETS=$SSH_AUTH_SOCK` for `git push` over SSH). Empty or unset: none.
 */
export function allowedSockets(environment: NodeJS.ProcessEnv): string[] {
  const value = environment['OPENWORK_ALLOW_SOCKETS'] ?? '';
  const sockets = value.split(':').filter((entry) => entry !== '');
  for (const socket of sockets) {
    if (!socket.startsWith('/')) {
      throw new UsageError(`OPENWORK_ALLOW_SOCKETS: ${JSON.stringify(socket)} is not an absolute path; list socket paths separated by ':' (e.g. OPENWORK_ALLOW_SOCKETS=$SSH_AUTH_SOCK)`);
    }
  }
  return sockets;
}
