/**
 * The IPC handler table (electron/main/shell/handlers.ts) over a real session: settings in a temp dir,
 * secrets in the in-memory store, the demo service on 127.0.0.1. Each test builds its own rig
 * (session, settings folder, demo server), so no test sees another's changes.
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import { mkdir } from 'node:fs/promises';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDemoServer, type DemoServer } from '../../../electron/main/demo/server';
import { DEMO_GONE_SID, DEMO_REDIRECTED_SID } from '../../../electron/main/demo/signed-storage';
import type { HandlerTable } from '../../../electron/main/shell/handlers';
import { createMemoryStore, type SecretStore } from '../../../electron/main/keys/keychain';
import { keyAccount } from '../../../electron/main/keys/workspace-keys';
import { RECENT_CALLS_FILE } from '../../../electron/main/workspaces/recent-calls';
import type { Session } from '../../../electron/main/workspaces/session';
import { createSessionRig, RESOURCES_DIR } from '../../fixtures/session-rig';
import type {
  ApiMethod,
  IpcResult,
  RecordingSessionEvent,
  RecordingSessionPush,
  VoiceReviewApi,
} from '../../../electron/shared/contract';
import { PUSH_CHANNELS } from '../../../electron/shared/contract';
import { E164_HINT } from '../../../electron/shared/validation';
import { temporaryFolder } from '../../fixtures/temporary-folder';

const DENTAL_SID = 'interaction_a11be33b-a3c4-45fc-8bb4-fa63399cb100';
const IN_PROGRESS_SID = 'interaction_ce620b66-e2a0-4c13-8abe-08b82f3a7b18';
const MAIN_LINE = '+14155550123';
const DENTAL_WEBHOOK_SID = 'wh_d73197c9-90ca-476f-8ccc-0134c1d9905d';
const AGENT = 'agent_11111111-2222-4333-8444-555555555555';
/** The key of the second ("customer") demo server that connect() is tested against. */
const CUSTOMER_KEY = 'vr_customer_key_8c1f0e2a77d94b31';

const sessions: Session[] = [];
let customer: DemoServer;

beforeAll(async () => {
  customer = await startDemoServer({ resourcesDir: RESOURCES_DIR, apiKey: CUSTOMER_KEY });
});

afterAll(async () => {
  for (const session of sessions) await session.close();
  await customer.close();
});

interface Rig {
  handlers: HandlerTable;
  session: Session;
  /** The stack's `vr-recording:` handler. */
  recording: (request: Request) => Promise<Response>;
  secrets: SecretStore;
  /** Every secret written, in order. */
  secretWrites: [account: string, secret: string][];
  /** Every HTTP request the session's API clients made. */
  requests: string[];
  /** Failures passed to onUnexpected. */
  unexpected: [ApiMethod, unknown][];
  settingsDir: string;
  settingsFile: string;
}

function rig(settingsDir?: string): Rig {
  const dir = settingsDir ?? temporaryFolder('vr-handlers-');
  const memory = createMemoryStore();
  const secretWrites: [string, string][] = [];
  const secrets: SecretStore = {
    get: (account) => memory.get(account),
    set: async (account, secret) => {
      secretWrites.push([account, secret]);
      await memory.set(account, secret);
    },
    delete: (account) => memory.delete(account),
  };
  const unexpected: [ApiMethod, unknown][] = [];
  const { session, handlers, recording, settings, requests } = createSessionRig({
    dir,
    secrets,
    onUnexpected: (method, err) => unexpected.push([method, err]),
  });
  sessions.push(session);
  return {
    handlers,
    session,
    recording,
    secrets,
    secretWrites,
    requests,
    unexpected,
    settingsDir: dir,
    settingsFile: settings.path,
  };
}

/** What `method` resolves with according to the contract. */
type Value<M extends ApiMethod> = Awaited<ReturnType<VoiceReviewApi[M]>>;

