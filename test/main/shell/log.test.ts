/**
 * The main log (electron/main/shell/log.ts): what redaction removes, and the real electron-log file
 * transport writing, rotating and redacting in a temp folder.
 */
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import nodeLog from 'electron-log/node';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../electron/shared/errors';
import {
  configureMainLog,
  REDACTED,
  redact,
  registeredSecrets,
  registerIpcSecrets,
  registerSecret,
  registeringSecrets,
  rotateLogFile,
} from '../../../electron/main/shell/log';
import { createMemoryStore } from '../../../electron/main/keys/keychain';
import { temporaryFolder } from '../../fixtures/temporary-folder';

const KEY = 'vr_live_LOGTEST_KEY_0001';

const asText = (value: unknown) =>
  JSON.stringify(value, (_k, v: unknown) =>
    v instanceof Error ? { ...Object.fromEntries(Object.entries(v)), message: v.message, stack: v.stack } : v,
  );

describe('redact', () => {
  it('removes known secrets from strings, also URL-encoded and JSON-escaped', () => {
    const weird = 'k/ey"with+chars&=';
    const out = redact(
      [`key is ${KEY}`, `https://x.test/?k=${encodeURIComponent(weird)}`, JSON.stringify({ note: weird })],
      [KEY, weird],
    ) as string[];
    expect(out[0]).toBe(`key is ${REDACTED}`);
    for (const line of out) {
      expect(line).not.toContain(KEY);
      expect(line).not.toContain(weird);
      expect(line).not.toContain(encodeURIComponent(weird));
    }
  });

  it('removes Bearer tokens and Authorization header values it was never told about', () => {
    const lines = [
      'GET /v1/phones Authorization: Bearer abc.def-123',
      '{"headers":{"authorization":"Bearer zzz999"}}',
      "{ authorization: [ 'Basic dXNlcjpwYXNz' ] }",
      'sent bearer tok_12345 to the server',
    ];
    const out = redact(lines, []) as string[];
    expect(out.join('\n')).not.toMatch(/abc\.def-123|zzz999|dXNlcjpwYXNz|tok_12345/);
    expect(out[0]).toBe(`GET /v1/phones Authorization: ${REDACTED}`);
    expect(out[3]).toBe(`sent bearer ${REDACTED} to the server`);
  });

  it('removes sip_password / sipPassword and api_key / apiKey values in JSON and key=value text', () => {
    const lines = [
      '{"name":"Main","sip_password":"hunter2secret","sip_username":"alice"}',
      'sipPassword=hunter2secret&sip_username=alice',
      "{ sipPassword: 'hunter2secret', name: 'Main' }",
      'webhook {"api_key": "whk_secret_value", "url": "https://hooks.example.com"}',
      'apiKey: whk_secret_value',
      'https://api.example.com/v1/x?api_key=whk_secret_value&page=2',
    ];
    const out = (redact(lines, []) as string[]).join('\n');
    expect(out).not.toContain('hunter2secret');
    expect(out).not.toContain('whk_secret_value');
    // What is not secret stays readable.
    expect(out).toContain('"sip_username":"alice"');
    expect(out).toContain('https://hooks.example.com');
    expect(out).toContain('page=2');
  });

  it('redacts objects deeply: secret fields by name, secrets in any string, without touching the input', () => {
    const input = {
      workspace: { name: 'Prod', apiKey: 'anything-at-all' },
      trunk: { sip_password: 12345678, sipUsername: 'bob' },
      list: [{ note: `the key ${KEY}` }, new Map([['Authorization', `Bearer ${KEY}`]])],
      deep: { a: { b: { c: { d: { e: KEY } } } } },
    };
    const snapshot = JSON.stringify(input.workspace);
    const out = redact(input, [KEY]) as typeof input;
    expect(out.workspace).toEqual({ name: 'Prod', apiKey: REDACTED });
    expect(out.trunk).toEqual({ sip_password: REDACTED, sipUsername: 'bob' });
    expect(asText(out)).not.toContain(KEY);
    expect(String((out.list[1] as Map<string, string>).get('Authorization'))).toBe(REDACTED);
    expect(JSON.stringify(input.workspace)).toBe(snapshot);
  });

  it('redacts Error messages, stacks, fields and causes, keeping them Errors', () => {
    const cause = new Error(`upstream said Bearer ${KEY}`);
    const err = new ApiError({
      kind: 'unauthorized',
      status: 401,
      message: `rejected ${KEY}`,
      serverMessage: `got Authorization: Bearer ${KEY}`,
    });
    (err as unknown as { cause: unknown }).cause = cause;
    const out = redact(err, [KEY]) as Error & { kind: string; status: number; serverMessage: string; cause: Error };
    expect(out).toBeInstanceOf(Error);
    expect(out.name).toBe('ApiError');
    expect(out.message).toBe(`rejected ${REDACTED}`);
    expect(out.stack).not.toContain(KEY);
    expect(out.stack).toContain('rejected');
    expect(out.kind).toBe('unauthorized');
    expect(out.status).toBe(401);
    expect(out.serverMessage).not.toContain(KEY);
    expect(out.cause.message).not.toContain(KEY);
    expect(err.message).toContain(KEY);
  });

  it('handles cycles, Headers and URLs, and leaves non-text values alone', () => {
    const cyclic: Record<string, unknown> = { name: 'loop' };
    cyclic.self = cyclic;
    const headers = new Headers({ Authorization: `Bearer ${KEY}`, Accept: 'application/json' });
    const url = new URL(`https://api.example.com/v1/x?api_key=${KEY}`);
    const out = redact([cyclic, headers, url, 42, null, undefined, true], [KEY]) as unknown[];
    const loop = out[0] as Record<string, unknown>;
    expect(loop.self).toBe(loop);
    expect(String(out[1])).not.toContain(KEY);
    expect(String(out[1])).toContain('application/json');
    expect(String(out[2])).not.toContain(KEY);
    expect(out.slice(3)).toEqual([42, null, undefined, true]);
  });

  it('ignores secrets too short to be keys (they would wreck the log)', () => {
    expect(redact('abc and 12:00', ['abc', ''])).toBe('abc and 12:00');
  });
});

