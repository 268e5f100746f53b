#!/usr/bin/env bash
# Runs the README's set-up command exactly as written, as a new user on a fresh machine would, then
# the README's `openwork call` through what it built. The command is read from README.md (the one
# `sh` block of the "Set up" section), so the README and this check cannot drift.
#
# The environment is clean: a throwaway copy of the clone (a detached `git worktree` of the working
# tree's state, so no node_modules, no dist and no .toolchain), a temporary HOME, a PATH with no
# pnpm on it (folders that hold one are replaced by a folder of links to everything else in them) and
# without this clone's toolchain, and a temporary npm global prefix: with a machine Node outside the
# supported range — the fresh-machine case — npm's prefix is the Node that node-env.sh installs into
# the copy's .toolchain/ (npm's default, what a new user gets); with one inside it, npm_config_prefix
# points at a temporary folder, so nothing is installed into the machine's own prefix. The pnpm store
# of the machine is reused (pnpm_config_store_dir), so the install links instead of downloading and
# the native addon's build comes from the store's side-effects cache. Everything is removed at the
# end, whatever happens. Run from the clone: `bash tooling/scripts/readme-setup-check.sh`
# (it needs root for the README's apt-get line, as the README does).
set -uo pipefail
cd "$(dirname "$0")/../.."
repo=$PWD

# The README's commands: the set-up block (exactly one line) and the first `pnpm openwork call`.
setup_command=$(node -e '
  const text = require("fs").readFileSync("README.md", "utf8");
  const section = text.split(/^## /m).find((part) => part.startsWith("Set up"));
  const block = section && /^```sh\n([\s\S]*?)^```/m.exec(section);
  const lines = block ? block[1].split("\n").filter((line) => line.trim() !== "") : [];
  if (lines.length !== 1) { console.error("README.md: the \"Set up\" section must hold one sh block of one line, found " + JSON.stringify(lines)); process.exit(1); }
  console.log(lines[0]);
') || exit 1
call_command=$(grep -m 1 '^pnpm openwork call ' README.md) || { echo "README.md: no 'pnpm openwork call' line"; exit 1; }

# The machine's PATH without this clone's toolchain (a sourced node-env.sh put it first).
machine_path=$(printf '%s' "$PATH" | tr ':' '\n' | grep -v -F "$repo/.toolchain/" | paste -sd: -)
store_dir=$(dirname "$(pnpm store path 2>/dev/null)") || store_dir=
[ -n "$store_dir" ] && [ -d "$store_dir" ] || { echo "readme set-up check: no pnpm store to reuse (run pnpm install first)"; exit 1; }

work=$(mktemp -d "${TMPDIR:-/tmp}/openwork-readme-setup-XXXXXX") || exit 1
work=$(cd "$work" && pwd -P)
clone="$work/clone"
cleanup() {
  git -C "$repo" worktree remove --force "$clone" >/dev/null 2>&1
  rm -rf "$work"
  git -C "$repo" worktree prune
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# The working tree as it is (committed, changed and new files), not only the last commit.
snapshot=$(GIT_AUTHOR_NAME=readme-setup-check GIT_AUTHOR_EMAIL=ci@openwork.invalid GIT_COMMITTER_NAME=readme-setup-check GIT_COMMITTER_EMAIL=ci@openwork.invalid git stash create 2>/dev/null)
[ -n "$snapshot" ] || snapshot=HEAD
git worktree add --quiet --detach "$clone" "$snapshot" || exit 1
git ls-files -z --others --exclude-standard | tar --null -T - -cf - | tar -C "$clone" -xf - || exit 1

# PATH without pnpm: a folder that holds pnpm (pnpm, pnpx, pn, pnx) becomes a folder of links to
# its other programs, so node, npm, apt-get and git stay where they were.
clean_path=
index=0
IFS=: read -r -a folders <<< "$machine_path"
for folder in "${folders[@]}"; do
  [ -n "$folder" ] && [ -d "$folder" ] || continue
  holds_pnpm=
  for name in pnpm pnpx pn pnx; do [ -e "$folder/$name" ] || [ -L "$folder/$name" ] && holds_pnpm=1; done
  if [ -n "$holds_pnpm" ]; then
    index=$((index + 1))
    shadow="$work/path-$index"
    mkdir -p "$shadow"
    for program in "$folder"/* "$folder"/.[!.]*; do
      name=${program##*/}
      case "$name" in pnpm | pnpx | pn | pnx | '*' | '.[!.]*') continue ;; esac
      ln -s "$program" "$shadow/$name"
    done
    folder=$shadow
  fi
  clean_path="${clean_path:+$clean_path:}$folder"
done

mkdir -p "$work/home"
# Another apt or dpkg process (a machine's unattended upgrades, a CI step) may hold dpkg's lock when
# the README's `apt-get install` runs: apt is told to wait for it (up to 10 minutes) instead of
# failing at once. APT_CONFIG names an extra main configuration file; apt.conf.d is still read.
printf 'DPkg::Lock::Timeout "600";\n' > "$work/apt.conf"
environment=(HOME="$work/home" PATH="$clean_path" LANG="${LANG:-C.UTF-8}" TERM="${TERM:-dumb}" DEBIAN_FRONTEND=noninteractive
  pnpm_config_store_dir="$store_dir" TMPDIR="${TMPDIR:-/tmp}" APT_CONFIG="$work/apt.conf")
# The machine's network settings (a proxy, its CA) are the machine's, not a set-up step: kept.
for name in http_proxy https_proxy no_proxy HTTP_PROXY HTTPS_PROXY NO_PROXY NODE_EXTRA_CA_CERTS SSL_CERT_FILE SSL_CERT_DIR; do
  [ -n "${!name:-}" ] && environment+=("$name=${!name}")
done
machine_node=$(env -i PATH="$clean_path" node --version 2>/dev/null || echo none)
# The supported range (engines.node: ^22.22.2 || ^24.15.0), as node-env.sh decides it.
if env -i PATH="$clean_path" node -e 'const [a, b, c] = process.versions.node.split(".").map(Number); process.exit((a === 22 && (b > 22 || (b === 22 && c >= 2))) || (a === 24 && b >= 15) ? 0 : 1)' 2>/dev/null; then
  environment+=(npm_config_prefix="$work/npm-prefix")
  prefix_note="npm prefix: a temporary folder (the machine's Node is in the range)"
else
  prefix_note="npm prefix: npm's default for the Node node-env.sh installs into the copy's .toolchain/ (the machine's Node is outside the range)"
fi
if env -i "${environment[@]}" bash -c 'command -v pnpm' >/dev/null 2>&1; then echo "readme set-up check: pnpm is still on the clean PATH"; exit 1; fi
echo "readme set-up check in a throwaway copy: machine Node $machine_node, no pnpm on PATH, no .toolchain, temporary HOME; $prefix_note; pnpm store reused from $store_dir; apt-get waits up to 600 s for a dpkg lock another process holds (APT_CONFIG)"
echo "\$ $setup_command"

(cd "$clone" && env -i "${environment[@]}" bash -c "$setup_command") || { echo "readme set-up check: the README's set-up command failed"; exit 1; }
echo "\$ . tooling/scripts/node-env.sh && $call_command"
output=$(cd "$clone" && env -i "${environment[@]}" bash -c ". tooling/scripts/node-env.sh && $call_command") || { echo "$output"; echo "readme set-up check: the README's openwork call failed"; exit 1; }
printf '%s\n' "$output" | head -n 5
[ -n "$output" ] || { echo "readme set-up check: the README's openwork call printed nothing"; exit 1; }
echo "readme set-up check: PASSED"