/**
 * Calls a handler as IPC would; every result must survive the structured clone IPC applies. The
 * result is typed as the contract promises (the handler table is untyped); the tests check it.
 */
async function call<M extends ApiMethod>(r: Rig, method: M, ...args: unknown[]): Promise<IpcResult<Value<M>>> {
  const result = await r.handlers[method](args);
  expect(structuredClone(result)).toEqual(result);
  return result as IpcResult<Value<M>>;
}

/** {@link call} for a call that must succeed: its value. @throws Error with the error data otherwise */
async function valueOf<M extends ApiMethod>(r: Rig, method: M, ...args: unknown[]): Promise<Value<M>> {
  const result = await call(r, method, ...args);
  if (!result.ok) throw new Error(`${method} failed: ${JSON.stringify(result.error)}`);
  return result.value;
}

/** A frame the handlers push to, and what it was sent: the recording session events, the channels. */
function frame() {
  const pushes: RecordingSessionPush[] = [];
  const channels: string[] = [];
  const caller = {
    frameKey: '1:1',
    push: (channel: string, payload: unknown) => {
      channels.push(channel);
      pushes.push(structuredClone(payload) as RecordingSessionPush);
    },
  };
  return { caller, channels, events: (): RecordingSessionEvent[] => pushes.map((p) => p.event) };
}

/** Resolves once `done()` is true, checking every 10 ms (at most 10 s). */
async function waitUntil(done: () => boolean): Promise<void> {
  for (let i = 0; i < 1000 && !done(); i++) await new Promise((resolve) => setTimeout(resolve, 10));
  expect(done()).toBe(true);
}

function expectError(result: IpcResult<unknown>, kind: string): { kind: string; message: string; status?: number } {
  if (result.ok) throw new Error(`Expected a ${kind} error, got ${JSON.stringify(result.value)}`);
  expect(result.error.kind).toBe(kind);
  expect(result.error.message).toMatch(/^[A-Z0-9]\S*( \S+)+/);
  return result.error;
}

describe('before any workspace is chosen', () => {
  it('has no workspace, and API calls ask to connect first without any request', async () => {
    const r = rig();
    expect(await call(r, 'getSession')).toMatchObject({ ok: true, value: { workspace: null, demoInteractions: [] } });
    for (const [method, args] of [
      ['getInteraction', [DENTAL_SID]],
      ['listPhones', []],
      ['getPhone', [MAIN_LINE]],
      ['listWebhooks', []],
      ['deleteWebhook', [DENTAL_WEBHOOK_SID]],
    ] as [ApiMethod, unknown[]][]) {
      const error = expectError(await call(r, method, ...args), 'bad_input');
      expect(error.message).toMatch(/^Connect to a workspace first/);
    }
    expect(r.requests).toEqual([]);
    expect(fs.existsSync(r.settingsFile)).toBe(false);
  });
});