describe('secret registry', () => {
  it('registers keys read from or written to a key store, and keys and SIP passwords sent over IPC', async () => {
    const store = registeringSecrets(createMemoryStore());
    await store.set('ws-1', 'vr_live_STORED_KEY_777');
    expect(registeredSecrets()).toContain('vr_live_STORED_KEY_777');
    const plain = createMemoryStore();
    await plain.set('ws-2', 'vr_live_READ_KEY_888');
    expect(await registeringSecrets(plain).get('ws-2')).toBe('vr_live_READ_KEY_888');
    expect(registeredSecrets()).toContain('vr_live_READ_KEY_888');

    registerIpcSecrets('connect', [{ name: 'x', baseUrl: 'https://a.test', apiKey: ' vr_live_TYPED_KEY_999 ' }]);
    registerIpcSecrets('changeWorkspaceKey', ['ws-1', 'vr_live_CHANGED_KEY_000']);
    registerIpcSecrets('createSipTrunk', [
      { name: 'T', terminationUri: 'sip:x@y', sipUsername: 'u', sipPassword: 'trunk-pass-42' },
    ]);
    registerIpcSecrets('connect', [null]);
    registerIpcSecrets('createSipTrunk', ['not an object']);
    expect(registeredSecrets()).toEqual(
      expect.arrayContaining(['vr_live_TYPED_KEY_999', 'vr_live_CHANGED_KEY_000', 'trunk-pass-42']),
    );
  });
});

describe('the main log file', () => {
  let logCount = 0;

  function freshLog(options: { maxSizeBytes?: number; keepArchives?: number } = {}) {
    const dir = temporaryFolder('vr-log-');
    const logger = configureMainLog(nodeLog.create({ logId: `test-${String(++logCount)}-${Date.now()}` }), {
      dir,
      consoleLevel: 'warn',
      ...options,
    });
    return { dir, logger };
  }

  const allLogText = (dir: string) =>
    readdirSync(dir)
      .map((name) => readFileSync(join(dir, name), 'utf8'))
      .join('\n');

  it('writes redacted lines to <dir>/main.log, readable only by the user', () => {
    const { dir, logger } = freshLog();
    registerSecret('vr_live_FILE_KEY_4242');
    // The console transport's output, as it would be printed (electron-log calls writeFn last).
    const printed: string[] = [];
    logger.transports.console.writeFn = ({ message }) => {
      printed.push(message.data.map((d: unknown) => (typeof d === 'string' ? d : JSON.stringify(d))).join(' '));
    };
    logger.info('Connected with key vr_live_FILE_KEY_4242');
    logger.warn('Request failed', { headers: { Authorization: 'Bearer vr_live_FILE_KEY_4242' } });
    logger.error(new Error('boom vr_live_FILE_KEY_4242'));
    logger.info('created trunk {"sip_password":"trunk-secret-55","name":"Main"}');
    const text = readFileSync(join(dir, 'main.log'), 'utf8');
    expect(text).toContain('Connected with key [redacted]');
    expect(text).toContain('boom [redacted]');
    expect(text).toContain('"name":"Main"');
    expect(text).not.toContain('vr_live_FILE_KEY_4242');
    expect(text).not.toContain('trunk-secret-55');
    expect(statSync(join(dir, 'main.log')).mode & 0o077).toBe(0);
    // The console got the warning and the error (its level is 'warn'), redacted as well.
    expect(printed.join('\n')).toContain('Request failed');
    expect(printed.join('\n')).not.toContain('vr_live_FILE_KEY_4242');
    expect(printed).toHaveLength(2);
  });

  it('rotates at the size limit and keeps only the newest archives', () => {
    const { dir, logger } = freshLog({ maxSizeBytes: 2_000, keepArchives: 2 });
    for (let i = 0; i < 200; i++) logger.info(`line ${i} ${'x'.repeat(60)}`);
    const files = readdirSync(dir).sort();
    expect(files).toEqual(['main.1.log', 'main.2.log', 'main.log']);
    for (const name of files) expect(statSync(join(dir, name)).size).toBeLessThan(2_000 + 200);
    expect(readFileSync(join(dir, 'main.log'), 'utf8')).toContain('line 199');
    expect(allLogText(dir)).not.toContain('line 0 ');
  });

  it('rotateLogFile shifts archives and drops the oldest', () => {
    const dir = temporaryFolder('vr-rotate-');
    const write = (name: string, text: string) => writeFileSync(join(dir, name), text);
    write('main.log', 'current');
    write('main.1.log', 'one');
    write('main.2.log', 'two');
    write('main.3.log', 'three');
    rotateLogFile(join(dir, 'main.log'), 3);
    expect(readdirSync(dir).sort()).toEqual(['main.1.log', 'main.2.log', 'main.3.log']);
    expect(readFileSync(join(dir, 'main.1.log'), 'utf8')).toBe('current');
    expect(readFileSync(join(dir, 'main.2.log'), 'utf8')).toBe('one');
    expect(readFileSync(join(dir, 'main.3.log'), 'utf8')).toBe('two');
  });
});

