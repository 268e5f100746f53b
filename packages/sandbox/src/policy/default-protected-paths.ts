import { sensitiveRootEntryNames } from './git-sensitive-names.js';

/** One default protected entry and why it is protected (architecture §3.8: each entry carries its reason). */
export interface ProtectedEntry {
  /** Relative to the home directory (or, for root entries, to every writable root). */
  readonly path: string;
  readonly reason: string;
}

function entries(list: readonly ProtectedEntry[]): readonly ProtectedEntry[] {
  return Object.freeze(list.map((entry) => Object.freeze(entry)));
}

/**
 * The credential classes of architecture §3.2 that were the first default list: a command that
 * could create one of them while it is missing would make a host tool run code or trust a key
 * later (`~/.ssh/rc` and `authorized_keys`, `credential_process` in `~/.aws/config`, an `exec`
 * plugin in `~/.kube/config`, `credHelpers` in `~/.docker/config.json`, `node-options` in
 * `~/.npmrc`, `pinentry-program` in `~/.gnupg/gpg-agent.conf`, `gh` aliases). So they are masked
 * even when missing (bubblewrap: a mount point while the call runs).
 */
export const credentialHomeDefaultsGuardedWhenMissing: readonly ProtectedEntry[] = entries([
  { path: '.ssh', reason: 'SSH keys and known hosts; `rc` and `authorized_keys` run code or grant logins' },
  { path: '.gnupg', reason: 'GnuPG private keys; `gpg-agent.conf` names programs the agent runs' },
  { path: '.aws', reason: 'AWS access keys; `credential_process` in `config` runs a command' },
  { path: '.azure', reason: 'Azure CLI tokens' },
  { path: '.config/gcloud', reason: 'Google Cloud CLI tokens and service-account keys' },
  { path: '.kube', reason: 'Kubernetes cluster credentials; `exec` plugins in `config` run commands' },
  { path: '.docker', reason: 'container registry logins; `credHelpers` in `config.json` run programs' },
  { path: '.netrc', reason: 'passwords for curl, git, ftp' },
  { path: '.git-credentials', reason: 'git credential store (plain-text tokens)' },
  { path: '.npmrc', reason: 'npm registry tokens; `node-options` and `script-shell` run code' },
  { path: '.pypirc', reason: 'PyPI upload tokens' },
  { path: '.config/gh', reason: 'GitHub CLI token; `gh` aliases run shell commands' },
  { path: '.password-store', reason: 'pass(1) password store' },
  { path: '.local/share/keyrings', reason: 'GNOME keyring files' },
  { path: 'Library/Keychains', reason: 'macOS keychains' },
]);

/**
 * Further credential classes (architecture §3.8, docs/decisions/0050-sandbox-credentials-and-secrets-at-rest.md): histories, package registries, cloud and
 * infrastructure CLIs, databases, container registries, git hosting CLIs, `.env` in HOME, SSH
 * variants. A missing one holds no secret, and creating it runs nothing later, so nothing is
 * mounted over it (every mask is per-call cost); the fence and Seatbelt deny it anyway.
 * Compared with Anthropic's sandbox-runtime and Codex: neither ships a default read-deny list
 * (both leave reads to configuration); sandbox-runtime's write-deny list is covered by tier 3.
 */
