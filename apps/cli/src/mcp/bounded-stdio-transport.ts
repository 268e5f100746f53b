import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { JSONRPCMessageSchema, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { BoundedLineSplitter, formatSize, MAX_INPUT_LINE_BYTES, type InputLine } from '../input/bounded-lines.js';

// JSON-RPC 2.0: the request is not a valid Request object (here: too large to read).
const INVALID_REQUEST = -32600;

export interface BoundedStdioOptions {
  /** The longest message accepted; default `MAX_INPUT_LINE_BYTES` (8 MiB). */
  readonly limit?: number;
  /** One line on stderr per refused message. */
  readonly log: (line: string) => void;
}

/**
 * MCP over stdio with a bounded read (bounded input). The SDK's `StdioServerTransport` buffers a
 * message whole and closes the connection past 10 MiB, so one large request ended `openwork mcp`
 * without a word. Here a message over the bound is dropped as it streams past (memory stays flat),
 * answered with a JSON-RPC `-32600` error when its id can be found at either end of it, and logged
 * on stderr in one line; the next message is served as usual.
 */
export class BoundedStdioServerTransport implements Transport {
  onmessage?: ((message: JSONRPCMessage) => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;
  onclose?: (() => void) | undefined;

  readonly #input: NodeJS.ReadableStream;
  readonly #output: NodeJS.WritableStream;
  readonly #limit: number;
  readonly #log: (line: string) => void;
  readonly #splitter: BoundedLineSplitter;
  #closed = false;

  constructor(input: NodeJS.ReadableStream, output: NodeJS.WritableStream, options: BoundedStdioOptions) {
    this.#input = input;
    this.#output = output;
    this.#limit = options.limit ?? MAX_INPUT_LINE_BYTES;
    this.#log = options.log;
    this.#splitter = new BoundedLineSplitter(this.#limit);
  }

  readonly #onData = (chunk: Buffer | string): void => {
    for (const line of this.#splitter.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk)) this.#receive(line);
  };

  readonly #onEnd = (): void => {
    for (const line of this.#splitter.end()) this.#receive(line);
  };

  readonly #onError = (error: Error): void => {
    this.onerror?.(error);
  };

  async start(): Promise<void> {
    this.#input.on('data', this.#onData);
    this.#input.on('end', this.#onEnd);
    this.#input.on('error', this.#onError);
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve) => {
      if (this.#output.write(`${JSON.stringify(message)}\n`)) resolve();
      else this.#output.once('drain', resolve);
    });
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#input.off('data', this.#onData);
    this.#input.off('end', this.#onEnd);
    this.#input.off('error', this.#onError);
    this.#input.pause();
    this.onclose?.();
  }

  #receive(line: InputLine): void {
    if (line.kind === 'oversized') {
      this.#refuse(line);
      return;
    }
    const text = line.bytes.toString('utf8');
    if (text.trim() === '') return;
    try {
      this.onmessage?.(JSONRPCMessageSchema.parse(JSON.parse(text)));
    } catch (error) {
      this.onerror?.(error instanceof Error ? error : new Error(String(error)));
    }
  }

  #refuse(line: Extract<InputLine, { kind: 'oversized' }>): void {
    const id = requestIdOf(line.head, line.tail);
    const message = `The message is ${formatSize(line.length)}; openwork mcp reads messages of at most ${formatSize(this.#limit)}, so it was not read. Send less at once: read or write a large file in parts, or write it with a command.`;
    this.#log(`openwork mcp: refused a message of ${line.length} bytes (over the ${formatSize(this.#limit)} bound${id === undefined ? ', no request id found: nothing answered' : `, request id ${JSON.stringify(id)}`}); still serving`);
    if (id !== undefined) void this.send({ jsonrpc: '2.0', id, error: { code: INVALID_REQUEST, message } });
  }
}

const idValue = String.raw`(-?\d+|"(?:[^"\\]|\\.){0,256}")`;
// `{"jsonrpc":"2.0","id":7,…` (the id first) or `…,"id":7}` (last, as the SDK's client sends it).
const leadingId = new RegExp(String.raw`^\s*\{(?:\s*"(?:jsonrpc|method)"\s*:\s*"[^"]{0,64}"\s*,)*\s*"id"\s*:\s*${idValue}`);
const trailingId = new RegExp(String.raw`[,{]\s*"id"\s*:\s*${idValue}\s*\}\s*$`);

/** The top-level `id` of a JSON-RPC request seen only at its two ends, when it sits there. */
function requestIdOf(head: string, tail: string): string | number | undefined {
  const found = leadingId.exec(head)?.[1] ?? trailingId.exec(tail)?.[1];
  if (found === undefined) return undefined;
  const value: unknown = JSON.parse(found);
  return typeof value === 'number' || typeof value === 'string' ? value : undefined;
}
