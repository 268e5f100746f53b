import { SessionStoreError } from './session-store-error.js';

/** A call on a store after `close()`. A programming mistake in the host, not a database fault. */
export class StoreClosedError extends SessionStoreError {
  constructor(operation: string) {
    super('store_closed', `${operation} was called after the session store was closed; open a new store`);
    this.name = 'StoreClosedError';
  }

  static override isInstance(error: unknown): error is StoreClosedError {
    return SessionStoreError.isInstance(error) && error.code === 'store_closed';
  }
}
