/**
 * The renderer's only way to main: `window.api` wrapped so failures reject with ApiError.
 * Views use this through svelte-query (lib/queries.ts), never directly.
 */
import { createTypedApi } from '$shared/bridge';
import type { VoiceReviewApi } from '$shared/contract';

let cached: VoiceReviewApi | null = null;

/** The typed API over `window.api` (created on first use so tests can install a stand-in first). */
export function api(): VoiceReviewApi {
  cached ??= createTypedApi(window.api);
  return cached;
}

/** Forgets the wrapper (tests that install a new `window.api`). */
export function resetApi(): void {
  cached = null;
}
