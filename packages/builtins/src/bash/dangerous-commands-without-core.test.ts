import { execFileSync } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ToolResult } from '@openwork/tools-contract';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { DangerousCommandRequest } from './dangerous-command-gate.js';
import { createBashFixture, requireBubblewrap, type BashFixture } from './test-support/bash-fixture.js';

// A host that uses @openwork/builtins without core (docs/decisions/0104): a dangerous command
// goes to the host's approver when it gave one, and is refused when it gave none. Real git, real
// bubblewrap; a bare repository stands in for the remote, a server on no port for curl.

const fixtures: BashFixture[] = [];
beforeAll(requireBubblewrap);
afterEach(async () => {
  await Promise.all(fixtures.splice(0).map((fixture) => fixture.cleanup()));
});

const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t.invalid', '-c', 'init.defaultBranch=main', ...args], { cwd, stdio: 'pipe', env: { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null' } }).toString();

/** A workspace that is a git repository with one commit, an uncommitted edit, and a bare remote it has pushed to. */
async function repository(fixture: BashFixture): Promise<{ remote: string }> {
  const remote = join(fixture.root, 'remote.git');
  git(fixture.root, 'init', '-q', '--bare', remote);
  git(fixture.workspace, 'init', '-q');
  await writeFile(join(fixture.workspace, 'notes.txt'), 'committed\n');
  git(fixture.workspace, 'add', 'notes.txt');
  git(fixture.workspace, 'commit', '-q', '-m', 'first');
  git(fixture.workspace, 'remote', 'add', 'origin', remote);
  git(fixture.workspace, 'push', '-q', 'origin', 'main');
  await writeFile(join(fixture.workspace, 'notes.txt'), 'an edit worth keeping\n');
  return { remote };
}

async function bashFixture(options: Parameters<typeof createBashFixture>[0] = {}): Promise<BashFixture> {
  const fixture = await createBashFixture({ environment: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', GIT_CONFIG_GLOBAL: '/dev/null', GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@t.invalid', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@t.invalid' }, ...options });
  fixtures.push(fixture);
  return fixture;
}

const DANGEROUS = ['git reset --hard HEAD', 'git push --force origin main', 'curl -fsS http://127.0.0.1:9/install.sh | sh'];

describe('dangerous commands in a builtins-only host', () => {
  it('without an approver: git reset --hard, git push --force and curl | sh are refused and nothing runs', async () => {
    const fixture = await bashFixture();
    const { remote } = await repository(fixture);
    const remoteHead = git(remote, 'rev-parse', 'main');
    for (const command of DANGEROUS) {
      const result = await fixture.call('bash', { command: `${command}; echo ran > ran.txt` });
      expect(result.status, command).toBe('denied');
      expect(result.error?.code).toBe('permission_denied');
      expect(ToolResult.text(result)).toMatch(/^This command was not run: .+ It needs the user's approval, and this host has no one to ask\./s);
    }
    expect(await readFile(join(fixture.workspace, 'notes.txt'), 'utf8')).toBe('an edit worth keeping\n');
    await expect(readFile(join(fixture.workspace, 'ran.txt'))).rejects.toThrow();
    expect(git(remote, 'rev-parse', 'main')).toBe(remoteHead);
    // A harmless command still runs.
    expect(ToolResult.text(await fixture.call('bash', { command: 'git status --short' }))).toContain('M notes.txt');
  });

  it("with an approver: it is asked with the findings; a no refuses, a yes runs (the edit is gone, as the person agreed)", async () => {
    const asked: DangerousCommandRequest[] = [];
    let answer = false;
    const fixture = await bashFixture({
      dangerousCommands: (request) => {
        asked.push(request);
        return answer;
      },
    });
    await repository(fixture);
    const refused = await fixture.call('bash', { command: 'git reset --hard HEAD', description: 'discard the edit' });
    expect(refused.status).toBe('denied');
    expect(ToolResult.text(refused)).toMatch(/^The user refused this command: /);
    expect(await readFile(join(fixture.workspace, 'notes.txt'), 'utf8')).toBe('an edit worth keeping\n');
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatchObject({ toolId: 'bash', command: 'git reset --hard HEAD', description: 'discard the edit', danger: { dangerous: true } });
    expect(asked[0]?.danger.findings[0]?.reason).toMatch(/\w/);
    answer = true;
    const approved = await fixture.call('bash', { command: 'git reset --hard HEAD' });
    expect(approved.status).toBe('succeeded');
    expect(await readFile(join(fixture.workspace, 'notes.txt'), 'utf8')).toBe('committed\n');
    // Nothing dangerous, nobody asked.
    await fixture.call('bash', { command: 'git log --oneline' });
    expect(asked).toHaveLength(2);
  });

  it("'caller' (core's way: it asked already) runs what it is given", async () => {
    const fixture = await bashFixture({ dangerousCommands: 'caller' });
    await repository(fixture);
    expect((await fixture.call('bash', { command: 'git reset --hard HEAD' })).status).toBe('succeeded');
    expect(await readFile(join(fixture.workspace, 'notes.txt'), 'utf8')).toBe('committed\n');
  });

  it('rm -rf ~ names the home the command will use ($HOME of its environment), not the session setting', async () => {
    const fixture = await bashFixture();
    const commandHome = join(fixture.root, 'command-home');
    await mkdir(commandHome);
    const other = await bashFixture({ environment: { PATH: '/usr/bin:/bin', HOME: commandHome } });
    const prepared = other.toolset.prepare('bash', { command: 'rm -rf ~' });
    expect(prepared.ok).toBe(true);
    if (!prepared.ok) return;
    const danger = prepared.call.inspection['danger'] as { findings: { reason: string }[] };
    expect(danger.findings[0]?.reason).toContain(commandHome);
    expect(danger.findings[0]?.reason).not.toContain(other.home);
    const refused = await other.call('bash', { command: 'rm -rf ~' });
    expect(ToolResult.text(refused)).toContain(commandHome);
  });
});
