/**
 * Main's side of `voice-review://` links (electron/main/shell/deep-links.ts): which command-line
 * argument is a link, how the scheme is registered in a packaged app and in development, and the
 * router that reads each link, logs it without its text, and pushes it to the window or keeps the
 * latest one until the window's page listens.
 */
import { resolve } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { createLinkRouter, findLinkArgument, registerLinkScheme } from '../../../electron/main/shell/deep-links';
import { PUSH_CHANNELS, type OpenLinkPush } from '../../../electron/shared/contract';

const SID = 'interaction_1b4e28ba-2fa1-11d2-883f-0016d3cca427';
const LINK = `voice-review://interactions/${SID}?t=30&workspace=Production`;

describe('findLinkArgument', () => {
  it('finds the link among Windows and Linux start arguments', () => {
    expect(findLinkArgument(['C:\\Voice Review\\Voice Review.exe', LINK])).toBe(LINK);
    expect(findLinkArgument(['/usr/bin/electron', '.', '--no-sandbox', LINK])).toBe(LINK);
  });

  it('never takes another argument for a link', () => {
    expect(findLinkArgument(['/opt/voice-review', '--inspect=9229', '/tmp/voice-review.txt', 'https://x/'])).toBeNull();
    expect(findLinkArgument(['/opt/voice-review'])).toBeNull();
    expect(findLinkArgument([])).toBeNull();
    // The executable itself is never a link, whatever its name.
    expect(findLinkArgument(['voice-review://interactions/x'])).toBeNull();
  });

  it('hands over a malformed voice-review argument too (the parser refuses it with words)', () => {
    expect(findLinkArgument(['app', 'voice-review:garbage'])).toBe('voice-review:garbage');
  });
});

describe('registerLinkScheme', () => {
  it('registers the scheme alone in a packaged app', () => {
    const app = { setAsDefaultProtocolClient: vi.fn(() => true) };
    expect(registerLinkScheme(app, { execPath: '/opt/Voice Review/voice-review', argv: ['/opt/x'] })).toBe(true);
    expect(app.setAsDefaultProtocolClient).toHaveBeenCalledWith('voice-review');
  });

  it('registers Electron and the app path in development (electron .)', () => {
    const app = { setAsDefaultProtocolClient: vi.fn(() => false) };
    const dev = { defaultApp: true, execPath: '/repo/node_modules/electron/dist/electron', argv: ['electron', '.'] };
    expect(registerLinkScheme(app, dev)).toBe(false);
    expect(app.setAsDefaultProtocolClient).toHaveBeenCalledWith('voice-review', dev.execPath, [resolve('.')]);
  });
});

function setUp() {
  const log = { info: vi.fn(), warn: vi.fn() };
  const wantWindow = vi.fn();
  const router = createLinkRouter({ log, wantWindow });
  const sent: Array<[string, OpenLinkPush]> = [];
  const target = { send: (channel: string, push: OpenLinkPush) => sent.push([channel, push]), reveal: vi.fn() };
  const logged = () => [...log.info.mock.calls, ...log.warn.mock.calls].flat().join('\n');
  return { router, sent, target, log, logged, wantWindow };
}

describe('createLinkRouter', () => {
  it('pushes a link read by the parser to the window, and brings the window to the front', () => {
    const { router, sent, target, logged } = setUp();
    router.attach(target);
    router.receive(LINK, 'second-instance');
    const expected: OpenLinkPush = { ok: true, link: { sid: SID, atSeconds: 30, workspaceName: 'Production' } };
    expect(sent).toEqual([[PUSH_CHANNELS.openLink, expected]]);
    expect(target.reveal).toHaveBeenCalledTimes(1);
    expect(logged()).toContain(`Opening a voice-review link (second-instance): ${SID} at 30 s.`);
  });

  it('pushes a refusal in words and logs it without the link or anything key-like', () => {
    const { router, sent, target, log, logged } = setUp();
    router.attach(target);
    router.receive(`voice-review://interactions/${SID}?api_key=sk_live_abcdef0123456789`, 'open-url');
    expect(sent).toHaveLength(1);
    const [, push] = sent[0]!;
    expect(push.ok).toBe(false);
    expect(!push.ok && push.message).toMatch(/never carries a key/);
    expect(log.warn).toHaveBeenCalledTimes(1);
    expect(logged()).toMatch(/Refused a voice-review link \(open-url\)/);
    expect(logged()).not.toContain('sk_live');
    expect(logged()).not.toContain('voice-review://');
  });

  it('keeps the latest link until the page listens, then delivers it once', () => {
    const { router, sent, target, wantWindow } = setUp();
    router.receive(`voice-review://interactions/${SID}?t=1`, 'command line');
    router.receive(LINK, 'open-url');
    expect(sent).toEqual([]);
    expect(wantWindow).toHaveBeenCalledTimes(2);
    router.attach(target);
    expect(sent.map(([, push]) => push.ok && push.link.atSeconds)).toEqual([30]);
    router.attach(target);
    expect(sent).toHaveLength(1);
  });

  it('keeps links again once the window is gone', () => {
    const { router, sent, target } = setUp();
    router.attach(target);
    router.detach();
    router.receive(LINK, 'open-url');
    expect(sent).toEqual([]);
    router.attach(target);
    expect(sent).toHaveLength(1);
  });
});
