/**
 * What the Calls view's review tests share: a call with one slow reply, and the stand-ins
 * for media and layout installed around each test (wavesurfer.js itself is mocked in each test
 * file, since vi.mock is hoisted per file).
 */
import { screen } from '@testing-library/svelte';
import { afterEach, beforeEach, vi } from 'vitest';
import { interaction, logEntry } from '../fake-api';
import { installFakeLayout, installFakeMedia } from '../fake-media';

/**
 * Brings the call's side panel tab `label` (Details, Timing, Routing, Variables) forward, as a
 * click on it does, once the call's view shows the tabs.
 */
export async function showSideTab(label: string): Promise<void> {
  (await screen.findByRole('tab', { name: label })).click();
}

export const SID = 'interaction_1b4e28ba-2fa1-11d2-883f-0016d3cca427';
export const OTHER_SID = 'interaction_6fa459ea-ee8a-3ca4-894e-db77e160355e';

/**
 * A call whose second agent reply comes 3.6 s after the caller's one-word "Hi." ends (from the
 * log's times, the caller taken to speak 2.5 words a second), so it is flagged as slow; the other
 * replies are quick. 120 s long, with a recording.
 */
export const slowReplyCall = interaction({
  sid: SID,
  direction: 'inbound',
  durationSeconds: 120,
  recording: { available: true, src: `vr-recording://ws-demo/${SID}` },
  log: (
    [
      ['agent', 'Hello, Sample Clinic.', 1],
      ['user', 'Hi.', 5],
      ['agent', 'How can I help?', 9],
      ['user', 'Cancel my appointment please.', 12],
      ['agent', 'Done.', 14],
      ['agent', 'Anything else?', 60],
    ] as const
  ).map(([role, message, at], index) => logEntry(index, role, message, at)),
});

/**
 * Installs the fake media element behaviour and layout before each test of the file, and
 * restores every mock after it.
 * @returns the current test's play/pause/load spies
 */
export function useFakePlayer(): () => ReturnType<typeof installFakeMedia> {
  let media: ReturnType<typeof installFakeMedia> | null = null;
  beforeEach(() => {
    media = installFakeMedia();
    installFakeLayout();
  });
  afterEach(() => {
    localStorage.clear();
    vi.restoreAllMocks();
  });
  return () => {
    if (!media) throw new Error('useFakePlayer: no test is running');
    return media;
  };
}
