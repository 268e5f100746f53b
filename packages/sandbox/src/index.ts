// Policy (architecture §3): modes, tiers, grants, the fence.
export type {
  LetterCase,
  NetworkAccess,
  PathAccess,
  PathGrant,
  PathScope,
  PathTier,
  SandboxActor,
  SandboxMode,
  SandboxPolicy,
} from './policy/sandbox-policy.js';
export type { SandboxLayout, ScopedPath } from './policy/sandbox-layout.js';
export { SandboxError, SandboxConfigurationError } from './policy/sandbox-error.js';
export {
  credentialRuntimeDefaults,
  defaultCredentialHomeEntries,
  defaultSensitiveHomeEntries,
  defaultSensitiveRootEntries,
  defaultDeviceFiles,
} from './policy/default-protected-paths.js';
export {
  canonicalizePath,
  canonicalizePathSync,
  normalizePathText,
} from './policy/canonicalize-path.js';
export type { CanonicalizePathOptions, PathIntent, PathProblem, PathResolution } from './policy/canonicalize-path.js';
export { createSandboxPolicy } from './policy/create-sandbox-policy.js';
export { findGitRedirections, gitRedirectionNames } from './policy/find-git-redirections.js';
export type { FindGitRedirectionsOptions } from './policy/find-git-redirections.js';
export type { GitScanStatistics } from './policy/git-files.js';
export type { CreateSandboxPolicyOptions, ProtectedPathList } from './policy/create-sandbox-policy.js';
export { deriveSandboxLayout } from './policy/derive-sandbox-layout.js';
export { isInsideScopedPath, isInsideAnyScopedPath } from './policy/is-inside-scoped-path.js';
export { layoutAllows } from './policy/layout-allows.js';
// Tier 3 by kind, at any depth (architecture §3.10): the one table and what a path is.
export {
  gitSensitiveNames,
  hookManagerConfigNames,
  sensitiveNameRules,
  sensitiveRootEntryNames,
  workTreeSensitiveNames,
} from './policy/git-sensitive-names.js';
export type { GitSensitiveName, SensitiveKind, SensitiveNameRule } from './policy/git-sensitive-names.js';
export { sensitiveKindOf } from './policy/sensitive-kind-of.js';
export { defaultSensitiveKindRules } from './policy/sensitive-kinds.js';
export type { SensitiveKindRules } from './policy/sensitive-kinds.js';
export { protectedParents } from './policy/protected-parents.js';
export { detectLetterCase } from './policy/detect-letter-case.js';
export { checkAccess, classifyPath, toolSlot } from './policy/check-access.js';
export { isProcessSecretPath, mayHoldProcessSecrets, processSecretEntries, procfsSecretEntries } from './policy/process-secrets.js';
export type { CheckAccessOptions } from './policy/check-access.js';
export type { AccessDecision, SuggestedGrant } from './policy/access-decision.js';
export { ResolvedPath, resolveCheckedPath, resolveCheckedPathSync } from './policy/resolve-checked-path.js';
export type { CheckedPathResult, ResolveCheckedPathOptions } from './policy/resolve-checked-path.js';
export {
  justificationInputSchema,
  parseSandboxPermissions,
  pathGrantInputSchema,
  sandboxPermissionsInputSchema,
} from './policy/sandbox-permissions.js';
export type {
  SandboxPermissionsInput,
  SandboxPermissionsParse,
  SandboxPermissionsRequest,
} from './policy/sandbox-permissions.js';
export { validateGrants } from './policy/validate-grants.js';
export type { GrantValidation, ValidateGrantsOptions } from './policy/validate-grants.js';
export { withGrants } from './policy/with-grants.js';

// Backends (§3.4): argv wrappers, never spawners.
export type {
  SandboxAvailability,
  SandboxBackend,
  SandboxBackendKind,
  SandboxCommand,
  SandboxReleaseReport,
  WrappedCommand,
} from './backend/sandbox-backend.js';
export { SandboxUnavailableError } from './backend/sandbox-unavailable-error.js';
export type { StagedApplyReport, StagedBase, StagedChange, StagedConflict, StagedEntryType, StagedRefusal, StagedRoot, StagedSkip } from './staging/staged-writes.js';
export { applyStagedWrites, applyStagedWritesInSlices } from './staging/apply-staged-writes.js';
export type { ApplyStagedWritesOptions, StagedWriteJudge } from './staging/apply-staged-writes.js';
export { judgeStagedWrite } from './staging/judge-staged-write.js';
export { formatStagedRefusals, takeStagedBase } from './staging/wrap-staged.js';
export { UnavailableSandboxBackend } from './backend/unavailable-sandbox-backend.js';
export { goBuildCacheEnvironment } from './backend/go-build-cache-environment.js';
export { packageCacheEnvironment, packageCacheVariables, type PackageCacheOptions } from './backend/package-cache-environment.js';
export type { GoBuildCacheOptions } from './backend/go-build-cache-environment.js';

// Seatbelt (macOS).
export { renderSeatbeltProfile, seatbeltArguments } from './seatbelt/seatbelt-profile.js';
export type { SeatbeltProfile, SeatbeltProfileOptions } from './seatbelt/seatbelt-profile.js';
export { SeatbeltEvaluator, SeatbeltProfileError, parseSeatbeltProfile } from './seatbelt/seatbelt-evaluator.js';
export type { SeatbeltExpression, SeatbeltFileOperation, SeatbeltQuery, SeatbeltVnodeType } from './seatbelt/seatbelt-evaluator.js';
export { SeatbeltBackend } from './seatbelt/seatbelt-backend.js';
export type { SeatbeltBackendOptions } from './seatbelt/seatbelt-backend.js';

// bubblewrap backend (Linux) and the platform's backend.
export { BubblewrapBackend } from './bubblewrap/bubblewrap-backend.js';
export type { BubblewrapBackendOptions } from './bubblewrap/bubblewrap-backend.js';
// Landlock scope of bubblewrap commands: abstract UNIX sockets and signals (architecture §3.7).
export { landlockScope } from './landlock/landlock-scope.js';
export { describeStagingPlace } from './staging/staging-area.js';
export type { LandlockScope } from './landlock/landlock-scope.js';
export { selectSandboxBackend } from './backend/select-sandbox-backend.js';
export type { SelectSandboxBackendOptions } from './backend/select-sandbox-backend.js';

// command analysis and denial detection (architecture §3.5, §3.6)
export { analyzeCommand } from './command/analyze-command.js';
export type {
  CommandAnalysis,
  CommandAnalysisContext,
  CommandFinding,
  DangerousCommandRule,
} from './command/command-analysis.js';
export { detectRunnerFailure } from './command/detect-runner-failure.js';
export { vanishedMaskTarget } from './bubblewrap/vanished-mask-target.js';
export type { RunnerFailure } from './command/detect-runner-failure.js';
export { detectSandboxDenial } from './command/detect-sandbox-denial.js';
export type { DeniedPath, SandboxDenial, SandboxDenialQuery } from './command/detect-sandbox-denial.js';
export { formatDenialMarker } from './command/format-denial-marker.js';
export type { DenialMarkerOptions } from './command/format-denial-marker.js';
export type { SandboxedCommandOutcome } from './command/sandboxed-command-outcome.js';
