import { describe, expect, it } from 'vitest';
import {
  DEFAULT_REDACTION_SETTINGS,
  luhnValid,
  redact,
  redactionSettingsSchema,
  type RedactionRule,
} from '$shared/redaction';
import { spokenYear } from '$shared/spoken-numbers';

const YEAR = { referenceYear: 2026 };
const masked = (text: string) => redact(text, DEFAULT_REDACTION_SETTINGS, YEAR).text;
const rules = (text: string) => redact(text, DEFAULT_REDACTION_SETTINGS, YEAR).spans.map((s) => s.rule);

describe('redaction: what is masked', () => {
  it.each<[string, string, RedactionRule]>([
    // Cards: 13–19 digits passing the Luhn check, with or without spaces and dashes.
    ['My card is 4111 1111 1111 1111.', 'My card is [card number].', 'card'],
    ['card 4111-1111-1111-1111 expires', 'card [card number] expires', 'card'],
    ['number 5500000000000004 ok', 'number [card number] ok', 'card'],
    ['amex 3782 822463 10005', 'amex [card number]', 'card'],
    // Account-like runs, and a card-shaped run failing Luhn.
    ['card 4111 1111 1111 1112', 'card [account number]', 'account'],
    ['account number 12345678', 'account number [account number]', 'account'],
    ['sort code 12-34-56 please', 'sort code [account number] please', 'account'],
    ['IBAN GB29 NWBK 6016 1331 9268 19 thanks', 'IBAN [account number] thanks', 'account'],
    // Phone numbers: E.164 and national formats.
    ['call +14155550123 now', 'call [phone number] now', 'phone'],
    ['on +44 20 7946 0018.', 'on [phone number].', 'phone'],
    ['+44 (0)20 7946 0018', '[phone number]', 'phone'],
    ['at (415) 555-0123 today', 'at [phone number] today', 'phone'],
    ['it is 415-555-0123', 'it is [phone number]', 'phone'],
    ['415.555.0123', '[phone number]', 'phone'],
    ['dial 555-0123', 'dial [phone number]', 'phone'],
    ['mobile 07700 900123', 'mobile [phone number]', 'phone'],
    ['office 020 7946 0018', 'office [phone number]', 'phone'],
    ['my phone number is 4155550123', 'my phone number is [phone number]', 'phone'],
    // E-mail addresses, written and spoken.
    ['mail jane.doe+vip@example.co.uk today', 'mail [e-mail] today', 'email'],
    ['it is jane dot doe at example dot com', 'it is [e-mail]', 'email'],
    // Dates of birth: a birth word before it, or a year at least ten years back.
    ['I was born on 4 July 1982', 'I was born on [date of birth]', 'dateOfBirth'],
    ['date of birth is the fourth of July nineteen eighty two', 'date of birth is [date of birth]', 'dateOfBirth'],
    ['DOB 04/07/82', 'DOB [date of birth]', 'dateOfBirth'],
    ['date of birth: 1982-07-04.', 'date of birth: [date of birth].', 'dateOfBirth'],
    ['born March 3rd', 'born [date of birth]', 'dateOfBirth'],
    ['birthday is July the twenty first', 'birthday is [date of birth]', 'dateOfBirth'],
    ['it is 12/03/1975 I think', 'it is [date of birth] I think', 'dateOfBirth'],
    ['March 3rd, 1975', '[date of birth]', 'dateOfBirth'],
    ['born two thousand and five, May 1st', 'born two thousand and five, [date of birth]', 'dateOfBirth'],
    // Digits spoken as words.
    ['it is four four seven nine one two thanks', 'it is [number] thanks', 'spokenDigits'],
    ['four four seven, nine one two, three three zero', '[number]', 'spokenDigits'],
    ['double three four five', '[number]', 'spokenDigits'],
    ['ends in triple seven two', 'ends in [number]', 'spokenDigits'],
    ['five oh five, one two three four', '[number]', 'spokenDigits'],
    ['oh seven seven double oh nine one two three', '[number]', 'spokenDigits'],
    ['number 4 4 seven 9 1 2 right', 'number [number] right', 'spokenDigits'],
    ['Four-four-seven-nine', '[number]', 'spokenDigits'],
    ['five five five, oh one twenty three.', '[number].', 'spokenDigits'],
    ['447 nine one two', '[number]', 'spokenDigits'],
    ['call me on oh two oh seven nine four six oh oh one eight', 'call me on [number]', 'spokenDigits'],
  ])('%j -> %j (%s)', (text, expected, rule) => {
    expect(masked(text)).toBe(expected);
    expect(rules(text)).toEqual([rule]);
  });
});

