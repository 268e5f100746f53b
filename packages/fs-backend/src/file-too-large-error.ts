import { FileSystemError } from './file-system-error.js';

const marker = Symbol.for('openwork.fs-backend.file-too-large-error');

/** `readFile` refused a file larger than its `maxBytes`, before reading it into memory (§7.2, §9: 1 MiB). */
export class FileTooLargeError extends FileSystemError {
  private readonly [marker] = true;
  /** The size seen: the `stat` size, or at least `maxBytes + 1` when the file grew while being read. */
  readonly size: number;
  readonly maxBytes: number;

  constructor(path: string, size: number, maxBytes: number) {
    super({
      code: 'too_large',
      path,
      message: `${path} is ${size} bytes, more than the limit of ${maxBytes} bytes; it was not read.`,
    });
    this.name = 'FileTooLargeError';
    this.size = size;
    this.maxBytes = maxBytes;
  }

  static override isInstance(error: unknown): error is FileTooLargeError {
    return typeof error === 'object' && error !== null && (error as Record<symbol, unknown>)[marker] === true;
  }
}
