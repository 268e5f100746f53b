import { fstatSync, read } from 'node:fs';
import { Socket } from 'node:net';
import { BoundedLineSplitter, MAX_INPUT_LINE_BYTES, readBoundedLines, type InputLine } from './bounded-lines.js';

// One read buffer for the whole input: a stream allocates a new one per read, and for a 1 GB line
// that garbage outgrew the 100 MB the issue allows before the collector ran (bounded input).
const READ_BUFFER_BYTES = 64 * 1024;

/**
 * The lines of the command's input, bounded (`BoundedLineSplitter`) and with flat memory: a pipe
 * or socket on `descriptor` is read through one reused buffer (`net.Socket`'s `onread`), a file
 * with `fs.read` into one buffer; a terminal, or no descriptor, through the `stream`.
 */
export function readInputLines(stream: NodeJS.ReadableStream, descriptor: number | undefined, limit: number = MAX_INPUT_LINE_BYTES): AsyncGenerator<InputLine> {
  const kind = descriptor === undefined ? undefined : descriptorKind(descriptor);
  if (descriptor !== undefined && kind === 'pipe') return pipeLines(descriptor, new BoundedLineSplitter(limit));
  if (descriptor !== undefined && kind === 'file') return fileLines(descriptor, new BoundedLineSplitter(limit));
  return readBoundedLines(stream as AsyncIterable<Buffer | string>, limit);
}

function descriptorKind(descriptor: number): 'pipe' | 'file' | undefined {
  try {
    const entry = fstatSync(descriptor);
    if (entry.isFIFO() || entry.isSocket()) return 'pipe';
    return entry.isFile() ? 'file' : undefined;
  } catch {
    return undefined;
  }
}

async function* fileLines(descriptor: number, splitter: BoundedLineSplitter): AsyncGenerator<InputLine> {
  const buffer = Buffer.allocUnsafe(READ_BUFFER_BYTES);
  for (;;) {
    const bytesRead = await new Promise<number>((resolve, reject) => read(descriptor, buffer, 0, buffer.length, null, (error, count) => (error ? reject(error) : resolve(count))));
    if (bytesRead === 0) break;
    // The splitter copies what it keeps, so the buffer can be read into again.
    yield* splitter.push(buffer.subarray(0, bytesRead));
  }
  yield* splitter.end();
}

/** A pipe read into one buffer; reading pauses while lines wait for the consumer (back-pressure). */
async function* pipeLines(descriptor: number, splitter: BoundedLineSplitter): AsyncGenerator<InputLine> {
  const waiting: InputLine[] = [];
  let ended = false;
  let failure: Error | undefined;
  let wake: (() => void) | undefined;
  const socket = new Socket({
    fd: descriptor,
    readable: true,
    writable: false,
    onread: {
      buffer: Buffer.allocUnsafe(READ_BUFFER_BYTES),
      callback: (bytesRead: number, buffer: Uint8Array) => {
        waiting.push(...splitter.push(Buffer.from(buffer.buffer, buffer.byteOffset, bytesRead)));
        if (waiting.length > 0) {
          socket.pause();
          wake?.();
        }
        return true;
      },
    },
  });
  socket.on('end', () => {
    waiting.push(...splitter.end());
    ended = true;
    wake?.();
  });
  socket.on('error', (error: Error) => {
    failure = error;
    wake?.();
  });
  try {
    for (;;) {
      const line = waiting.shift();
      if (line !== undefined) {
        yield line;
        continue;
      }
      if (failure !== undefined) throw failure;
      if (ended) return;
      await new Promise<void>((resolve) => {
        wake = resolve;
        socket.resume();
      });
      wake = undefined;
    }
  } finally {
    socket.destroy();
  }
}
