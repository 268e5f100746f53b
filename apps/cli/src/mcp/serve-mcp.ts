import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
  RootsListChangedNotificationSchema,
  type CallToolResult,
  type LoggingLevel,
} from '@modelcontextprotocol/sdk/types.js';
import type { Session } from '@openwork/core';
import { z } from 'zod';
import type { OpenRuntime } from '../runtime/open-runtime.js';
import { BoundedStdioServerTransport } from './bounded-stdio-transport.js';
import { CHANGE_RESOURCE_TEMPLATE, listChangeResources, readChangeResource } from './change-resources.js';
import { workspaceRootsFromClient } from './client-roots.js';
import { elicitationApprover } from './elicitation-approver.js';
import { mcpResultContent } from './mcp-result-content.js';
import { RESULT_META_KEY, resultMeta, structuredResult } from './mcp-structured-result.js';
import { listedToolAnnotations, toolAnnotations } from './tool-annotations.js';
import { listedInputSchema } from './listed-input-schema.js';
import { toolTitle } from './tool-titles.js';

/** How long an approval waits for the person by default (no 60 s cut). */
export const DEFAULT_APPROVAL_TIMEOUT_MS = 10 * 60 * 1000;
/** A call waits at most this long for a `roots/list` answer before it runs on the roots known so far. */
export const ROOTS_WAIT_MS = 2_000;
/** While an approval waits, a progress notification this often keeps a client's request alive. */
export const APPROVAL_KEEP_ALIVE_MS = 15_000;

export interface ServeMcpOptions {
  readonly opened: OpenRuntime;
  readonly session: Session;
  /** `--workspace` (or the current directory): the roots when the client offers none. */
  readonly fallbackRoots: readonly string[];
  readonly version: string;
  readonly log: (line: string) => void;
  /** How long an approval (an elicitation) waits for the person. Default 10 minutes. */
  readonly approvalTimeoutMs?: number;
}

/** `roots/list` answers read leniently, so that one invalid root drops alone (MCP clients). */
const LenientRootsResult = z.object({ roots: z.array(z.unknown()) });

/**
 * Serves the session's finalized toolset over MCP stdio. Definitions come from the same
 * schemas the model sees, with a title and annotations; a result is its text (and images) as
 * content, `isError` unless it succeeded, structured content that carries the same model-visible
 * text and little else — for the clients that give the model only structured content — and, for
 * the host, `_meta["openwork/result"]`: call id, status, typed error and a compact summary of the
 * artifacts (never their contents; under 64 KiB; whole changes are resources).
 * Progress goes out as progress notifications when the request carries a progress token; the
 * client's cancel notification aborts the call, and so does the client going away. Approvals wait
 * for the person up to `approvalTimeoutMs`, with progress keep-alives. What a user should see goes
 * to stderr and, as MCP log messages, to the client. Resolves when the client disconnects.
 */
export async function serveMcp(options: ServeMcpOptions): Promise<void> {
  const { session } = options;
  const server = createServer(options.version);
  const notify = (level: LoggingLevel, line: string): void => {
    options.log(line);
    void server.sendLoggingMessage({ level, logger: 'openwork', data: line }).catch(() => undefined);
  };
  const calls = new RunningCalls();
  const roots = new ClientRootsFollower(session, options.fallbackRoots, notify);
  const listRoots = () => server.request({ method: 'roots/list' }, LenientRootsResult);
  server.oninitialized = () => {
    const { availability } = options.opened.runtime.sandbox;
    if (!availability.available) notify('warning', `openwork mcp: bash cannot run commands: the sandbox is unavailable (${availability.reason})`);
    if (server.getClientCapabilities()?.roots !== undefined) roots.refresh(listRoots);
  };
  server.setNotificationHandler(RootsListChangedNotificationSchema, async () => {
    roots.refresh(listRoots);
  });
  serveListings(server, session);
  serveToolCalls(server, session, calls, roots, options.approvalTimeoutMs ?? DEFAULT_APPROVAL_TIMEOUT_MS);

  // Not the SDK's StdioServerTransport: it closes the connection on a message over 10 MiB (bounded input).
  const transport = new BoundedStdioServerTransport(process.stdin, process.stdout, { log: (line) => notify('warning', line) });
  const closed = new Promise<void>((resolve) => {
    server.onclose = () => resolve();
    process.stdin.once('end', () => resolve());
    process.stdin.once('close', () => resolve());
  });
  await server.connect(transport);
  await closed;
  // The client is gone (MCP clients): nobody will read what running calls return, so they end now,
  // processes included, and the session is left as they leave it.
  await calls.abortAll('the MCP client disconnected');
  await roots.settled();
  await server.close().catch(() => undefined);
}

