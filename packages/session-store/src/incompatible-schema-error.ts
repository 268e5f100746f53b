import { SessionStoreError } from './session-store-error.js';

/**
 * The database was written by a newer version of the store (its schema version is above the
 * highest this version knows), or it belongs to another application. It is refused untouched:
 * nothing is migrated, written or deleted.
 */
export class IncompatibleSchemaError extends SessionStoreError {
  /** The schema version found in the database (`null` when it is not an OpenWork store at all). */
  readonly foundVersion: number | null;
  /** The highest schema version this store knows. */
  readonly supportedVersion: number;

  constructor(message: string, foundVersion: number | null, supportedVersion: number) {
    super('incompatible_schema', message);
    this.name = 'IncompatibleSchemaError';
    this.foundVersion = foundVersion;
    this.supportedVersion = supportedVersion;
  }

  static override isInstance(error: unknown): error is IncompatibleSchemaError {
    return SessionStoreError.isInstance(error) && error.code === 'incompatible_schema';
  }
}
