import { SessionStoreError } from './session-store-error.js';

/**
 * The database exists but its content is not a readable session store: not a database at all,
 * damaged pages, or rows this version cannot decode. The store never repairs or overwrites it.
 */
export class StoreCorruptError extends SessionStoreError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('store_corrupt', message, options);
    this.name = 'StoreCorruptError';
  }

  static override isInstance(error: unknown): error is StoreCorruptError {
    return SessionStoreError.isInstance(error) && error.code === 'store_corrupt';
  }
}