/**
 * The low-level Server: our tools come with JSON Schemas already (from their zod schemas), which
 * McpServer.registerTool would re-derive, and McpServer advertises tools.listChanged: true
 * whatever it is told (nothing here ever changes the list).
 */
function createServer(version: string): Server {
  return new Server(
    { name: 'openwork', version },
    {
      capabilities: { tools: { listChanged: false }, resources: { listChanged: false }, logging: {} },
      instructions: 'OpenWork tools: read, search, edit files and run commands in a sandboxed workspace. Read a file before editing it.',
    },
  );
}

/**
 * `tools/list` (titles, annotations) and the file changes as resources. No `outputSchema`: the
 * clients that matter give the model `structuredContent` with or without one, the model never sees
 * it, and repeated on every tool it was half the list (docs/decisions/0100-mcp-compact-results.md).
 */
function serveListings(server: Server, session: Session): void {
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: session.definitions.map((definition) => ({
      name: definition.id,
      title: toolTitle(definition.id),
      description: definition.description,
      inputSchema: listedInputSchema(definition.inputSchema) as { type: 'object'; [key: string]: unknown },
      annotations: listedToolAnnotations(toolAnnotations(definition.riskHint, definition.id)),
    })),
  }));
  server.setRequestHandler(ListResourcesRequestSchema, async () => ({ resources: await listChangeResources(session) }));
  server.setRequestHandler(ListResourceTemplatesRequestSchema, async () => ({
    resourceTemplates: [
      { uriTemplate: CHANGE_RESOURCE_TEMPLATE, name: 'file change', title: 'A file change of this session (whole artifact)', mimeType: 'application/json' },
    ],
  }));
  server.setRequestHandler(ReadResourceRequestSchema, async (request) => {
    const contents = await readChangeResource(session, request.params.uri);
    if (contents === undefined) throw new McpError(ErrorCode.InvalidParams, `No file change of this session at ${request.params.uri}; resources/list names them.`);
    return { contents: [contents] };
  });
}

/** `tools/call`: the call on the roots the client gave, approvals as elicitations, progress before the result (§8.3). */
function serveToolCalls(server: Server, session: Session, calls: RunningCalls, roots: ClientRootsFollower, approvalTimeoutMs: number): void {
  server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
    const progress = new ProgressChannel(request.params._meta?.progressToken, extra.sendNotification);
    const approver = approvalByElicitation(server, progress, approvalTimeoutMs);
    const outcome = await calls.run(extra.signal, (signal) =>
      roots.whileCalling(() =>
        session.callTool(request.params.name, request.params.arguments ?? {}, {
          signal,
          approver,
          ...(progress.enabled ? { onProgress: (update: { kind: string; chunk?: string; message?: string }) => progress.send(update.kind === 'message' ? update.message : update.chunk) } : {}),
        }),
      ),
    );
    // Every progress notification before the result (§8.3).
    await progress.flushed();
    const { result } = outcome;
    return {
      content: mcpResultContent(result),
      isError: result.status !== 'succeeded',
      structuredContent: structuredResult(result),
      _meta: { [RESULT_META_KEY]: resultMeta(outcome.callId, result) },
    };
  });
}

/** An approval asks the person through the client (an elicitation), kept alive by progress while it waits. */
function approvalByElicitation(server: Server, progress: ProgressChannel, approvalTimeoutMs: number): ReturnType<typeof elicitationApprover> {
  return elicitationApprover({
    supportsElicitation: () => server.getClientCapabilities()?.elicitation !== undefined,
    elicit: (message, signal) =>
      progress.keepAliveWhile(
        'waiting for the user to approve this call',
        server.elicitInput(
          {
            message,
            requestedSchema: {
              type: 'object',
              properties: { approve: { type: 'boolean', title: 'Approve this call', default: false } },
              required: ['approve'],
            },
          },
          { signal, timeout: approvalTimeoutMs },
        ),
      ),
  });
}

/** A progress notification as the SDK's `sendNotification` takes it. */
interface ProgressNotification {
  readonly method: 'notifications/progress';
  readonly params: { progressToken: string | number; progress: number; message?: string };
}

