import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

// tooling/scripts/node-env.sh, sourced as the README's set-up does: what `npm i -g` installs is on
// PATH afterwards, whichever Node it chose. The whole README command runs in CI on a fresh copy
// (tooling/scripts/readme-setup-check.sh); these run in a temporary HOME, offline.

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const toolchain = join(root, '.toolchain', 'node-24');

let work: string;
beforeEach(() => {
  work = realpathSync(mkdtempSync(join(tmpdir(), 'openwork-node-env-test-')));
  mkdirSync(join(work, 'home'));
});
afterEach(() => rmSync(work, { recursive: true, force: true }));

function sourced(script: string, path: string): { status: number | null; stdout: string; stderr: string } {
  const run = spawnSync('bash', ['-c', `. tooling/scripts/node-env.sh "$@" && ${script}`, 'node-env-test'], {
    cwd: root,
    encoding: 'utf8',
    env: { HOME: join(work, 'home'), PATH: path, ...(process.env['NODE_EXTRA_CA_CERTS'] === undefined ? {} : { NODE_EXTRA_CA_CERTS: process.env['NODE_EXTRA_CA_CERTS'] }) },
  });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

describe('node-env.sh puts npm’s global bin folder on PATH', () => {
  it('a Node in the range is kept; a program npm installs globally (here into a prefix from ~/.npmrc) then runs by its name', () => {
    const prefix = join(work, 'npm-global');
    writeFileSync(join(work, 'home', '.npmrc'), `prefix=${prefix}\n`);
    const tool = join(work, 'hello-tool');
    mkdirSync(tool);
    writeFileSync(join(tool, 'package.json'), JSON.stringify({ name: 'openwork-node-env-hello', version: '1.0.0', bin: { 'openwork-node-env-hello': 'hello.js' } }));
    writeFileSync(join(tool, 'hello.js'), '#!/usr/bin/env node\nconsole.log(`hello from ${process.version}`);\n');
    // The Node running this test is in the range: node-env keeps it.
    const path = `${dirname(process.execPath)}:/usr/bin:/bin`;
    const run = sourced(`npm i -g --offline --no-audit --no-fund --loglevel=error ${JSON.stringify(tool)} >&2 && openwork-node-env-hello && command -v openwork-node-env-hello`, path);
    expect(run.stderr).toContain(`node-env: node ${process.version} from ${process.execPath}`);
    expect(run.stdout.split('\n')).toEqual([`hello from ${process.version}`, join(prefix, 'bin', 'openwork-node-env-hello'), '']);
    expect(run.status).toBe(0);
  });

  it.skipIf(!existsSync(join(toolchain, 'node_modules', '.bin', 'node')))(
    `with the toolchain’s Node, npm’s default global prefix is that Node’s folder, and its bin comes right after the Node${existsSync(toolchain) ? '' : ' — skipped: no .toolchain/node-24 in this clone (source tooling/scripts/node-env.sh 24 once)'}`,
    () => {
      const run = sourced('echo "$PATH"; npm prefix -g', '/usr/bin:/bin');
      const [path = '', prefix = ''] = run.stdout.split('\n');
      expect(run.status, run.stderr).toBe(0);
      expect(prefix).toBe(join(toolchain, 'node_modules', 'node'));
      expect(path.split(':').slice(0, 3)).toEqual([join(toolchain, 'node_modules', '.bin'), join(prefix, 'bin'), '/usr/bin']);
    },
  );
});
