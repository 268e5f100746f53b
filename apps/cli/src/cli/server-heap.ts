/**
 * The V8 flags `openwork mcp` adds to its own Node (docs/decisions/0107-a-small-server.md): a young
 * generation of 1 MiB semi-spaces instead of V8's default, which lets it grow to tens of MB and keeps
 * them for the life of the process (about 45 MB of the server's resident memory over a mix of
 * calls), and an old generation of at most 512 MB: far above the server's live heap (about 30 MB),
 * and below 1 GB V8 lets the heap grow to less than twice what survived the last collection
 * instead of four times.
 */
export const SERVER_HEAP_FLAGS: readonly string[] = ['--max-semi-space-size=1', '--max-old-space-size=512'];

/** glibc's malloc arenas for the re-executed server, unless the person set a number. */
export const SERVER_MALLOC_ARENAS = '2';
/** Set next to MALLOC_ARENA_MAX when the re-execution put it there, so that the server takes both out again. */
export const ARENAS_MARKER = 'OPENWORK_MCP_SET_MALLOC_ARENA_MAX';

/**
 * The environment of the re-executed server: MALLOC_ARENA_MAX=2 when the person set none. Each
 * thread that allocates (search workers, libuv's pool) otherwise gets an arena of its own whose
 * freed pages glibc keeps: over 2,000 mixed calls the server grew 153 → 201 MB with them and
 * 146 → 162 MB without.
 */
export function serverEnvironment(environment: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  if (environment['MALLOC_ARENA_MAX'] !== undefined) return environment;
  return { ...environment, MALLOC_ARENA_MAX: SERVER_MALLOC_ARENAS, [ARENAS_MARKER]: '1' };
}

/**
 * In the re-executed server: glibc read MALLOC_ARENA_MAX when the process started; the commands
 * the server runs do not get it.
 */
export function forgetServerEnvironment(environment: NodeJS.ProcessEnv): void {
  if (environment[ARENAS_MARKER] !== '1') return;
  delete environment[ARENAS_MARKER];
  delete environment['MALLOC_ARENA_MAX'];
}

/**
 * The flags to add to a Node started with `execArgv`: none when any heap size is already set
 * there or in NODE_OPTIONS (the person's choice wins), or when `OPENWORK_MCP_DEFAULT_HEAP=1`.
 */
export function serverHeapArguments(execArgv: readonly string[], environment: Readonly<Record<string, string | undefined>>): readonly string[] {
  if (environment['OPENWORK_MCP_DEFAULT_HEAP'] === '1') return [];
  const given = [...execArgv, ...(environment['NODE_OPTIONS'] ?? '').split(/\s+/)];
  if (given.some((flag) => /^--(max-semi-space-size|max-old-space-size|max-young-generation-size|semi-space-growth-factor)(=|$)/.test(flag.replace(/_/g, '-')))) return [];
  return SERVER_HEAP_FLAGS;
}
