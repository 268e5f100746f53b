import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { createConnection, createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Bytes read at once from each output socket: four times libuv's 64 KiB, so that a fast writer wakes the reader less often. */
export const OUTPUT_READ_BYTES = 256 * 1024;

/** The two ends of one output channel: the child's (handed to `spawn`) and ours (read into one reused buffer). */
export class OutputSocket {
  /** Our end. Every read lands in the same buffer, handed to `onChunk` as a view valid only until it returns. */
  readonly reader: Socket;
  /** The end the child writes to: passed as its stdout or stderr, closed here once it has started. */
  child: Socket | undefined;
  /** Where our end's reads go; set by the reader of the output. */
  onChunk: (chunk: Buffer) => void = () => undefined;

  constructor(path: string, token: Buffer) {
    const buffer = Buffer.allocUnsafe(OUTPUT_READ_BYTES);
    this.reader = createConnection({
      path,
      onread: {
        buffer,
        callback: (bytes: number) => {
          this.onChunk(buffer.subarray(0, bytes));
          return true;
        },
      },
    });
    // Errors are the output reader's to report; until it listens, they would end the process.
    this.reader.on('error', () => undefined);
    // Never ended: a half-close would reach the child's end, whose writes would then fail.
    this.reader.write(token);
  }

  /** Resolves when our end is connected, rejects when it cannot be. */
  connected(): Promise<void> {
    return new Promise((resolve, reject) => {
      if (!this.reader.connecting) {
        resolve();
        return;
      }
      this.reader.once('connect', () => resolve());
      this.reader.once('error', reject);
    });
  }
}

/** How long setting up the sockets may take before the caller falls back to Node's own pipes. */
const SETUP_LIMIT_MS = 2_000;
const TOKEN_BYTES = 16;

/**
 * The stdout and stderr channels of one process as connected Unix sockets whose reading end reads
 * into one buffer of its own (`net` `onread`), where Node's pipes allocate a new buffer for every
 * read. That allocation is what output capture costs in a process with a large heap: 256 MiB of
 * output is 4,096 buffers, and each 64 MiB of them starts a full garbage collection of the whole
 * heap (an MCP server's: docs/decisions/0105-output-read-into-one-buffer.md). libuv's stdio pipes
 * are socket pairs too, so the child sees the same kind of descriptor as before.
 *
 * The listening socket lives in a fresh folder of mode 0700 under the temp folder, only until
 * both connections are accepted, and is removed at once; a connection is taken only when it
 * presents the random token our end wrote, so another process of the same user that connects
 * meanwhile gets nothing. Resolves to `undefined` when anything fails (no temp folder, no Unix
 * sockets): the caller then uses Node's pipes, as before.
 */
export async function openOutputSockets(): Promise<readonly [OutputSocket, OutputSocket] | undefined> {
  let folder: string | undefined;
  let server: Server | undefined;
  const opened: Socket[] = [];
  try {
    folder = await mkdtemp(join(tmpdir(), 'openwork-output-'));
    const path = join(folder, 's');
    const listening = createServer();
    server = listening;
    const tokens = [randomBytes(TOKEN_BYTES), randomBytes(TOKEN_BYTES)] as const;
    const accepted = acceptByToken(listening, tokens, opened);
    await new Promise<void>((resolve, reject) => {
      listening.once('error', reject);
      listening.listen(path, () => resolve());
    });
    const channels = tokens.map((token) => new OutputSocket(path, token));
    opened.push(...channels.map((channel) => channel.reader));
    const [children] = await withinLimit(Promise.all([accepted, ...channels.map((channel) => channel.connected())]));
    channels.forEach((channel, index) => (channel.child = children[index]));
    return [channels[0] as OutputSocket, channels[1] as OutputSocket];
  } catch {
    for (const socket of opened) socket.destroy();
    return undefined;
  } finally {
    server?.close();
    if (folder !== undefined) await rm(folder, { recursive: true, force: true }).catch(() => undefined);
  }
}

/** The accepted connections in token order; a connection with any other first bytes is closed. */
function acceptByToken(server: Server, tokens: readonly [Buffer, Buffer], opened: Socket[]): Promise<[Socket, Socket]> {
  return new Promise((resolve) => {
    const found: Array<Socket | undefined> = [undefined, undefined];
    server.on('connection', (socket) => {
      opened.push(socket);
      let received = Buffer.alloc(0);
      const onData = (data: Buffer): void => {
        received = Buffer.concat([received, data]);
        if (received.length < TOKEN_BYTES) return;
        socket.off('data', onData);
        socket.pause();
        const index = tokens.findIndex((token) => received.length === TOKEN_BYTES && token.equals(received));
        if (index === -1 || found[index] !== undefined) {
          socket.destroy();
          return;
        }
        found[index] = socket;
        if (found[0] !== undefined && found[1] !== undefined) resolve([found[0], found[1]]);
      };
      socket.on('data', onData);
      socket.on('error', () => socket.destroy());
    });
  });
}

async function withinLimit<T>(promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      promise,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error('output sockets were not connected in time')), SETUP_LIMIT_MS);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}