describe('redaction: what is left alone', () => {
  it.each([
    'Call me back at 10:45.',
    'see you at 3 30 tomorrow',
    'at three thirty on Friday',
    'ten forty five works',
    'it costs $49.99 a month',
    'it was forty nine ninety nine dollars',
    'four nine nine nine dollars',
    'a refund of £1,234,567.89',
    'I need two tickets',
    'one or two people',
    'one two three go',
    'back in 2019 we moved',
    'in 2019 two people came',
    'from 2019 to 2021',
    'about a thousand calls a day',
    'two million dollars',
    'hundreds of customers, thousands of calls',
    'order 12345',
    'room 101, floor 3',
    'version 1.2.3',
    'meeting on 4 March 2024',
    'the 3rd of May',
    'may I have your name',
    'It is 20 past 3',
    'three o clock',
    'a 30 day trial for 2 users',
  ])('%j', (text) => {
    expect(masked(text)).toBe(text);
  });
});

describe('redaction: spans, settings and a whole message', () => {
  it('gives offsets in the original and in the masked text', () => {
    const text = 'Card 4111 1111 1111 1111, phone (415) 555-0123.';
    const result = redact(text, DEFAULT_REDACTION_SETTINGS, YEAR);
    expect(result.text).toBe('Card [card number], phone [phone number].');
    for (const span of result.spans) {
      expect(result.text.slice(span.maskedStart, span.maskedEnd)).toMatch(/^\[.+\]$/);
    }
    expect(result.spans.map((s) => text.slice(s.start, s.end))).toEqual(['4111 1111 1111 1111', '(415) 555-0123']);
    expect(Object.keys(result.spans[0]!).sort()).toEqual(['end', 'maskedEnd', 'maskedStart', 'rule', 'start']);
  });

  it('masks everything in a caller turn as spoken', () => {
    const text =
      "Sure, it's four four seven nine, one two three four, five six seven eight, nine zero one two, " +
      'and my date of birth is the fourth of July nineteen eighty two. Email me at jane dot doe at example dot com.';
    expect(masked(text)).toBe("Sure, it's [number], and my date of birth is [date of birth]. Email me at [e-mail].");
  });

  it('switches each rule off on its own, leaving that kind of data as it is', () => {
    const text =
      'card 4111 1111 1111 1111, call 415-555-0123, acct 12345678, mail a@b.io, born 1/2/1980, four four seven nine';
    const without = (rule: RedactionRule) => redact(text, { ...DEFAULT_REDACTION_SETTINGS, [rule]: false }, YEAR);
    expect(without('card').text).toContain('4111 1111 1111 1111');
    expect(without('phone').text).toContain('415-555-0123');
    expect(without('account').text).toContain('12345678');
    expect(without('email').text).toContain('a@b.io');
    expect(without('dateOfBirth').text).toContain('1/2/1980');
    expect(without('spokenDigits').text).toContain('four four seven nine');
    for (const rule of ['card', 'phone', 'account', 'email', 'dateOfBirth', 'spokenDigits'] as const) {
      expect(without(rule).spans.map((s) => s.rule)).not.toContain(rule);
      expect(without(rule).spans).toHaveLength(5);
    }
    const none = redactionSettingsSchema.parse({
      card: false,
      account: false,
      phone: false,
      email: false,
      dateOfBirth: false,
      spokenDigits: false,
    });
    expect(redact(text, none, YEAR)).toEqual({ text, spans: [] });
  });

  it('reads settings with every rule on by default', () => {
    expect(redactionSettingsSchema.parse({ phone: false })).toEqual({ ...DEFAULT_REDACTION_SETTINGS, phone: false });
    expect(redactionSettingsSchema.safeParse({ phone: 'no' }).success).toBe(false);
  });

  it('checks Luhn and reads spoken years', () => {
    expect(['4111111111111111', '79927398713', '4111111111111112', '12a4'].map(luhnValid)).toEqual([
      true,
      true,
      false,
      false,
    ]);
    expect(
      ['nineteen eighty two', 'nineteen oh five', 'two thousand and five', 'twenty twenty', 'two thousand'].map(
        spokenYear,
      ),
    ).toEqual([1982, 1905, 2005, 2020, 2000]);
  });

  it('handles empty and very long text', () => {
    expect(redact('')).toEqual({ text: '', spans: [] });
    const long = 'word '.repeat(20_000) + '4111 1111 1111 1111';
    expect(redact(long, DEFAULT_REDACTION_SETTINGS, YEAR).spans).toHaveLength(1);
  });
});
