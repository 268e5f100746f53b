import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { ToolResult } from '@openwork/tools-contract';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createBashFixture, requireBubblewrap, type BashFixture } from './test-support/bash-fixture.js';

// Planted gitlink repositories through the public bash tool: a command leaves a nested repository with
// core.fsmonitor recorded as a gitlink; the result tells the model it was moved aside, and the
// user's own git status afterwards (on the host, unsandboxed) runs nothing of it.

const fixtures: BashFixture[] = [];
beforeAll(requireBubblewrap);
afterEach(async () => {
  await Promise.all(fixtures.splice(0).map((fixture) => fixture.cleanup()));
});

const identity = { GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@openwork.invalid', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@openwork.invalid' };

function userGit(cwd: string, home: string, ...args: string[]): string {
  const result = spawnSync('git', args, { cwd, encoding: 'utf8', env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: home, GIT_CONFIG_NOSYSTEM: '1', ...identity } });
  return `${result.stdout}${result.stderr}`;
}

describe('bash and planted git configuration (architecture §3.7)', () => {
  it('a planted gitlink repository with core.fsmonitor never gets its config on the host, the result says so, and the user’s git status runs nothing', async () => {
    const fixture = await createBashFixture();
    fixtures.push(fixture);
    const marker = join(fixture.outside, 'planted-program-ran');
    execFileSync('git', ['init', '-q', '-b', 'main'], { cwd: fixture.workspace, env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: fixture.home } });
    const command = [
      `export ${Object.entries(identity).map(([name, value]) => `${name}=${value}`).join(' ')}`,
      `git init -q vendor/lib && git -C vendor/lib config core.fsmonitor 'touch ${marker}; false'`,
      'git -C vendor/lib commit -q --allow-empty -m x && git add vendor/lib && echo planted',
    ].join('\n');
    const result = await fixture.call('bash', { command });
    const text = ToolResult.text(result);
    // Staged writes: the repository arrives, its config (which runs a program) does not.
    expect(text).toMatch(/\nplanted\n\[exit 0; duration \d+ ms\]\n\[not applied: /);
    expect(text).toContain(`- create ${fixture.workspace}/vendor/lib/.git/config: Permission denied`);
    expect(result.sandboxDenied).toBe(true);
    expect(existsSync(join(fixture.workspace, 'vendor', 'lib', '.git', 'HEAD'))).toBe(true);
    userGit(fixture.workspace, fixture.home, 'status');
    userGit(fixture.workspace, fixture.home, 'diff');
    expect(existsSync(marker)).toBe(false);
  });
});
