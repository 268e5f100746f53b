/**
 * The security and bounding code under mutation testing (`pnpm mutation`, style.md "Tests that
 * bite"), per package: each file with the test files that cover it. Only those test files run
 * for the file, so its score says what its own tests prove, and the whole list stays within
 * about half an hour on two cores. New security and bounding code joins this list as it lands.
 *
 * `equivalent` names survivors that change no observable behaviour, matched by mutator, the
 * original source text and the replacement (not by line, so edits elsewhere do not break the
 * match), each with the reason. They are reported separately and left out of the adjusted score;
 * a survivor not listed here is a gap in the tests.
 *
 * @typedef {{ mutator: string, original: string, replacement: string, reason: string }} EquivalentMutant
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
      'src/policy/check-access.test.ts',
      'src/policy/with-grants.test.ts',
      'src/policy/parity-corpus.test.ts',
      'src/seatbelt/seatbelt-profile.test.ts',
      'src/bubblewrap/render-bubblewrap-arguments.test.ts',
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
      'src/policy/with-grants.test.ts',
      'src/policy/resolve-checked-path.test.ts',
      'src/policy/parity-corpus.test.ts',
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
    tests: ['src/line-splitter.test.ts', 'src/read-lines.test.ts', 'src/node-file-system.test.ts'],
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
    tests: ['src/terminate-process-group.test.ts', 'src/node-process-backend.test.ts'],
  },
  // --- @openwork/tools-contract: the result cut, input parsing, the finalized toolset
  {
    package: 'packages/tools-contract',
    file: 'src/cut-oversized-result.ts',
    tests: ['src/cut-oversized-result.test.ts', 'src/finalized-toolset.test.ts'],
  },
  {
    package: 'packages/tools-contract',
    file: 'src/parse-tool-input.ts',
    tests: ['src/parse-tool-input.test.ts', 'src/finalized-toolset.test.ts'],
  },
  {
    package: 'packages/tools-contract',
    file: 'src/finalized-toolset.ts',
    tests: ['src/finalized-toolset.test.ts', 'src/tool-registry-builder.test.ts', 'src/tool-progress-reporter.test.ts'],
  },
];
