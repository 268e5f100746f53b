import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createCliSandbox, runOpenwork, type CliSandbox } from '../test-support/cli-sandbox.js';
import { rawRequest, startUi } from '../test-support/ui-browser.js';

describe('openwork ui arguments and listening', () => {
  let sandbox: CliSandbox;

  beforeEach(async () => {
    sandbox = await createCliSandbox();
  });

  afterEach(async () => {
    await sandbox.remove();
  });

  const run = (argv: readonly string[]) => runOpenwork(argv, { environment: sandbox.environment, cwd: sandbox.workspace });

  it('bad arguments give one line on stderr and exit 2; --help shows the usage', async () => {
    for (const argv of [['ui', '--port', '70000'], ['ui', '--port', 'eighty'], ['ui', '--host', 'example.com'], ['ui', '--host', '0.0.0.0'], ['ui', 'extra']]) {
      const result = await run(argv);
      expect(result.status, argv.join(' ')).toBe(2);
      expect(result.stderr.trim().split('\n'), argv.join(' ')).toHaveLength(1);
      expect(result.stdout).toBe('');
    }
    const help = await run(['ui', '--help']);
    expect(help.status).toBe(0);
    expect(help.stdout).toMatch(/^Usage: openwork ui \[--port N\] \[--open\]/u);
  });

  it('a port in use is a clear failure (exit 1)', async () => {
    const holder = createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    try {
      const port = (holder.address() as AddressInfo).port;
      const result = await run(['ui', '--port', String(port)]);
      expect(result.status).toBe(1);
      expect(result.stderr).toBe(`openwork ui: cannot listen on 127.0.0.1: port ${port} is in use; choose another with --port\n`);
    } finally {
      await new Promise<void>((resolve) => holder.close(() => resolve()));
    }
  });

  it('--open hands the address with its token to the platform opener (xdg-open here)', async () => {
    const bin = join(sandbox.root, 'bin');
    const opened = join(sandbox.root, 'opened.txt');
    await mkdir(bin);
    await writeFile(join(bin, 'xdg-open'), `#!/bin/sh\nprintf '%s' "$1" > '${opened}'\n`);
    await chmod(join(bin, 'xdg-open'), 0o755);
    const ui = await startUi({ ...sandbox.environment, PATH: `${bin}:${sandbox.environment['PATH'] ?? ''}` }, ['--open']);
    try {
      await expect.poll(() => readFile(opened, 'utf8').catch(() => ''), { timeout: 10_000 }).toBe(ui.url);
    } finally {
      await ui.stop();
    }
  });

  it('listens on 127.0.0.1 by default, prints a fresh token each start, and stops on SIGTERM', async () => {
    const first = await startUi(sandbox.environment);
    const second = await startUi(sandbox.environment);
    try {
      expect(new URL(first.url).hostname).toBe('127.0.0.1');
      expect(first.token).toMatch(/^[A-Za-z0-9_-]{32}$/u);
      expect(first.token).not.toBe(second.token);
      expect((await rawRequest(first.port, { path: `/api/sessions?token=${second.token}` })).status).toBe(401);
      const answer = await rawRequest(first.port, { path: `/api/sessions?token=${first.token}` });
      expect(answer.status).toBe(200);
      expect(JSON.parse(answer.body)).toMatchObject({ sessions: [], total: 0 });
      expect(await first.stop()).toBe(0);
      expect(first.stderr()).toMatch(/^openwork ui: sessions from .*sessions\.sqlite; /u);
    } finally {
      await first.stop();
      await second.stop();
    }
  });
});
