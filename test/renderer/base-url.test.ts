/** Base URL rule (electron/shared/base-url.ts; spec 9: the base address ends with /v1). */
import { describe, expect, it } from 'vitest';
import { normalizeBaseUrl } from '$shared/base-url';

function accepted(input: string): string {
  const result = normalizeBaseUrl(input);
  if (!result.ok) throw new Error(`"${input}" was refused: ${result.message}`);
  return result.url;
}

function refusal(input: string): string {
  const result = normalizeBaseUrl(input);
  if (result.ok) throw new Error(`"${input}" was accepted as ${result.url}`);
  return result.message;
}

describe('normalizeBaseUrl: accepted', () => {
  it.each([
    ['https://api.example.com/v1', 'https://api.example.com/v1'],
    ['  https://api.example.com/v1  ', 'https://api.example.com/v1'],
    ['https://api.example.com/v1/', 'https://api.example.com/v1'],
    ['https://api.example.com/v1///', 'https://api.example.com/v1'],
    ['https://api.example.com', 'https://api.example.com/v1'],
    ['https://api.example.com/', 'https://api.example.com/v1'],
    ['https://API.Example.com/v1', 'https://api.example.com/v1'],
    ['https://api.example.com:8443/v1', 'https://api.example.com:8443/v1'],
    ['https://api.example.com:443/v1', 'https://api.example.com/v1'],
    ['https://example.com/voice/api/v1', 'https://example.com/voice/api/v1'],
  ])('%s -> %s', (input, url) => {
    expect(accepted(input)).toBe(url);
  });

  it('adds https:// to a bare host name', () => {
    expect(accepted('api.example.com')).toBe('https://api.example.com/v1');
    expect(accepted('api.example.com/v1')).toBe('https://api.example.com/v1');
  });

  it.each([
    ['http://localhost:4010', 'http://localhost:4010/v1'],
    ['http://127.0.0.1:4010/v1/', 'http://127.0.0.1:4010/v1'],
    ['http://[::1]:4010/v1', 'http://[::1]:4010/v1'],
  ])('allows plain http on loopback: %s -> %s', (input, url) => {
    expect(accepted(input)).toBe(url);
  });
});

describe('normalizeBaseUrl: refused', () => {
  it('asks for a URL when empty', () => {
    expect(refusal('   ')).toMatch(/Enter the base URL/);
  });

  it.each([['http://example.com/v1'], ['http://api.example.com'], ['http://10.0.0.5/v1'], ['http://127.0.0.2/v1']])(
    'refuses plain http to a remote host: %s',
    (input) => {
      expect(refusal(input)).toMatch(/Use https:\/\/ for this server/);
    },
  );

  it.each([
    ['https://x/v1/extra'],
    ['https://api.example.com/v1/interactions'],
    ['https://api.example.com/v2'],
    ['https://api.example.com/v10'],
  ])('refuses a path that does not end with /v1: %s', (input) => {
    expect(refusal(input)).toMatch(/must end with \/v1/);
  });

  it('suggests the origin with /v1 when the path is wrong', () => {
    expect(refusal('https://api.example.com/v1/extra')).toContain('https://api.example.com/v1');
  });

  it.each([
    ['https://user:secret@api.example.com/v1'],
    ['https://user@api.example.com/v1'],
    ['http://user:pw@localhost:4010/v1'],
  ])('refuses credentials in the URL: %s', (input) => {
    expect(refusal(input)).toMatch(/Leave user names and passwords out/);
  });

  it('never repeats a password from the input in its message', () => {
    expect(refusal('https://user:hunter2@api.example.com/v1')).not.toContain('hunter2');
  });

  it.each([['https://api.example.com/v1?key=abc'], ['https://api.example.com/v1#top']])(
    'refuses a query or fragment: %s',
    (input) => {
      expect(refusal(input)).toMatch(/query \(\?…\) or fragment/);
    },
  );

  it.each([['ftp://api.example.com/v1'], ['file:///v1'], ['javascript:alert(1)']])(
    'refuses other schemes: %s',
    (input) => {
      expect(refusal(input)).toMatch(/must start with https:\/\//);
    },
  );
});
