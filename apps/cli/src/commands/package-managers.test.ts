import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdir, readFile, readdir, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createCliSandbox, type CliSandbox } from '../test-support/cli-sandbox.js';
import { mcpTestClients, resultText } from '../test-support/mcp-test-client.js';

// `npm install` and `npm test` in bash through `openwork mcp`, out of the box (docs/decisions/0103):
// a registry of our own on 127.0.0.1 (a packument and a tarball, served by node:http), reached
// through `npm_config_registry` from the host's environment (the allow-list of 0102); npm's cache
// in the sandbox's private temp folder, not `~/.npm`, and not a recorded change (0103). With
// `--network none` the install fails and the result says why (0101). Real processes, real
// bubblewrap, real npm, temp homes.

let sandbox: CliSandbox;
let registry: Server;
let registryUrl: string;
let tarballRequests = 0;
const { connect, closeAll } = mcpTestClients(() => sandbox);

async function startRegistry(root: string): Promise<void> {
  const source = join(root, 'tiny-greet', 'package');
  await mkdir(source, { recursive: true });
  await writeFile(join(source, 'package.json'), JSON.stringify({ name: 'tiny-greet', version: '1.0.0', main: 'index.js' }));
  await writeFile(join(source, 'index.js'), "module.exports = (name) => `hello, ${name}`;\n");
  execFileSync('tar', ['-czf', join(root, 'tiny-greet.tgz'), '-C', join(root, 'tiny-greet'), 'package']);
  const tarball = await readFile(join(root, 'tiny-greet.tgz'));
  const integrity = `sha512-${createHash('sha512').update(tarball).digest('base64')}`;
  registry = createServer((request, response) => {
    if (request.url === '/tiny-greet') {
      const packument = {
        name: 'tiny-greet',
        'dist-tags': { latest: '1.0.0' },
        versions: { '1.0.0': { name: 'tiny-greet', version: '1.0.0', main: 'index.js', dist: { tarball: `${registryUrl}tiny-greet/-/tiny-greet-1.0.0.tgz`, integrity } } },
      };
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(packument));
    } else if (request.url === '/tiny-greet/-/tiny-greet-1.0.0.tgz') {
      tarballRequests += 1;
      response.writeHead(200, { 'content-type': 'application/octet-stream' }).end(tarball);
    } else {
      response.writeHead(404).end('{}');
    }
  });
  await new Promise<void>((resolve) => registry.listen(0, '127.0.0.1', resolve));
  registryUrl = `http://127.0.0.1:${(registry.address() as AddressInfo).port}/`;
}

beforeEach(async () => {
  sandbox = await createCliSandbox();
  await mkdir(join(sandbox.root, 'tmp'));
  tarballRequests = 0;
  await startRegistry(join(sandbox.root, 'registry'));
  await writeFile(
    join(sandbox.workspace, 'package.json'),
    JSON.stringify({ name: 'app', version: '1.0.0', private: true, scripts: { test: 'node test.js' }, dependencies: { 'tiny-greet': '1.0.0' } }, null, 2),
  );
  await writeFile(
    join(sandbox.workspace, 'test.js'),
    "const assert = require('node:assert');\nassert.strictEqual(require('tiny-greet')('world'), 'hello, world');\nconsole.log('1 test passed');\n",
  );
});

afterEach(async () => {
  await closeAll();
  registry.close();
  await sandbox.remove();
});

/** The host's npm settings: our registry; no update check and no audit (they would go to the public registry). */
function hostEnvironment(extra: Record<string, string> = {}): Record<string, string> {
  // TMPDIR below the test's root: the sandbox's private cache folder goes there, and goes away with it.
  return { ...sandbox.environment, TMPDIR: join(sandbox.root, 'tmp'), npm_config_registry: registryUrl, npm_config_update_notifier: 'false', npm_config_audit: 'false', npm_config_fund: 'false', ...extra };
}

function changedPaths(result: unknown): string[] {
  const summary = (result as CallToolResult)._meta?.['openwork/result'] as { artifacts: { kind: string; path?: string }[] } | undefined;
  return (summary?.artifacts ?? []).flatMap((artifact) => (artifact.kind === 'file_change' && artifact.path !== undefined ? [artifact.path] : []));
}

describe('package managers in bash through openwork mcp', { timeout: 180_000 }, () => {
  it('npm install from a registry and npm test work with the network on; the cache is neither ~/.npm nor a recorded change', async () => {
    const { client } = await connect({ environment: hostEnvironment() });
    const install = await client.callTool({ name: 'bash', arguments: { command: 'npm install', timeoutMs: 120_000 } });
    const installText = resultText(install);
    expect(installText, installText).toMatch(/added 1 package/);
    expect(installText).toMatch(/\[exit 0; duration \d+ ms\]$/);
    // Only variables npm knows: no "Unknown env config" warnings.
    expect(installText).not.toContain('Unknown env config');
    expect(tarballRequests).toBe(1);
    expect(JSON.parse(await readFile(join(sandbox.workspace, 'node_modules', 'tiny-greet', 'package.json'), 'utf8'))).toMatchObject({ version: '1.0.0' });
    // What npm wrote in the workspace is the call's change; its cache (below the temp root) is not.
    const changed = changedPaths(install);
    expect(changed).toContain('node_modules/tiny-greet/index.js');
    expect(changed.filter((path) => path.includes('openwork-cache-') || path.includes('_cacache'))).toEqual([]);
    await expect(readdir(join(sandbox.home, '.npm'))).rejects.toThrow();
    expect((await readdir(join(sandbox.root, 'tmp'))).filter((name) => name.startsWith('openwork-cache-'))).toHaveLength(1);

    const test = await client.callTool({ name: 'bash', arguments: { command: 'npm test', timeoutMs: 120_000 } });
    expect(resultText(test)).toContain('1 test passed');
    expect(resultText(test)).toMatch(/\[exit 0; duration \d+ ms\]$/);
  });

  it('with --network none the install fails, and the result says the session has no network', async () => {
    const { client } = await connect({ environment: hostEnvironment({ npm_config_fetch_retries: '0' }), args: ['--workspace', sandbox.workspace, '--network', 'none'] });
    const install = await client.callTool({ name: 'bash', arguments: { command: 'npm install', timeoutMs: 120_000 } });
    const text = resultText(install);
    expect(text).toMatch(/ECONNREFUSED|ENETUNREACH|EAI_AGAIN/);
    expect(text).toContain("[network: none] This session's commands have no network");
    expect(tarballRequests).toBe(0);
    await expect(readdir(join(sandbox.workspace, 'node_modules', 'tiny-greet'))).rejects.toThrow();
  });

  it('a cache where the sandbox denies writing is a sandbox denial with the retry hint', async () => {
    // (The test's HOME lies below /tmp, a temp root, so it is writable here: a folder outside every root stands in for ~/.npm.)
    const denied = '/opt/openwork-denied-npm-cache';
    const { client } = await connect({ environment: hostEnvironment() });
    const install = await client.callTool({ name: 'bash', arguments: { command: `npm install --cache ${denied}`, timeoutMs: 120_000 } });
    const text = resultText(install);
    expect(text).toMatch(/ENOENT|EROFS|EACCES/);
    expect(text).toContain('[sandbox denied:');
    expect(text).toContain('call bash again with sandboxPermissions');
    expect(text).toContain(denied);
    expect((install as CallToolResult)._meta?.['openwork/result']).toMatchObject({ sandboxDenied: true });
  });
});
