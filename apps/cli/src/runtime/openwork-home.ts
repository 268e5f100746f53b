import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

/** The user's home directory: `HOME`, else the account's. */
export function userHome(environment: NodeJS.ProcessEnv): string {
  const home = environment['HOME'];
  return home !== undefined && home !== '' ? resolve(home) : homedir();
}

/**
 * The OpenWork home (architecture §3.2, tier 1): `OPENWORK_HOME` when set, else `~/.openwork`.
 * It holds the SQLite session database and the spill files, and no tool may write it.
 */
export function openworkHome(environment: NodeJS.ProcessEnv): string {
  const configured = environment['OPENWORK_HOME'];
  return configured !== undefined && configured !== '' ? resolve(configured) : join(userHome(environment), '.openwork');
}
