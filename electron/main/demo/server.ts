/**
 * Demo voice-agent service: a local HTTP server that speaks the REST API of the spec
 * (/work/shared/spec/voice-agent-api.md, section 4) over an in-memory copy of the seed in
 * `resources/demo/seed.json`, plus the recordings in `resources/demo/recordings`.
 *
 * Plain Node (no Electron imports), so it runs inside the Electron main process, from the CLI
 * (`npm run demo-server`) and in tests alike.
 *
 * Where the spec says "not shown", this server chooses; each choice is marked "(spec: not shown)".
 */
import { createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { isSid } from '../../shared/sid';
import { isE164 } from '../../shared/validation';
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

/** A running demo service. */
export interface DemoServer {
  /** Base address of the API, ending in `/v1` (spec 4), e.g. `http://127.0.0.1:43127/v1`. */
  baseUrl: string;
  /** The only key the server accepts, as `Authorization: Bearer <apiKey>` (spec 5). */
  apiKey: string;
  /**
   * The seeded interactions with a short human label (e.g. "Inbound · Dental appointment · 1m 36s"),
   * in seed order. The API has no list endpoint (spec 4, gaps), so this is how a UI can offer them.
   */
  interactions: { sid: string; label: string }[];
  /** Stops listening and drops open connections. Resolves once the server is closed. */
  close(): Promise<void>;
}

/** Options of {@link startDemoServer}. */
export interface DemoServerOptions {
  /** Folder holding `demo/seed.json` and `demo/recordings/` (the app's `resources` folder). */
  resourcesDir: string;
  /** TCP port on 127.0.0.1; 0 or absent picks a free port. */
  port?: number;
  /** Key to accept; default: `demo_` followed by 24 random hex characters. */
  apiKey?: string;
  /** Delay added before answering every request, milliseconds (to show loading states); default 0. */
  latencyMs?: number;
}

/** Wire-format interaction (spec 2 "Interaction"); `recording_url` in the seed is relative to the base URL. */
interface WireInteraction {
  sid: string;
  recording_url?: string | null;
  [field: string]: unknown;
}

/** Wire-format phone (spec 2 "Phone"). */
interface WirePhone {
  sid: string;
  name: string;
  number: string;
  sip_trunk: { system: boolean; sid: string; name: string };
  created_at: string;
  updated_at: string;
  inbound_agent_id?: string;
  outbound_agent_id?: string;
}

/** Wire-format SIP trunk (spec 2 "SIP trunk"). */
interface WireSipTrunk {
  sid: string;
  name: string;
  termination_uri: string;
  created_at: string;
  updated_at: string;
  sip_username?: string;
  sip_password?: string;
}

/** Wire-format webhook (spec 2 "Webhook"). */
interface WireWebhook {
  sid: string;
  url: string;
  call_started_event: boolean;
  call_ended_event: boolean;
  created_at: string;
  updated_at: string;
  api_key?: { sid: string; name: string };
  phone_number?: { sid: string; number: string; name: string };
}

/** Contents of `resources/demo/seed.json` (written by scripts/generate-demo-data.ts). */
interface DemoSeed {
  interactions: WireInteraction[];
  interaction_labels: Record<string, string>;
  phones: WirePhone[];
  sip_trunks: WireSipTrunk[];
  webhooks: WireWebhook[];
}

/** One problem with a request body, reported in the `errors` array of a 400 response. */
interface FieldError {
  field: string;
  message: string;
}

/** Thrown inside a handler to answer with an error envelope. */
class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly extra: { errors?: FieldError[]; headers?: Record<string, string> } = {},
  ) {
    super(message);
  }
}

const RECORDING_FILE = /^[A-Za-z0-9_-][A-Za-z0-9_.-]*$/;
const MAX_BODY_BYTES = 64 * 1024;

function loadSeed(resourcesDir: string): DemoSeed {
  const file = path.join(resourcesDir, 'demo', 'seed.json');
  let seed: DemoSeed;
  try {
    seed = JSON.parse(fs.readFileSync(file, 'utf8')) as DemoSeed;
  } catch (error) {
    throw new Error(
      `Cannot read the demo seed ${file}: ${(error as Error).message}. Run \`npm run audio\` to create it.`,
    );
  }
  for (const key of ['interactions', 'phones', 'sip_trunks', 'webhooks'] as const) {
    if (!Array.isArray(seed[key])) throw new Error(`Demo seed ${file} has no "${key}" array.`);
  }
  seed.interaction_labels ??= {};
  return seed;
}

/** Compares two keys in constant time (hashing first, so different lengths do not leak either). */
function sameKey(given: string, expected: string): boolean {
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b);
}