export const credentialHomeDefaultsUnguardedWhenMissing: readonly ProtectedEntry[] = entries([
  // Shell and REPL histories: commands typed with passwords and tokens in them.
  { path: '.bash_history', reason: 'bash history (commands with passwords and tokens)' },
  { path: '.zsh_history', reason: 'zsh history' },
  { path: '.zhistory', reason: 'zsh history (older default name)' },
  { path: '.histfile', reason: 'zsh history (zsh-newuser-install name)' },
  { path: '.sh_history', reason: 'ksh/sh history' },
  { path: '.local/share/fish/fish_history', reason: 'fish history' },
  { path: '.python_history', reason: 'Python REPL history' },
  { path: '.node_repl_history', reason: 'Node.js REPL history' },
  { path: '.psql_history', reason: 'psql history (SQL with passwords)' },
  { path: '.mysql_history', reason: 'mysql client history' },
  { path: '.sqlite_history', reason: 'sqlite3 shell history' },
  { path: '.rediscli_history', reason: 'redis-cli history (AUTH passwords)' },
  { path: '.irb_history', reason: 'Ruby irb history' },
  { path: '.lesshst', reason: 'less search history' },
  { path: '.wget-hsts', reason: 'hosts visited with wget' },
  // Package registries.
  { path: '.cargo/credentials', reason: 'crates.io token (old name)' },
  { path: '.cargo/credentials.toml', reason: 'crates.io token' },
  { path: '.gem/credentials', reason: 'RubyGems API key' },
  { path: '.local/share/gem/credentials', reason: 'RubyGems API key (XDG location)' },
  { path: '.yarnrc', reason: 'Yarn 1 registry tokens' },
  { path: '.yarnrc.yml', reason: 'Yarn 2+ `npmAuthToken`' },
  { path: '.config/pip', reason: 'pip index URLs with credentials' },
  { path: '.pip', reason: 'pip configuration with index credentials (old location)' },
  { path: '.config/pypoetry/auth.toml', reason: 'Poetry repository credentials' },
  { path: '.composer/auth.json', reason: 'Composer (PHP) registry tokens' },
  { path: '.config/composer/auth.json', reason: 'Composer registry tokens (XDG location)' },
  { path: '.m2/settings.xml', reason: 'Maven server passwords' },
  { path: '.m2/settings-security.xml', reason: 'Maven master password' },
  { path: '.gradle/gradle.properties', reason: 'Gradle repository and signing credentials' },
  { path: '.nuget/NuGet/NuGet.Config', reason: 'NuGet API keys and feed passwords' },
  { path: '.config/NuGet/NuGet.Config', reason: 'NuGet API keys (XDG location)' },
  { path: '.gem/gemrc', reason: 'RubyGems sources with credentials' },
  { path: '.bundle/config', reason: 'Bundler source credentials' },
  { path: '.config/hex', reason: 'Hex (Elixir) API keys' },
  { path: '.pub-cache/credentials.json', reason: 'Dart pub token' },
  { path: '.config/deno', reason: 'Deno auth tokens' },
  // Cloud and infrastructure CLIs.
  { path: '.terraform.d/credentials.tfrc.json', reason: 'Terraform Cloud token' },
  { path: '.terraformrc', reason: 'Terraform CLI credentials blocks' },
  { path: '.vault-token', reason: 'HashiCorp Vault token' },
  { path: '.config/doctl', reason: 'DigitalOcean token' },
  { path: '.netlify', reason: 'Netlify CLI token (old location)' },
  { path: '.config/netlify', reason: 'Netlify CLI token' },
  { path: '.heroku', reason: 'Heroku CLI' },
  { path: '.config/heroku', reason: 'Heroku CLI' },
  { path: '.fly', reason: 'Fly.io token' },
  { path: '.vercel', reason: 'Vercel CLI token' },
  { path: '.local/share/com.vercel.cli', reason: 'Vercel CLI token (XDG location)' },
  { path: '.config/op', reason: '1Password CLI sessions and accounts' },
  { path: '.op', reason: '1Password CLI (old location)' },
  { path: '.config/Bitwarden CLI', reason: 'Bitwarden CLI vault data' },
  { path: '.config/rclone', reason: 'rclone remotes with passwords and tokens' },
  { path: '.s3cfg', reason: 's3cmd keys' },
  { path: '.boto', reason: 'boto / gsutil keys' },
  { path: '.config/openstack', reason: 'OpenStack clouds.yaml passwords' },
  { path: '.oci', reason: 'Oracle Cloud API keys' },
  { path: '.config/hcloud', reason: 'Hetzner Cloud token' },
  { path: '.config/linode-cli', reason: 'Linode token' },
  { path: '.cloudflared', reason: 'Cloudflare tunnel certificates' },
  { path: '.wrangler', reason: 'Cloudflare Wrangler tokens' },
  { path: '.config/.wrangler', reason: 'Cloudflare Wrangler tokens (XDG location)' },
  { path: '.config/helm', reason: 'Helm repository credentials' },
  { path: '.minikube', reason: 'minikube cluster keys' },
  { path: '.config/age', reason: 'age private keys' },
  { path: '.config/sops', reason: 'SOPS age keys' },
  // Databases.
  { path: '.pgpass', reason: 'PostgreSQL passwords' },
  { path: '.my.cnf', reason: 'MySQL passwords' },
  { path: '.mylogin.cnf', reason: 'MySQL obfuscated login paths' },
  { path: '.pg_service.conf', reason: 'PostgreSQL service passwords' },
  { path: '.mongorc.js', reason: 'MongoDB shell (credentials in scripts)' },
  { path: '.dbshell', reason: 'MongoDB shell history' },
  // Container registries (their runtime location: `credentialRuntimeDefaults`).
  { path: '.config/containers/auth.json', reason: 'podman / buildah / skopeo registry logins' },
  { path: '.config/containers/auth', reason: 'registry logins' },
  { path: '.config/containers/certs.d', reason: 'client certificates and keys for registries' },
  { path: '.singularity/remote.yaml', reason: 'Apptainer / Singularity registry tokens' },
  { path: '.apptainer/remote.yaml', reason: 'Apptainer registry tokens' },
  // AI tools: API keys and sign-in tokens of coding agents and model providers.
  { path: '.claude/.credentials.json', reason: 'Claude Code sign-in tokens' },
  { path: '.claude.json', reason: 'Claude Code account and API key (`primaryApiKey`), MCP servers with their tokens' },
  { path: '.codex/auth.json', reason: 'Codex CLI OpenAI API key and ChatGPT sign-in tokens' },
  { path: '.gemini/oauth_creds.json', reason: 'Gemini CLI Google sign-in tokens' },
  { path: '.gemini/.env', reason: 'Gemini CLI API keys' },
  { path: '.config/github-copilot', reason: 'GitHub Copilot tokens (editors and the CLI)' },
  { path: '.aider.conf.yml', reason: 'aider configuration with provider API keys' },
  { path: '.config/openai', reason: 'OpenAI CLI API keys' },
  { path: '.config/anthropic', reason: 'Anthropic CLI API keys' },
  { path: '.config/llm', reason: 'llm (simonw) `keys.json` with provider API keys' },
  { path: '.local/share/io.datasette.llm', reason: 'llm (simonw) `keys.json` with provider API keys (default location)' },
  { path: '.continue/config.json', reason: 'Continue provider API keys' },
  { path: '.continue/config.yaml', reason: 'Continue provider API keys' },
  // Model and data-set hubs.
  { path: '.cache/huggingface/token', reason: 'Hugging Face access token' },
  { path: '.cache/huggingface/stored_tokens', reason: 'Hugging Face access tokens, every one saved' },
  { path: '.huggingface/token', reason: 'Hugging Face access token (old location)' },
  { path: '.kaggle/kaggle.json', reason: 'Kaggle API key' },
  { path: '.config/kaggle/kaggle.json', reason: 'Kaggle API key (XDG location)' },
  { path: '.config/replicate', reason: 'Replicate API token' },
  { path: '.ollama/id_ed25519', reason: 'Ollama private key (signs pushes to ollama.com)' },
  // Data platforms and their CLIs.
  { path: '.databrickscfg', reason: 'Databricks tokens and client secrets' },
  { path: '.snowflake', reason: 'Snowflake CLI connections with passwords, tokens and key paths' },
  { path: '.snowsql/config', reason: 'SnowSQL passwords' },
  { path: '.dbt/profiles.yml', reason: 'dbt warehouse credentials' },
  { path: '.odbc.ini', reason: 'ODBC data sources with passwords' },
  { path: '.clickhouse-client/config.xml', reason: 'ClickHouse client password' },
  { path: '.config/clickhouse', reason: 'ClickHouse client password (XDG location)' },
  { path: '.mc/config.json', reason: 'MinIO client access keys' },
  { path: '.confluent', reason: 'Confluent CLI credentials and API keys' },
  { path: '.prefect/profiles.toml', reason: 'Prefect API keys' },
  { path: '.config/influxdb2', reason: 'InfluxDB CLI tokens' },
  { path: '.trino_history', reason: 'Trino CLI history (SQL with passwords)' },
  // Git hosting CLIs.
  { path: '.config/hub', reason: 'hub (GitHub) token' },
  { path: '.config/glab-cli', reason: 'GitLab CLI token' },
  { path: '.config/tea', reason: 'Gitea CLI token' },
  { path: '.config/git/credentials', reason: 'git credential store (XDG location)' },
  // `.env` files in HOME and other places people keep secrets.
  { path: '.env', reason: 'environment secrets kept in HOME' },
  { path: '.env.local', reason: 'environment secrets kept in HOME' },
  { path: '.envrc.local', reason: 'environment secrets kept in HOME' },
  { path: '.secrets', reason: 'secrets kept in HOME' },
  // SSH variants.
  { path: '.ssh2', reason: 'SSH Tectia / ssh.com keys' },
  { path: '.putty', reason: 'PuTTY keys and sessions' },
  { path: '.config/tsh', reason: 'Teleport certificates' },
  { path: '.tsh', reason: 'Teleport certificates' },
  { path: '.config/keybase', reason: 'Keybase device keys' },
  { path: '.mozilla', reason: 'Firefox profiles (saved passwords, cookies)' },
  { path: '.config/google-chrome', reason: 'Chrome profiles (cookies, saved passwords)' },
  { path: '.config/chromium', reason: 'Chromium profiles (cookies, saved passwords)' },
]);