/** Progress notifications of one call, in order, and keep-alives while it waits for someone. */
class ProgressChannel {
  readonly #token: string | number | undefined;
  readonly #send: (notification: ProgressNotification) => Promise<void>;
  #sent = 0;
  #queue: Promise<void> = Promise.resolve();

  constructor(token: string | number | undefined, send: (notification: ProgressNotification) => Promise<void>) {
    this.#token = token;
    this.#send = send;
  }

  get enabled(): boolean {
    return this.#token !== undefined;
  }

  send(message: string | undefined): void {
    const token = this.#token;
    if (token === undefined) return;
    this.#sent += 1;
    const progress = this.#sent;
    this.#queue = this.#queue
      .then(() => this.#send({ method: 'notifications/progress', params: { progressToken: token, progress, ...(message === undefined ? {} : { message }) } }))
      .catch(() => undefined);
  }

  /** Sends `message` every APPROVAL_KEEP_ALIVE_MS until `waiting` settles, so the client's request does not time out. */
  async keepAliveWhile<T>(message: string, waiting: Promise<T>): Promise<T> {
    if (this.#token === undefined) return waiting;
    this.send(message);
    const timer = setInterval(() => this.send(message), APPROVAL_KEEP_ALIVE_MS);
    try {
      return await waiting;
    } finally {
      clearInterval(timer);
    }
  }

  flushed(): Promise<void> {
    return this.#queue;
  }
}

/** The calls running now, so that a client that goes away without a cancel notice ends them. */
class RunningCalls {
  readonly #running = new Map<AbortController, Promise<unknown>>();

  async run<T>(requestSignal: AbortSignal, call: (signal: AbortSignal) => Promise<T>): Promise<T> {
    const controller = new AbortController();
    const promise = call(AbortSignal.any([requestSignal, controller.signal]));
    this.#running.set(controller, promise);
    try {
      return await promise;
    } finally {
      this.#running.delete(controller);
    }
  }

  async abortAll(reason: string): Promise<void> {
    const running = [...this.#running];
    for (const [controller] of running) controller.abort(new Error(reason));
    await Promise.allSettled(running.map(([, promise]) => promise));
  }
}

/**
 * Keeps the session's workspace roots equal to the client's roots (with the fallback when it has
 * none). A session cannot change while a call runs, so a new list waits for the calls to end; a
 * call waits at most ROOTS_WAIT_MS for an answer the client owes, then runs on the roots known so
 * far (a client that never answers made the first call wait 60 s), and the answer is
 * applied when it arrives.
 */
class ClientRootsFollower {
  readonly #session: Session;
  readonly #fallback: readonly string[];
  readonly #notify: (level: LoggingLevel, line: string) => void;
  #running = 0;
  #pending: readonly string[] | undefined;
  #refreshing: Promise<void> = Promise.resolve();

  constructor(session: Session, fallback: readonly string[], notify: (level: LoggingLevel, line: string) => void) {
    this.#session = session;
    this.#fallback = fallback;
    this.#notify = notify;
  }

  /** Asks the client for its roots (one request at a time, in order) and applies them. */
  refresh(listRoots: () => Promise<{ roots: unknown[] }>): void {
    this.#refreshing = this.#refreshing
      .then(async () => {
        const answer = await listRoots();
        // Judged under the session's policy: a root never lowers the tier of HOME, the OpenWork home or credentials.
        const { folders, dropped } = await workspaceRootsFromClient(answer.roots, this.#session.sandboxPolicy());
        for (const root of dropped) this.#notify('warning', `openwork mcp: ignored the client's root ${root.uri}: ${root.reason}`);
        this.#pending = folders.length > 0 ? folders : this.#fallback;
        await this.#apply();
      })
      .catch((error: unknown) => this.#notify('warning', `openwork mcp: could not use the client's roots: ${error instanceof Error ? error.message : String(error)}`));
  }

  /** Runs a call after the roots known so far are applied; roots that arrive meanwhile wait for it. */
  async whileCalling<T>(call: () => Promise<T>): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([this.#refreshing, new Promise<void>((resolve) => (timer = setTimeout(resolve, ROOTS_WAIT_MS)))]);
    clearTimeout(timer);
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
    this.#notify('info', `openwork mcp: workspace roots ${roots.join(', ')}`);
  }
}
