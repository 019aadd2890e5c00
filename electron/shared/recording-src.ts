/**
 * Where the renderer plays a recording from. Main serves every interaction's recording under one
 * prefix (its recording protocol: `vr-recording://local/recording/` in the app), the SID in the
 * last path segment, so the renderer can form a call's recording URL from the SID alone and start
 * fetching it while the interaction is still being looked up.
 */

/** Path under the recording origin before the encoded SID. */
export const RECORDING_PATH_PREFIX = '/recording/';

/**
 * URL of interaction `sid`'s recording under `prefix` (an origin followed by
 * {@link RECORDING_PATH_PREFIX}; see SessionInfo.recordingSrcPrefix). The SID is URI-encoded.
 */
export function recordingSrcOf(prefix: string, sid: string): string {
  return `${prefix}${encodeURIComponent(sid)}`;
}
