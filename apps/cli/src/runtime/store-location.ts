/** Where the sessions are kept, as the CLI tells the user (secrets removed). */
export type StoreLocation =
  | { readonly kind: 'sqlite'; readonly path: string }
  | { readonly kind: 'postgres'; readonly connectionString: string; readonly display: string };

/**
 * The store the environment selects (architecture §4): `--database` or `OPENWORK_DATABASE_URL`
 * select PostgreSQL; otherwise the SQLite file in the OpenWork home.
 */
export function storeLocation(database: string | undefined, environment: NodeJS.ProcessEnv, sqlitePath: string): StoreLocation {
  const url = database ?? environment['OPENWORK_DATABASE_URL'];
  if (url === undefined || url === '') return { kind: 'sqlite', path: sqlitePath };
  return { kind: 'postgres', connectionString: url, display: withoutPassword(url) };
}

/** The connection string with its password replaced by `***`, for printing. */
export function withoutPassword(connectionString: string): string {
  try {
    const url = new URL(connectionString);
    if (url.password !== '') url.password = '***';
    return url.toString();
  } catch {
    return connectionString.replace(/password=\S+/i, 'password=***');
  }
}
