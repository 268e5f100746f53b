/**
 * The security and bounding code under mutation testing (`pnpm mutation`, style.md "Tests that
 * bite"), per package: each file with the test files that cover it. Only those test files run
 * for the file, so its score says what its own tests prove, and the whole list stays within
 * about half an hour on two cores. New security and bounding code joins this list as it lands.
 *
 * `equivalent` names survivors that change no observable behaviour, each with the reason. A
 * mutant is matched by its mutator, the original text, the replacement and the whole source line
 * it sits on (trimmed) — not by line number, so edits elsewhere in the file do not break the
 * match, while a change of that line makes the mutant count again until someone looks. They are
 * reported separately and left out of the adjusted score; a survivor not listed is a gap.
 *
 * @typedef {{ mutator: string, line: string, original: string, replacement: string, reason: string }} EquivalentMutant
 * @typedef {{ package: string, file: string, tests: string[], equivalent?: EquivalentMutant[] }} MutationTarget
 */

/** @type {MutationTarget[]} */
export const mutationTargets = [
  // --- @openwork/sandbox: the fence, the one layout all enforcers render, canonicalisation
  {
    package: 'packages/sandbox',
    file: 'src/policy/derive-sandbox-layout.ts',
    tests: [
      'src/policy/derive-sandbox-layout.test.ts',
      'src/policy/git-redirections.test.ts',
      'src/policy/check-access.test.ts',
      'src/policy/with-grants.test.ts',
      'src/policy/parity-corpus.test.ts',
      'src/seatbelt/seatbelt-profile.test.ts',
    ],
  },
  {
    package: 'packages/sandbox',
    file: 'src/policy/layout-allows.ts',
    tests: [
      'src/policy/derive-sandbox-layout.test.ts',
      'src/policy/check-access.test.ts',
      'src/policy/with-grants.test.ts',
      'src/policy/parity-corpus.test.ts',
    ],
  },
  {
    package: 'packages/sandbox',
    file: 'src/policy/check-access.ts',
    tests: [
      'src/policy/check-access.test.ts',
      'src/policy/check-access-denials.test.ts',
      'src/policy/protected-parents.test.ts',
      'src/policy/with-grants.test.ts',
      'src/policy/resolve-checked-path.test.ts',
      'src/policy/parity-corpus.test.ts',
    ],
    equivalent: [
      {
        mutator: 'ConditionalExpression',
        line: 'if (layout === undefined) {',
        original: 'layout === undefined',
        replacement: 'true',
        reason: 'deriving the layout again for every check gives an equal layout: only the per-policy cache is lost',
      },
      {
        mutator: 'ConditionalExpression',
        line: "case 'writable-root':",
        original: "case 'writable-root':\n      return 'inside a writable root but not writable here';",
        replacement: "case 'writable-root':",
        reason: 'unreachable: a path classified writable-root is inside a writable entry and outside every read-only and unreadable one, so layoutAllows grants both read and write',
      },
      {
        mutator: 'StringLiteral',
        line: "return 'inside a writable root but not writable here';",
        original: "'inside a writable root but not writable here'",
        replacement: '""',
        reason: 'unreachable, as above (kept so the switch over PathTier stays exhaustive)',
      },
      { mutator: "StringLiteral", line: "case 'writable-root':", original: "'writable-root'", replacement: "\"\"", reason: "unreachable, as above: the writable-root label is never looked up for a denial" },
      { mutator: "StringLiteral", line: "export const toolSlot = '{tool}';", original: "'{tool}'", replacement: "\"\"", reason: "not equivalent but out of reach of the runner: a module-level constant is evaluated at import, before the vitest runner activates a mutant; applied by hand, check-access-denials.test.ts \"without a tool name … literal {tool} slot\" fails" },
    ],
  },
  {
    package: 'packages/sandbox',
    file: 'src/policy/canonicalize-path.ts',
    tests: [
      'src/policy/canonicalize-path.test.ts',
      'src/policy/canonicalize-path-problems.test.ts',
      'src/policy/resolve-checked-path.test.ts',
      'src/policy/with-grants.test.ts',
    ],
    equivalent: [
      { mutator: "StringLiteral", line: "return problemFor('error' in answer ? answer.error : 'EIO', textual, input);", original: "'EIO'", replacement: "\"\"", reason: "unreachable fallback: a realpath probe answers either a real path (returned above) or an error" },
      { mutator: "StringLiteral", line: "return problemFor('error' in real ? real.error : 'EIO', candidate, input);", original: "'error'", replacement: "\"\"", reason: "only reached when realpath failed, so the answer is an error either way; realpath failing right after lstat succeeded needs a race or a permission root does not lack" },
      { mutator: "StringLiteral", line: "return problemFor('error' in real ? real.error : 'EIO', candidate, input);", original: "'EIO'", replacement: "\"\"", reason: "unreachable fallback: a realpath probe answers either a real path (returned above) or an error" },
      { mutator: "StringLiteral", line: "return problemFor('ENOENT', '/', input);", original: "'ENOENT'", replacement: "\"\"", reason: "unreachable: the walk ends at depth 0 on \"/\", which always exists" },
      { mutator: "StringLiteral", line: "return problemFor('ENOENT', '/', input);", original: "'/'", replacement: "\"\"", reason: "unreachable: the walk ends at depth 0 on \"/\", which always exists" },
      { mutator: "StringLiteral", line: ": 'EIO';", original: "'EIO'", replacement: "\"\"", reason: "node:fs always rejects with an errno error that has a string code" },
    ],
  },
  // --- @openwork/sandbox: staged writes — the judge of what a command wrote, its staging folders
  {
    package: 'packages/sandbox',
    file: 'src/staging/judge-staged-write.ts',
    tests: ['src/staging/judge-staged-write.test.ts'],
  },
  {
    package: 'packages/sandbox',
    file: 'src/staging/staging-area.ts',
    tests: ['src/staging/staging-area.test.ts'],
  },
  // --- @openwork/fs-backend: atomic writes and the bounded line reader
  {
    package: 'packages/fs-backend',
    file: 'src/write-file-atomically.ts',
    tests: ['src/atomic-write.test.ts', 'src/atomic-write-edges.test.ts', 'src/write-locks.test.ts'],
  },
  {
    package: 'packages/fs-backend',
    file: 'src/line-splitter.ts',
    tests: ['src/line-splitter.test.ts', 'src/line-splitter-chunk-boundaries.test.ts', 'src/read-lines.test.ts', 'src/node-file-system.test.ts'],
    equivalent: [
      {
        mutator: 'ConditionalExpression',
        line: 'if (this.#text === undefined) {',
        original: 'this.#text === undefined',
        replacement: 'true',
        reason: 'decoding again on every access yields the same string: only the cache is lost',
      },
      {
        mutator: 'BooleanLiteral',
        line: '#delivering = false;',
        original: 'false',
        replacement: 'true',
        reason: 'field initialiser: the constructor always assigns #delivering',
      },
      {
        mutator: 'BooleanLiteral',
        line: '#stopped = false;',
        original: 'false',
        replacement: 'true',
        reason: 'field initialiser: the constructor always assigns #stopped',
      },
      {
        mutator: 'UnaryOperator',
        line: '#lineLastByte = -1;',
        original: '-1',
        replacement: '+1',
        reason: '#lineLastByte is read only when #rawLength > 0, i.e. after #append has set it',
      },
      {
        mutator: 'UnaryOperator',
        line: 'this.#lineLastByte = -1;',
        original: '-1',
        replacement: '+1',
        reason: 'reset after a line: read only when #rawLength > 0, i.e. after #append has set it again',
      },
      {
        mutator: 'ConditionalExpression',
        line: 'this.#delivering = !this.#stopped && options.firstLine <= 1;',
        original: '!this.#stopped && options.firstLine <= 1',
        replacement: 'false',
        reason: 'for firstLine 1 the skip branch of the first push skips nothing and turns delivering on before any byte is taken',
      },
      {
        mutator: 'EqualityOperator',
        line: 'this.#delivering = !this.#stopped && options.firstLine <= 1;',
        original: 'options.firstLine <= 1',
        replacement: 'options.firstLine < 1',
        reason: 'same as above: firstLine 1 starts delivering at the first push either way (firstLine is validated >= 1)',
      },
      {
        mutator: 'ArithmeticOperator',
        line: 'const room = this.#maxLineBytes - this.#keptLength;',
        original: 'this.#maxLineBytes - this.#keptLength',
        replacement: 'this.#maxLineBytes + this.#keptLength',
        reason: 'Buffer#copy never writes past the fixed #kept buffer and the emitted bytes are clamped to it: same kept bytes, same memory',
      },
      {
        mutator: 'ConditionalExpression',
        line: 'if (room > 0) {',
        original: 'room > 0',
        replacement: 'true',
        reason: 'room is never negative; with room 0 the copy copies nothing',
      },
      {
        mutator: 'EqualityOperator',
        line: 'if (room > 0) {',
        original: 'room > 0',
        replacement: 'room >= 0',
        reason: 'room is never negative; with room 0 the copy copies nothing',
      },
      {
        mutator: 'ConditionalExpression',
        line: 'const crlf = terminated && this.#rawLength > 0 && this.#lineLastByte === carriageReturn;',
        original: 'this.#rawLength > 0',
        replacement: 'true',
        reason: 'with #rawLength 0 no byte was appended since the reset, so #lineLastByte is -1, never \\r',
      },
      {
        mutator: 'EqualityOperator',
        line: 'const crlf = terminated && this.#rawLength > 0 && this.#lineLastByte === carriageReturn;',
        original: 'this.#rawLength > 0',
        replacement: 'this.#rawLength >= 0',
        reason: 'with #rawLength 0 no byte was appended since the reset, so #lineLastByte is -1, never \\r',
      },
    ],
  },
  // --- @openwork/process-backend: bounded output and the one terminate path
  {
    package: 'packages/process-backend',
    file: 'src/bounded-capture.ts',
    tests: ['src/bounded-capture.test.ts', 'src/bounded-capture-edges.test.ts', 'src/node-process-backend.test.ts'],
  },
  {
    package: 'packages/process-backend',
    file: 'src/terminate-process-group.ts',
    tests: ['src/terminate-process-group.test.ts', 'src/terminate-process-group-edges.test.ts', 'src/node-process-backend.test.ts'],
  },
  // --- @openwork/tools-contract: the result cut, input parsing, the finalized toolset
  {
    package: 'packages/tools-contract',
    file: 'src/cut-oversized-result.ts',
    tests: ['src/cut-oversized-result.test.ts', 'src/cut-oversized-result-edges.test.ts', 'src/finalized-toolset.test.ts'],
    equivalent: [
      { mutator: "ObjectLiteral", line: "const DEFAULT_LIMITS: ResultLimits = {", original: "{\n  maxResultBytes: MAX_RESULT_BYTES,\n  footerReserveBytes: FOOTER_RESERVE_BYTES,\n  maxSpillBytes: MAX_SPILL_BYTES,\n}", replacement: "{}", reason: "not equivalent but out of reach of the runner: a module-level constant is evaluated at import, before the vitest runner activates a mutant; applied by hand, every test of a short result fails (all limits undefined)" },
      { mutator: 'ConditionalExpression', line: 'if (text.length * 3 <= limits.maxResultBytes) return result;', original: 'text.length * 3 <= limits.maxResultBytes', replacement: 'false', reason: 'a shortcut only: without it the exact byte count below decides the same' },
      { mutator: 'EqualityOperator', line: 'if (text.length * 3 <= limits.maxResultBytes) return result;', original: 'text.length * 3 <= limits.maxResultBytes', replacement: 'text.length * 3 < limits.maxResultBytes', reason: 'a shortcut only: without it the exact byte count below decides the same' },
      { mutator: 'ConditionalExpression', line: 'const savedLength = bytes.length > limits.maxSpillBytes ? characterBoundary(bytes, limits.maxSpillBytes) : bytes.length;', original: 'bytes.length > limits.maxSpillBytes', replacement: 'true', reason: 'characterBoundary(bytes, limit) is bytes.length whenever limit >= bytes.length' },
      { mutator: 'EqualityOperator', line: 'const savedLength = bytes.length > limits.maxSpillBytes ? characterBoundary(bytes, limits.maxSpillBytes) : bytes.length;', original: 'bytes.length > limits.maxSpillBytes', replacement: 'bytes.length >= limits.maxSpillBytes', reason: 'characterBoundary(bytes, limit) is bytes.length whenever limit >= bytes.length' },
      { mutator: 'ConditionalExpression', line: 'const path = sink === undefined ? undefined : await save(sink, callId, partial ? decode(bytes, savedLength) : text);', original: 'sink === undefined', replacement: 'false', reason: 'save() catches the TypeError of calling an absent sink and answers undefined, the same as no sink' },
      { mutator: 'ConditionalExpression', line: "return typeof path === 'string' && path.trim() !== '' ? path : undefined;", original: "typeof path === 'string'", replacement: 'true', reason: 'a non-string answer then throws at .trim(), which the catch turns into undefined, the same answer' },
      { mutator: 'BlockStatement', line: '} catch {', original: '{\n    // §8.2: a failed spill still returns the result, without a path to a file that does not exist.\n    return undefined;\n  }', replacement: '{}', reason: 'an empty catch falls through to the end of the function, which also returns undefined' },
      { mutator: 'ConditionalExpression', line: 'while (length > 0 && length < bytes.length && (bytes[length]! & 0xc0) === 0x80) length--;', original: 'length > 0 && length < bytes.length', replacement: 'true', reason: 'TextEncoder output never starts with a continuation byte, and bytes[bytes.length] is undefined (& 0xc0 gives 0), so the loop stops at the same length without these guards' },
      { mutator: 'LogicalOperator', line: 'while (length > 0 && length < bytes.length && (bytes[length]! & 0xc0) === 0x80) length--;', original: 'length > 0 && length < bytes.length', replacement: 'length > 0 || length < bytes.length', reason: 'TextEncoder output never starts with a continuation byte, and bytes[bytes.length] is undefined (& 0xc0 gives 0), so the loop stops at the same length without these guards' },
      { mutator: 'ConditionalExpression', line: 'while (length > 0 && length < bytes.length && (bytes[length]! & 0xc0) === 0x80) length--;', original: 'length > 0', replacement: 'true', reason: 'TextEncoder output never starts with a continuation byte, and bytes[bytes.length] is undefined (& 0xc0 gives 0), so the loop stops at the same length without these guards' },
      { mutator: 'EqualityOperator', line: 'while (length > 0 && length < bytes.length && (bytes[length]! & 0xc0) === 0x80) length--;', original: 'length > 0', replacement: 'length >= 0', reason: 'TextEncoder output never starts with a continuation byte, and bytes[bytes.length] is undefined (& 0xc0 gives 0), so the loop stops at the same length without these guards' },
      { mutator: 'ConditionalExpression', line: 'while (length > 0 && length < bytes.length && (bytes[length]! & 0xc0) === 0x80) length--;', original: 'length < bytes.length', replacement: 'true', reason: 'TextEncoder output never starts with a continuation byte, and bytes[bytes.length] is undefined (& 0xc0 gives 0), so the loop stops at the same length without these guards' },
      { mutator: 'EqualityOperator', line: 'while (length > 0 && length < bytes.length && (bytes[length]! & 0xc0) === 0x80) length--;', original: 'length < bytes.length', replacement: 'length <= bytes.length', reason: 'TextEncoder output never starts with a continuation byte, and bytes[bytes.length] is undefined (& 0xc0 gives 0), so the loop stops at the same length without these guards' },
    ],
  },
  {
    package: 'packages/tools-contract',
    file: 'src/parse-tool-input.ts',
    tests: ['src/parse-tool-input.test.ts', 'src/parse-tool-input-edges.test.ts', 'src/finalized-toolset.test.ts'],
    equivalent: [
      { mutator: "ConditionalExpression", line: "else if (typeof segment === 'string' && segment.length <= LONGEST_QUOTED_NAME && /^[A-Za-z_$][\\w$]*$/.test(segment)) {", original: "typeof segment === 'string'", replacement: "true", reason: "numbers are handled before; a symbol segment has no length, so the next test fails and it is quoted either way" },
      { mutator: "BooleanLiteral", line: "let parentIsObject = false;", original: "false", replacement: "true", reason: "only read for a non-empty path, where the loop has assigned it; for an empty path `present` stays true and the flag does not matter" },
      { mutator: "BooleanLiteral", line: "let present = true;", original: "true", replacement: "false", reason: "only read for a non-empty path, where the loop has assigned it; for the empty path parentIsObject is false and the flag does not matter" },
      { mutator: "ConditionalExpression", line: "parentIsObject = typeof current === 'object' && current !== null && !Array.isArray(current);", original: "typeof current === 'object' && current !== null", replacement: "true", reason: "zod reports a type issue at a value, never below a primitive or null, so a parent on an issue path is always an object or an array" },
      { mutator: "LogicalOperator", line: "parentIsObject = typeof current === 'object' && current !== null && !Array.isArray(current);", original: "typeof current === 'object' && current !== null", replacement: "typeof current === 'object' || current !== null", reason: "zod reports a type issue at a value, never below a primitive or null, so a parent on an issue path is always an object or an array" },
      { mutator: "ConditionalExpression", line: "parentIsObject = typeof current === 'object' && current !== null && !Array.isArray(current);", original: "typeof current === 'object'", replacement: "true", reason: "zod reports a type issue at a value, never below a primitive or null, so a parent on an issue path is always an object or an array" },
      { mutator: "ConditionalExpression", line: "parentIsObject = typeof current === 'object' && current !== null && !Array.isArray(current);", original: "current !== null", replacement: "true", reason: "zod reports a type issue at a value, never below a primitive or null, so a parent on an issue path is always an object or an array" },
      { mutator: "ConditionalExpression", line: "if (typeof current !== 'object' || current === null || !Object.hasOwn(current, segment)) {", original: "typeof current !== 'object' || current === null", replacement: "false", reason: "zod reports a type issue at a value, never below a primitive or null, so a parent on an issue path is always an object or an array" },
      { mutator: "LogicalOperator", line: "if (typeof current !== 'object' || current === null || !Object.hasOwn(current, segment)) {", original: "typeof current !== 'object' || current === null", replacement: "typeof current !== 'object' && current === null", reason: "zod reports a type issue at a value, never below a primitive or null, so a parent on an issue path is always an object or an array" },
      { mutator: "ConditionalExpression", line: "if (typeof current !== 'object' || current === null || !Object.hasOwn(current, segment)) {", original: "typeof current !== 'object'", replacement: "false", reason: "zod reports a type issue at a value, never below a primitive or null, so a parent on an issue path is always an object or an array" },
      { mutator: "ConditionalExpression", line: "if (typeof current !== 'object' || current === null || !Object.hasOwn(current, segment)) {", original: "current === null", replacement: "false", reason: "zod reports a type issue at a value, never below a primitive or null, so a parent on an issue path is always an object or an array" },
    ],
  },
  {
    package: 'packages/tools-contract',
    file: 'src/finalized-toolset.ts',
    tests: ['src/finalized-toolset.test.ts', 'src/finalized-toolset-guards.test.ts', 'src/tool-registry-builder.test.ts', 'src/tool-progress-reporter.test.ts'],
  },
  // --- @openwork/core: what runs without asking, what asks, what is denied; the bounded progress queue
  {
    package: 'packages/core',
    file: 'src/call/prepare-tool-call.ts',
    tests: ['src/call/prepare-tool-call.test.ts'],
    equivalent: [
      { mutator: 'ConditionalExpression', line: "const card = approvalCard(call, escalation.kind === 'present' ? escalation.value : undefined, danger.kind === 'present' ? danger.value : undefined);", original: "escalation.kind === 'present'", replacement: 'true', reason: 'an absent reading has no value, so both sides give undefined (a malformed one returned above)' },
      { mutator: 'ConditionalExpression', line: "const card = approvalCard(call, escalation.kind === 'present' ? escalation.value : undefined, danger.kind === 'present' ? danger.value : undefined);", original: "danger.kind === 'present'", replacement: 'true', reason: 'an absent reading has no value, so both sides give undefined (readDanger never answers malformed)' },
    ],
  },
  {
    package: 'packages/core',
    file: 'src/call/read-call-facts.ts',
    tests: ['src/call/prepare-tool-call.test.ts'],
  },
  {
    package: 'packages/core',
    file: 'src/call/ask-approver.ts',
    tests: ['src/call/prepare-tool-call.test.ts'],
  },
  {
    package: 'packages/core',
    file: 'src/updates/delivery-queue.ts',
    tests: ['src/updates/delivery-queue.test.ts'],
    equivalent: [
      { mutator: 'BlockStatement', line: '} catch {', original: '{\n        continue;\n      }', replacement: '{}', reason: 'after a throw `returned` is still undefined, which is no thenable, so the loop goes on to the next item either way' },
    ],
  },
];
