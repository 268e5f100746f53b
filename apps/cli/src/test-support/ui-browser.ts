import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { request } from 'node:http';
import { join } from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';
import { OPENWORK_BIN } from './cli-sandbox.js';

/** Debian's `chromium` package (the tests drive the real page in it); another binary through OPENWORK_TEST_CHROMIUM. */
export const CHROMIUM = process.env['OPENWORK_TEST_CHROMIUM'] ?? '/usr/bin/chromium';
export const CHROMIUM_FOUND = existsSync(CHROMIUM);

/** A running `openwork ui`: its address with the token, and how to stop it. */
export interface RunningUi {
  readonly url: string;
  readonly origin: string;
  readonly port: number;
  readonly token: string;
  readonly stderr: () => string;
  /** Sends SIGTERM (unless it ended) and resolves to the exit status. */
  stop(): Promise<number | null>;
}

/** Starts `openwork ui --port 0 …` and waits for the address it prints. */
export function startUi(environment: Record<string, string>, extra: readonly string[] = []): Promise<RunningUi> {
  return new Promise((resolve, reject) => {
    const child: ChildProcess = spawn(process.execPath, [OPENWORK_BIN, 'ui', '--port', '0', ...extra], { env: environment, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    const exited = new Promise<number | null>((done) => child.once('exit', (status) => done(status)));
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
      const match = /^openwork ui: (http:\/\/\S+)$/mu.exec(stdout);
      if (match === null) return;
      const url = new URL(match[1] as string);
      resolve({
        url: url.toString(),
        origin: url.origin,
        port: Number(url.port),
        token: url.searchParams.get('token') ?? '',
        stderr: () => stderr,
        async stop() {
          if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
          return exited;
        },
      });
    });
    child.once('exit', (status) => reject(new Error(`openwork ui ended (${String(status)}) before printing its address: ${stderr}`)));
    child.once('error', reject);
  });
}

/**
 * Chromium headless with a fresh profile under `root` (removed with the test's sandbox), and its
 * HOME and XDG folders there too: Chromium writes crash-report settings and GTK its dconf cache
 * into them, never into the real home.
 */
export async function launchBrowser(root: string): Promise<BrowserContext> {
  const profile = await mkdtemp(join(root, 'chromium-profile-'));
  const home = await mkdtemp(join(root, 'chromium-home-'));
  return chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: home, XDG_CONFIG_HOME: join(home, '.config'), XDG_CACHE_HOME: join(home, '.cache'), XDG_DATA_HOME: join(home, '.local', 'share'), TMPDIR: root },
    headless: true,
    viewport: { width: 1100, height: 760 },
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}

/** One raw HTTP request to the ui server (any Host, Origin or method), as an attacker's page or process could send it. */
export function rawRequest(port: number, options: { method?: string; path: string; headers?: Record<string, string>; body?: string }): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const outgoing = request({ host: '127.0.0.1', port, method: options.method ?? 'GET', path: options.path, headers: options.headers ?? {} }, (response) => {
      let body = '';
      response.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
    });
    outgoing.on('error', reject);
    outgoing.end(options.body);
  });
}

/** The session id `openwork call` prints on stderr. */
export function sessionIdOf(stderr: string): string {
  const match = /^session (\S+) \(continue it/mu.exec(stderr);
  if (match === null) throw new Error(`no session id in: ${stderr}`);
  return match[1] as string;
}
