/** SID shapes (electron/shared/sid.ts, spec 2 "Identifier shapes"). */
import { describe, expect, it } from 'vitest';
import { extractInteractionSid, INTERACTION_SID_HINT, isSid } from '$shared/sid';

const UUID = '1b4e28ba-2fa1-11d2-883f-0016d3cca427';
const SID = `interaction_${UUID}`;

describe('extractInteractionSid', () => {
  it.each([
    ['a bare SID', SID],
    ['a SID with spaces around it', `   ${SID}\n`],
    ['a link', `https://console.example.com/calls/${SID}?tab=log`],
    ['a ticket line', `Customer complains about call ${SID}, please check.`],
    ['a SID in quotes', `"sid": "${SID}"`],
  ])('finds the SID in %s', (_what, text) => {
    expect(extractInteractionSid(text)).toBe(SID);
  });

  it('lower-cases an upper-case UUID and prefix', () => {
    expect(extractInteractionSid(`INTERACTION_${UUID.toUpperCase()}`)).toBe(SID);
    expect(extractInteractionSid(`see interaction_${UUID.toUpperCase()}`)).toBe(SID);
  });

  it('returns the first of two SIDs', () => {
    expect(extractInteractionSid(`${SID} and interaction_6fa459ea-ee8a-3ca4-894e-db77e160355e`)).toBe(SID);
  });

  it.each([
    ['empty text', ''],
    ['text without a SID', 'the agent hung up on me'],
    ['a bare UUID', UUID],
    ['another kind of SID', `agent_${UUID}`],
    ['a UUID missing a group', 'interaction_1b4e28ba-2fa1-11d2-0016d3cca427'],
    ['a UUID with a non-hex digit', 'interaction_1b4e28ba-2fa1-11d2-883f-0016d3cca42g'],
    ['a prefix without underscore', `interaction${UUID}`],
  ])('returns null for %s', (_what, text) => {
    expect(extractInteractionSid(text)).toBeNull();
  });

  it('has a hint that shows a SID it accepts', () => {
    expect(INTERACTION_SID_HINT).toContain('interaction_ followed by a UUID');
    const example = /interaction_[0-9a-f-]{36}/.exec(INTERACTION_SID_HINT)?.[0];
    expect(example).toBeDefined();
    expect(extractInteractionSid(INTERACTION_SID_HINT)).toBe(example);
  });
});

describe('isSid', () => {
  it.each([
    ['interaction', SID],
    ['interaction', `interaction_${UUID.toUpperCase()}`],
    ['agent', `agent_${UUID}`],
    ['phone', `phone_${UUID}`],
    ['sip', `sip_${UUID}`],
  ] as const)('accepts a %s SID: %s', (prefix, value) => {
    expect(isSid(prefix, value)).toBe(true);
  });

  it.each([
    ['agent', SID, 'another prefix'],
    ['interaction', ` ${SID}`, 'leading space'],
    ['interaction', `${SID}x`, 'trailing text'],
    ['interaction', `https://x/${SID}`, 'inside a link'],
    ['interaction', UUID, 'no prefix'],
    ['interaction', 'interaction_', 'no UUID'],
  ] as const)('refuses %s / %s (%s)', (prefix, value, _why) => {
    expect(isSid(prefix, value)).toBe(false);
  });
});