describe('argument validation', () => {
  const cases: [string, ApiMethod, unknown[], RegExp?][] = [
    ['a number for a SID', 'getInteraction', [42]],
    ['a missing SID', 'getInteraction', []],
    ['null for a SID', 'getInteraction', [null]],
    ['a malformed interaction SID', 'getInteraction', ['interaction_123'], /not an interaction SID/],
    [
      'an agent SID where an interaction SID goes',
      'getInteraction',
      ['agent_43339db7-ea93-4709-971a-7eafbb3b955d'],
      /not an interaction SID/,
    ],
    ['an extra argument', 'getInteraction', [DENTAL_SID, 'extra']],
    ['an argument to a method that takes none', 'listPhones', ['extra']],
    ['a number without +', 'getPhone', ['14155550123'], /E\.164/],
    ['a number with spaces', 'getPhone', ['+1 415 555 0123'], /E\.164/],
    ['a number starting with 0', 'getPhone', ['+0123456'], /E\.164/],
    ['a number as a number', 'getPhone', [14155550123]],
    ['an empty update', 'updatePhone', [MAIN_LINE, {}], /Nothing to save/],
    ['a bad agent SID', 'updatePhone', [MAIN_LINE, { inboundAgentId: 'agent_42' }], /Agent SIDs look like agent_/],
    ['a bad outbound agent SID', 'updatePhone', [MAIN_LINE, { outboundAgentId: 'bob' }], /Agent SIDs look like agent_/],
    ['a blank name', 'updatePhone', [MAIN_LINE, { name: '   ' }], /Enter a name/],
    ['an unknown update field', 'updatePhone', [MAIN_LINE, { name: 'x', sid: 'phone_1' }]],
    ['an update that is not an object', 'updatePhone', [MAIN_LINE, 'x']],
    ['an update to a non-E.164 number', 'updatePhone', ['555-0123', { name: 'x' }], /E\.164/],
    [
      'a trunk with a username but no password',
      'createSipTrunk',
      [{ name: 'PBX', terminationUri: 'sip:pbx.example.com', sipUsername: 'u' }],
      /both a SIP username and a password/,
    ],
    [
      'a trunk with a password but no username',
      'createSipTrunk',
      [{ name: 'PBX', terminationUri: 'sip:pbx.example.com', sipPassword: 'p' }],
      /both a SIP username and a password/,
    ],
    [
      'a trunk with an http termination URI',
      'createSipTrunk',
      [{ name: 'PBX', terminationUri: 'http://pbx.example.com' }],
      /sip: or sips: URI/,
    ],
    ['a trunk without a name', 'createSipTrunk', [{ name: '', terminationUri: 'sip:pbx.example.com' }], /Enter a name/],
    ['an empty trunk SID', 'getSipTrunk', ['']],
    ['an empty webhook SID', 'deleteWebhook', ['']],
    ['an object for a webhook SID', 'getWebhook', [{ sid: 'wh_1' }]],
    ['connect without an object', 'connect', ['https://api.example.com/v1']],
    ['connect without the key', 'connect', [{ name: 'x', baseUrl: 'https://api.example.com/v1' }]],
    ['a blank workspace name', 'renameWorkspace', ['demo', '   '], /^Enter a name, e\.g\. Production or Staging\.$/],
    ['a workspace name over 200 characters', 'renameWorkspace', ['demo', 'x'.repeat(201)], /at most 200 characters/],
    ['a workspace name with a bidi override', 'renameWorkspace', ['demo', 'Prod\u202Enoitcudorp'], /U\+202E/],
    ['a workspace name with a line break', 'renameWorkspace', ['demo', 'Prod\nStaging'], /U\+000A/],
    ['a workspace name with a zero-width space', 'renameWorkspace', ['demo', 'Pro\u200Bd'], /U\+200B/],
    ['a workspace name with a line separator', 'renameWorkspace', ['demo', 'Prod\u2028x'], /U\+2028/],
    [
      'a new workspace named with a control character',
      'connect',
      [{ name: 'Prod\u0007', baseUrl: 'https://api.example.com/v1', apiKey: 'k' }],
      /printable characters/,
    ],
    ['an empty workspace id', 'switchWorkspace', ['']],
    ['a key that is not a string', 'changeWorkspaceKey', ['demo', 42]],
    ['a confirmation that is not a boolean', 'useSafeStorage', ['yes']],
    ['a timeout under 3 s', 'setPreferences', [{ requestTimeoutSeconds: 2 }], /at least 3 seconds/],
    ['a timeout over 120 s', 'setPreferences', [{ requestTimeoutSeconds: 121 }], /at most 120 seconds/],
    [
      'a timeout that is not whole seconds',
      'setPreferences',
      [{ requestTimeoutSeconds: 7.5 }],
      /whole number of seconds/,
    ],
    ['an unknown preference', 'setPreferences', [{ requestTimeoutSeconds: 20, theme: 'dark' }]],
  ];

  it.each(cases)('refuses %s as bad_input without any HTTP request', async (_what, method, args, message) => {
    const r = rig();
    await call(r, 'openDemo');
    const before = r.requests.length;
    const error = expectError(await call(r, method, ...args), 'bad_input');
    if (message) expect(error.message).toMatch(message);
    expect(error.status).toBeUndefined();
    expect(r.requests.length).toBe(before);
  });

  it('uses the shared E.164 wording, so forms and handlers say the same thing', async () => {
    const r = rig();
    expect(expectError(await call(r, 'getPhone', '4155550123'), 'bad_input').message).toBe(E164_HINT);
  });

  it('treats arguments that are not a list as no arguments', async () => {
    const r = rig();
    expectError(await r.handlers.getPhone(MAIN_LINE as unknown as unknown[]), 'bad_input');
    expect(await r.handlers.getSession('junk' as unknown as unknown[])).toMatchObject({ ok: true });
  });
});

