# Source this file (`. tooling/scripts/node-env.sh [MAJOR]`) to make a supported Node the `node` of
# the current shell (architecture §9: 22 and 24; the packages' engines are ^22.22.2 || ^24.15.0).
#
# - With MAJOR (22 or 24): the newest release of that line, always.
# - With an exact version (22.22.2): that release (the consumer test's lowest-admitted leg).
# - Without: the machine's own Node if it is in the range, else 24 (the active LTS).
#
# A Node the machine lacks comes from the npm registry's `node` package (never from elsewhere),
# installed once into `.toolchain/node-MAJOR/` of the clone (ignored by git). It also points
# node-gyp at that Node's headers (`npm_config_nodedir`), so native addons (re2, better-sqlite3)
# compile against the Node that will load them, without a download.
#
# Written for bash and POSIX sh; it returns (not exits) on failure, so a sourcing shell survives.

__ow_root=$(cd "$(dirname "${BASH_SOURCE:-$0}")/../.." && pwd)
# POSIX sh does not say which file is sourced ($0 is the shell): then the clone is the current folder.
[ -f "$__ow_root/tooling/scripts/node-env.sh" ] || __ow_root=$(pwd)
__ow_want=${1:-}
__ow_in_range() {
  # $1: a version like v24.15.0. In range: 22.x with x.y >= 22.2, or 24.x with x >= 15.
  __ow_v=${1#v}
  __ow_major=${__ow_v%%.*}; __ow_rest=${__ow_v#*.}; __ow_minor=${__ow_rest%%.*}; __ow_patch=${__ow_rest#*.}; __ow_patch=${__ow_patch%%[!0-9]*}
  case "$__ow_major" in
    22) [ "$__ow_minor" -gt 22 ] || { [ "$__ow_minor" -eq 22 ] && [ "$__ow_patch" -ge 2 ]; } ;;
    24) [ "$__ow_minor" -ge 15 ] ;;
    *) return 1 ;;
  esac
}
__ow_current=$(node --version 2>/dev/null || true)
if [ -z "$__ow_want" ] && [ -n "$__ow_current" ] && __ow_in_range "$__ow_current"; then
  __ow_want=
elif [ -z "$__ow_want" ]; then
  __ow_want=24
fi

__ow_status=0
if [ -n "$__ow_want" ]; then
  case "$__ow_want" in
    22) __ow_spec=node@^22.22.2 ;;
    24) __ow_spec=node@^24.15.0 ;;
    *.*.*) if __ow_in_range "v$__ow_want"; then __ow_spec=node@$__ow_want; else __ow_spec=; fi ;;
    *) __ow_spec= ;;
  esac
  if [ -z "$__ow_spec" ]; then
    echo "node-env: unsupported Node '$__ow_want' (use 22, 24 or an exact release in ^22.22.2 || ^24.15.0)" >&2; __ow_status=1
  else
    __ow_dir="$__ow_root/.toolchain/node-$__ow_want"
    __ow_bin="$__ow_dir/node_modules/.bin"
    if ! { [ -x "$__ow_bin/node" ] && __ow_in_range "$("$__ow_bin/node" --version 2>/dev/null)"; }; then
      echo "node-env: installing $__ow_spec from the npm registry into .toolchain/node-$__ow_want" >&2
      mkdir -p "$__ow_dir" && [ -f "$__ow_dir/package.json" ] || printf '{ "private": true }\n' > "$__ow_dir/package.json"
      (cd "$__ow_dir" && npm install --no-audit --no-fund --no-package-lock --loglevel=error "$__ow_spec" >&2) || true
    fi
    if [ -x "$__ow_bin/node" ] && __ow_in_range "$("$__ow_bin/node" --version 2>/dev/null)"; then
      # npm reads its global config from its prefix, which follows the Node that runs it: keep the
      # machine's (registry, proxy, CA file) in force once this Node comes first.
      if [ -z "${npm_config_globalconfig:-}" ] && command -v npm >/dev/null 2>&1; then
        __ow_globalconfig=$(npm config get globalconfig 2>/dev/null)
        case "$__ow_globalconfig" in "$__ow_root"/.toolchain/*) ;; *) if [ -f "$__ow_globalconfig" ]; then npm_config_globalconfig="$__ow_globalconfig"; export npm_config_globalconfig; fi ;; esac
      fi
      case "$__ow_want" in *.*.*) [ "$("$__ow_bin/node" --version)" = "v$__ow_want" ] || echo "node-env: .toolchain/node-$__ow_want holds $("$__ow_bin/node" --version)" >&2 ;; esac
      PATH="$__ow_bin:$PATH"; export PATH
      # The `node` package puts the release (bin, include, share) in a platform package beside it.
      for __ow_release in "$__ow_dir"/node_modules/node/node_modules/node-*; do
        if [ -f "$__ow_release/include/node/node.h" ]; then npm_config_nodedir="$__ow_release"; export npm_config_nodedir; fi
      done
      hash -r 2>/dev/null || true
    else
      echo "node-env: could not install $__ow_spec (npm install of the registry's node package failed; see above)" >&2; __ow_status=1
    fi
  fi
fi
if [ $__ow_status -eq 0 ] && [ -z "${npm_config_nodedir:-}" ]; then
  # The machine's own Node in range: its headers, where its package installed them (Debian: /usr).
  __ow_prefix=$(dirname "$(dirname "$(command -v node)")")
  if [ -f "$__ow_prefix/include/node/node.h" ]; then npm_config_nodedir="$__ow_prefix"; export npm_config_nodedir; fi
fi
if [ $__ow_status -eq 0 ] && command -v npm >/dev/null 2>&1; then
  # npm's global bin folder on PATH, so what `npm i -g` installs (pnpm, in the README's set-up) is
  # found: for a Node of .toolchain/ npm's global prefix is that Node's own folder, which nothing
  # else puts on PATH. Asked of npm itself, so a prefix the user configured (~/.npmrc,
  # npm_config_prefix) is the one used. Right after the toolchain's Node, so a pnpm installed for it
  # comes before the machine's; the machine's own Node keeps its PATH, the folder appended if absent.
  __ow_global_bin=$(npm prefix -g 2>/dev/null)/bin
  case ":$PATH:" in
    *":$__ow_global_bin:"*) ;;
    *) if [ -n "${__ow_bin:-}" ] && [ "$(command -v node)" = "$__ow_bin/node" ]; then PATH="$__ow_bin:$__ow_global_bin:${PATH#"$__ow_bin":}"; else PATH="$PATH:$__ow_global_bin"; fi
       export PATH; hash -r 2>/dev/null || true ;;
  esac
fi
[ $__ow_status -eq 0 ] && echo "node-env: node $(node --version) from $(command -v node)" >&2
unset __ow_root __ow_want __ow_current __ow_spec __ow_dir __ow_bin __ow_release __ow_prefix __ow_v __ow_major __ow_rest __ow_minor __ow_patch __ow_global_bin __ow_globalconfig
unset -f __ow_in_range
return $__ow_status 2>/dev/null || exit $__ow_status