/**
 * Credentials in the user's runtime folder (`$XDG_RUNTIME_DIR`, usually `/run/user/<uid>`),
 * relative to it: where podman, buildah and skopeo keep registry logins by default (they read
 * `~/.config/containers/auth.json` only when this one is missing). Unguarded while missing, like the
 * list above: a missing login holds no secret.
 */
export const credentialRuntimeDefaults: readonly ProtectedEntry[] = entries([
  { path: 'containers/auth.json', reason: 'podman / buildah / skopeo registry logins (their default location)' },
  { path: 'containers/auth', reason: 'registry logins (folder form)' },
]);

/**
 * Credential paths (tier 2) relative to the home directory, architecture §3.2 and §3.8: neither
 * readable nor writable unless a grant for this call names them.
 */
export const defaultCredentialHomeEntries: readonly string[] = Object.freeze([
  ...new Set([...credentialHomeDefaultsGuardedWhenMissing, ...credentialHomeDefaultsUnguardedWhenMissing].map((entry) => entry.path)),
]);

/**
 * Sensitive entries in HOME (tier 3): files whose change runs code outside the sandbox later,
 * at every name a stock system reads (architecture §3.7 "planted code"). Names that do not exist
 * yet are protected too.
 */
export const sensitiveHomeDefaults: readonly ProtectedEntry[] = entries([
  { path: '.bashrc', reason: 'bash runs it for every interactive shell' },
  { path: '.bash_profile', reason: 'bash login shells run it' },
  { path: '.bash_login', reason: 'bash login shells run it when `.bash_profile` is missing' },
  { path: '.bash_logout', reason: 'bash login shells run it on exit' },
  { path: '.bash_aliases', reason: "Debian's stock `.bashrc` sources it" },
  { path: '.profile', reason: 'sh, dash and bash login shells and display managers run it' },
  { path: '.inputrc', reason: 'readline key bindings can type and run commands' },
  { path: '.zshrc', reason: 'zsh runs it for every interactive shell' },
  { path: '.zprofile', reason: 'zsh login shells run it' },
  { path: '.zshenv', reason: 'every zsh runs it, scripts included' },
  { path: '.zlogin', reason: 'zsh login shells run it' },
  { path: '.zlogout', reason: 'zsh login shells run it on exit' },
  { path: '.config/fish', reason: 'fish runs `config.fish` and `conf.d/*`' },
  { path: '.kshrc', reason: 'ksh runs it (`ENV`)' },
  { path: '.tcshrc', reason: 'tcsh runs it' },
  { path: '.cshrc', reason: 'csh runs it' },
  { path: '.xprofile', reason: 'display managers run it at login' },
  { path: '.xinitrc', reason: 'startx runs it' },
  { path: '.xsession', reason: 'display managers run it at login' },
  { path: '.xsessionrc', reason: 'Debian X sessions source it' },
  { path: '.pam_environment', reason: 'sets the environment (LD_PRELOAD, PATH) of every login' },
  { path: '.config/environment.d', reason: 'systemd --user sets the environment of user services from it' },
  { path: '.local/bin', reason: 'first on the stock PATH: a planted `git` or `ls` runs instead of the real one' },
  { path: 'bin', reason: 'on the stock PATH when it exists (Debian `.profile`)' },
  { path: '.local/lib', reason: "Python's user site folder (`usercustomize.py`, `*.pth` run at every start) and other user libraries" },
  { path: '.config/autostart', reason: 'desktop sessions start these programs at login' },
  { path: '.config/systemd', reason: 'systemd --user units run programs (timers, at login)' },
  { path: '.local/share/systemd', reason: 'systemd --user timers' },
  { path: '.local/share/applications', reason: 'desktop entries run programs when opened' },
  { path: '.config/git', reason: 'git reads `config`, `attributes` (filters) and `ignore` here like `~/.gitconfig`' },
  { path: '.gitconfig', reason: 'git configuration: aliases, hooks path, filters run programs' },
  { path: '.vimrc', reason: 'vim runs it at start' },
  { path: '.vim', reason: 'vim runs plugins from it' },
  { path: '.gvimrc', reason: 'gvim runs it at start' },
  { path: '.exrc', reason: 'vi runs it at start' },
  { path: '.config/nvim', reason: 'neovim runs `init.lua`/`init.vim` and plugins' },
  { path: '.local/share/nvim', reason: 'neovim plugins' },
  { path: '.emacs', reason: 'emacs runs it at start' },
  { path: '.emacs.d', reason: 'emacs runs `init.el`' },
  { path: '.config/emacs', reason: 'emacs runs `init.el` (XDG location)' },
  { path: '.tmux.conf', reason: 'tmux runs `run-shell` lines of it' },
  { path: '.config/tmux', reason: 'tmux configuration (XDG location)' },
  { path: '.screenrc', reason: 'screen runs its commands' },
  { path: '.ssh/rc', reason: 'sshd runs it at every login' },
  { path: '.config/direnv', reason: "direnv's `direnvrc` runs for every `.envrc`" },
  { path: '.ipython/profile_default/startup', reason: 'IPython runs these scripts at start' },
  { path: '.pythonrc', reason: 'PYTHONSTARTUP file of many setups' },
  { path: '.gdbinit', reason: 'gdb runs it at start' },
  { path: '.config/gdb', reason: 'gdb runs `gdbinit` (XDG location)' },
  { path: '.npm-global', reason: 'global npm binaries on PATH in common setups' },
  { path: '.cargo/bin', reason: 'on PATH (rustup): a planted program runs instead of the real one' },
  { path: '.cargo/config.toml', reason: 'cargo aliases and build wrappers run programs' },
  { path: '.cargo/config', reason: 'cargo configuration (old name)' },
  { path: 'go/bin', reason: 'on PATH in Go setups' },
  { path: '.config/Code/User', reason: "VS Code user settings and tasks run programs" },
  { path: '.config/mimeapps.list', reason: 'which program opens a file type' },
]);

