import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { landlockScope } from '../landlock-scope.js';

/**
 * Why the Landlock scope cannot apply on this machine (not x86-64 Linux, Landlock ABI < 6), or
 * undefined when it can — read once with a throwaway OpenWork home. Suites that need the scope
 * skip with this reason in their name on a developer's older kernel, and FAIL in CI
 * (`CI=true`), where it must be there, like the PostgreSQL suites.
 */
export function landlockScopeMissingHere(): string | undefined {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'ow-landlock-probe-'));
  try {
    const scope = landlockScope(home);
    if (scope.scoped) return undefined;
    if (process.env['CI'] === 'true') throw new Error(`CI needs the Landlock scope (x86-64 Linux, Landlock ABI ≥ 6): ${scope.reason}`);
    return scope.reason;
  } finally {
    fs.rmSync(home, { recursive: true, force: true });
  }
}
