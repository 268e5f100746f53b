/**
 * Where the fallback cut saves the whole text of an oversized result (§8.2). The file
 * implementation lives in builtins (`~/.openwork/spill/<session-id>/<tool-call-id>.txt`); name
 * files with `sanitizeSpillId`.
 */
export interface SpillSink {
  /**
   * Saves `text` for the call `callId` and resolves to the path the model can read it at. Reject
   * when it could not be saved: the result then says nothing about a path (§8.2).
   */
  save(callId: string, text: string): Promise<string>;
}
