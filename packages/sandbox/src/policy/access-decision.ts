import type { PathAccess, PathScope, PathTier } from './sandbox-policy.js';

/** The grant that would make a denied call pass: what the retry hint of §3.5 asks for. */
export interface SuggestedGrant {
  readonly path: string;
  readonly access: PathAccess;
  readonly scope: PathScope;
}

/**
 * Answer of `checkAccess` for one canonical path. `tier` is the first matching tier of §3.2 (also
 * on allow, for display). On deny, `message` is the model-facing text of architecture §3.5.
 */
export type AccessDecision =
  | { readonly allowed: true; readonly path: string; readonly access: PathAccess; readonly tier: PathTier }
  | {
      readonly allowed: false;
      readonly path: string;
      readonly access: PathAccess;
      readonly tier: PathTier;
      /** Tiers 2, 3, 5: a grant could allow it (spec §6.2). Tier 1: false. */
      readonly sandboxDenied: boolean;
      readonly message: string;
      /** The grant to ask for; absent for tier 1. */
      readonly suggestedGrant?: SuggestedGrant;
    };
