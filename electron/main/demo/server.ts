/**
 * Demo voice-agent service: a local HTTP server that speaks the REST API of the spec
 * (docs/voice-agent-api.md, section 4) over an in-memory copy of the seed in
 * `resources/demo/seed.json`, plus the recordings in `resources/demo/recordings`.
 *
 * Plain Node (no Electron imports), so it runs inside the Electron main process, from the CLI
 * (`npm run demo-server`) and in tests alike.
 *
 * Where the spec says "not shown", this server chooses; each choice is marked "(spec: not shown)".
 */
import { randomBytes } from 'node:crypto';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { isE164 } from '$shared/validation';
import { HttpError, readJsonBody, sameKey, sendError, sendJson } from './http';
import { serveRecording } from './recordings';
import { addStorageCalls, redirectToStorage, startSignedStorage } from './signed-storage';
import { createSipTrunk, loadSeed, updatePhone, type DemoSeed, type WireInteraction, type WirePhone } from './seed';

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

/** What one request is answered from: the service's data and where recordings are. */
interface DemoState {
  seed: DemoSeed;
  recordingsDir: string;
  apiKey: string;
  /** Origin of the signed recording storage (signed-storage.ts). */
  storageOrigin: string;
  /** The API's base URL (known once the server listens). */
  baseUrl(): string;
}

/** Handlers of one path by HTTP method. */
type MethodHandlers = Record<string, (() => Promise<void> | void) | undefined>;

/** Runs the handler for `method`, or throws 405 naming the allowed methods. HEAD is answered like GET. */
async function dispatch(method: string, pathname: string, handlers: MethodHandlers): Promise<void> {
  const handler = handlers[method] ?? (method === 'HEAD' ? handlers.GET : undefined);
  if (!handler) {
    const allow = Object.keys(handlers).includes('GET') ? [...Object.keys(handlers), 'HEAD'] : Object.keys(handlers);
    throw new HttpError(405, `Method ${method} is not allowed on ${pathname}`, {
      headers: { Allow: allow.join(', ') },
    });
  }
  await handler();
}

/**
 * Checks the bearer key and splits `/v1/{resource}/{id}`.
 * @throws HttpError 401 for a missing or wrong key, 404 outside /v1/, 400 for bad percent-encoding
 */
