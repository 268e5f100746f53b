import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { OpenRuntime } from '../runtime/open-runtime.js';
import { groupChangesBySession } from '../runtime/find-file-changes.js';
import { fullChange, SessionCounts, sessionsPage, sessionVersion, shownText, timelinePage } from './ui-data.js';
import { pageHtml, PAGE_ICON, PAGE_SCRIPT, PAGE_STYLE } from './ui-page.js';

/** The header a page's request carries its token in; a state-changing request must (the URL's `?token=` is for GETs). */
export const TOKEN_HEADER = 'x-openwork-token';
/** Largest request body read (an undo names change ids only). */
const MAX_BODY = 64 * 1024;
/** Most change ids one undo or reapply names. */
const MAX_CHANGE_IDS = 1_000;

/** What every response says to the browser (architecture: nothing the model wrote may run as code). */
const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "connect-src 'self'",
  "img-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
  "require-trusted-types-for 'script'",
  "trusted-types 'none'",
].join('; ');

const SECURITY_HEADERS: Record<string, string> = {
  'content-security-policy': CONTENT_SECURITY_POLICY,
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
  'cache-control': 'no-store',
};

export interface UiServerOptions {
  readonly opened: OpenRuntime;
  /** The address to listen on: `127.0.0.1` unless the person chose another. */
  readonly host: string;
  /** 0: any free port. */
  readonly port: number;
  /** The secret in the URL; random when omitted. */
  readonly token?: string;
}

export interface UiServer {
  /** The page's address with its token. */
  readonly url: string;
  readonly port: number;
  close(): Promise<void>;
}

/**
 * `openwork ui`'s HTTP server over one runtime: the page, its JSON API, and undo/reapply through
 * the sessions of core (the path `openwork undo` takes). Every request needs the token; the Host
 * must be the address the server listens on (DNS rebinding), an Origin must be the page's own, and
 * a request that changes something is a POST with the token in a header and a JSON body.
 */
