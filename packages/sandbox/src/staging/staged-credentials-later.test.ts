import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BubblewrapBackend } from '../bubblewrap/bubblewrap-backend.js';
import { makeTempDirectory, requireBubblewrap } from '../bubblewrap/test-support/run-wrapped.js';
import { createSandboxPolicy } from '../policy/create-sandbox-policy.js';

/**
 * Architecture §3.2 tier 2, "masked even while missing": credentials the user creates after a
 * task started (a background task, a long build) never appear to it. The command waits on its
 * standard input; the test creates the credentials on the host, then lets it read them.
 */

let base: string;
let backend: BubblewrapBackend;

beforeAll(async () => {
  await requireBubblewrap();
  base = await makeTempDirectory('ow-credentials-later-');
  backend = new BubblewrapBackend();
  expect(await backend.selfCheck()).toEqual({ available: true });
});

afterAll(() => {
  if (base !== undefined) fs.rmSync(base, { recursive: true, force: true });
});

const later: ReadonlyArray<readonly [string, string]> = [
  ['.aws/credentials', '[default]\naws_secret_access_key = later\n'],
  ['.config/gh/hosts.yml', 'github.com:\n  oauth_token: later\n'],
  ['.docker/config.json', '{"auths":{"x":{"auth":"later"}}}\n'],
  ['.ssh/id_ed25519', '-----BEGIN OPENSSH PRIVATE KEY-----\nlater\n'],
];

describe('credentials created after the call started (real bubblewrap)', () => {
  it('stay out of reach, while the files that were there stay readable', async () => {
    const home = path.join(base, 'home');
    const workspace = path.join(base, 'work', 'project');
    fs.mkdirSync(path.join(home, '.config', 'other'), { recursive: true });
    fs.writeFileSync(path.join(home, '.config', 'other', 'settings'), 'kept\n');
    fs.writeFileSync(path.join(home, '.profile'), 'kept\n');
    fs.mkdirSync(workspace, { recursive: true });
    fs.mkdirSync(path.join(base, 'tmp'));
    const policy = createSandboxPolicy({ mode: 'workspace-write', workspaceRoots: [workspace], homeDirectory: home, openworkHome: path.join(base, 'openwork-home'), tempRoots: [path.join(base, 'tmp')] });
    const reads = later.map(([name]) => `cat ${JSON.stringify(path.join(home, name))} 2>/dev/null || echo "no ${name}"`).join('; ');
    const wrapped = backend.wrap({ argv: ['/bin/bash', '-c', `read go; ${reads}; cat ~/.profile ~/.config/other/settings`], cwd: workspace }, policy);
    const [file, ...args] = wrapped.argv as [string, ...string[]];
    const child = spawn(file, args, { cwd: workspace, env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: home }, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    // The command is running (it printed nothing yet and waits): the user creates credentials now.
    for (const [name, content] of later) {
      fs.mkdirSync(path.dirname(path.join(home, name)), { recursive: true });
      fs.writeFileSync(path.join(home, name), content);
    }
    child.stdin.end('go\n');
    const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
    await wrapped.release();
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    expect(stdout).not.toContain('later');
    expect(stdout).toBe(`${later.map(([name]) => `no ${name}\n`).join('')}kept\nkept\n`);
  }, 60_000);
});
