import { BuiltinsError } from './builtins-error.js';

/** §4: the variables `ToolSessionContext.local` always takes from the OpenWork process (when set). */
export const LOCAL_ENVIRONMENT_KEYS = Object.freeze(['PATH', 'HOME', 'SHELL', 'LANG', 'LC_ALL', 'TMPDIR'] as const);

/**
 * Proxy and certificate-authority settings, passed to commands by default (docs/decisions/0102):
 * without them nothing that downloads works behind a proxy or a TLS-inspecting egress. Both
 * spellings of the proxy names, since tools read one or the other.
 */
export const PASSED_ENVIRONMENT_NAMES = Object.freeze([
  'HTTPS_PROXY',
  'https_proxy',
  'HTTP_PROXY',
  'http_proxy',
  'NO_PROXY',
  'no_proxy',
  'ALL_PROXY',
  'all_proxy',
  'NODE_EXTRA_CA_CERTS',
  'NODE_USE_SYSTEM_CA',
  'SSL_CERT_FILE',
  'SSL_CERT_DIR',
  'REQUESTS_CA_BUNDLE',
  'CURL_CA_BUNDLE',
  'PIP_CERT',
  'GIT_SSL_CAINFO',
  'CARGO_HTTP_CAINFO',
] as const);

/** Prefixes of names passed by default: npm's configuration (`npm_config_registry`, `npm_config_cafile` …), never its credentials. */
export const PASSED_ENVIRONMENT_PREFIXES = Object.freeze(['npm_config_', 'NPM_CONFIG_'] as const);

/**
 * Names that hold (or name) a credential: never passed, not even when configured. Tokens,
 * secrets, passwords, keys, `*_AUTH*`; for npm also `_auth`, `username`, `email`, `otp`, its client
 * certificate and key, and its per-registry settings (`//registry…:_authToken`).
 */
const CREDENTIAL_NAME = /token|secret|passw|credential|private|(?:^|_)(?:auth|key|apikey|otp)(?:_|$)|:|\/\//i;
const NPM_CREDENTIAL_NAME = /(?:^|_)(?:cert|username|email)(?:_|$)/i;

/** A proxy URL that carries a user name or password (`http://user:secret@proxy:8080`). */
const URL_WITH_USERINFO = /^[a-z][a-z0-9+.-]*:\/\/[^/@\s]+@/i;

export interface LocalEnvironmentOptions {
  /**
   * More names to pass to commands, each a name or a prefix ending in `*` (`PIP_INDEX_URL`,
   * `UV_*`). A credential name is refused (`BuiltinsError`); a proxy URL with a password is passed
   * only when its name is listed here.
   */
  readonly pass?: readonly string[];
}

/** Whether a variable name holds a credential (never passed to commands). */
export function isCredentialName(name: string): boolean {
  if (!/^npm_config_/i.test(name)) return CREDENTIAL_NAME.test(name);
  const setting = name.slice('npm_config'.length);
  return CREDENTIAL_NAME.test(setting) || NPM_CREDENTIAL_NAME.test(setting);
}

/**
 * The environment of a local session (§4 `ToolSessionContext::local`): PATH, HOME, SHELL, LANG,
 * LC_ALL and TMPDIR from `source`, when set; the proxy and CA settings (`PASSED_ENVIRONMENT_NAMES`)
 * and npm's non-credential configuration (`npm_config_*`); and the names `options.pass` adds.
 * Never a credential (`isCredentialName`), nor a proxy URL with a password unless its name is in
 * `options.pass` (no tokens, no `NODE_OPTIONS`). bash children get exactly this plus the sandbox's
 * own additions (§7.9).
 */
export function localEnvironment(source: Readonly<Record<string, string | undefined>>, options: LocalEnvironmentOptions = {}): Readonly<Record<string, string>> {
  const extra = checkedPassList(options.pass ?? []);
  const environment: Record<string, string> = {};
  for (const key of LOCAL_ENVIRONMENT_KEYS) {
    const value = source[key];
    if (typeof value === 'string') environment[key] = value;
  }
  const named = (name: string) => extra.some((entry) => (entry.endsWith('*') ? name.startsWith(entry.slice(0, -1)) : name === entry));
  for (const [name, value] of Object.entries(source)) {
    if (typeof value !== 'string' || name in environment || isCredentialName(name)) continue;
    const listed = named(name);
    const byDefault = (PASSED_ENVIRONMENT_NAMES as readonly string[]).includes(name) || PASSED_ENVIRONMENT_PREFIXES.some((prefix) => name.startsWith(prefix));
    if (!listed && !byDefault) continue;
    if (!listed && URL_WITH_USERINFO.test(value)) continue;
    environment[name] = value;
  }
  return Object.freeze(environment);
}

function checkedPassList(pass: readonly string[]): readonly string[] {
  for (const entry of pass) {
    const name = entry.endsWith('*') ? entry.slice(0, -1) : entry;
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) {
      throw new BuiltinsError(`The environment allow-list entry ${JSON.stringify(entry)} is not a variable name or a prefix ending in *; give names such as PIP_INDEX_URL or UV_*.`);
    }
    if (isCredentialName(name)) {
      throw new BuiltinsError(`The environment allow-list entry ${JSON.stringify(entry)} names a credential; credentials never reach commands. Remove it (a command that needs one can read it from a file the user grants).`);
    }
  }
  return pass;
}
