import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import {
  CallToolRequestSchema,
  ListToolsRequestSchema,
  RootsListChangedNotificationSchema,
  type CallToolResult,
} from '@modelcontextprotocol/sdk/types.js';
import type { Session } from '@openwork/core';
import type { OpenRuntime } from '../runtime/open-runtime.js';
import { resultText } from '../output/tool-result-output.js';
import { BoundedStdioServerTransport } from './bounded-stdio-transport.js';
import { workspaceRootsFromClient } from './client-roots.js';
import { elicitationApprover } from './elicitation-approver.js';
import { toolAnnotations } from './tool-annotations.js';

export interface ServeMcpOptions {
  readonly opened: OpenRuntime;
  readonly session: Session;
  /** `--workspace` (or the current directory): the roots when the client offers none. */
  readonly fallbackRoots: readonly string[];
  readonly version: string;
  readonly log: (line: string) => void;
}

/**
 * Serves the session's finalized toolset over MCP stdio (issue 16). Definitions come from the same
 * schemas the model sees; a result is its text as content, `isError` unless it succeeded, and
 * its status, error and artifacts as structured content (never in the text, §8.1). Progress goes
 * out as progress notifications when the request carries a progress token; the client's cancel
 * notification aborts the call. Resolves when the client disconnects.
 */
export async function serveMcp(options: ServeMcpOptions): Promise<void> {
  const { session } = options;
  // The low-level request handlers: our tools come with JSON Schemas already (from their zod
  // schemas), which McpServer.registerTool would re-derive.
  const mcp = new McpServer(
    { name: 'openwork', version: options.version },
    { capabilities: { tools: { listChanged: false } }, instructions: 'OpenWork tools: read, search, edit files and run commands in a sandboxed workspace. Read a file before editing it.' },
  );
  const server = mcp.server;
  const approver = elicitationApprover({
    supportsElicitation: () => server.getClientCapabilities()?.elicitation !== undefined,
    elicit: (message, signal) =>
      server.elicitInput(
        {
          message,
          requestedSchema: {
            type: 'object',
            properties: { approve: { type: 'boolean', title: 'Approve this call', default: false } },
            required: ['approve'],
          },
        },
        { signal },
      ),
  });

  const roots = new ClientRootsFollower(session, options.fallbackRoots, options.log);
  server.oninitialized = () => {
    if (server.getClientCapabilities()?.roots !== undefined) roots.refresh(() => server.listRoots());
  };
  server.setNotificationHandler(RootsListChangedNotificationSchema, async () => {
    roots.refresh(() => server.listRoots());
  });

  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: session.definitions.map((definition) => ({
      name: definition.id,
      description: definition.description,
      inputSchema: definition.inputSchema as { type: 'object'; [key: string]: unknown },
      annotations: toolAnnotations(definition.riskHint),
    })),
  }));

  server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
    const progressToken = request.params._meta?.progressToken;
    let sent = 0;
    let notifications: Promise<void> = Promise.resolve();
    const onProgress =
      progressToken === undefined
        ? undefined
        : (progress: { kind: string; chunk?: string; message?: string }) => {
            sent += 1;
            const progressValue = sent;
            const message = progress.kind === 'message' ? progress.message : progress.chunk;
            notifications = notifications
              .then(() =>
                extra.sendNotification({
                  method: 'notifications/progress',
                  params: { progressToken, progress: progressValue, ...(message === undefined ? {} : { message }) },
                }),
              )
              .catch(() => undefined);
          };
    const outcome = await roots.whileCalling(() =>
      session.callTool(request.params.name, request.params.arguments ?? {}, {
        signal: extra.signal,
        approver,
        ...(onProgress === undefined ? {} : { onProgress }),
      }),
    );
    // Every progress notification before the result (§8.3).
    await notifications;
    const { result } = outcome;
    return {
      content: [{ type: 'text', text: resultText(result) }],
      isError: result.status !== 'succeeded',
      structuredContent: {
        callId: outcome.callId,
        status: result.status,
        error: result.error,
        sandboxDenied: result.sandboxDenied,
        artifacts: result.artifacts,
      },
    };
  });

  // Not the SDK's StdioServerTransport: it closes the connection on a message over 10 MiB (issue 24).
  const transport = new BoundedStdioServerTransport(process.stdin, process.stdout, { log: options.log });
  const closed = new Promise<void>((resolve) => {
    server.onclose = () => resolve();
    process.stdin.once('end', () => resolve());
  });
  await mcp.connect(transport);
  await closed;
  await roots.settled();
  await mcp.close().catch(() => undefined);
}

/**
 * Keeps the session's workspace roots equal to the client's roots (with the fallback when it has
 * none). A session cannot change while a call runs, so a new list waits for the calls to end.
 */
class ClientRootsFollower {
  readonly #session: Session;
  readonly #fallback: readonly string[];
  readonly #log: (line: string) => void;
  #running = 0;
  #pending: readonly string[] | undefined;
  #refreshing: Promise<void> = Promise.resolve();

  constructor(session: Session, fallback: readonly string[], log: (line: string) => void) {
    this.#session = session;
    this.#fallback = fallback;
    this.#log = log;
  }

  /** Asks the client for its roots (one request at a time, in order) and applies them. */
  refresh(listRoots: () => Promise<{ roots: { uri: string }[] }>): void {
    this.#refreshing = this.#refreshing
      .then(async () => {
        const answer = await listRoots();
        const folders = await workspaceRootsFromClient(answer.roots, this.#log);
        this.#pending = folders.length > 0 ? folders : this.#fallback;
        await this.#apply();
      })
      .catch((error: unknown) => this.#log(`openwork mcp: could not use the client's roots: ${error instanceof Error ? error.message : String(error)}`));
  }

  /** Runs a call after the roots known so far are applied; roots that arrive meanwhile wait for it. */
  async whileCalling<T>(call: () => Promise<T>): Promise<T> {
    await this.#refreshing;
    this.#running += 1;
    try {
      return await call();
    } finally {
      this.#running -= 1;
      await this.#apply();
    }
  }

  settled(): Promise<void> {
    return this.#refreshing;
  }

  async #apply(): Promise<void> {
    const roots = this.#pending;
    if (roots === undefined || this.#running > 0) return;
    this.#pending = undefined;
    const same = roots.length === this.#session.workspaceRoots.length && roots.every((root, index) => this.#session.workspaceRoots[index] === root);
    if (same) return;
    await this.#session.update({ workspaceRoots: roots });
    this.#log(`openwork mcp: workspace roots ${roots.join(', ')}`);
  }
}