describe('the demo workspace', () => {
  it('opens with its seeded interactions offered', async () => {
    const r = rig();
    const opened = await valueOf(r, 'openDemo');
    expect(opened.workspace).toMatchObject({ id: 'demo', name: 'Demo workspace', isDemo: true });
    expect(opened.demoInteractions.map((i) => i.sid)).toContain(DENTAL_SID);
    expect(await call(r, 'getSession')).toEqual({ ok: true, value: opened });
  });

  it('gives a finished interaction a playable source on the recording protocol, never the raw URL', async () => {
    const r = rig();
    await call(r, 'openDemo');
    const interaction = await valueOf(r, 'getInteraction', DENTAL_SID);
    const src = `vr-recording://local/recording/${DENTAL_SID}`;
    expect(interaction.recording).toEqual({ available: true, src });
    // The recording session gives the page the same URL at "Show call", before the interaction's answer.
    const { caller } = frame();
    const opened = await r.handlers.openRecordingSession([DENTAL_SID], caller);
    expect(opened).toMatchObject({ ok: true, value: { src } });
    expect(interaction).not.toHaveProperty('recordingUrl');
    expect(JSON.stringify(interaction)).not.toMatch(/127\.0\.0\.1|demo_[0-9a-f]{24}/);
    expect(interaction.log.length).toBe(26);

    // The src plays through the recording protocol, served from what the session remembered.
    const play = r.recording;
    const response = await play(new Request(src, { headers: { Range: 'bytes=0-3' } }));
    expect(response.status).toBe(206);
    expect(Buffer.from(await response.arrayBuffer()).toString('latin1')).toBe('OggS');
  });

  it('showing a call sends exactly one GET /interactions/{sid}, whichever of its asks comes first', async () => {
    const r = rig();
    await call(r, 'openDemo');
    // The view starts the recording, then asks for the interaction and the peaks, all at once.
    const play = r.recording;
    const [recording, interaction, peaks] = await Promise.all([
      play(new Request(`vr-recording://local/recording/${DENTAL_SID}`, { headers: { Range: 'bytes=0-3' } })),
      call(r, 'getInteraction', DENTAL_SID),
      call(r, 'getPeaks', DENTAL_SID),
    ]);
    expect(recording.status).toBe(206);
    expect(interaction.ok).toBe(true);
    expect(peaks.ok).toBe(true);
    expect(r.requests.filter((q) => q.startsWith('GET ') && q.endsWith(`/interactions/${DENTAL_SID}`))).toHaveLength(1);
    expect(r.session.activeWorkspace.recordingProblem(DENTAL_SID)).toBeNull();
  });

  it('shows a call without waiting for the recent-calls file, which still lists it once written', async () => {
    const r = rig();
    await call(r, 'openDemo');
    // A named pipe in place of the list's file: reading it waits until the test writes to it, as
    // a write waiting behind a recording's download to the same disk would.
    const file = path.join(r.settingsDir, RECENT_CALLS_FILE);
    execFileSync('mkfifo', [file]);
    let released: Promise<void> | null = null;
    // Opening a pipe to write waits for its reader (in a thread of the pool, not this one).
    const release = () => (released ??= fs.promises.writeFile(file, '{}'));
    try {
      const interaction = await valueOf(r, 'getInteraction', DENTAL_SID);
      expect(interaction.sid).toBe(DENTAL_SID);
      const listed = call(r, 'listRecentCalls');
      await release();
      const recent = await listed;
      expect(recent.ok && recent.value.map((c) => c.sid)).toEqual([DENTAL_SID]);
    } finally {
      await release();
    }
  });

  it("opens a call's recording session for the calling frame only, with the SID checked, and pushes its peaks", async () => {
    const r = rig();
    await call(r, 'openDemo');
    const { caller, events, channels } = frame();
    expectError(await r.handlers.openRecordingSession(['not-a-sid'], caller), 'bad_input');
    // Without a frame to push to (no sender), nothing is opened.
    expectError(await call(r, 'openRecordingSession', DENTAL_SID), 'bad_input');

    const opened = await r.handlers.openRecordingSession([DENTAL_SID], caller);
    if (!opened.ok) throw new Error(JSON.stringify(opened.error));
    const { sessionId } = opened.value as { sessionId: string };
    await waitUntil(() => events().some((e) => e.type === 'peaks'));
    const peaks = await valueOf(r, 'getPeaks', DENTAL_SID);
    expect(events().find((e) => e.type === 'peaks')).toEqual({ type: 'peaks', peaks: { ...peaks, fromCache: false } });
    expect(new Set(channels)).toEqual(new Set([PUSH_CHANNELS.recordingSession]));
    expect(await r.handlers.closeRecordingSession([sessionId], caller)).toEqual({ ok: true, value: undefined });
  });

  it("pushes a problem reported for the session's call, and nothing for another call", async () => {
    const r = rig();
    await call(r, 'openDemo');
    const { caller, events } = frame();
    await r.handlers.openRecordingSession([IN_PROGRESS_SID], caller);
    const location = await r.session.activeWorkspace.locateRecording(DENTAL_SID);
    location?.report({ kind: 'gone', message: 'The recording link no longer exists or has expired (HTTP 404).' });
    expect(events().filter((e) => e.type === 'problem')).toEqual([]);

    const opened = await r.handlers.openRecordingSession([DENTAL_SID], caller);
    expect(opened.ok).toBe(true);
    location?.report({ kind: 'gone', message: 'The recording link no longer exists or has expired (HTTP 404).' });
    expect(events().filter((e) => e.type === 'problem')).toEqual([
      {
        type: 'problem',
        problem: { kind: 'gone', message: 'The recording link no longer exists or has expired (HTTP 404).' },
      },
    ]);
  });

  it('plays a demo call whose recording redirects to signed storage; a dead link gets its words', async () => {
    const r = rig();
    await call(r, 'openDemo');
    const play = r.recording;
    const redirected = await valueOf(r, 'getInteraction', DEMO_REDIRECTED_SID);
    expect(redirected.recording.available).toBe(true);
    const response = await play(
      new Request(`vr-recording://local/recording/${DEMO_REDIRECTED_SID}`, { headers: { Range: 'bytes=0-3' } }),
    );
    expect(response.status).toBe(206);
    expect(Buffer.from(await response.arrayBuffer()).toString('latin1')).toBe('OggS');

    await valueOf(r, 'getInteraction', DEMO_GONE_SID);
    const gone = await play(new Request(`vr-recording://local/recording/${DEMO_GONE_SID}`));
    expect(gone.status).toBe(404);
    expect(await gone.text()).toMatch(/no longer exists or has expired/);
    expect(r.session.activeWorkspace.recordingProblem(DEMO_GONE_SID)).toMatchObject({ kind: 'gone' });
    expectError(await call(r, 'getPeaks', DEMO_GONE_SID), 'not_found');
  });

  it('says why a call in progress cannot be played', async () => {
    const r = rig();
    await call(r, 'openDemo');
    const interaction = await valueOf(r, 'getInteraction', IN_PROGRESS_SID);
    expect(interaction.status).toBe('in_progress');
    expect(interaction.recording).toEqual({ available: false, reason: 'This interaction has no recording.' });
  });

  it('reports an unknown interaction as not_found, with the SID and the workspace', async () => {
    const r = rig();
    await call(r, 'openDemo');
    const sid = 'interaction_00000000-0000-4000-8000-000000000000';
    const error = expectError(await call(r, 'getInteraction', sid), 'not_found');
    expect(error.message).toBe(
      `Call ${sid} was not found in workspace "Demo workspace". Check the SID and that you are in the right workspace.`,
    );
    expect(error.status).toBe(404);
  });

  it('updates a phone and creates a SIP trunk', async () => {
    const r = rig();
    await call(r, 'openDemo');
    const updated = await call(r, 'updatePhone', MAIN_LINE, { inboundAgentId: AGENT });
    expect(updated).toMatchObject({
      ok: true,
      value: { number: MAIN_LINE, inboundAgentId: AGENT, name: 'Main line — Brightsmile Dental' },
    });
    const trunk = await valueOf(r, 'createSipTrunk', {
      name: 'Lab PBX',
      terminationUri: 'sip:lab.example.com',
      sipUsername: 'lab',
      sipPassword: 'pw-1',
    });
    expect(trunk).toMatchObject({ name: 'Lab PBX', sipUsername: 'lab', sipPassword: 'pw-1' });
    const listed = await valueOf(r, 'listSipTrunks');
    expect(listed.map((t) => t.sid)).toContain(trunk.sid);
  });

  it('deleting a webhook twice: the second time it is already gone, not an error', async () => {
    const r = rig();
    await call(r, 'openDemo');
    expect(await call(r, 'deleteWebhook', DENTAL_WEBHOOK_SID)).toEqual({ ok: true, value: { alreadyGone: false } });
    expect(await call(r, 'deleteWebhook', DENTAL_WEBHOOK_SID)).toEqual({ ok: true, value: { alreadyGone: true } });
    expectError(await call(r, 'getWebhook', DENTAL_WEBHOOK_SID), 'not_found');
    const listed = await valueOf(r, 'listWebhooks');
    expect(listed.map((w) => w.sid)).not.toContain(DENTAL_WEBHOOK_SID);
  });

  it('deleting ".." is refused, not reported as already gone', async () => {
    const r = rig();
    await call(r, 'openDemo');
    const before = r.requests.length;
    expectError(await call(r, 'deleteWebhook', '..'), 'bad_input');
    expect(r.requests.length).toBe(before);
  });

  it('disconnect forgets the workspace; calls then ask to connect again', async () => {
    const r = rig();
    await call(r, 'openDemo');
    expect(await call(r, 'disconnect')).toMatchObject({ ok: true, value: { workspace: null, demoInteractions: [] } });
    expect(expectError(await call(r, 'listPhones'), 'bad_input').message).toMatch(/^Connect to a workspace first/);
  });
});

