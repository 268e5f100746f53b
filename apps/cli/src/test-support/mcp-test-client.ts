import { pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ElicitRequestSchema, ListRootsRequestSchema, LoggingMessageNotificationSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { jsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/types.js';
import { OPENWORK_BIN, type CliSandbox } from './cli-sandbox.js';

/** The client's answer to an elicitation request (an approval question); a type literal, so it is an SDK result. */
export type McpTestElicitationAnswer = { action: 'accept' | 'decline' | 'cancel'; content?: Record<string, unknown> };

/** A root the client lists: a folder path (sent as its `file://` URI, named after the path) or a URI as given, for roots a client gets wrong. */
export type McpTestRoot = string | { readonly uri: string };

export interface McpTestClientOptions {
  /** Declares elicitation and answers each request with this (it may wait, as a user does). */
  readonly elicitation?: (message: string) => McpTestElicitationAnswer | Promise<McpTestElicitationAnswer>;
  /** Declares roots and answers roots/list with these (it may hold the answer back). */
  readonly roots?: () => readonly McpTestRoot[] | Promise<readonly McpTestRoot[]>;
  /** Whether the roots capability says the client sends list-changed notifications; default true. */
  readonly rootsListChanged?: boolean;
  /** Arguments after `openwork mcp`; default `--workspace <the sandbox's workspace>`. */
  readonly args?: readonly string[];
  /** The server's environment; default the sandbox's (temp HOME and OpenWork home, PATH, TMPDIR). */
  readonly environment?: Record<string, string>;
  /** The JSON Schema validator the client checks `structuredContent` with; default the SDK's own (Ajv). */
  readonly jsonSchemaValidator?: jsonSchemaValidator;
}

export interface McpTestClient {
  readonly client: Client;
  readonly transport: StdioClientTransport;
  /** What the server wrote on stderr so far. */
  stderr(): string;
  /** The data of each logging notification the server sent so far. */
  logs(): readonly string[];
}

/** `openwork mcp` spawned as a real process on the sandbox's temp homes, driven by the SDK's own Client. */
export async function connectMcpTestClient(sandbox: CliSandbox, options: McpTestClientOptions = {}): Promise<McpTestClient> {
  const client = new Client(
    { name: 'openwork-test-client', version: '1.0.0' },
    { capabilities: clientCapabilities(options), ...(options.jsonSchemaValidator ? { jsonSchemaValidator: options.jsonSchemaValidator } : {}) },
  );
  if (options.elicitation) {
    const answer = options.elicitation;
    client.setRequestHandler(ElicitRequestSchema, async (request) => answer(String(request.params.message)));
  }
  if (options.roots) {
    const roots = options.roots;
    client.setRequestHandler(ListRootsRequestSchema, async () => ({ roots: (await roots()).map(listedRoot) }));
  }
  const logs: string[] = [];
  client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => void logs.push(String(notification.params.data)));
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [OPENWORK_BIN, 'mcp', ...(options.args ?? ['--workspace', sandbox.workspace])],
    env: options.environment ?? sandbox.environment,
    cwd: sandbox.root,
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  await client.connect(transport);
  return { client, transport, stderr: () => stderr, logs: () => logs };
}

function clientCapabilities(options: McpTestClientOptions): Record<string, unknown> {
  return {
    ...(options.elicitation ? { elicitation: {} } : {}),
    ...(options.roots ? { roots: options.rootsListChanged === false ? {} : { listChanged: true } } : {}),
  };
}

function listedRoot(root: McpTestRoot): { uri: string; name?: string } {
  return typeof root === 'string' ? { uri: pathToFileURL(root).href, name: root } : { uri: root.uri };
}

/** The MCP clients of one test file: `connect` on the current sandbox, `closeAll` after each test. */
export interface McpTestClients {
  connect(options?: McpTestClientOptions): Promise<McpTestClient>;
  /** Closes every client connected since the last call; one already gone is no error. */
  closeAll(): Promise<void>;
}

export function mcpTestClients(sandbox: () => CliSandbox): McpTestClients {
  const open: Client[] = [];
  return {
    async connect(options) {
      const connected = await connectMcpTestClient(sandbox(), options);
      open.push(connected.client);
      return connected;
    },
    async closeAll() {
      await Promise.all(open.splice(0).map((client) => client.close().catch(() => undefined)));
    },
  };
}

/** The one text part of a tool result. */
export function resultText(result: unknown): string {
  const content = (result as CallToolResult).content;
  const [part] = content;
  if (content.length !== 1 || part?.type !== 'text') throw new Error(`expected one text part, got ${JSON.stringify(content)}`);
  return part.text;
}
