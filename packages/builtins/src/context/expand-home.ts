/** What `expandHome` made of a path the model gave. */
export type HomeExpansion =
  | { readonly ok: true; readonly path: string }
  | { readonly ok: false; readonly message: string };

/**
 * `~` and `~/…` mean the home directory (docs/decisions/0012-builtins-choices-where-the-spec-is-silent.md): spill footers show `~/.openwork/spill/…`, and
 * `read` must open exactly what they show. Without this, `write ~/notes.txt` would create a
 * folder literally named `~` in the workspace (a known peer bug). `~user` and `~user/…` name
 * another user's home, which we do not look up: refused with a message saying what to send.
 * Anything else is returned unchanged; `./~` still names a file called `~`.
 */
export function expandHome(input: string, homeDirectory: string): HomeExpansion {
  if (!input.startsWith('~')) return { ok: true, path: input };
  if (input === '~') return { ok: true, path: homeDirectory };
  if (input.startsWith('~/')) {
    const rest = input.slice(2);
    return { ok: true, path: rest === '' ? homeDirectory : `${homeDirectory === '/' ? '' : homeDirectory}/${rest}` };
  }
  const user = input.slice(1).split('/', 1)[0] ?? '';
  return {
    ok: false,
    message: `${input}: ~${user} (another user's home directory) is not supported; only ~ and ~/… (your home directory) are expanded. Send an absolute path, or ./${input} for a file whose name starts with ~.`,
  };
}
