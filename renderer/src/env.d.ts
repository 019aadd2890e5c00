/// <reference types="svelte" />
/// <reference types="vite/client" />
import type { RawApi } from '$shared/bridge';

declare global {
  interface Window {
    /** The bridge exposed by the preload (or the end-to-end stand-in). Wrap it with lib/api.ts. */
    api: RawApi;
  }
}