function parseRequest(req: http.IncomingMessage, apiKey: string): { pathname: string; resource?: string; id?: string } {
  const url = new URL(req.url ?? '/', 'http://127.0.0.1');
  // Spec 5: every endpoint requires the bearer key. (spec: response to a missing or invalid key not shown; we answer 401.)
  const given = /^Bearer\s+(.+)$/i.exec(req.headers.authorization ?? '')?.[1];
  if (given === undefined || !sameKey(given.trim(), apiKey)) {
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
  if (rest.length > 0 || id === '') throw new HttpError(404, `No endpoint at ${url.pathname}`);
  return { pathname: url.pathname, resource, id };
}

function findPhone(phones: WirePhone[], raw: string): WirePhone {
  // A path segment `%2B14155550123` arrives decoded as `+14155550123`; a raw `+` is kept as is.
  // (spec: the format check for a malformed number is not shown; we answer 400.)
  if (!isE164(raw)) throw new HttpError(400, `Phone must be an E.164 number such as +14155550123, got "${raw}"`);
  const phone = phones.find((p) => p.number === raw);
  if (!phone) throw new HttpError(404, `No phone with number ${raw}`);
  return phone;
}

/** The interaction as sent: a relative `recording_url` of the seed made absolute on the base URL. */
function interactionForWire(interaction: WireInteraction, baseUrl: string): WireInteraction {
  const copy = structuredClone(interaction);
  if (typeof copy.recording_url === 'string' && !/^[a-z][a-z0-9+.-]*:/i.test(copy.recording_url)) {
    copy.recording_url = `${baseUrl}/${copy.recording_url.replace(/^\/+/, '')}`;
  }
  return copy;
}

/** Answers one request; throws HttpError for every error response. */
async function route(req: http.IncomingMessage, res: http.ServerResponse, state: DemoState): Promise<void> {
  const method = req.method ?? 'GET';
  const { pathname, resource, id } = parseRequest(req, state.apiKey);
  const { interactions, phones, sip_trunks: sipTrunks, webhooks } = state.seed;
  const notFound = (): HttpError => new HttpError(404, `No endpoint at ${pathname}`);
  const on = (handlers: MethodHandlers) => dispatch(method, pathname, handlers);
  // Success status codes (spec: not shown): 200 for GET, PUT and DELETE; 201 for POST.
  const ok = (body: Record<string, unknown>, statusCode = 200): void =>
    sendJson(res, statusCode, { status: 'success', ...body });

  switch (resource) {
    case 'interactions':
      if (id === undefined) throw notFound(); // Listing interactions: not in the spec (spec 4, gaps).
      return on({
        GET: () => {
          const interaction = interactions.find((i) => i.sid === id);
          if (!interaction) throw new HttpError(404, `No interaction with sid ${id}`);
          ok({ interaction: interactionForWire(interaction, state.baseUrl()) });
        },
      });
    case 'phones':
      if (id === undefined) return on({ GET: () => ok({ phones: phones }) });
      return on({
        GET: () => ok({ phone: findPhone(phones, id) }),
        PUT: async () => {
          const phone = findPhone(phones, id);
          ok({ phone: updatePhone(phone, await readJsonBody(req), webhooks) });
        },
      });
    case 'sip-trunks':
      if (id === undefined) {
        return on({
          GET: () => ok({ sip_trunks: sipTrunks }),
          POST: async () => ok({ sip_trunk: createSipTrunk(await readJsonBody(req), sipTrunks) }, 201),
        });
      }
      return on({
        GET: () => {
          // Only externally managed trunks are listed (spec 4, endpoint 6); a system trunk's sid is not found here.
          const trunk = sipTrunks.find((t) => t.sid === id);
          if (!trunk) throw new HttpError(404, `No externally managed SIP trunk with sid ${id}`);
          ok({ sip_trunk: trunk });
        },
      });
    case 'webhooks':
      if (id === undefined) return on({ GET: () => ok({ webhooks: webhooks }) });
      return on({
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
      return on({ GET: () => serveRecording(req, res, state.recordingsDir, id) });
    case 'signed-recordings':
      if (id === undefined) throw notFound();
      return on({ GET: () => redirectToStorage(res, state.storageOrigin, id) });
    default:
      throw notFound();
  }
}

/**
 * Starts the demo service on 127.0.0.1 and resolves once it listens.
 *
 * Endpoints (spec 4), all under `/v1` and all requiring `Authorization: Bearer <apiKey>` (spec 5):
 * 1 `GET /interactions/{sid}`, 2 `GET /phones`, 3 `GET /phones/{phone}`, 4 `PUT /phones/{phone}`,
 * 5 `POST /sip-trunks`, 6 `GET /sip-trunks`, 7 `GET /sip-trunks/{sid}`, 8 `GET /webhooks`,
 * 9 `GET /webhooks/{sid}`, 10 `DELETE /webhooks/{sid}`; plus `GET|HEAD /recordings/{file}` (Ogg/Opus,
 * byte ranges), which is where interaction `recording_url`s point, and `GET /signed-recordings/{file}`,
 * a 302 to signed storage on a second loopback origin (signed-storage.ts).
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
  const offered = seed.interactions.map((i) => ({ sid: i.sid, label: seed.interaction_labels[i.sid] ?? i.sid }));
  addStorageCalls(seed);
  const latencyMs = Math.max(0, opts.latencyMs ?? 0);
  let baseUrl = '';
  const recordingsDir = path.join(opts.resourcesDir, 'demo', 'recordings');
  const storage = await startSignedStorage(recordingsDir);
  const state: DemoState = {
    seed,
    recordingsDir,
    apiKey: opts.apiKey ?? `demo_${randomBytes(12).toString('hex')}`,
    storageOrigin: storage.origin,
    baseUrl: () => baseUrl,
  };

  const server = http.createServer((req, res) => {
    void (async () => {
      try {
        if (latencyMs > 0) await sleep(latencyMs);
        await route(req, res, state);
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
  }).catch(async (error: unknown) => {
    await storage.close();
    throw error;
  });
  const { port } = server.address() as AddressInfo;
  baseUrl = `http://127.0.0.1:${port}/v1`;

  return {
    baseUrl,
    apiKey: state.apiKey,
    interactions: offered,
    close: async () => {
      await storage.close();
      await new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      });
    },
  };
}
