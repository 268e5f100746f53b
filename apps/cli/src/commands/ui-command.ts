import { DATABASE_OPTION } from '../cli/common-options.js';
import type { CommandSpec } from '../cli/command-spec.js';
import { optionValue } from '../cli/parse-arguments.js';
import { UsageError } from '../cli/usage-error.js';

/** `openwork ui [--port N] [--open]`: a local page to review stored sessions and undo their file changes. */
export const uiCommand: CommandSpec = {
  name: 'ui',
  summary: 'a local web page to review sessions, calls and diffs, and undo changes',
  usage: 'openwork ui [--port N] [--open] [--host ADDRESS]',
  details: [
    'Serves a page over the stored sessions (newest first, searchable by workspace): each session\'s',
    'calls with their status, duration and the text the model saw, its plan, background tasks and',
    'sub-agents, and every file change as a diff with Undo and Reapply — the same path as openwork',
    'undo: a file changed since is a conflict and is never overwritten. The page follows a running',
    'session. It listens on 127.0.0.1 only; the address it prints carries a random token that every',
    'request needs (keep it to yourself). Ctrl-C stops it.',
    '  --port N          the port (default: any free one)',
    '  --open            open the page in the default browser',
    '  --host ADDRESS    listen on this IP address instead of 127.0.0.1 (anyone who can reach it and',
    '                    has the token can undo changes)',
    '  --database URL    PostgreSQL store (default: OPENWORK_DATABASE_URL, else SQLite in the OpenWork home)',
  ],
  options: [{ name: 'port', kind: 'value' }, { name: 'open', kind: 'flag' }, { name: 'host', kind: 'value' }, DATABASE_OPTION],
  async run(parsed, io) {
    if (parsed.positionals.length > 0) throw new UsageError(`openwork ui: unexpected argument ${JSON.stringify(parsed.positionals[0])}; see openwork ui --help`);
    const portText = optionValue(parsed, 'port');
    if (portText !== undefined && (!/^\d{1,5}$/u.test(portText) || Number(portText) > 65_535)) {
      throw new UsageError(`openwork ui: --port takes a port number from 0 to 65535, not ${JSON.stringify(portText)}`);
    }
    const host = optionValue(parsed, 'host') ?? '127.0.0.1';
    const { isIP } = await import('node:net');
    if (isIP(host) === 0) throw new UsageError(`openwork ui: --host takes an IP address (such as 127.0.0.1), not ${JSON.stringify(host)}`);
    // Every request's Host header is checked against the address (DNS rebinding): one address, not all.
    if (host === '0.0.0.0' || host === '::' || host === '0:0:0:0:0:0:0:0') throw new UsageError(`openwork ui: --host takes one address of this machine, not ${host} (the page checks that requests name it)`);
    // The server and the page load only here (start-up of the other commands).
    const [{ openRuntime }, { startUiServer }] = await Promise.all([import('../runtime/open-runtime.js'), import('../ui/serve-ui.js')]);
    const opened = await openRuntime({ environment: io.environment, database: optionValue(parsed, 'database') });
    try {
      let server;
      try {
        server = await startUiServer({ opened, host, port: portText === undefined ? 0 : Number(portText) });
      } catch (error) {
        const code = (error as { code?: unknown }).code;
        const why = code === 'EADDRINUSE' ? `port ${portText ?? ''} is in use; choose another with --port` : code === 'EADDRNOTAVAIL' ? `${host} is not an address of this machine` : error instanceof Error ? error.message : String(error);
        io.stderr.write(`openwork ui: cannot listen on ${host}: ${why}\n`);
        return 1;
      }
      const where = opened.location.kind === 'sqlite' ? opened.location.path : opened.location.display;
      io.stdout.write(`openwork ui: ${server.url}\n`);
      io.stderr.write(`openwork ui: sessions from ${where}; the address carries a token, keep it to yourself; Ctrl-C stops\n`);
      if (!isLoopback(host)) io.stderr.write(`openwork ui: listening on ${host}: anyone who reaches it with the token can undo changes\n`);
      if (parsed.flags.has('open')) await openInBrowser(server.url, io.stderr);
      await untilStopped();
      await server.close();
      return 0;
    } finally {
      await opened.close();
    }
  },
};

function isLoopback(host: string): boolean {
  return host === '::1' || host.startsWith('127.');
}

/** Resolves on Ctrl-C or SIGTERM. */
function untilStopped(): Promise<void> {
  return new Promise((resolve) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}

/** The platform's opener (`xdg-open`, macOS `open`), without a shell; a failure is said, not fatal. */
async function openInBrowser(url: string, stderr: NodeJS.WritableStream): Promise<void> {
  const { spawn } = await import('node:child_process');
  const command = process.platform === 'darwin' ? 'open' : 'xdg-open'; // the CLI runs on macOS and Linux
  await new Promise<void>((resolve) => {
    const child = spawn(command, [url], { stdio: 'ignore', detached: true });
    child.once('error', (error) => {
      stderr.write(`openwork ui: could not open a browser (${error.message}); open the address above yourself\n`);
      resolve();
    });
    child.once('spawn', () => {
      child.unref();
      resolve();
    });
  });
}
