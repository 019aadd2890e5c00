import { describe, expect, it } from 'vitest';
import { parseChallenges, ProxyAuthRequiredError } from '../../../electron/main/network/proxy-errors';

describe('Proxy-Authenticate challenges', () => {
  it('reads Basic with its realm', () => {
    expect(parseChallenges('Basic realm="Desk Proxy"')).toEqual([{ scheme: 'Basic', realm: 'Desk Proxy' }]);
  });

  it('reads several challenges in one value, commas inside quotes kept', () => {
    expect(parseChallenges('Negotiate, NTLM, Basic realm="Corp, Inc.", charset="UTF-8"')).toEqual([
      { scheme: 'Negotiate', realm: null },
      { scheme: 'NTLM', realm: null },
      { scheme: 'Basic', realm: 'Corp, Inc.' },
    ]);
  });

  it('reads challenges from several header lines, and a Negotiate token', () => {
    expect(parseChallenges(['Negotiate YIIGhgYJKoZIhvcSAQICAQBuggZ1', 'NTLM'])).toEqual([
      { scheme: 'Negotiate', realm: null },
      { scheme: 'NTLM', realm: null },
    ]);
  });

  it('tells whether Basic is on offer (a missing header counts as Basic)', () => {
    const only = (header: string | undefined) =>
      new ProxyAuthRequiredError('http://proxy.corp:3128', parseChallenges(header)).offersBasic;
    expect(only('Negotiate, NTLM')).toBe(false);
    expect(only('NTLM, basic realm=x')).toBe(true);
    expect(only(undefined)).toBe(true);
  });

  it('names the proxy, never credentials', () => {
    const error = new ProxyAuthRequiredError('http://proxy.corp:3128', parseChallenges('Basic realm="x"'));
    expect(error.message).toBe('The proxy proxy.corp:3128 asks for a sign-in (HTTP 407).');
    expect(error.realm).toBe('x');
  });
});
