/**
 * HTTP plumbing of the demo service (demo/server.ts): JSON envelopes, error responses, request
 * bodies, the bearer-key comparison and byte ranges.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type * as http from 'node:http';

/** Largest request body accepted, in bytes (64 KiB; larger is answered 413). */
const MAX_BODY_BYTES = 64 * 1024;

/** One problem with a request body, reported in the `errors` array of a 400 response. */
export interface FieldError {
  field: string;
  message: string;
}

/** Thrown inside a handler to answer with an error envelope. */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly extra: { errors?: FieldError[]; headers?: Record<string, string> } = {},
  ) {
    super(message);
  }
}

/** Compares two keys in constant time (hashing first, so different lengths do not leak either). */
export function sameKey(given: string, expected: string): boolean {
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b);
}

/** Sends `body` as JSON with `statusCode` (no caching). */
export function sendJson(
  res: http.ServerResponse,
  statusCode: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body);
  res.writeHead(statusCode, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(text),
    'Cache-Control': 'no-store',
    ...headers,
  });
  res.end(text);
}

/** Error envelope (spec 7: shape not shown; we answer `{status: "error", message, errors?}`). */
export function sendError(res: http.ServerResponse, error: HttpError): void {
  const body: { status: 'error'; message: string; errors?: FieldError[] } = { status: 'error', message: error.message };
  if (error.extra.errors) body.errors = error.extra.errors;
  sendJson(res, error.statusCode, body, error.extra.headers);
}

/**
 * Reads a JSON request body.
 * @throws HttpError 413 over 64 KiB, 400 when empty or not JSON
 */
export async function readJsonBody(req: http.IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) throw new HttpError(413, `Request body is larger than ${MAX_BODY_BYTES} bytes`);
    chunks.push(chunk);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  if (text.trim() === '') throw new HttpError(400, 'Request body must be a JSON object');
  try {
    return JSON.parse(text);
  } catch {
    throw new HttpError(400, 'Request body is not valid JSON');
  }
}

/** The body as an object. @throws HttpError 400 when it is not a JSON object */
export function requireObject(body: unknown): Record<string, unknown> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new HttpError(400, 'Request body must be a JSON object');
  }
  return body as Record<string, unknown>;
}

/** A 400 listing every field problem. */
export function invalid(what: string, errors: FieldError[]): HttpError {
  return new HttpError(400, `${what}: ${errors.map((e) => `${e.field} ${e.message}`).join('; ')}`, { errors });
}

/** Parsed `Range` header: a byte span, "unsatisfiable", or null to ignore it and send the whole file. */
export function parseRange(
  header: string | undefined,
  size: number,
): { start: number; end: number } | 'unsatisfiable' | null {
  if (header === undefined) return null;
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  // Multiple ranges or other units: RFC 9110 lets a server ignore the header and send 200.
  if (!match) return null;
  const [, first = '', last = ''] = match;
  if (first === '' && last === '') return null;
  if (first === '') {
    const suffix = Number(last);
    if (suffix === 0 || size === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(first);
  if (last !== '' && Number(last) < start) return null;
  if (start >= size) return 'unsatisfiable';
  const end = last === '' ? size - 1 : Math.min(Number(last), size - 1);
  return { start, end };
}
