/**
 * The `voice-review://` link reader and writer (electron/shared/deep-link.ts): valid links,
 * hostile ones (other schemes and hosts, traversal, encoded separators, lookalike characters,
 * whitespace, oversize, credentials), the bounds of the time, and workspace names, plus the
 * writer's round trip through the reader.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  formatInteractionLink,
  MAX_LINK_LENGTH,
  MAX_LINK_SECONDS,
  parseInteractionLink,
  type LinkParseResult,
} from '../../electron/shared/deep-link';

const UUID = '1b4e28ba-2fa1-11d2-883f-0016d3cca427';
const SID = `interaction_${UUID}`;
const BASE = `voice-review://interactions/${SID}`;

function refused(text: unknown): string {
  const result = parseInteractionLink(text);
  if (result.ok) throw new Error(`Expected a refusal, got ${JSON.stringify(result.link)}`);
  return result.message;
}

function accepted(text: string) {
  const result: LinkParseResult = parseInteractionLink(text);
  if (!result.ok) throw new Error(`Expected the link to be accepted, got: ${result.message}`);
  return result.link;
}

describe('parseInteractionLink: valid links', () => {
  it('reads the SID alone', () => {
    expect(accepted(BASE)).toEqual({ sid: SID, atSeconds: null, workspaceName: null });
  });

  it('reads the time and the workspace, in either order', () => {
    const link = { sid: SID, atSeconds: 222.5, workspaceName: 'Production EU' };
    expect(accepted(`${BASE}?t=222.5&workspace=Production%20EU`)).toEqual(link);
    expect(accepted(`${BASE}?workspace=Production%20EU&t=222.5`)).toEqual(link);
    expect(accepted(`${BASE}?workspace=Production+EU&t=222.5`)).toEqual(link);
  });

  it('lower-cases the UUID (SIDs are compared as the API writes them)', () => {
    expect(accepted(`voice-review://interactions/interaction_${UUID.toUpperCase()}`).sid).toBe(SID);
  });

  it('decodes a workspace name in another script', () => {
    const name = 'Support — Zürich 東京';
    expect(accepted(`${BASE}?workspace=${encodeURIComponent(name)}`).workspaceName).toBe(name);
  });
});

describe('parseInteractionLink: the time', () => {
  it.each([
    ['0', 0],
    ['30', 30],
    ['007', 7],
    ['1.5', 1.5],
    ['59.999', 59.999],
    [String(MAX_LINK_SECONDS), MAX_LINK_SECONDS],
  ])('accepts t=%s', (t, seconds) => {
    expect(accepted(`${BASE}?t=${t}`).atSeconds).toBe(seconds);
  });

  it.each([
    ['over 24 hours', String(MAX_LINK_SECONDS + 1)],
    ['over 24 hours by a millisecond', `${MAX_LINK_SECONDS}.001`],
    ['negative', '-5'],
    ['with a plus sign', '+5'],
    ['an exponent', '1e3'],
    ['hex', '0x1F'],
    ['NaN', 'NaN'],
    ['Infinity', 'Infinity'],
    ['empty', ''],
    ['a bare point', '.5'],
    ['a trailing point', '5.'],
    ['more than three decimals', '1.0001'],
    ['a duration', '3:42'],
    ['percent-encoded digits', '%33%30'],
  ])('refuses a time that is %s', (_what, t) => {
    expect(refused(`${BASE}?t=${t}`)).toMatch(/time is not a number of seconds between 0 and 86400/);
  });

  it('refuses the time given twice', () => {
    expect(refused(`${BASE}?t=1&t=2`)).toMatch(/gives "t" more than once/);
  });
});

describe('parseInteractionLink: hostile links', () => {
  it.each([
    ['javascript:', 'javascript:alert(1)'],
    ['http', `https://interactions/${SID}`],
    ['file', `file:///etc/passwd`],
    ['a scheme in capitals', `VOICE-REVIEW://interactions/${SID}`],
    ['a lookalike scheme', `voice-reviews://interactions/${SID}`],
    ['no slashes', `voice-review:interactions/${SID}`],
    ['not a string', 42],
    ['empty', ''],
  ])('refuses %s', (_what, text) => {
    expect(refused(text)).toMatch(/not a Voice Review link|spaces or characters/);
  });

  it.each([
    ['another host', `voice-review://phones/${SID}`],
    ['a host with a port', `voice-review://interactions:443/${SID}`],
    ['credentials before the host', `voice-review://user:pass@interactions/${SID}`],
    ['a lookalike host', `voice-review://interactions.evil.example/${SID}`],
  ])('refuses %s', (_what, text) => {
    expect(refused(text)).toMatch(/does not point at an interaction/);
  });

  it.each([
    ['path traversal', `voice-review://interactions/../../${SID}`],
    ['a second segment', `${BASE}/extra`],
    ['a trailing slash', `${BASE}/`],
    ['an encoded slash in the SID', `voice-review://interactions/interaction_%2F${UUID}`],
    ['an encoded SID', `voice-review://interactions/${encodeURIComponent(SID).replace('_', '%5F')}`],
    ['a double-encoded SID', `voice-review://interactions/interaction%255F${UUID}`],
    ['a SID of another kind', `voice-review://interactions/agent_${UUID}`],
    ['a SID prefix in capitals', `voice-review://interactions/INTERACTION_${UUID}`],
    ['a short UUID', `voice-review://interactions/interaction_${UUID.slice(1)}`],
    ['no SID', 'voice-review://interactions/'],
  ])('refuses %s', (_what, text) => {
    expect(refused(text)).toMatch(/does not name a well-formed interaction SID/);
  });

  it.each([
    ['a Cyrillic "а" in the SID', `voice-review://interactions/interаction_${UUID}`],
    ['a fullwidth digit', `voice-review://interactions/interaction_１${UUID.slice(1)}`],
    ['a space inside', `voice-review://interactions/ ${SID}`],
    ['a leading space', ` ${BASE}`],
    ['a trailing newline', `${BASE}\n`],
    ['a tab', `${BASE}?t=1\t`],
    ['a NUL', `${BASE}\u0000`],
    ['a zero-width space', `${BASE}\u200b`],
  ])('refuses %s', (_what, text) => {
    expect(refused(text)).toMatch(/spaces or characters a Voice Review link never has/);
  });

  it('refuses a fragment', () => {
    expect(refused(`${BASE}#t=30`)).toMatch(/"#" part/);
    expect(refused(`${BASE}?t=30#javascript:alert(1)`)).toMatch(/"#" part/);
  });

  it('refuses a link over the length cap, and accepts one just under it', () => {
    const long = `${BASE}?workspace=${'a'.repeat(MAX_LINK_LENGTH)}`;
    expect(refused(long)).toMatch(/too long \(2048 characters at most\)/);
    expect(refused('x'.repeat(1_000_000))).toMatch(/too long/);
  });

  it.each([
    'key',
    'api_key',
    'API_KEY',
    'apiKey',
    'token',
    'access_token',
    'Authorization',
    'password',
    'secret',
    'sig',
    '%6Bey',
  ])('refuses a link carrying "%s", without repeating its value', (name) => {
    const message = refused(`${BASE}?t=3&${name}=sk_live_0123456789abcdef`);
    expect(message).toMatch(/looks like a key or password\. A Voice Review link never carries a key/);
    expect(message).not.toContain('sk_live');
  });

  it('refuses an unknown parameter and names it only when it is a plain word', () => {
    expect(refused(`${BASE}?autoplay=1`)).toMatch(/parameter Voice Review does not know \("autoplay"\)/);
    const odd = refused(`${BASE}?%3Cscript%3E=1`);
    expect(odd).toMatch(/parameter Voice Review does not know\./);
    expect(odd).not.toContain('script');
    expect(refused(`${BASE}?`)).toMatch(/does not know/);
    expect(refused(`${BASE}?t=1&`)).toMatch(/does not know/);
    expect(refused(`${BASE}?t`)).toMatch(/"t" has no value/);
  });

  it('never repeats the link in a refusal', () => {
    const secretish = `voice-review://interactions/interaction_sk_live_9f8e7d6c5b4a?t=1`;
    expect(refused(secretish)).not.toContain('sk_live');
  });
});

describe('parseInteractionLink: workspace names', () => {
  it('accepts a name that no workspace here has (the renderer decides what to do with it)', () => {
    expect(accepted(`${BASE}?workspace=Someone%20else's%20tenant`).workspaceName).toBe("Someone else's tenant");
  });

  it('trims the name', () => {
    expect(accepted(`${BASE}?workspace=%20Production%20`).workspaceName).toBe('Production');
  });

  it.each([
    ['empty', ''],
    ['only spaces', '%20%20'],
    ['over 200 characters', 'a'.repeat(201)],
    ['a control character', 'Prod%0Auction'],
    ['a DEL', 'Prod%7F'],
    ['a right-to-left override', 'Prod%E2%80%AEnoitcu'],
    ['badly encoded', 'Prod%E2%80'],
    ['a lone percent', '100%'],
  ])('refuses a name that is %s', (_what, name) => {
    expect(refused(`${BASE}?workspace=${name}`)).toMatch(
      /workspace name (is empty|is too long|contains control|is not encoded)/,
    );
  });

  it('decodes the name once: a double-encoded name stays encoded (and matches no workspace)', () => {
    expect(accepted(`${BASE}?workspace=Prod%252Fuction`).workspaceName).toBe('Prod%2Fuction');
  });
});

describe('formatInteractionLink', () => {
  it('writes the link a person shares', () => {
    expect(formatInteractionLink(SID, 222.5, 'Production EU')).toBe(`${BASE}?t=222.5&workspace=Production%20EU`);
    expect(formatInteractionLink(SID)).toBe(BASE);
    expect(formatInteractionLink(SID, 0.1 + 0.2)).toBe(`${BASE}?t=0.3`);
    expect(formatInteractionLink(SID, 1e-7)).toBe(`${BASE}?t=0`);
  });

  it('refuses what a link cannot carry', () => {
    expect(() => formatInteractionLink('agent_' + UUID)).toThrow(RangeError);
    expect(() => formatInteractionLink(SID, -1)).toThrow(/between 0 and 86400/);
    expect(() => formatInteractionLink(SID, Number.NaN)).toThrow(RangeError);
    expect(() => formatInteractionLink(SID, MAX_LINK_SECONDS + 1)).toThrow(RangeError);
    expect(() => formatInteractionLink(SID, 1, ' ')).toThrow(/is empty/);
    expect(() => formatInteractionLink(SID, 1, 'a\u202eb')).toThrow(/control characters/);
  });

  it('round-trips any SID, time and name through the reader', () => {
    const names = fc
      .string({ unit: 'grapheme', minLength: 1, maxLength: 200 })
      .filter(
        (n) => n.trim() !== '' && n.trim().length <= 200 && !/[\p{Cc}\u200e\u200f\u202a-\u202e\u2066-\u2069]/u.test(n),
      );
    fc.assert(
      fc.property(
        fc.uuid(),
        fc.option(fc.double({ min: 0, max: MAX_LINK_SECONDS, noNaN: true })),
        fc.option(names),
        (uuid, seconds, name) => {
          const sid = `interaction_${uuid}`;
          const link = formatInteractionLink(sid, seconds, name);
          expect(link.length).toBeLessThanOrEqual(MAX_LINK_LENGTH);
          expect(accepted(link)).toEqual({
            sid: sid.toLowerCase(),
            atSeconds: seconds === null ? null : Number(seconds.toFixed(3)),
            workspaceName: name === null ? null : name.trim(),
          });
        },
      ),
      { numRuns: 300 },
    );
  });
});
