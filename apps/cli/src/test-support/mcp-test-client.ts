import { pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ElicitRequestSchema, ListRootsRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { OPENWORK_BIN, type CliSandbox } from './cli-sandbox.js';

export interface McpTestClientOptions {
  readonly elicitation?: (message: string) => { action: 'accept' | 'decline' | 'cancel'; content?: Record<string, unknown> };
  readonly roots?: () => string[];
  /** Arguments after `openwork mcp`; default `--workspace <the sandbox's workspace>`. */
  readonly args?: readonly string[];
}

export interface McpTestClient {
  readonly client: Client;
  readonly transport: StdioClientTransport;
  /** What the server wrote on stderr so far. */
  stderr(): string;
}

/** `openwork mcp` spawned as a real process on the sandbox's temp homes, driven by the SDK's own Client. */
export async function connectMcpTestClient(sandbox: CliSandbox, options: McpTestClientOptions = {}): Promise<McpTestClient> {
  const client = new Client(
    { name: 'openwork-test-client', version: '1.0.0' },
    { capabilities: { ...(options.elicitation ? { elicitation: {} } : {}), ...(options.roots ? { roots: { listChanged: true } } : {}) } },
  );
  if (options.elicitation) {
    const answer = options.elicitation;
    client.setRequestHandler(ElicitRequestSchema, async (request) => answer(String(request.params.message)));
  }
  if (options.roots) {
    const roots = options.roots;
    client.setRequestHandler(ListRootsRequestSchema, async () => ({ roots: roots().map((path) => ({ uri: pathToFileURL(path).href, name: path })) }));
  }
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [OPENWORK_BIN, 'mcp', ...(options.args ?? ['--workspace', sandbox.workspace])],
    env: sandbox.environment,
    cwd: sandbox.root,
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  await client.connect(transport);
  return { client, transport, stderr: () => stderr };
}

/** The one text part of a tool result. */
export function resultText(result: unknown): string {
  const content = (result as CallToolResult).content;
  const [part] = content;
  if (content.length !== 1 || part?.type !== 'text') throw new Error(`expected one text part, got ${JSON.stringify(content)}`);
  return part.text;
}
