/**
 * The app protocol: production builds load `app://voice-review/index.html` and every asset from
 * the built renderer folder (`out/renderer`) through this handler instead of `file://` (Electron
 * security checklist, "Avoid usage of the file:// protocol"). A `file://` page may read any local file the
 * user can; an `app://` page reaches only what this handler serves.
 *
 * Written as a plain `(Request) => Promise<Response>` (like recording-protocol.ts) so Electron's
 * `protocol.handle` and the Node tests run the very same code.
 */
import { lstat, readFile } from 'node:fs/promises';
import { extname, join, resolve, sep } from 'node:path';
import { APP_HOST, APP_SCHEME, CONTENT_SECURITY_POLICY, isAppUrl } from './security';

/** Options of {@link createAppProtocolHandler}. */
export interface AppProtocolOptions {
  /** Folder served as the root of `app://voice-review/` (the built renderer, `out/renderer`). */
  rootDir: string;
  /** Content-Security-Policy sent with every response; default {@link CONTENT_SECURITY_POLICY}. */
  contentSecurityPolicy?: string;
}

/**
 * MIME types of the files a Vite build of the renderer emits, by lower-case extension. A small
 * table instead of a MIME library: the set is known and closed, and anything else is served as
 * `application/octet-stream` (with `nosniff`, so it is never run as script or styles).
 */
const MIME_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.otf': 'font/otf',
  '.wasm': 'application/wasm',
  '.mp3': 'audio/mpeg',
  '.wav': 'audio/wav',
  '.ogg': 'audio/ogg',
  '.opus': 'audio/ogg',
  '.flac': 'audio/flac',
  '.webm': 'audio/webm',
};

/** MIME type served for `path`, from its extension; `application/octet-stream` when unknown. */
function mimeTypeOf(path: string): string {
  return MIME_TYPES[extname(path).toLowerCase()] ?? 'application/octet-stream';
}

/**
 * The file under `rootDir` that the URL path `pathname` names, or null when the path is refused:
 * a segment that is (after percent-decoding) empty, `.`, `..`, or holds `/`, `\` or NUL, or a
 * result outside `rootDir`. `/` is `/index.html`; a trailing `/` is dropped (`/assets/` names the
 * folder `assets`).
 * @param pathname the URL's path, still percent-encoded (e.g. `/assets/index-abc.js`)
 */
export function resolveAppPath(rootDir: string, pathname: string): string | null {
  const root = resolve(rootDir);
  // A trailing slash names a folder, which the handler then answers with 404.
  const trimmed = pathname.replace(/^\//, '').replace(/\/$/, '');
  const encoded = trimmed === '' ? ['index.html'] : trimmed.split('/');
  const segments: string[] = [];
  for (const part of encoded) {
    let segment: string;
    try {
      segment = decodeURIComponent(part);
    } catch {
      return null;
    }
    if (segment === '' || segment === '.' || segment === '..' || /[/\\\0]/.test(segment)) return null;
    segments.push(segment);
  }
  const file = join(root, ...segments);
  return file.startsWith(root + sep) ? file : null;
}

/**
 * Creates the handler for `app://voice-review/...`.
 *
 * Responses: 200 with the file (Content-Type from the extension, Content-Length), no body for
 * HEAD; 403 for a path that tries to leave the root (`..`, `%2e%2e`, `..%2f`, `%5c`); 404 for a
 * missing file, a folder, a symbolic link or another host; 405 (with `Allow: GET, HEAD`) for any
 * other method. Every response carries the CSP, `X-Content-Type-Options: nosniff` and
 * `Cache-Control: no-cache`. Never throws: an unreadable file is a 404.
 */
export function createAppProtocolHandler(options: AppProtocolOptions): (request: Request) => Promise<Response> {
  const csp = options.contentSecurityPolicy ?? CONTENT_SECURITY_POLICY;

  function respond(
    status: number,
    body: Uint8Array | string | null,
    type: string,
    extra: Record<string, string> = {},
  ): Response {
    const headers = new Headers({
      'Content-Type': type,
      'Content-Security-Policy': csp,
      'X-Content-Type-Options': 'nosniff',
      'Cache-Control': 'no-cache',
      ...extra,
    });
    // Response takes a BufferSource; a Node Buffer is one, but its type needs the cast.
    return new Response(body as BodyInit | null, { status, headers });
  }
  const text = (status: number, message: string, extra?: Record<string, string>) =>
    respond(status, message, 'text/plain; charset=utf-8', extra);

  return async (request) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      return text(405, 'Only GET and HEAD are supported.', { Allow: 'GET, HEAD' });
    }
    let url: URL;
    try {
      url = new URL(request.url);
    } catch {
      return text(400, 'Not an app address.');
    }
    if (url.protocol !== `${APP_SCHEME}:` || !isAppUrl(url.href))
      return text(404, `Not found (only ${APP_HOST} is served).`);

    const file = resolveAppPath(options.rootDir, url.pathname);
    if (file === null) return text(403, 'Refused: the path leaves the app folder.');
    let body: Buffer;
    try {
      // lstat: a symbolic link is not followed, so nothing outside the folder is reachable.
      const info = await lstat(file);
      if (!info.isFile()) return text(404, 'Not found.');
      body = await readFile(file);
    } catch {
      return text(404, 'Not found.');
    }
    return respond(200, request.method === 'HEAD' ? null : body, mimeTypeOf(file), {
      'Content-Length': String(body.byteLength),
    });
  };
}

/**
 * Wraps a handler of another scheme (the recording protocol) so the app's pages may `fetch()`
 * it: a request whose `Origin` is the app's (or the dev server's) gets
 * `Access-Control-Allow-Origin` for exactly that origin and `Vary: Origin`; any other origin
 * gets no CORS header, so Chromium keeps the body from it. Needs the scheme registered with
 * `corsEnabled: true`. `<audio>` loads (no CORS) are unaffected.
 * @param devServerUrl electron-vite's dev server URL in development, else undefined
 */
export function withAppCors(
  handler: (request: Request) => Promise<Response>,
  devServerUrl?: string,
): (request: Request) => Promise<Response> {
  return async (request) => {
    const response = await handler(request);
    const origin = request.headers.get('origin');
    if (!origin || !isAppUrl(`${origin}/`, devServerUrl)) return response;
    const headers = new Headers(response.headers);
    headers.set('Access-Control-Allow-Origin', origin);
    headers.set('Access-Control-Expose-Headers', 'Content-Length, Content-Range, Accept-Ranges');
    headers.append('Vary', 'Origin');
    return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
  };
}
