/** Display formatting (renderer/src/lib/format.ts). */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatClock, formatDuration, formatE164, humanize } from '../../renderer/src/lib/format';

describe('formatClock (media time as m:ss or h:mm:ss)', () => {
  it.each([
    [0, '0:00'],
    [0.99, '0:00'],
    [5.9, '0:05'],
    [65, '1:05'],
    [599, '9:59'],
    [3599.9, '59:59'],
    [3600, '1:00:00'],
    [3725, '1:02:05'],
    [36_000 + 61, '10:01:01'],
  ])('%s s -> %s', (seconds, shown) => {
    expect(formatClock(seconds)).toBe(shown);
  });

  it.each([[-1], [Number.NaN], [Number.POSITIVE_INFINITY], [null], [undefined]])('%s -> 0:00', (seconds) => {
    expect(formatClock(seconds)).toBe('0:00');
  });
});

describe('formatDuration (length in words)', () => {
  it.each([
    [0, '0 s'],
    [45, '45 s'],
    [45.4, '45 s'],
    [59.6, '1 min 00 s'],
    [134, '2 min 14 s'],
    [3599.6, '1 h 00 min'],
    [3780, '1 h 03 min'],
    [7322, '2 h 02 min'],
  ])('%s s -> %s', (seconds, shown) => {
    expect(formatDuration(seconds)).toBe(shown);
  });

  it.each([[-5], [Number.NaN], [null], [undefined]])('%s -> —', (seconds) => {
    expect(formatDuration(seconds)).toBe('—');
  });
});

describe('formatE164 (grouped for reading)', () => {
  it('groups a North American number as +1 NPA NXX XXXX', () => {
    expect(formatE164('+14155550123')).toBe('+1 415 555 0123');
  });

  it('groups other numbers after a two-digit country code', () => {
    expect(formatE164('+442079460958')).toBe('+44 2079 460 958');
  });

  it.each([['4155550123'], ['+1415'], ['+1 415 555 0123'], ['sip:agent@example.com']])(
    'leaves %s unchanged',
    (value) => {
      expect(formatE164(value)).toBe(value);
    },
  );

  it.each([[null], [undefined], ['']])('shows %s as —', (value) => {
    expect(formatE164(value)).toBe('—');
  });

  it('only adds spaces: removing them gives back the number', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^\+[1-9]\d{7,14}$/), (number) => {
        expect(formatE164(number).replaceAll(' ', '')).toBe(number);
      }),
    );
  });
});

describe('humanize (open-set enum values as words)', () => {
  it.each([
    ['in_progress', 'In progress'],
    ['phone_call', 'Phone call'],
    ['inbound', 'Inbound'],
    ['web-chat', 'Web chat'],
    ['tool__result', 'Tool result'],
    ['Already Nice', 'Already Nice'],
  ])('%s -> %s', (value, shown) => {
    expect(humanize(value)).toBe(shown);
  });

  it.each([[null], [undefined], ['']])('shows %s as —', (value) => {
    expect(humanize(value)).toBe('—');
  });
});
