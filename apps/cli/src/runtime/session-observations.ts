import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Session } from '@openwork/core';
import { openworkHome } from './openwork-home.js';

/**
 * Where the CLI keeps a session's observation table between processes (§7.4 "read before edit"
 * across `openwork call --session ID` runs): `<OpenWork home>/observations/<session id>.json`, in
 * the hard-protected OpenWork home (tier 1: no tool can write it). It holds real paths and SHA-256
 * hashes only, never contents.
 */
function observationsFile(environment: NodeJS.ProcessEnv, sessionId: string): string {
  return join(openworkHome(environment), 'observations', `${encodeURIComponent(sessionId)}.json`);
}

/** Gives the session back what the last process saw; a missing or unreadable file restores nothing (the model reads again). */
export async function restoreObservations(environment: NodeJS.ProcessEnv, session: Session): Promise<void> {
  let saved: unknown;
  try {
    saved = JSON.parse(await readFile(observationsFile(environment, session.id), 'utf8'));
  } catch {
    return;
  }
  if (!Array.isArray(saved)) return;
  for (const entry of saved) {
    if (!Array.isArray(entry) || typeof entry[0] !== 'string' || typeof entry[1] !== 'string') continue;
    try {
      session.observations.restore(entry[0], entry[1]);
    } catch {
      // An entry this version would not have written: skipped, the model reads that file again.
    }
  }
}

/** Saves the session's observation table for the next process (written whole, then renamed into place). */
export async function saveObservations(environment: NodeJS.ProcessEnv, session: Session): Promise<void> {
  const file = observationsFile(environment, session.id);
  await mkdir(join(openworkHome(environment), 'observations'), { recursive: true, mode: 0o700 });
  const temporary = `${file}.${process.pid}.tmp`;
  await writeFile(temporary, `${JSON.stringify(session.observations.entries())}\n`, { mode: 0o600 });
  await rename(temporary, file);
}