export const defaultSensitiveHomeEntries: readonly string[] = Object.freeze(sensitiveHomeDefaults.map((entry) => entry.path));

/**
 * Sensitive names below every writable root (tier 3), place-based: derived from the one table of
 * git's program-running names and the work-tree names (`git-sensitive-names.ts`). The same names
 * are also protected at any depth by rule (`sensitiveNameRules`, architecture §3.10). The rest of
 * `.git` stays writable so that `git commit` works in `workspace-write` (peers.md).
 */
export const defaultSensitiveRootEntries: readonly string[] = sensitiveRootEntryNames;

/**
 * Entries of the OpenWork home that hold what openwork stored (architecture §3.8 "secrets at
 * rest"): tool results of calls that held a credential grant, approvals and history live in the
 * session database; spill files hold whole outputs. Unreadable for every tool and process (tier 1
 * already makes them unwritable); a session's own spill folder is readable again for that session.
 */
export const openworkHomeSecretDefaults: readonly ProtectedEntry[] = entries([
  { path: 'sessions.sqlite', reason: 'the session database: stored tool results, approvals, history' },
  { path: 'sessions.sqlite-wal', reason: 'its write-ahead log (recent writes in plain text)' },
  { path: 'sessions.sqlite-shm', reason: 'its shared-memory index' },
  { path: 'sessions.sqlite-journal', reason: 'its rollback journal' },
  { path: 'spill', reason: "every session's spilled outputs; a session reads only its own folder" },
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
