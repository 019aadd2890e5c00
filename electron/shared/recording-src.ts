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

/** Query that asks the recording protocol for a recording's seekable variant (an MP3 rewrapped in MP4). */
export const SEEKABLE_VARIANT_QUERY = 'variant=mp4';

/**
 * URL of interaction `sid`'s seekable variant under `prefix` (see {@link recordingSrcOf}): the
 * same sound as the recording's URL, in MP4, which Chromium seeks in exactly. Main says when it
 * is ready (recordings/seekable-variants.ts); until then it answers as the recording's URL does.
 */
export function seekableRecordingSrcOf(prefix: string, sid: string): string {
  return `${recordingSrcOf(prefix, sid)}?${SEEKABLE_VARIANT_QUERY}`;
}