describe('redact: fragments and encodings of a key', () => {
  const LONG_KEY = 'vr_live_Fr4gM3ntK3y_7QzX9wLp2Rt8';

  it('removes any 12+ character run of a key, such as a key cut short in a server message', () => {
    const cut = LONG_KEY.slice(5, 17);
    const out = redact(
      [`server said: key ${cut}… is not valid`, `tail ${LONG_KEY.slice(-14)}`],
      [LONG_KEY],
    ) as string[];
    expect(out[0]).toBe(`server said: key ${REDACTED}… is not valid`);
    expect(out[1]).toBe(`tail ${REDACTED}`);
  });

  it('keeps runs shorter than 12 characters (too common to be the key)', () => {
    const short = LONG_KEY.slice(3, 14);
    expect(redact(`prefix ${short} suffix`, [LONG_KEY])).toBe(`prefix ${short} suffix`);
  });

  it('removes the key upper-cased, lower-cased, and fragments of either', () => {
    const out = redact(
      [LONG_KEY.toUpperCase(), LONG_KEY.toLowerCase(), `x ${LONG_KEY.toUpperCase().slice(2, 20)} y`],
      [LONG_KEY],
    ) as string[];
    expect(out).toEqual([REDACTED, REDACTED, `x ${REDACTED} y`]);
  });

  it('removes the key in base64, standard and URL-safe, whole, inside Basic credentials, or cut short', () => {
    const b64 = (text: string) => Buffer.from(text).toString('base64');
    const urlSafe = (text: string) => b64(text).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
    const keyWithPlus = 'vr_live_>>>?ab~~~cd>>>?ef~~~gh';
    expect(b64(keyWithPlus)).toMatch(/[+/]/);
    const lines = [
      `token ${b64(LONG_KEY)}`,
      `creds ${b64(`user:${LONG_KEY}`)}`,
      `cut ${b64(LONG_KEY).slice(4, 24)}`,
      `safe ${urlSafe(keyWithPlus)}`,
      `std ${b64(keyWithPlus)}`,
    ];
    const out = redact(lines, [LONG_KEY, keyWithPlus]) as string[];
    for (const line of out) {
      expect(line).toContain(REDACTED);
      expect(line).not.toMatch(/[A-Za-z0-9+/_-]{12,}/);
    }
  });

  it('redacts fragments through the log hook, for keys registered at run time', () => {
    registerSecret(LONG_KEY);
    expect(redact(`cut ${LONG_KEY.slice(0, 12)}`, registeredSecrets())).toBe(`cut ${REDACTED}`);
  });
});

describe('control characters from a server', () => {
  it('are escaped in every logged line, so a hostile header cannot forge lines or drive a terminal', () => {
    const dir = temporaryFolder('vr-log-controls-');
    const logger = configureMainLog(nodeLog.create({ logId: `test-controls-${Date.now()}` }), {
      dir,
      consoleLevel: false,
    });
    const header = 'audio/wav\r\n[2026-01-01 00:00:00.000] [info] Connected\x1b[2J\u2028\u202eevil';
    logger.warn(`Recording answered with Content-Type ${header}`);
    logger.warn('Recording failed', { contentType: header });
    logger.error(new Error(`Bad recording: ${header}`));
    const text = readFileSync(join(dir, 'main.log'), 'utf8');
    expect(text).toContain(
      'Content-Type audio/wav\\r\\n[2026-01-01 00:00:00.000] [info] Connected\\u001b[2J\\u2028\\u202eevil',
    );
    // eslint-disable-next-line no-control-regex -- the characters the log must not hold
    expect(text).not.toMatch(/[\x1b\r\u2028\u202e]/);
    // Only warnings and errors were logged: a line that starts as an info line was forged.
    expect(text).not.toMatch(/^\[[^\]]*\] \[info\]/m);
    expect(text.match(/\[info\] Connected/g)).toHaveLength(3);
  });
});
