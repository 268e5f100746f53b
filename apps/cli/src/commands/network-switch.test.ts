import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createCliSandbox, runOpenwork, type CliSandbox } from '../test-support/cli-sandbox.js';
import { mcpTestClients, resultText } from '../test-support/mcp-test-client.js';

// `--network allow|none` on call, session and mcp (docs/decisions/0101-network-switch.md): the real
// `openwork` process on temp homes, the real bubblewrap sandbox, a server of the host on 127.0.0.1.

let sandbox: CliSandbox;
let server: Server;
let port: number;
const { connect, closeAll } = mcpTestClients(() => sandbox);

beforeEach(async () => {
  sandbox = await createCliSandbox();
  server = createServer((_request, response) => response.end('hello from the host\n'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});

afterEach(async () => {
  await closeAll();
  server.close();
  await sandbox.remove();
});

const fetchCommand = () =>
  `node -e "require('http').get('http://127.0.0.1:${port}/', (r) => r.pipe(process.stdout)).on('error', (e) => { console.error(e.code); process.exit(1); })"`;
const NOTE = "[network: none] This session's commands have no network";

describe('the network switch', () => {
  it('openwork mcp --network none: bash reaches nothing, and the result says why; without it the host server answers', async () => {
    const offline = await connect({ args: ['--workspace', sandbox.workspace, '--network', 'none'] });
    const refused = await offline.client.callTool({ name: 'bash', arguments: { command: fetchCommand() } });
    expect(resultText(refused)).not.toContain('hello from the host');
    expect(resultText(refused)).toContain(NOTE);
    expect(offline.stderr()).toContain('network none');
    const online = await connect();
    const answered = await online.client.callTool({ name: 'bash', arguments: { command: fetchCommand() } });
    expect(resultText(answered)).toContain('hello from the host');
    expect(resultText(answered)).not.toContain('[network: none]');
  });

  it('openwork call and openwork session take --network none', async () => {
    const environment = sandbox.environment;
    const call = await runOpenwork(['call', 'bash', JSON.stringify({ command: fetchCommand() }), '--workspace', sandbox.workspace, '--network', 'none'], { environment, cwd: sandbox.workspace });
    expect(call.stdout).toContain(NOTE);
    const session = await runOpenwork(['session', '--workspace', sandbox.workspace, '--network', 'none'], {
      environment,
      cwd: sandbox.workspace,
      stdin: `${JSON.stringify({ tool: 'bash', input: { command: fetchCommand() } })}\n`,
    });
    expect(session.stdout).toContain('[network: none]');
    expect(session.stdout).not.toContain('hello from the host');
    const allowed = await runOpenwork(['call', 'bash', JSON.stringify({ command: fetchCommand() }), '--workspace', sandbox.workspace, '--network', 'allow'], { environment, cwd: sandbox.workspace });
    expect(allowed.stdout).toContain('hello from the host');
  });

  it('a wrong value is a usage error that names the choices, and changes nothing', async () => {
    const run = await runOpenwork(['call', 'bash', '{"command":"true"}', '--workspace', sandbox.workspace, '--network', 'off'], { environment: sandbox.environment, cwd: sandbox.workspace });
    expect(run.status).toBe(2);
    expect(run.stderr).toContain('--network must be one of allow, none, got "off"');
  });

  it('openwork doctor has a network row', async () => {
    const run = await runOpenwork(['doctor', '--json'], { environment: sandbox.environment, cwd: sandbox.workspace });
    const report = JSON.parse(run.stdout) as Record<string, string>;
    expect(report['network']).toMatch(/^allow by default: .*--network none \(call, session, mcp\)/);
  });
});
