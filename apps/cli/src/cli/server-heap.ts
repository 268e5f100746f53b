/**
 * The V8 flags `openwork mcp` adds to its own Node (docs/decisions/0107-a-small-server.md): a young
 * generation of 1 MiB semi-spaces instead of V8's default, which lets it grow to tens of MB and keeps
 * them for the life of the process. Without the flags the server's resident memory over a mix
 * of calls was about 45 MB higher; scavenges are more frequent and each is shorter.
 */
export const SERVER_HEAP_FLAGS: readonly string[] = ['--max-semi-space-size=1'];

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
