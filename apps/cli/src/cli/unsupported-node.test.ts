import { spawn, spawnSync } from 'node:child_process';
import { accessSync, constants, readdirSync, readFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { LoggingMessageNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createCliSandbox, OPENWORK_BIN, type CliSandbox } from '../test-support/cli-sandbox.js';
import { isSupportedNode, parseCaretRanges } from './supported-node.js';

// The Node check of the built `openwork`: on a Node outside `engines.node` every command but
// --version and --help prints one line and exits 2, before a native addon can crash the process.
// It runs the machine's own Node when that is outside the range (Debian's Node 20 on a fresh
// machine), else any other out-of-range `node` on PATH.

const RANGE = (JSON.parse(readFileSync(join(OPENWORK_BIN, '..', '..', '..', 'package.json'), 'utf8')) as { engines: { node: string } }).engines.node;

function nodeVersion(path: string): string | undefined {
  try {
    accessSync(path, constants.X_OK);
  } catch {
    return undefined;
  }
  const probe = spawnSync(path, ['--version'], { encoding: 'utf8', env: {} });
  return probe.status === 0 ? probe.stdout.trim() : undefined;
}

const candidates = ['/usr/bin/node', ...(process.env['PATH'] ?? '').split(delimiter).filter((folder) => folder !== '').map((folder) => join(folder, 'node'))];
const outOfRange = [...new Set(candidates)].map((path) => ({ path, version: nodeVersion(path) })).find((node) => node.version !== undefined && !isSupportedNode(node.version, RANGE));
const skipReason = outOfRange === undefined ? ` — skipped: no Node outside ${RANGE} on this machine (looked at /usr/bin/node and every node on PATH)` : '';
const oldNode = outOfRange?.path ?? '';
const oldVersion = outOfRange?.version ?? '';
const expectedLine = `openwork: Node ${oldVersion} is not supported; openwork runs on Node ${RANGE}. Switch to one with your version manager (e.g. nvm install 24), or in a clone of openwork-tools run: . tooling/scripts/node-env.sh\n`;

function runOn(node: string, argv: readonly string[], sandbox: CliSandbox, stdin = ''): Promise<{ status: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(node, [OPENWORK_BIN, ...argv], { env: sandbox.environment, cwd: sandbox.workspace, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (status, signal) => resolve({ status, signal, stdout, stderr }));
    child.stdin.end(stdin);
  });
}

let sandbox: CliSandbox;
beforeEach(async () => {
  sandbox = await createCliSandbox();
});
afterEach(async () => sandbox.remove());

describe(`openwork on a Node outside engines.node${skipReason}`, () => {
  it.skipIf(outOfRange === undefined)(`doctor and call print one line naming the Node, the range and how to get one, and exit 2${skipReason}`, async () => {
    for (const argv of [['doctor'], ['call', 'read', '{"path":"notes.txt"}'], ['tools']]) {
      const run = await runOn(oldNode, argv, sandbox);
      expect(run, argv.join(' ')).toMatchObject({ status: 2, signal: null, stdout: '', stderr: expectedLine });
    }
    // It refused before anything ran: no OpenWork home was made.
    expect(readdirSync(sandbox.home)).toEqual([]);
    // --version still answers.
    expect(await runOn(oldNode, ['--version'], sandbox)).toMatchObject({ status: 0, stderr: '' });
  });

  it.skipIf(outOfRange === undefined)(`mcp prints the line on stderr and exits 2 when no client talks${skipReason}`, async () => {
    const run = await runOn(oldNode, ['mcp', '--workspace', sandbox.workspace], sandbox);
    expect(run).toMatchObject({ status: 2, signal: null, stdout: '', stderr: expectedLine });
  });

  it.skipIf(outOfRange === undefined)(`mcp tells a connecting client the same line, as a log message and as the answer to initialize, then exits 2${skipReason}`, async () => {
    const client = new Client({ name: 'openwork-test-client', version: '1.0.0' });
    const logs: { level: string; data: unknown }[] = [];
    client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => void logs.push({ level: notification.params.level, data: notification.params.data }));
    const transport = new StdioClientTransport({ command: oldNode, args: [OPENWORK_BIN, 'mcp', '--workspace', sandbox.workspace], env: sandbox.environment, cwd: sandbox.root, stderr: 'pipe' });
    let stderr = '';
    transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const closed = new Promise<void>((resolve) => (transport.onclose = () => resolve()));
    try {
      await expect(client.connect(transport)).rejects.toThrow(expectedLine.trim());
      expect(logs).toEqual([{ level: 'error', data: expectedLine.trim() }]);
    } finally {
      await client.close().catch(() => undefined);
    }
    await closed;
    expect(stderr).toBe(expectedLine);
  });

  it.skipIf(outOfRange === undefined)(`mcp answers initialize with the line and exits 2 (the raw protocol)${skipReason}`, async () => {
    const initialize = { jsonrpc: '2.0', id: 7, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } };
    // The client keeps its side open after the request, as a real client does.
    const run = await new Promise<{ status: number | null; stdout: string }>((resolve, reject) => {
      const child = spawn(oldNode, [OPENWORK_BIN, 'mcp'], { env: sandbox.environment, cwd: sandbox.workspace, stdio: ['pipe', 'pipe', 'ignore'] });
      let stdout = '';
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
      child.on('error', reject);
      child.on('close', (status) => resolve({ status, stdout }));
      child.stdin.write(`${JSON.stringify(initialize)}\n`);
    });
    expect(run.status).toBe(2);
    expect(run.stdout.split('\n').filter((line) => line !== '').map((line) => JSON.parse(line) as unknown)).toEqual([
      { jsonrpc: '2.0', method: 'notifications/message', params: { level: 'error', logger: 'openwork', data: expectedLine.trim() } },
      { jsonrpc: '2.0', id: 7, error: { code: -32603, message: expectedLine.trim() } },
    ]);
  });
});

describe('the supported range', () => {
  it('is the package’s engines.node, read by the check, with its floors and majors', () => {
    expect(parseCaretRanges(RANGE)).toEqual([
      { major: 22, minor: 22, patch: 2 },
      { major: 24, minor: 15, patch: 0 },
    ]);
    const admitted = ['v22.22.2', 'v22.23.0', 'v24.15.0', 'v24.21.0', '24.15.1'];
    const refused = ['v20.20.2', 'v22.22.1', 'v22.9.0', 'v23.11.0', 'v24.14.9', 'v25.0.0', 'v18.20.0'];
    expect(admitted.filter((version) => !isSupportedNode(version, RANGE))).toEqual([]);
    expect(refused.filter((version) => isSupportedNode(version, RANGE))).toEqual([]);
  });
});
