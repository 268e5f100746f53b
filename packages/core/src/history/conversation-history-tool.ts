import type { ToolSessionContext } from '@openwork/builtins';
import type { SandboxPolicy } from '@openwork/sandbox';
import type { StoredMessage } from '@openwork/session-store';
import { defineTool, ToolExecutionError } from '@openwork/tools-contract';
import * as z from 'zod';
import { HISTORY_DEFAULT_LIMIT, HISTORY_MAX_LIMIT, HISTORY_MESSAGE_CHARS, HISTORY_RESULT_BYTES } from './history-limits.js';
import { historyEntry, type HistoryEntry } from './render-history-entry.js';

/** The id core registers the tool under (§3: the default agent's extra tool). */
export const CONVERSATION_HISTORY_TOOL_ID = 'conversation_history';

const inputSchema = z.strictObject({
  query: z
    .string()
    .min(1)
    .max(500)
    .optional()
    .describe('Only messages containing this text (case-insensitive), in message text, tool calls and tool results'),
  fromSequence: z.number().int().min(1).default(1).describe('Number of the first message (the conversation starts at 1)'),
  toSequence: z.number().int().min(1).optional().describe('Number of the last message; default the latest'),
  limit: z
    .number()
    .int()
    .min(1)
    .max(HISTORY_MAX_LIMIT)
    .default(HISTORY_DEFAULT_LIMIT)
    .describe(`How many messages to show, 1–${HISTORY_MAX_LIMIT}`),
});

/** Where the tool reads the session's messages from: the session store, at call time. */
export type ConversationSource = (signal: AbortSignal) => Promise<readonly StoredMessage[]>;

/**
 * Core's `conversation_history` (§3, default agent): a read-only look at the session's stored
 * messages by number range and text query, oldest first. Each message is cut to 2,000 characters
 * when several are listed (ask for one message, `fromSequence` = `toSequence`, to see it whole up
 * to the byte budget), and the listing stops at 24,000 bytes with a footer that says how to go on.
 * Tool results show their text only, never their artifacts (§8.1).
 */
export function conversationHistoryTool(source: ConversationSource) {
  return defineTool<typeof inputSchema, ToolSessionContext, SandboxPolicy>({
    id: CONVERSATION_HISTORY_TOOL_ID,
    description:
      'Look back at earlier messages of this conversation, including ones no longer in your context: user and assistant text, the tool calls made and the text of their results. Results come oldest first, at most 50 messages and about 24 KB per call, and the last line says how to continue. Long messages are cut at 2000 characters; ask for a single message (fromSequence = toSequence) to see it whole.',
    risk: 'read_only',
    inputSchema,
    async execute(input, _session, call) {
      const to = input.toSequence;
      if (to !== undefined && to < input.fromSequence) {
        return new ToolExecutionError('invalid_arguments', `toSequence (${to}) is before fromSequence (${input.fromSequence}); give a range from the lower number to the higher one.`);
      }
      const messages = await source(call.signal);
      const last = messages.at(-1)?.sequence ?? 0;
      if (last === 0) return 'The conversation has no messages yet.';
      const upper = Math.min(to ?? last, last);
      const inRange = messages.filter((message) => message.sequence >= input.fromSequence && message.sequence <= upper);
      if (inRange.length === 0) return `No messages in #${input.fromSequence}–#${to ?? last}: the conversation has messages #1–#${last}.`;
      const query = input.query?.toLowerCase();
      const matching = inRange.map(historyEntry).filter((entry) => query === undefined || searchText(entry).includes(query));
      const range = `#${input.fromSequence}–#${upper}`;
      if (matching.length === 0) return `No message in ${range} contains ${JSON.stringify(input.query)}.`;
      return renderListing(matching, {
        limit: input.limit,
        single: input.fromSequence === to,
        query,
        summary: query === undefined ? `messages in ${range}` : `messages in ${range} containing ${JSON.stringify(input.query)}`,
      });
    },
  });
}

interface ListingOptions {
  readonly limit: number;
  /** One message asked for: show it up to the byte budget instead of 2,000 characters. */
  readonly single: boolean;
  readonly query: string | undefined;
  readonly summary: string;
}

function renderListing(entries: readonly HistoryEntry[], options: ListingOptions): string {
  const encoder = new TextEncoder();
  const parts: string[] = [];
  let bytes = 0;
  for (const entry of entries.slice(0, options.limit)) {
    const budget = HISTORY_RESULT_BYTES - bytes;
    const body = options.single ? entry.body : excerpt(entry.body, options.query, HISTORY_MESSAGE_CHARS);
    let text = `${entry.header}: ${body}`;
    let size = encoder.encode(text).length + 2;
    if (size > budget) {
      if (parts.length > 0) break;
      text = cutToBytes(text, budget - 200);
      size = encoder.encode(text).length + 2;
    }
    parts.push(text);
    bytes += size;
  }
  const shown = parts.length;
  const next = entries[shown];
  const footer =
    next === undefined
      ? `[${shown} of ${entries.length} ${options.summary}]`
      : `[${shown} of ${entries.length} ${options.summary}; continue with fromSequence=${next.sequence}]`;
  return `${parts.join('\n\n')}\n\n${footer}`;
}

/** The text a query is matched against: the whole header and body, lower-cased. */
function searchText(entry: HistoryEntry): string {
  return `${entry.header}\n${entry.body}`.toLowerCase();
}

/** At most `chars` code points of `body`: from the start, or around the first match of `query`. */
function excerpt(body: string, query: string | undefined, chars: number): string {
  const points = Array.from(body);
  if (points.length <= chars) return body;
  let start = 0;
  if (query !== undefined) {
    const at = body.toLowerCase().indexOf(query);
    if (at > 0) start = Math.max(0, Array.from(body.slice(0, at)).length - Math.floor(chars / 4));
  }
  const end = Math.min(points.length, start + chars);
  const omitted = points.length - (end - start);
  return `${start > 0 ? '…' : ''}${points.slice(start, end).join('')}${end < points.length ? '…' : ''}\n[${omitted} characters of this message not shown; ask for this message alone to see more]`;
}

/** `text` cut to at most `bytes` UTF-8 bytes at a character boundary, marked. */
function cutToBytes(text: string, bytes: number): string {
  const encoder = new TextEncoder();
  let kept = '';
  let size = 0;
  for (const point of text) {
    const length = encoder.encode(point).length;
    if (size + length > bytes) break;
    kept += point;
    size += length;
  }
  return `${kept}…\n[cut at ${bytes} bytes]`;
}
