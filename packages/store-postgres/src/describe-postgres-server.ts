/**
 * How errors name the server: `host:port/database` from the connection string, never the password.
 * A keyword/value connection string (`host=… dbname=…`) is named by its host and dbname.
 */
export function describePostgresServer(connectionString: string): string {
  try {
    const url = new URL(connectionString);
    if (url.protocol === 'postgres:' || url.protocol === 'postgresql:') {
      const database = decodeURIComponent(url.pathname.replace(/^\//, '')) || '(default database)';
      const host = url.host === '' ? (url.searchParams.get('host') ?? 'localhost') : url.host;
      return `${host}/${database}`;
    }
  } catch {
    // not a URL: keyword/value form below
  }
  const host = /(?:^|\s)host=(\S+)/.exec(connectionString)?.[1] ?? 'localhost';
  const database = /(?:^|\s)dbname=(\S+)/.exec(connectionString)?.[1] ?? '(default database)';
  return `${host}/${database}`;
}
