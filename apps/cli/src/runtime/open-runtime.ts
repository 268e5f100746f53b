import { join } from 'node:path';
import type { Approver, Runtime } from '@openwork/core';
import type { SandboxBackend } from '@openwork/core';
import { allowedSockets } from './allowed-sockets.js';
import { openworkHome, userHome } from './openwork-home.js';
import { rememberedCheckFile, RememberedSandboxCheck } from './remembered-sandbox-check.js';
import { storeLocation, type StoreLocation } from './store-location.js';

type SessionStore = Parameters<typeof import('@openwork/core').createRuntime>[0]['store'];

/** A started runtime over the configured store; `close` ends both. */
export interface OpenRuntime {
  readonly runtime: Runtime;
  readonly store: SessionStore;
  readonly location: StoreLocation;
  close(): Promise<void>;
}

export interface OpenRuntimeOptions {
  readonly environment: NodeJS.ProcessEnv;
  /** `--database`. */
  readonly database?: string | undefined;
  readonly approver?: Approver;
  /** `--network`: whether commands reach the network (default allow). */
  readonly network?: 'allow' | 'none' | undefined;
  /** Run the sandbox self-check even when a pass is remembered (`openwork doctor`). */
  readonly liveSandboxCheck?: boolean;
}

/** The SQLite file in the OpenWork home (store-sqlite's own file name). */
export function sqliteFile(environment: NodeJS.ProcessEnv): string {
  return join(openworkHome(environment), 'sessions.sqlite');
}

/**
 * Opens the store the user chose and starts core's runtime on it (architecture §4). The store
 * driver (better-sqlite3 or pg) is loaded here, only by the commands that keep sessions.
 */
export async function openRuntime(options: OpenRuntimeOptions): Promise<OpenRuntime> {
  const home = openworkHome(options.environment);
  const allowSockets = allowedSockets(options.environment);
  const location = storeLocation(options.database, options.environment, join(home, 'sessions.sqlite'));
  const store = await openStore(location, home);
  try {
    const [{ createRuntime }, sandboxBackend] = await Promise.all([import('@openwork/core'), sandboxFor(home, options.liveSandboxCheck === true)]);
    const runtime = await createRuntime({
      home,
      homeDirectory: userHome(options.environment),
      store,
      sandboxBackend,
      ...(allowSockets.length === 0 ? {} : { sandboxPolicy: { allowSockets } }),
      ...(options.network === undefined ? {} : { network: options.network }),
      passEnvironment: passedEnvironmentNames(options.environment),
      ...(options.approver === undefined ? {} : { approver: options.approver }),
    });
    return {
      runtime,
      store,
      location,
      async close() {
        await runtime.close();
        await closeStore(store);
      },
    };
  } catch (error) {
    await closeStore(store);
    throw error;
  }
}

/**
 * `OPENWORK_PASS_ENV`: more variables for commands, comma- or space-separated names or `PREFIX_*`
 * (docs/decisions/0102). Proxy and CA settings pass without it; credentials never.
 */
export function passedEnvironmentNames(environment: NodeJS.ProcessEnv): readonly string[] {
  return (environment['OPENWORK_PASS_ENV'] ?? '').split(/[\s,]+/).filter((name) => name !== '');
}

/** The platform's sandbox backend; on Linux with its passed self-check remembered for an hour (start-up). */
async function sandboxFor(home: string, live: boolean): Promise<SandboxBackend> {
  const { selectSandboxBackend } = await import('@openwork/core');
  const backend = selectSandboxBackend();
  return live ? backend : new RememberedSandboxCheck(backend, rememberedCheckFile(home));
}

async function openStore(location: StoreLocation, home: string): Promise<SessionStore> {
  if (location.kind === 'postgres') {
    const { PostgresSessionStore } = await import('@openwork/store-postgres');
    return PostgresSessionStore.connect({ connectionString: location.connectionString, applicationName: 'openwork-cli' });
  }
  const { SqliteSessionStore } = await import('@openwork/store-sqlite');
  return SqliteSessionStore.open({ openworkHome: home });
}

async function closeStore(store: SessionStore): Promise<void> {
  const closable = store as { close?: () => unknown };
  if (typeof closable.close === 'function') await closable.close();
}