describe('connecting to a workspace', () => {
  it('a wrong key is unauthorized, and nothing is saved anywhere', async () => {
    const r = rig();
    const wrongKey = 'vr_wrong_key_0000000000';
    const error = expectError(
      await call(r, 'connect', { name: 'Customer', baseUrl: customer.baseUrl, apiKey: wrongKey }),
      'unauthorized',
    );
    expect(error.status).toBe(401);
    expect(error.message).not.toContain(wrongKey);
    expect(r.secretWrites).toEqual([]);
    expect(fs.existsSync(r.settingsFile)).toBe(false);
    expect(await call(r, 'getSession')).toMatchObject({ ok: true, value: { workspace: null, demoInteractions: [] } });
  });

  it('a base URL that is not /v1 or sends a key in clear text is refused before any request', async () => {
    const r = rig();
    const notV1 = expectError(
      await call(r, 'connect', { name: 'x', baseUrl: `${customer.baseUrl}/phones`, apiKey: CUSTOMER_KEY }),
      'bad_input',
    );
    expect(notV1.message).toMatch(/must end with \/v1/);
    const clear = expectError(
      await call(r, 'connect', { name: 'x', baseUrl: 'http://api.example.com/v1', apiKey: CUSTOMER_KEY }),
      'bad_input',
    );
    expect(clear.message).toMatch(/https/);
    expect(r.requests).toEqual([]);
    expect(r.secretWrites).toEqual([]);
  });

  it('the right key goes to the secret store and never into the settings file', async () => {
    const r = rig();
    const info = await valueOf(r, 'connect', {
      name: '  Customer  ',
      baseUrl: `${customer.baseUrl}/`,
      apiKey: ` ${CUSTOMER_KEY} `,
    });
    const workspace = info.workspace!;
    expect(workspace).toMatchObject({ name: 'Customer', baseUrl: customer.baseUrl, isDemo: false });
    expect(JSON.stringify(info)).not.toContain(CUSTOMER_KEY);

    expect(r.secretWrites).toEqual([[keyAccount(workspace), CUSTOMER_KEY]]);
    expect(await r.secrets.get(keyAccount(workspace))).toBe(CUSTOMER_KEY);
    const file = fs.readFileSync(r.settingsFile, 'utf8');
    expect(file).toContain(customer.baseUrl);
    expect(file).not.toContain(CUSTOMER_KEY);

    const phones = await valueOf(r, 'listPhones');
    expect(phones.length).toBeGreaterThan(0);
    expect(r.requests.every((request) => request.includes(customer.baseUrl))).toBe(true);
  });

  it('the next start restores the workspace from the settings file and the secret store', async () => {
    const first = rig();
    const connected = await valueOf(first, 'connect', {
      name: 'Customer',
      baseUrl: customer.baseUrl,
      apiKey: CUSTOMER_KEY,
    });

    // A new session over the same folder, with a secret store holding the saved key.
    const second = rig(first.settingsDir);
    await second.secrets.set(keyAccount(connected.workspace!), CUSTOMER_KEY);
    expect(await call(second, 'getSession')).toEqual({ ok: true, value: connected });
    expect((await call(second, 'getPhone', MAIN_LINE)).ok).toBe(true);
  });
});

