/**
 * One progress update of a running call (§8.3). Progress is a side channel: it never enters the
 * conversation, and losing any of it never changes the call's result.
 */
export type ToolProgress =
  | { readonly kind: 'stdout'; readonly chunk: string }
  | { readonly kind: 'stderr'; readonly chunk: string }
  | { readonly kind: 'message'; readonly message: string };

/**
 * The host's progress consumer (core: a bounded queue of 64, §8.3). It is called synchronously
 * and must not rely on being awaited: a returned promise is not waited for, and a throw or a
 * rejection only drops that update.
 */
export type ToolProgressListener = (progress: ToolProgress) => unknown;
