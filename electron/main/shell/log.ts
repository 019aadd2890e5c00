/**
 * The main process's log, in the user-data folder, rotated, with every known key, `Authorization`
 * headers and `sip_password` redacted: the API key is never in a log, `sip_password` never in logs.
 *
 * electron-log 5 writes `<userData>/logs/main.log`, rotated at about 1 MB into `main.1.log` ...
 * `main.3.log`. A hook runs on every message, for every transport (file, console, ipc), before
 * anything is formatted, and replaces:
 * - every secret registered with {@link registerSecret} (API keys read from or written to key
 *   storage, keys typed into Connect / Change key, SIP passwords sent to the API), also in its
 *   URL-encoded and JSON-escaped forms;
 * - any run of 12 or more characters taken from such a secret, from its base64 form (standard or
 *   URL-safe, as in a Basic header) or from either in another letter case: a key cut short by a
 *   message limit, upper-cased or encoded is still removed;
 * - `Bearer <token>` and the value of any `Authorization` header;
 * - the values of `sip_password` / `sipPassword` / `password`, `api_key` / `apiKey` fields, in
 *   objects (any depth) and in text (JSON, `key=value`, `key: value`).
 *
 * Then control characters are escaped ({@link escapeControlCharacters}): text a server sent (a
 * recording's headers, an error body) cannot end a log line early, forge the next one or send
 * terminal escape sequences to whoever reads the log (`\x1b` is written as `\u001b`, a line
 * break as `\n`). Only an Error's stack keeps its own line breaks between frames.
 *
 * The configuration takes the logger as an argument (electron-log/main in Electron, a logger
 * from electron-log/node in tests), so this file imports nothing from Electron.
 */
import { readdirSync, renameSync, rmSync } from 'node:fs';
import { basename, dirname, extname, join } from 'node:path';
import { inspect } from 'node:util';
import type Logger from 'electron-log';
import type { ApiMethod } from '$shared/contract';
import { fragmentGrams, redactFragments } from './secret-fragments';

/** What a redacted value is replaced with. */
export const REDACTED = '[redacted]';

/** Secrets shorter than this are not registered: replacing 1-3 characters everywhere would wreck the log. */
const MIN_SECRET_LENGTH = 4;

const registry = new Set<string>();

/**
 * Registers a secret (an API key, a SIP password) so that it is removed from every later log
 * message, wherever it appears. Call it whenever a key is read from or written to key storage and
 * whenever the renderer sends one. Whitespace around the value is ignored; values shorter than 4
 * characters are ignored. Secrets stay registered for the life of the process (a key that was
 * replaced must stay out of the log too).
 */
export function registerSecret(value: string | null | undefined): void {
  if (typeof value !== 'string') return;
  const secret = value.trim();
  if (secret.length >= MIN_SECRET_LENGTH) registry.add(secret);
}

/** The registered secrets (for the redaction hook and tests). */
export function registeredSecrets(): readonly string[] {
  return [...registry];
}

/**
 * Registers the secrets an IPC call carries before it is handled: the key of `connect` and
 * `changeWorkspaceKey`, the SIP password of `createSipTrunk` and the text of `copySecret`. Arguments are untrusted: anything
 * of the wrong shape is ignored (the handler's own validation refuses it).
 */
export function registerIpcSecrets(method: ApiMethod, args: readonly unknown[]): void {
  const field = (value: unknown, key: string): unknown =>
    typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[key] : undefined;
  const asString = (value: unknown) => (typeof value === 'string' ? value : undefined);
  if (method === 'connect') registerSecret(asString(field(args[0], 'apiKey')));
  if (method === 'changeWorkspaceKey') registerSecret(asString(args[1]));
  if (method === 'createSipTrunk') registerSecret(asString(field(args[0], 'sipPassword')));
  if (method === 'copySecret') registerSecret(asString(args[0]));
  if (method === 'answerProxySignIn') registerSecret(asString(field(args[1], 'password')));
}

/**
 * A key store wrapped so every key it reads or writes is registered with {@link registerSecret}
 * first. All other members (e.g. `status`, `useSafeStorage` of a KeyStorage) are the store's own.
 */
export function registeringSecrets<
  T extends { get(account: string): Promise<string | null>; set(account: string, secret: string): Promise<void> },
