import { UsageError } from '../cli/usage-error.js';

/** What `selectSandboxBackend` is given. */
export interface BenchmarkSandboxOptions {
  readonly bubblewrap?: { readonly stagedWrites: false };
}

/** The variable; for benchmark runs only (`pnpm bench:mcp`), never a user setting. */
export const benchmarkLayoutVariable = 'OPENWORK_BENCH_SANDBOX_LAYOUT';

/**
 * Benchmark runs only: `OPENWORK_BENCH_SANDBOX_LAYOUT=unstaged` makes the server's bubblewrap
 * backend render the layout that preceded staged writes (one read-only mount per protected name,
 * host placeholders; `BubblewrapBackendOptions.stagedWrites: false`), so that the MCP benchmark
 * can time both layouts through the same server in one run. That layout is weaker (it protects
 * names only at the places it knows), so it is in no help text, it says so on standard error when
 * used, and any other value is refused. Unset or empty: the default (staged writes).
 */
export function benchmarkSandboxLayout(environment: NodeJS.ProcessEnv, warn: (line: string) => void = (line) => process.stderr.write(`${line}\n`)): BenchmarkSandboxOptions {
  const value = environment[benchmarkLayoutVariable] ?? '';
  if (value === '') return {};
  if (value !== 'unstaged') throw new UsageError(`${benchmarkLayoutVariable}: ${JSON.stringify(value)} is not a layout; the only value is 'unstaged' (benchmark runs only)`);
  warn(`openwork: ${benchmarkLayoutVariable}=unstaged: the sandbox renders the previous layout without staged writes, for benchmark runs only`);
  return { bubblewrap: { stagedWrites: false } };
}
