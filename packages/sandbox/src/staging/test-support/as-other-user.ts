import { spawn } from 'node:child_process';
import { randomInt } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';

/**
 * A throwaway uid for one test: no passwd entry (`os.userInfo()` throws for it, as for a container
 * run with `-u 12345`), picked at random so that two test files never share its `/dev/shm` names.
 */
export function throwawayUid(): number {
  return randomInt(40_000, 60_000);
}

/** Whether this process may run a child as another uid (the other-user tests need root). */
export function canSwitchUser(): boolean {
  return process.getuid?.() === 0;
}

/** Makes `folder` and what is in it owned by `uid` (the victim's own home, workspace, OpenWork home). */
export function giveTo(folder: string, uid: number): void {
  fs.chownSync(folder, uid, uid);
  for (const entry of fs.readdirSync(folder, { withFileTypes: true })) {
    const full = path.join(entry.parentPath, entry.name);
    if (entry.isDirectory()) giveTo(full, uid);
    else fs.lchownSync(full, uid, uid);
  }
}

/** Opens the compiled sources (a mkdtemp folder: 0700) for every user to read and run. */
export function openBuildToAll(build: string): void {
  fs.chmodSync(build, 0o755);
}

export interface UserChildResult {
  readonly uid: number;
  readonly availability: { readonly available: boolean; readonly reason?: string };
  readonly call?: { readonly code: number | null; readonly notices: readonly string[]; readonly error?: string };
  readonly workspace: readonly string[];
}

/** Runs `staged-user-child.js` of `build` as `uid` (same gid, no groups), HOME and TMPDIR its own. */
export function runAsUser(
  build: string,
  uid: number,
  configuration: { readonly workspace: string; readonly home: string; readonly openworkHome: string; readonly script: string; readonly temp: string },
): Promise<UserChildResult> {
  const child = spawn(process.execPath, [path.join(build, 'staging/test-support/staged-user-child.js'), JSON.stringify(configuration)], {
    cwd: configuration.home,
    uid,
    gid: uid,
    env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: configuration.home, TMPDIR: configuration.temp, LANG: 'C' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => {
      if (code !== 0) return reject(new Error(`the user's process exited ${String(code)}: ${stderr}`));
      resolve(JSON.parse(stdout) as UserChildResult);
    });
  });
}
