/** §4: the only variables `ToolSessionContext.local` takes from the OpenWork process. */
export const LOCAL_ENVIRONMENT_KEYS = Object.freeze(['PATH', 'HOME', 'SHELL', 'LANG', 'LC_ALL', 'TMPDIR'] as const);

/**
 * The environment of a local session (§4 `ToolSessionContext::local`): PATH, HOME, SHELL, LANG,
 * LC_ALL and TMPDIR from `source`, when set; nothing else (no tokens, no `NODE_OPTIONS`). bash
 * children get exactly this plus the sandbox's own additions (§7.9).
 */
export function localEnvironment(source: Readonly<Record<string, string | undefined>>): Readonly<Record<string, string>> {
  const environment: Record<string, string> = {};
  for (const key of LOCAL_ENVIRONMENT_KEYS) {
    const value = source[key];
    if (typeof value === 'string') environment[key] = value;
  }
  return Object.freeze(environment);
}