>(store: T): T {
  const wrapped = Object.create(store) as T;
  wrapped.get = async (account) => {
    const secret = await store.get(account);
    registerSecret(secret);
    return secret;
  };
  wrapped.set = async (account, secret) => {
    registerSecret(secret);
    return store.set(account, secret);
  };
  return wrapped;
}

/** Field names whose values are always secret, whatever they hold (compared without `_`/`-`, any case). */
const SECRET_FIELDS = new Set(['apikey', 'sippassword', 'password', 'authorization', 'xapikey', 'proxyauthorization']);

function isSecretField(name: string): boolean {
  return SECRET_FIELDS.has(name.replace(/[-_]/g, '').toLowerCase());
}

/** `Authorization: <anything up to the end of the value>` in headers, JSON or inspected objects. */
const AUTHORIZATION_VALUE = /((?:proxy-)?authorization["']?\s*[:=]\s*(?:\[\s*)?["']?)([^"'\r\n,}\]]+)/gi;
/** `Bearer <token>` anywhere. */
const BEARER_TOKEN = /\b(Bearer\s+)(?!\[)[^\s"',;}\]]+/gi;
/** `sip_password`, `sipPassword`, `password`, `api_key`, `apiKey`, `x-api-key` followed by `:` or `=` and a value. */
const SECRET_ASSIGNMENT =
  /((?:sip[_-]?password|password|api[_-]?key|x-api-key)["']?\s*[:=]\s*)("(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|(?!\[redacted\])[^\s,;&}\]]+)/gi;

/** The text forms a secret may take in a message: as is, URL-encoded, JSON-escaped. */
function secretForms(secrets: Iterable<string>): string[] {
  const forms = new Set<string>();
  for (const raw of secrets) {
    if (typeof raw !== 'string') continue;
    const secret = raw.trim();
    if (secret.length < MIN_SECRET_LENGTH) continue;
    forms.add(secret);
    forms.add(encodeURIComponent(secret));
    forms.add(JSON.stringify(secret).slice(1, -1));
  }
  // Longest first, so a secret that contains another is replaced whole.
  return [...forms].sort((a, b) => b.length - a.length);
}

/** What redaction searches for: the exact forms of the secrets and the grams of their fragments. */
interface SecretPatterns {
  forms: readonly string[];
  grams: ReadonlySet<string>;
}

/**
 * C0 and C1 controls, DEL, line and paragraph separators and the bidirectional formatting
 * characters (which can make a line read differently from what it holds). Tab is kept.
 */
// eslint-disable-next-line no-control-regex
const CONTROL_CHARACTERS = /[\u0000-\u0008\u000a-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]/g;

/**
 * `text` with every control character written as an escape: `\n` and `\r` as those two
 * characters each, anything else as `\uXXXX` (e.g. ESC as `\u001b`). Tab stays.
 */
export function escapeControlCharacters(text: string): string {
  return text.replace(CONTROL_CHARACTERS, (c) => {
    if (c === '\n') return '\\n';
    if (c === '\r') return '\\r';
    return `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
  });
}

/** A stack's frames start on a line of their own: `\n    at ...`. */
const STACK_FRAME_BREAK = /\n(?=\s+at\s)/;

/**
 * An Error's stack escaped for the log: its head (`Name: message`, which may hold server text)
 * escaped whole, the frames after it each on their own line.
 */
function escapeStack(stack: string, head: string): string {
  const rest = stack.startsWith(head) ? stack.slice(head.length) : null;
  if (rest !== null && (rest === '' || rest.startsWith('\n'))) {
    const frames = rest === '' ? [] : rest.slice(1).split('\n').map(escapeControlCharacters);
    return [escapeControlCharacters(head), ...frames].join('\n');
  }
  return stack.split(STACK_FRAME_BREAK).map(escapeControlCharacters).join('\n');
}

/** How {@link redactDeep} treats text: the secret patterns, and whether controls are escaped. */
interface RedactContext extends SecretPatterns {
  escapeControls: boolean;
}

/** Redacted text, its controls escaped when the context says so. */
function cleanText(text: string, context: RedactContext): string {
  const redacted = redactText(text, context);
  return context.escapeControls ? escapeControlCharacters(redacted) : redacted;
}

function redactText(text: string, patterns: SecretPatterns): string {
  // Patterns first (they see the text as it was), then every form of every known secret.
  let out = text.replace(AUTHORIZATION_VALUE, `$1${REDACTED}`);
  out = out.replace(BEARER_TOKEN, `$1${REDACTED}`);
  out = out.replace(SECRET_ASSIGNMENT, (_match, key: string, value: string) => {
    const quote = value.startsWith('"') ? '"' : value.startsWith("'") ? "'" : '';
    return `${key}${quote}${REDACTED}${quote}`;
  });
  for (const form of patterns.forms) out = out.split(form).join(REDACTED);
  return redactFragments(out, patterns.grams, REDACTED);
}

const MAX_DEPTH = 8;

function redactDeep(value: unknown, patterns: RedactContext, depth: number, seen: WeakMap<object, unknown>): unknown {
  if (typeof value === 'string') return cleanText(value, patterns);
  if (typeof value !== 'object' || value === null) return value;
  if (seen.has(value)) return seen.get(value);
  if (depth >= MAX_DEPTH) return '[nested too deep]';

  if (value instanceof Error) {
    const message = redactText(value.message, patterns);
    const copy = new Error(patterns.escapeControls ? escapeControlCharacters(message) : message);
    seen.set(value, copy);
    copy.name = value.name;
    if (typeof value.stack === 'string') {
      const stack = redactText(value.stack, patterns);
      copy.stack = patterns.escapeControls ? escapeStack(stack, `${value.name}: ${message}`) : stack;
    }
    for (const [key, field] of Object.entries(value)) {
      (copy as unknown as Record<string, unknown>)[key] = isSecretField(key)
        ? REDACTED
        : redactDeep(field, patterns, depth + 1, seen);
    }
    if ('cause' in value) copy.cause = redactDeep(value.cause, patterns, depth + 1, seen);
    return copy;
  }
  if (Array.isArray(value)) {
    const copy: unknown[] = [];
    seen.set(value, copy);
    for (const item of value) copy.push(redactDeep(item, patterns, depth + 1, seen));
    return copy;
  }
  if (value instanceof Date || ArrayBuffer.isView(value) || value instanceof ArrayBuffer) return value;
  if (value instanceof Map) {
    const copy = new Map<unknown, unknown>();
    seen.set(value, copy);
    for (const [key, field] of value) {
      const secretKey = typeof key === 'string' && isSecretField(key);
      copy.set(
        redactDeep(key, patterns, depth + 1, seen),
        secretKey ? REDACTED : redactDeep(field, patterns, depth + 1, seen),
      );
    }
    return copy;
  }
  if (value instanceof Set) {
    const copy = new Set<unknown>();
    seen.set(value, copy);
    for (const item of value) copy.add(redactDeep(item, patterns, depth + 1, seen));
    return copy;
  }
  const proto = Object.getPrototypeOf(value) as unknown;
  if (proto !== Object.prototype && proto !== null) {
    // Headers, Request, URL, class instances: their state is not in own fields, so log what
    // util.inspect shows, redacted as text.
    return cleanText(inspect(value, { depth: 4, breakLength: Infinity }), patterns);
  }
  const copy: Record<string, unknown> = {};
  seen.set(value, copy);
  for (const [key, field] of Object.entries(value)) {
    copy[cleanText(key, patterns)] = isSecretField(key) ? REDACTED : redactDeep(field, patterns, depth + 1, seen);
  }
  return copy;
}

/**
 * A copy of `value` with every secret removed (see the file comment for what counts): strings
 * are rewritten; Errors become Errors with redacted message, stack, fields and cause; arrays,
 * plain objects, Maps and Sets are copied deeply (cycles kept, depth capped at 8); other objects
 * (Headers, URL, class instances) become their redacted `util.inspect` text. Never throws, never
 * mutates `value`.
 * @param secrets the known secrets (normally {@link registeredSecrets})
 */
export function redact(value: unknown, secrets: Iterable<string>): unknown {
  return redactDeep(value, { ...patternsOf([...secrets]), escapeControls: false }, 0, new WeakMap());
}

/**
 * {@link redact}, then every control character in the copy's text escaped
 * ({@link escapeControlCharacters}; an Error's stack keeps the line breaks between its frames):
 * what the log writes.
 */
export function redactForLog(value: unknown, secrets: Iterable<string>): unknown {
  return redactDeep(value, { ...patternsOf([...secrets]), escapeControls: true }, 0, new WeakMap());
}

/** The patterns last built, and the secrets they were built from (the registry rarely changes). */
let lastPatterns: { key: string; patterns: SecretPatterns } | null = null;

/** The {@link SecretPatterns} of `secrets`, reused while the same secrets are asked for. */
function patternsOf(secrets: readonly string[]): SecretPatterns {
  const key = JSON.stringify(secrets);
  if (lastPatterns?.key !== key) {
    lastPatterns = { key, patterns: { forms: secretForms(secrets), grams: fragmentGrams(secrets) } };
  }
  return lastPatterns.patterns;
}

/**
 * An electron-log hook that redacts every argument of every message with the secrets
 * `getSecrets()` returns at that moment, and escapes control characters ({@link redactForLog}). Returns a new message; the original is not changed.
 */
function createRedactionHook(getSecrets: () => Iterable<string> = registeredSecrets): Logger.Hook {
  return (message) => ({ ...message, data: message.data.map((item) => redactForLog(item, getSecrets())) });
}

/**
 * Rotates `<dir>/main.log`: `main.(keep-1).log` is dropped, each `main.N.log` becomes
 * `main.(N+1).log`, and the current file becomes `main.1.log`. Synchronous, as electron-log
 * requires of `archiveLogFn`. Failures are ignored (the log must never break the app);
 * electron-log then starts the file afresh anyway.
 * @param keep how many archives to keep (at least 1)
 */
export function rotateLogFile(path: string, keep: number): void {
  const ext = extname(path);
  const stem = basename(path, ext);
  const dir = dirname(path);
  const archive = (n: number) => join(dir, `${stem}.${n}${ext}`);
  const count = Math.max(1, Math.floor(keep));
  try {
    for (const name of readdirSync(dir)) {
      const match = new RegExp(`^${escapeRegExp(stem)}\\.(\\d+)${escapeRegExp(ext)}$`).exec(name);
      if (match && Number(match[1]) >= count) rmSync(join(dir, name), { force: true });
    }
    for (let n = count - 1; n >= 1; n--) {
      try {
        renameSync(archive(n), archive(n + 1));
      } catch {
        // No archive with this number yet.
      }
    }
    renameSync(path, archive(1));
  } catch {
    // Rotation is best effort.
  }
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Options of {@link configureMainLog}. */
export interface MainLogOptions {
  /** Folder of the log files: `<userData>/logs` in the app, a temp dir in tests. */
  dir: string;
  /** Log file name; default `main.log`. */
  fileName?: string;
  /** Size at which the file is rotated, in bytes; default 1 MiB. */
  maxSizeBytes?: number;
  /** Archives kept (`main.1.log` ...); default 3. */
  keepArchives?: number;
  /** Lowest level written to the console; default 'warn', false for none. */
  consoleLevel?: Logger.LevelOption;
}

/** The logger interface the rest of main uses (any electron-log logger). */
export type MainLog = Pick<Logger.LogFunctions, 'error' | 'warn' | 'info' | 'debug'>;

/**
 * Configures an electron-log logger for the main process: file at `<dir>/main.log` (mode 0600,
 * level 'info'), rotated at `maxSizeBytes` keeping `keepArchives` archives, console at
 * `consoleLevel`, no IPC (the renderer never sees main's log) and no remote transport, and the
 * redaction hook (added last, so it also sees what earlier hooks produced). Returns the logger.
 * Call it once per logger.
 */
export function configureMainLog<L extends Logger.NodeLogger>(logger: L, options: MainLogOptions): L {
  const fileName = options.fileName ?? 'main.log';
  const keep = options.keepArchives ?? 3;
  const file = logger.transports.file;
  file.resolvePathFn = () => join(options.dir, fileName);
  file.fileName = fileName;
  file.maxSize = options.maxSizeBytes ?? 1024 * 1024;
  file.archiveLogFn = (oldFile) => rotateLogFile(oldFile.path, keep);
  file.level = 'info';
  file.writeOptions = { flag: 'a', mode: 0o600, encoding: 'utf8' };
  logger.transports.console.level = options.consoleLevel ?? 'warn';
  const transports = logger.transports as Record<string, { level: Logger.LevelOption } | null | undefined>;
  for (const name of ['ipc', 'remote']) {
    const transport = transports[name];
    if (transport) transport.level = false;
  }
  logger.hooks.push(createRedactionHook());
  return logger;
}
