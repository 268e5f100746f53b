/**
 * `openwork mcp` on an unsupported Node: the refusal line reaches the MCP client too, not only
 * stderr (which most clients hide in a log file), without loading the MCP SDK or anything else.
 * It waits for the client's first request (`initialize`) and answers it with two plain JSON-RPC
 * messages: a logging notification (`notifications/message`, level `error`; the protocol allows
 * logging before initialization is complete) and an error response to the request, whose message
 * clients show as why the server failed to start. Then it stops reading.
 *
 * It gives up after `waitMs` without a request, on the end of the input, or on a line longer than
 * 1 MiB: a process nobody talks to still ends.
 */
export function refuseMcpClient(line: string, input: NodeJS.ReadableStream, output: NodeJS.WritableStream, waitMs = 10_000): Promise<void> {
  return new Promise((resolve) => {
    let buffered = '';
    const finish = () => {
      clearTimeout(timer);
      input.removeListener('data', onData);
      input.removeListener('end', finish);
      input.removeListener('error', finish);
      resolve();
    };
    const timer = setTimeout(finish, waitMs);
    const onData = (chunk: Buffer | string) => {
      buffered += typeof chunk === 'string' ? chunk : chunk.toString('utf8');
      let newline = buffered.indexOf('\n');
      while (newline !== -1) {
        const id = requestId(buffered.slice(0, newline));
        buffered = buffered.slice(newline + 1);
        if (id !== undefined) {
          output.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'error', logger: 'openwork', data: line } })}\n`);
          output.write(`${JSON.stringify({ jsonrpc: '2.0', id, error: { code: -32603, message: line } })}\n`);
          finish();
          return;
        }
        newline = buffered.indexOf('\n');
      }
      if (buffered.length > 1024 * 1024) finish();
    };
    input.on('data', onData);
    input.once('end', finish);
    input.once('error', finish);
  });
}

/** The id of a JSON-RPC request (a message with a method and an id); undefined for anything else. */
function requestId(text: string): string | number | undefined {
  try {
    const message = JSON.parse(text) as { method?: unknown; id?: unknown };
    if (typeof message.method !== 'string') return undefined;
    return typeof message.id === 'string' || typeof message.id === 'number' ? message.id : undefined;
  } catch {
    return undefined;
  }
}