function sendJson(
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
function sendError(res: http.ServerResponse, error: HttpError): void {
  const body: { status: 'error'; message: string; errors?: FieldError[] } = { status: 'error', message: error.message };
  if (error.extra.errors) body.errors = error.extra.errors;
  sendJson(res, error.statusCode, body, error.extra.headers);
}

async function readJsonBody(req: http.IncomingMessage): Promise<unknown> {
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

function requireObject(body: unknown): Record<string, unknown> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new HttpError(400, 'Request body must be a JSON object');
  }
  return body as Record<string, unknown>;
}

function invalid(what: string, errors: FieldError[]): HttpError {
  return new HttpError(400, `${what}: ${errors.map((e) => `${e.field} ${e.message}`).join('; ')}`, { errors });
}

function nowIso(): string {
  return new Date().toISOString();
}

/** Parsed `Range` header: a byte span, "unsatisfiable", or null to ignore it and send the whole file. */
function parseRange(header: string | undefined, size: number): { start: number; end: number } | 'unsatisfiable' | null {
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

/**
 * Starts the demo service on 127.0.0.1 and resolves once it listens.
 *
 * Endpoints (spec 4), all under `/v1` and all requiring `Authorization: Bearer <apiKey>` (spec 5):
 * 1 `GET /interactions/{sid}`, 2 `GET /phones`, 3 `GET /phones/{phone}`, 4 `PUT /phones/{phone}`,
 * 5 `POST /sip-trunks`, 6 `GET /sip-trunks`, 7 `GET /sip-trunks/{sid}`, 8 `GET /webhooks`,
 * 9 `GET /webhooks/{sid}`, 10 `DELETE /webhooks/{sid}`; plus `GET|HEAD /recordings/{file}` (Ogg/Opus,
 * byte ranges), which is where interaction `recording_url`s point.
 *
 * Responses are JSON envelopes `{status: "success", ...}` or `{status: "error", message, errors?}` with
 * 401 (missing or wrong key), 404 (unknown path, sid, number or file), 400 (invalid input, including a
 * body that is not JSON), 405 (method not allowed), 413 (body over 64 KiB), 416 (unsatisfiable range).
 * Changes made with PUT/POST/DELETE live in this server instance's memory only.
 *
 * @throws Error when `resourcesDir/demo/seed.json` is missing or malformed, or the port is taken.
 */
export async function startDemoServer(opts: DemoServerOptions): Promise<DemoServer> {
  const seed = structuredClone(loadSeed(opts.resourcesDir));
  const recordingsDir = path.join(opts.resourcesDir, 'demo', 'recordings');
  const apiKey = opts.apiKey ?? `demo_${randomBytes(12).toString('hex')}`;
  const latencyMs = Math.max(0, opts.latencyMs ?? 0);
  let baseUrl = '';

  const { interactions, phones, sip_trunks: sipTrunks, webhooks } = seed;

  function findPhone(raw: string): WirePhone {
    // A path segment `%2B14155550123` arrives decoded as `+14155550123`; a raw `+` is kept as is.
    // (spec: the format check for a malformed number is not shown; we answer 400.)
    if (!isE164(raw)) throw new HttpError(400, `Phone must be an E.164 number such as +14155550123, got "${raw}"`);
    const phone = phones.find((p) => p.number === raw);
    if (!phone) throw new HttpError(404, `No phone with number ${raw}`);
    return phone;
  }

  function interactionForWire(interaction: WireInteraction): WireInteraction {
    const copy = structuredClone(interaction);
    if (typeof copy.recording_url === 'string' && !/^[a-z][a-z0-9+.-]*:/i.test(copy.recording_url)) {
      copy.recording_url = `${baseUrl}/${copy.recording_url.replace(/^\/+/, '')}`;
    }
    return copy;
  }

  /** Spec 4, endpoint 4. Choices (spec: not shown): every field optional, at least one known field, omitted fields unchanged. */
  function updatePhone(phone: WirePhone, bodyValue: unknown): WirePhone {
    const body = requireObject(bodyValue);
    const errors: FieldError[] = [];
    if ('name' in body && (typeof body.name !== 'string' || body.name.trim() === '')) {
      errors.push({ field: 'name', message: 'must be a non-empty string' });
    }
    for (const field of ['inbound_agent_id', 'outbound_agent_id'] as const) {
      if (!(field in body)) continue;
      const value = body[field];
      if (typeof value !== 'string' || !isSid('agent', value)) {
        errors.push({ field, message: 'must be an agent SID (agent_ followed by a UUID)' });
      }
    }
    if (!('name' in body) && !('inbound_agent_id' in body) && !('outbound_agent_id' in body)) {
      errors.push({ field: 'body', message: 'must contain at least one of name, inbound_agent_id, outbound_agent_id' });
    }
    if (errors.length > 0) throw invalid('Invalid phone update', errors);

    if (typeof body.name === 'string') {
      phone.name = body.name.trim();
      for (const webhook of webhooks) {
        if (webhook.phone_number?.sid === phone.sid) webhook.phone_number.name = phone.name;
      }
    }
    if (typeof body.inbound_agent_id === 'string') phone.inbound_agent_id = body.inbound_agent_id.toLowerCase();
    if (typeof body.outbound_agent_id === 'string') phone.outbound_agent_id = body.outbound_agent_id.toLowerCase();
    phone.updated_at = nowIso();
    return phone;
  }

  /** Spec 4, endpoint 5. Choices (spec: not shown): name and termination_uri required; credentials both or neither. */
  function createSipTrunk(bodyValue: unknown): WireSipTrunk {
    const body = requireObject(bodyValue);
    const errors: FieldError[] = [];
    for (const field of ['name', 'termination_uri'] as const) {
      if (typeof body[field] !== 'string' || (body[field] as string).trim() === '') {
        errors.push({ field, message: 'is required and must be a non-empty string' });
      }
    }
    const hasUsername = body.sip_username !== undefined;
    const hasPassword = body.sip_password !== undefined;
    for (const field of ['sip_username', 'sip_password'] as const) {
      if (body[field] !== undefined && (typeof body[field] !== 'string' || body[field] === '')) {
        errors.push({ field, message: 'must be a non-empty string when given' });
      }
    }
    if (hasUsername !== hasPassword) {
      errors.push({
        field: hasUsername ? 'sip_password' : 'sip_username',
        message: 'is required when the other SIP credential is given',
      });
    }
    if (errors.length > 0) throw invalid('Invalid SIP trunk', errors);

    const now = nowIso();
    const trunk: WireSipTrunk = {
      sid: `sip_${randomUUID()}`,
      name: (body.name as string).trim(),
      termination_uri: (body.termination_uri as string).trim(),
      created_at: now,
      updated_at: now,
    };
    if (hasUsername) {
      trunk.sip_username = body.sip_username as string;
      trunk.sip_password = body.sip_password as string;
    }
    sipTrunks.push(trunk);
    return trunk;
  }

  async function serveRecording(req: http.IncomingMessage, res: http.ServerResponse, fileName: string): Promise<void> {
    if (!RECORDING_FILE.test(fileName)) throw new HttpError(404, `No recording named ${fileName}`);
    const file = path.join(recordingsDir, fileName);
    const stat = await fs.promises.stat(file).catch(() => null);
    if (!stat?.isFile()) throw new HttpError(404, `No recording named ${fileName}`);

    const size = stat.size;
    const range = parseRange(req.headers.range, size);
    if (range === 'unsatisfiable') {
      throw new HttpError(416, `Range ${req.headers.range ?? ''} is outside the ${size}-byte recording`, {
        headers: { 'Content-Range': `bytes */${size}` },
      });
    }
    const start = range?.start ?? 0;
    const end = range?.end ?? size - 1;
    const headers: Record<string, string | number> = {
      'Content-Type': 'audio/ogg',
      'Accept-Ranges': 'bytes',
      'Content-Length': size === 0 ? 0 : end - start + 1,
      'Cache-Control': 'no-store',
      // Validators from the file's stat (size + modification time), so clients such as the peaks
      // cache can tell a changed recording from the one they have (issue 5). Weak: not byte-compared.
      ETag: `W/"${size.toString(16)}-${Math.floor(stat.mtimeMs).toString(16)}"`,
      'Last-Modified': stat.mtime.toUTCString(),
    };
    if (range) headers['Content-Range'] = `bytes ${start}-${end}/${size}`;
    res.writeHead(range ? 206 : 200, headers);
    if (req.method === 'HEAD' || size === 0) {
      res.end();
      return;
    }
    await new Promise<void>((resolve) => {
      const stream = fs.createReadStream(file, { start, end });
      stream.on('error', (error) => {
        res.destroy(error);
        resolve();
      });
      res.on('close', () => {
        stream.destroy();
        resolve();
      });
      stream.pipe(res);
    });
  }

  /** Answers one request; throws HttpError for every error response. */
  async function route(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const method = req.method ?? 'GET';

    // Spec 5: every endpoint requires the bearer key. (spec: response to a missing or invalid key not shown; we answer 401.)
    const match = /^Bearer\s+(.+)$/i.exec(req.headers.authorization ?? '');
    if (!match || !sameKey(match[1]!.trim(), apiKey)) {
      throw new HttpError(401, 'Invalid or missing API key', {
        headers: { 'WWW-Authenticate': 'Bearer realm="voice-review-demo"' },
      });
    }

    if (!url.pathname.startsWith('/v1/'))
      throw new HttpError(404, `No endpoint at ${url.pathname} (paths start with /v1/)`);
    let segments: string[];
    try {
      segments = url.pathname
        .slice('/v1/'.length)
        .replace(/\/$/, '')
        .split('/')
        .map((s) => decodeURIComponent(s));
    } catch {
      throw new HttpError(400, `Malformed percent-encoding in path ${url.pathname}`);
    }
    const [resource, id, ...rest] = segments;
    const notFound = (): HttpError => new HttpError(404, `No endpoint at ${url.pathname}`);
    if (rest.length > 0 || id === '') throw notFound();

    /** Runs the handler for `method`, or throws 405 naming the allowed methods. HEAD is answered like GET. */
    const dispatch = async (handlers: Record<string, () => Promise<void> | void>): Promise<void> => {
      const handler = handlers[method] ?? (method === 'HEAD' ? handlers.GET : undefined);
      if (!handler) {
        const allow = Object.keys(handlers).includes('GET')
          ? [...Object.keys(handlers), 'HEAD']
          : Object.keys(handlers);
        throw new HttpError(405, `Method ${method} is not allowed on ${url.pathname}`, {
          headers: { Allow: allow.join(', ') },
        });
      }
      await handler();
    };
    // Success status codes (spec: not shown): 200 for GET, PUT and DELETE; 201 for POST.
    const ok = (body: Record<string, unknown>, statusCode = 200): void =>
      sendJson(res, statusCode, { status: 'success', ...body });

    switch (resource) {
      case 'interactions':
        if (id === undefined) throw notFound(); // Listing interactions: not in the spec (spec 4, gaps).
        return dispatch({
          GET: () => {
            const interaction = interactions.find((i) => i.sid === id);
            if (!interaction) throw new HttpError(404, `No interaction with sid ${id}`);
            ok({ interaction: interactionForWire(interaction) });
          },
        });
      case 'phones':
        if (id === undefined) return dispatch({ GET: () => ok({ phones: phones }) });
        return dispatch({
          GET: () => ok({ phone: findPhone(id) }),
          PUT: async () => {
            const phone = findPhone(id);
            ok({ phone: updatePhone(phone, await readJsonBody(req)) });
          },
        });
      case 'sip-trunks':
        if (id === undefined) {
          return dispatch({
            GET: () => ok({ sip_trunks: sipTrunks }),
            POST: async () => ok({ sip_trunk: createSipTrunk(await readJsonBody(req)) }, 201),
          });
        }
        return dispatch({
          GET: () => {
            // Only externally managed trunks are listed (spec 4, endpoint 6); a system trunk's sid is not found here.
            const trunk = sipTrunks.find((t) => t.sid === id);
            if (!trunk) throw new HttpError(404, `No externally managed SIP trunk with sid ${id}`);
            ok({ sip_trunk: trunk });
          },
        });
      case 'webhooks':
        if (id === undefined) return dispatch({ GET: () => ok({ webhooks: webhooks }) });
        return dispatch({
          GET: () => {
            const webhook = webhooks.find((w) => w.sid === id);
            if (!webhook) throw new HttpError(404, `No webhook with sid ${id}`);
            ok({ webhook });
          },
          DELETE: () => {
            const index = webhooks.findIndex((w) => w.sid === id);
            if (index < 0) throw new HttpError(404, `No webhook with sid ${id}`);
            webhooks.splice(index, 1);
            ok({}); // Spec 4, rule 2: `status` only.
          },
        });
      case 'recordings':
        if (id === undefined) throw notFound();
        return dispatch({ GET: () => serveRecording(req, res, id) });
      default:
        throw notFound();
    }
  }

  const server = http.createServer((req, res) => {
    void (async () => {
      try {
        if (latencyMs > 0) await sleep(latencyMs);
        await route(req, res);
      } catch (error) {
        if (res.headersSent) {
          res.destroy();
          return;
        }
        sendError(
          res,
          error instanceof HttpError ? error : new HttpError(500, `Demo server error: ${(error as Error).message}`),
        );
      }
    })();
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  baseUrl = `http://127.0.0.1:${port}/v1`;

  return {
    baseUrl,
    apiKey,
    interactions: interactions.map((i) => ({ sid: i.sid, label: seed.interaction_labels[i.sid] ?? i.sid })),
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}
