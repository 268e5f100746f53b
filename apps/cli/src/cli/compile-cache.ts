import { existsSync } from 'node:fs';
import * as nodeModule from 'node:module';
import { join } from 'node:path';
import { openworkHome } from '../runtime/openwork-home.js';

/** The commands that run without the OpenWork home: they never create it, so they cache nothing. */
const WITHOUT_HOME = new Set([undefined, '--help', '-h', 'help', '--version', '-v']);

/**
 * Node's compile cache for `openwork` (docs/decisions/0062-cli-compile-cache-in-the-openwork-home.md; it saves compiling the ~500 modules a call loads,
 * about a fifth of the start-up). The folder is `<OpenWork home>/compile-cache` and nowhere else:
 * whoever can write a compile cache runs code in the next `openwork` process, outside the sandbox,
 * so it lives where no tool and no sandboxed command may write (the OpenWork home is hard-protected,
 * architecture §3.2) — never in the project (a model writes there) nor in `/tmp` (anyone writes
 * there). It is used only when the OpenWork home already exists, so no command creates the home
 * earlier than it did, and a refused call still changes nothing. `NODE_COMPILE_CACHE` and
 * `NODE_DISABLE_COMPILE_CACHE` keep their meaning (Node's own rules); a cache that cannot be used
 * (a read-only home) is skipped silently, since it only saves time. Returns the folder, if used.
 */
export function useCompileCache(command: string | undefined, environment: NodeJS.ProcessEnv): string | undefined {
  if (WITHOUT_HOME.has(command)) return undefined;
  const home = openworkHome(environment);
  if (!existsSync(home)) return undefined;
  // Present on every Node `engines` admits; looked up so an older Node still starts.
  if (typeof nodeModule.enableCompileCache !== 'function') return undefined;
  return nodeModule.enableCompileCache(join(home, 'compile-cache')).directory;
}