describe('not found in a named workspace', () => {
  const UNKNOWN_SID = 'interaction_0badc0de-0000-4000-8000-000000000000';
  const UNKNOWN_NUMBER = '+14155550999';
  const UNKNOWN_TRUNK = 'sip_00000000-0000-4000-8000-000000000000';
  const UNKNOWN_WEBHOOK = 'wh_00000000-0000-4000-8000-000000000000';

  it('a 404 on a SID or number says what was looked up and in which workspace', async () => {
    const r = rig();
    await call(r, 'connect', { name: 'Production', baseUrl: customer.baseUrl, apiKey: CUSTOMER_KEY });
    const cases: [ApiMethod, unknown[], string][] = [
      [
        'getInteraction',
        [UNKNOWN_SID],
        `Call ${UNKNOWN_SID} was not found in workspace "Production". Check the SID and that you are in the right workspace.`,
      ],
      [
        'getPhone',
        [UNKNOWN_NUMBER],
        `Phone number ${UNKNOWN_NUMBER} was not found in workspace "Production". Check the number and that you are in the right workspace.`,
      ],
      [
        'updatePhone',
        [UNKNOWN_NUMBER, { name: 'Front desk' }],
        `Phone number ${UNKNOWN_NUMBER} was not found in workspace "Production". Check the number and that you are in the right workspace.`,
      ],
      [
        'getSipTrunk',
        [UNKNOWN_TRUNK],
        `SIP trunk ${UNKNOWN_TRUNK} was not found in workspace "Production". Check the SID and that you are in the right workspace.`,
      ],
      [
        'getWebhook',
        [UNKNOWN_WEBHOOK],
        `Webhook ${UNKNOWN_WEBHOOK} was not found in workspace "Production". Check the SID and that you are in the right workspace.`,
      ],
    ];
    for (const [method, args, message] of cases) {
      const error = expectError(await call(r, method, ...args), 'not_found');
      expect(error.message).toBe(message);
      expect(error.status).toBe(404);
    }
  });

  it('names the workspace as it is called now, after a rename or a switch', async () => {
    const r = rig();
    await call(r, 'openDemo');
    await call(r, 'renameWorkspace', 'demo', 'Training');
    expect(expectError(await call(r, 'getPhone', UNKNOWN_NUMBER), 'not_found').message).toContain(
      'in workspace "Training"',
    );
    await call(r, 'connect', { name: 'Customer sandbox', baseUrl: customer.baseUrl, apiKey: CUSTOMER_KEY });
    expect(expectError(await call(r, 'getPhone', UNKNOWN_NUMBER), 'not_found').message).toContain(
      'in workspace "Customer sandbox"',
    );
  });

  it('a 404 on delete is still "already gone", not an error', async () => {
    const r = rig();
    await call(r, 'openDemo');
    expect(await call(r, 'deleteWebhook', UNKNOWN_WEBHOOK)).toEqual({ ok: true, value: { alreadyGone: true } });
  });
});

