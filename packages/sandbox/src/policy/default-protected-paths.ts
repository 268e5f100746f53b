/**
 * Credential paths (tier 2) relative to the home directory, architecture §3.2: neither readable
 * nor writable unless a grant for this call names them.
 */
export const defaultCredentialHomeEntries: readonly string[] = Object.freeze([
  '.ssh',
  '.gnupg',
  '.aws',
  '.azure',
  '.config/gcloud',
  '.kube',
  '.docker',
  '.netrc',
  '.git-credentials',
  '.npmrc',
  '.pypirc',
  '.config/gh',
  '.password-store',
  '.local/share/keyrings',
  'Library/Keychains',
]);

/**
 * Sensitive paths (tier 3) relative to the home directory: files whose change runs code outside
 * the sandbox later (shell start-up files, git configuration). `.config/git/config` is our
 * addition: git reads it exactly like `~/.gitconfig`.
 */
export const defaultSensitiveHomeEntries: readonly string[] = Object.freeze([
  '.bashrc',
  '.bash_profile',
  '.bash_login',
  '.bash_logout',
  '.profile',
  '.zshrc',
  '.zprofile',
  '.zshenv',
  '.zlogin',
  '.zlogout',
  '.config/fish',
  '.gitconfig',
  '.config/git/config',
]);

/**
 * Sensitive names below every writable root (tier 3). Of `.git`, only the names through which git
 * decides what code to run: `hooks/`, `config`, and the redirections `commondir` (config and hooks
 * of another folder), `config.worktree` and `worktrees/` (each linked worktree's own `commondir`
 * and `config.worktree`). The rest of `.git` stays writable so that `git commit` works in
 * `workspace-write` (peers.md).
 */
export const defaultSensitiveRootEntries: readonly string[] = Object.freeze([
  '.git/hooks',
  '.git/config',
  '.git/commondir',
  '.git/config.worktree',
  '.git/worktrees',
  '.envrc',
  '.vscode',
  '.idea',
]);

/**
 * Device files a sandboxed process may always write (architecture §3.1); never file tools. On macOS
 * `/dev/stdin|stdout|stderr` are links to `/dev/fd/0|1|2` and Seatbelt checks the resolved name, so
 * `echo x > /dev/stderr` needs the `/dev/fd/N` entries (they only re-open a descriptor the process
 * already holds).
 */
export const defaultDeviceFiles: readonly string[] = Object.freeze([
  '/dev/null',
  '/dev/zero',
  '/dev/full',
  '/dev/random',
  '/dev/urandom',
  '/dev/tty',
  '/dev/stdin',
  '/dev/stdout',
  '/dev/stderr',
  '/dev/fd/0',
  '/dev/fd/1',
  '/dev/fd/2',
  '/dev/ptmx',
]);
