/**
 * Base URL rule (spec intro and spec 9: the base address ends with `/v1`).
 * Shared so the Connect screen can show the URL that will be used before it is saved.
 */

/** Result of {@link normalizeBaseUrl}: the URL to use, or why the input is refused. */
export type BaseUrlResult = { ok: true; url: string } | { ok: false; message: string };

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * Trims the input, drops trailing slashes, adds `/v1` when the path is empty, and refuses
 * anything that is not an http(s) URL ending in `/v1`. `http:` is accepted only for loopback
 * hosts (a key must not travel in clear text).
 */
export function normalizeBaseUrl(input: string): BaseUrlResult {
  const given = input.trim();
  // A bare host ("api.example.com", "api.example.com/v1") gets https:// in front.
  const trimmed = !given.includes('://') && /^[a-z0-9.-]+(:\d+)?(\/|$)/i.test(given) ? `https://${given}` : given;
  if (given === '')
    return { ok: false, message: 'Enter the base URL of the service, e.g. https://api.example.com/v1.' };
  let url: URL;
  try {
    url = new URL(trimmed);
  } catch {
    return { ok: false, message: `"${trimmed}" is not a URL. It should look like https://api.example.com/v1.` };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    return { ok: false, message: 'The base URL must start with https://.' };
  }
  if (url.protocol === 'http:' && !LOOPBACK.has(url.hostname)) {
    return { ok: false, message: 'Use https:// for this server: the API key must not travel unencrypted.' };
  }
  if (url.username || url.password)
    return { ok: false, message: 'Leave user names and passwords out of the base URL.' };
  if (url.search || url.hash) return { ok: false, message: 'The base URL cannot have a query (?…) or fragment (#…).' };
  let path = url.pathname.replace(/\/+$/, '');
  if (path === '') path = '/v1';
  if (!path.endsWith('/v1')) {
    return {
      ok: false,
      message: `The base URL must end with /v1 (the API version), e.g. ${url.origin}/v1; nothing may follow it.`,
    };
  }
  return { ok: true, url: `${url.origin}${path}` };
}