export async function startUiServer(options: UiServerOptions): Promise<UiServer> {
  const token = options.token ?? randomBytes(24).toString('base64url');
  const counts = new SessionCounts();
  let port = 0;
  const allowedHosts = (): Set<string> => {
    const names = new Set([hostPart(options.host)]);
    if (options.host === '127.0.0.1' || options.host === '::1') names.add('localhost');
    return new Set([...names].map((name) => `${name}:${port}`));
  };
  const server: Server = createServer((request, response) => {
    void handle(request, response).catch((error: unknown) => {
      if (!response.headersSent) send(response, 500, { error: `openwork ui: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}` });
      else response.destroy();
    });
  });

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', 'http://ui.invalid');
    const host = request.headers.host ?? '';
    if (!allowedHosts().has(host.toLowerCase())) return send(response, 421, { error: 'this page answers on its own address only (Host header refused)' });
    const origin = request.headers.origin;
    if (origin !== undefined && !allowedHosts().has(originHost(origin))) return send(response, 403, { error: 'requests from other sites are refused (Origin header)' });
    const site = request.headers['sec-fetch-site'];
    if (site !== undefined && site !== 'same-origin' && site !== 'none') return send(response, 403, { error: 'requests from other sites are refused (Sec-Fetch-Site)' });
    const given = headerValue(request.headers[TOKEN_HEADER]) ?? url.searchParams.get('token');
    if (given === null || !sameSecret(given, token)) return send(response, 401, { error: 'the token from the address openwork ui printed is missing or wrong' });

    const path = url.pathname;
    const store = options.opened.store;
    const action = /^\/api\/sessions\/([^/]+)\/(undo|reapply)$/u.exec(path);
    if (action !== null) {
      if (request.method !== 'POST') return send(response, 405, { error: `${action[2] as string} changes files: POST only` }, { allow: 'POST' });
      if (headerValue(request.headers[TOKEN_HEADER]) === undefined) return send(response, 403, { error: `a POST carries the token in the ${TOKEN_HEADER} header` });
      if (origin === undefined) return send(response, 403, { error: 'a POST must come from the page (no Origin header)' });
      if (!(request.headers['content-type'] ?? '').startsWith('application/json')) return send(response, 415, { error: 'send JSON' });
      const body = await readBody(request);
      if (body === undefined) return send(response, 413, { error: `the request body is over ${MAX_BODY} bytes` });
      const sessionId = decoded(action[1] as string);
      if (sessionId === undefined) return send(response, 400, { error: 'the session id is not a valid URL component' });
      return moveChanges(response, sessionId, action[2] as 'undo' | 'reapply', body);
    }
    if (request.method !== 'GET' && request.method !== 'HEAD') return send(response, 405, { error: 'GET only here' }, { allow: 'GET' });
    if (path === '/') return sendText(response, 'text/html; charset=utf-8', pageHtml(token));
    if (path === '/app.js') return sendText(response, 'text/javascript; charset=utf-8', PAGE_SCRIPT);
    if (path === '/app.css') return sendText(response, 'text/css; charset=utf-8', PAGE_STYLE);
    if (path === '/icon.svg') return sendText(response, 'image/svg+xml', PAGE_ICON);
    if (path === '/api/sessions') {
      const offset = pageNumber(url.searchParams.get('offset'));
      if (offset === undefined) return send(response, 400, { error: 'offset is a whole number' });
      return send(response, 200, await sessionsPage(store, counts, { search: (url.searchParams.get('search') ?? '').slice(0, 1_000), offset }));
    }
    const one = /^\/api\/sessions\/([^/]+)(\/version|\/changes\/([^/]+))?$/u.exec(path);
    if (one !== null) {
      const sessionId = decoded(one[1] as string);
      const changeId = one[3] === undefined ? undefined : decoded(one[3]);
      if (sessionId === undefined || (one[3] !== undefined && changeId === undefined)) return send(response, 400, { error: 'an id in the path is not a valid URL component' });
      if (one[2] === '/version') return send(response, 200, { version: await sessionVersion(store, sessionId) });
      if (changeId !== undefined) {
        const change = await fullChange(store, sessionId, changeId);
        return change === undefined ? send(response, 404, { error: 'no such change' }) : send(response, 200, change);
      }
      const after = pageNumber(url.searchParams.get('after'));
      if (after === undefined) return send(response, 400, { error: 'after is a whole number' });
      const page = await timelinePage(store, sessionId, after);
      return page === undefined ? send(response, 404, { error: 'no such session' }) : send(response, 200, page);
    }
    return send(response, 404, { error: 'not found' });
  }

  /** Undo or reapply through core's session, as `openwork undo` does: conflicts are reported, nothing is overwritten. */
  async function moveChanges(response: ServerResponse, sessionId: string, operation: 'undo' | 'reapply', body: string): Promise<void> {
    let changeIds: unknown;
    try {
      changeIds = (JSON.parse(body) as { changeIds?: unknown }).changeIds;
    } catch {
      return send(response, 400, { error: 'the body is not JSON' });
    }
    if (!Array.isArray(changeIds) || changeIds.length === 0 || changeIds.length > MAX_CHANGE_IDS || changeIds.some((id) => typeof id !== 'string' || id === '')) {
      return send(response, 400, { error: `changeIds: 1 to ${MAX_CHANGE_IDS} change ids` });
    }
    const { bySession, unknown } = await groupChangesBySession(options.opened.runtime, changeIds as string[], sessionId);
    if (unknown.length > 0 || bySession.size !== 1) return send(response, 404, { ok: false, code: 'unknown_change', message: `no stored change ${unknown.map((id) => JSON.stringify(id)).join(', ')} in this session; nothing was changed` });
    const session = await options.opened.runtime.openSession(sessionId);
    const outcome = await session[operation](bySession.get(sessionId) ?? []);
    if (outcome.ok) return send(response, 200, { ok: true, operation, changeIds: outcome.changeIds });
    const conflicts = outcome.code === 'conflict' ? outcome.conflicts.map((conflict) => ({ changeId: conflict.changeId, path: shownText(conflict.displayPath, 4_000).text, reason: conflict.reason })) : [];
    return send(response, 409, { ok: false, operation, code: outcome.code, message: shownText(outcome.message, 4_000).text, conflicts });
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  port = (server.address() as AddressInfo).port;
  const shownHost = options.host.includes(':') ? `[${options.host}]` : options.host;
  return {
    url: `http://${shownHost}:${port}/?token=${token}`,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

function hostPart(host: string): string {
  return host.includes(':') ? `[${host}]` : host.toLowerCase();
}

function originHost(origin: string): string {
  try {
    const url = new URL(origin);
    return url.protocol === 'http:' ? url.host.toLowerCase() : '';
  } catch {
    return '';
  }
}

function decoded(component: string): string | undefined {
  try {
    return decodeURIComponent(component);
  } catch {
    return undefined;
  }
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

function sameSecret(given: string, token: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

function pageNumber(value: string | null): number | undefined {
  if (value === null || value === '') return 0;
  return /^\d{1,9}$/u.test(value) ? Number(value) : undefined;
}

function readBody(request: IncomingMessage): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY) {
        resolve(undefined);
        request.destroy();
        return;
      }
      chunks.push(chunk);
    });
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

function send(response: ServerResponse, status: number, body: unknown, extra: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  response.writeHead(status, { ...SECURITY_HEADERS, ...extra, 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text) });
  response.end(text);
}

function sendText(response: ServerResponse, type: string, text: string): void {
  response.writeHead(200, { ...SECURITY_HEADERS, 'content-type': type, 'content-length': Buffer.byteLength(text) });
  response.end(text);
}