describe('workspace methods', () => {
  it('are served by the session: rename, preferences, test connection and remove', async () => {
    const r = rig();
    const connected = await valueOf(r, 'connect', {
      name: 'Customer',
      baseUrl: customer.baseUrl,
      apiKey: CUSTOMER_KEY,
    });
    const id = connected.workspace!.id;
    expect((await valueOf(r, 'renameWorkspace', id, '  Customer (EU)  ')).workspace?.name).toBe('Customer (EU)');
    expect((await valueOf(r, 'setPreferences', { requestTimeoutSeconds: 30 })).preferences).toEqual({
      requestTimeoutSeconds: 30,
    });
    expect(await call(r, 'testWorkspace', id)).toMatchObject({ ok: true, value: { ok: true } });
    expect(expectError(await call(r, 'switchWorkspace', 'no-such-workspace'), 'bad_input').message).toMatch(
      /no longer exists/,
    );
    const removed = await valueOf(r, 'removeWorkspace', id);
    expect(removed).toMatchObject({ workspace: null, workspaces: [] });
    expect(await r.secrets.get(keyAccount({ id, baseUrl: customer.baseUrl }))).toBeNull();
    const file = fs.readFileSync(r.settingsFile, 'utf8');
    expect(file).not.toContain(CUSTOMER_KEY);
    expect(JSON.parse(file)).toMatchObject({
      workspaces: [],
      activeWorkspaceId: null,
      preferences: { requestTimeoutSeconds: 30 },
    });
  });
});

describe('unexpected failures', () => {
  it('an exception inside a handler comes back as a server error, not a throw, and is reported', async () => {
    const dir = temporaryFolder('vr-handlers-broken-');
    // settings.json is a folder: reading it throws a plain Error, not an ApiError.
    await mkdir(path.join(dir, 'settings.json'));
    const r = rig(dir);
    const result = await call(r, 'getSession');
    const error = expectError(result, 'server');
    expect(error.message).toBe(
      'Something went wrong inside Voice Review. Try again; if it keeps happening, restart the app.',
    );
    expect(r.unexpected.map(([method]) => method)).toEqual(['getSession']);
    expect(r.unexpected[0]![1]).toBeInstanceOf(Error);
  });

  it('errors are plain data that survive IPC (no Error instances)', async () => {
    const r = rig();
    const result = await call(r, 'listPhones');
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.error).not.toBeInstanceOf(Error);
      expect(Object.keys(result.error).sort()).toEqual(['kind', 'message']);
    }
  });
});
