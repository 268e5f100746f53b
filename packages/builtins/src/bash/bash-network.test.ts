import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ToolResult } from '@openwork/tools-contract';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { NO_NETWORK_NOTE, NO_NETWORK_TIMEOUT_NOTE } from './bash-network-hint.js';
import { createBashFixture, requireBubblewrap, type BashFixture } from './test-support/bash-fixture.js';

// network: 'none' on the real bubblewrap sandbox (--unshare-net): a lookup or a connection fails,
// and the result says why, so the model does not chase the command (docs/decisions/0101).

const fixtures: BashFixture[] = [];
let server: Server | undefined;
beforeAll(requireBubblewrap);
afterEach(async () => {
  server?.close();
  server = undefined;
  await Promise.all(fixtures.splice(0).map((fixture) => fixture.cleanup()));
});

async function hostServer(): Promise<number> {
  server = createServer((_request, response) => response.end('hello from the host\n'));
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

async function fixture(): Promise<BashFixture> {
  const created = await createBashFixture();
  fixtures.push(created);
  return created;
}

const fetchWithNode = (port: number) =>
  `node -e "require('http').get('http://127.0.0.1:${port}/', (r) => r.pipe(process.stdout)).on('error', (e) => { console.error(e.code, e.message); process.exit(1); })"`;
const lookupWithNode = `node -e "require('dns').lookup('registry.npmjs.org', (e, a) => { if (e) { console.error(e.code, e.message); process.exit(1); } console.log('resolved'); })"`;

describe('bash with network: none', () => {
  it('a connection to a server on the host fails, and the result says the session has no network', async () => {
    const port = await hostServer();
    const session = await fixture();
    const allowed = await session.call('bash', { command: fetchWithNode(port) }, { policy: session.policy({ network: 'allow' }) });
    expect(ToolResult.text(allowed)).toContain('hello from the host');
    expect(ToolResult.text(allowed)).not.toContain('[network: none]');
    const none = await session.call('bash', { command: fetchWithNode(port) }, { policy: session.policy({ network: 'none' }) });
    const text = ToolResult.text(none);
    expect(text).not.toContain('hello from the host');
    expect(text).toMatch(/ECONNREFUSED|ENETUNREACH/);
    expect(text.endsWith(NO_NETWORK_NOTE)).toBe(true);
    expect(none.status).toBe('succeeded');
    expect(none.sandboxDenied).toBe(false);
  });

  it('a name lookup fails, and the result says why', async () => {
    const session = await fixture();
    const none = await session.call('bash', { command: lookupWithNode }, { policy: session.policy({ network: 'none' }) });
    const text = ToolResult.text(none);
    expect(text).toMatch(/EAI_AGAIN|ENOTFOUND|ECONNREFUSED/);
    expect(text).toContain(NO_NETWORK_NOTE);
  });

  it('says nothing when the command succeeded or failed for another reason, and nothing under allow', async () => {
    const session = await fixture();
    const none = session.policy({ network: 'none' });
    const quiet = await session.call('bash', { command: 'echo "Connection refused is only a phrase here"' }, { policy: none });
    expect(ToolResult.text(quiet)).not.toContain('[network: none]');
    const other = await session.call('bash', { command: 'echo no such file >&2; exit 2' }, { policy: none });
    expect(ToolResult.text(other)).not.toContain('[network: none]');
    const allowFailure = await session.call('bash', { command: 'echo "getaddrinfo ENOTFOUND example.invalid" >&2; exit 1' }, { policy: session.policy({ network: 'allow' }) });
    expect(ToolResult.text(allowFailure)).not.toMatch(/network: none|no network/);
  });

  it('a command that times out in a session without network is told what it may have waited for', async () => {
    const session = await fixture();
    const result = await session.call('bash', { command: 'sleep 5', timeoutMs: 300 }, { policy: session.policy({ network: 'none' }) });
    expect(result.status).toBe('failed');
    expect(ToolResult.text(result)).toContain(NO_NETWORK_TIMEOUT_NOTE);
  });
});
