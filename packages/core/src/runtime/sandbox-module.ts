/**
 * Where `@openwork/sandbox` is installed for this core, as a file URL: a host that remembers a
 * sandbox self-check keys it on this file, so that another sandbox release is checked again. The
 * host resolves it through core, the one package it depends on (architecture §1).
 */
export const SANDBOX_MODULE_URL: string = import.meta.resolve('@openwork/sandbox');
