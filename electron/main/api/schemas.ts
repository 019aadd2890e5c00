/**
 * Response schemas for spec 2 and 4, written to tolerate what the spec leaves open:
 * unknown fields are ignored, enums (direction, type, status, role) are open strings, and any
 * optional field may be null or absent (spec 2 "Gaps"). Only what the app cannot work without
 * is required: an interaction's `sid`, a phone's `number`, a SIP trunk's and a webhook's `sid`.
 * An optional field of an interaction (or of one of its log entries) sent with the wrong type does
 * not hide the call: it is listed in `unreadable` with its raw type and holds its empty value. On
 * phones, SIP trunks and webhooks a present field of the wrong type fails the parse; the client
 * turns that into an `invalid_response` error.
 */
import { z } from 'zod';
import type { Interaction, LogEntry, Phone, SipTrunk, UnreadableField, Webhook } from '$shared/domain';
import { epochToMs, isoToMs, resolveDurationSeconds, resolveLogOffsets } from './timestamps';

const optString = z
  .string()
  .nullish()
  .transform((v) => v ?? null);
const optBool = z
  .boolean()
  .nullish()
  .transform((v) => v ?? false);
/**
 * Spec says integer / number; numeric strings are accepted too since units and types are loose.
 * A string too long for a double (it would read as Infinity) fails like any other bad number.
 */
const optNumber = z
  .union([
    z.number(),
    z
      .string()
      .trim()
      .regex(/^-?\d+(\.\d+)?$/)
      .transform(Number)
      .pipe(z.number()),
  ])
  .nullish()
  .transform((v) => v ?? null);

/** Variables are "given as strings" (spec 2); other JSON values are shown as their JSON text. */
const variablesSchema = z
  .record(z.string(), z.unknown())
  .nullish()
  .transform((vars) => {
    const out: Record<string, string> = {};
    for (const [key, value] of Object.entries(vars ?? {})) {
      out[key] = typeof value === 'string' ? value : value === null || value === undefined ? '' : jsonText(value);
    }
    return out;
  });

/** JSON text of a parsed JSON value; one nested too deeply for JSON.stringify's stack is shown as a marker. */
function jsonText(value: unknown): string {
  try {
    return JSON.stringify(value);
  } catch {
    return '[value nested too deeply to show]';
  }
}

/** A time as text: an ISO 8601 date-time with a zone, in ms since the epoch (timestamps.ts rule 1). */
const isoTime = z.string().transform((text, ctx) => {
  const ms = isoToMs(text);
  if (ms !== null) return ms;
  ctx.addIssue({ code: 'custom', message: 'not an ISO 8601 time with a zone' });
  return z.NEVER;
});

/** `started_at` / `ended_at`: epoch seconds or ms (number or numeric text), or ISO 8601 text; in ms. */
const optEpochMs = z
  .union([optNumber.transform((v) => (v === null ? null : epochToMs(v))), isoTime])
  .transform((v) => v ?? null);

/** A log `timestamp`: a number as the server sent it, or ISO 8601 text as absolute epoch ms (rule 3). */
const optLogTimestamp = z.union([optNumber, isoTime]).transform((v) => v ?? null);

/** What a field of the wrong type parses to: its JSON type, so the view can name it. */
class Unreadable {
  constructor(readonly rawType: string) {}
}

/** The JSON type of a parsed JSON value, as named in {@link UnreadableField.rawType}. */
function jsonType(value: unknown): string {
  return Array.isArray(value) ? 'array' : value === null ? 'null' : typeof value;
}

/** `schema`, or an {@link Unreadable} marker when the value does not fit it (never a failed parse). */
function lenient<T>(schema: z.ZodType<T>): z.ZodType<T | Unreadable> {
  return z
    .unknown()
    .optional()
    .transform((value) => {
      const result = schema.safeParse(value);
      return result.success ? result.data : new Unreadable(jsonType(value));
    });
}

/** Collects the unreadable fields of one record while reading its values. */
class FieldReader {
  readonly unreadable: UnreadableField[] = [];

  /** The value of `field`, or `empty` (noting the field) when it was unreadable. */
  read<T>(field: string, value: T | Unreadable, empty: T): T {
    if (!(value instanceof Unreadable)) return value;
    this.unreadable.push({ field, rawType: value.rawType });
    return empty;
  }

  /** `{ unreadable }` when something was unreadable, else nothing (so readable records stay as they were). */
  marks(): { unreadable?: UnreadableField[] } {
    return this.unreadable.length > 0 ? { unreadable: this.unreadable } : {};
  }
}

const logEntryWire = z.object({
  role: lenient(optString),
  message: lenient(optString),
  timestamp: lenient(optLogTimestamp),
});

/** A log entry as read: its values, and the fields (or the whole entry) that were unreadable. */
interface ReadLogEntry {
  role: string | null;
  message: string | null;
  timestamp: number | null;
  marks: { unreadable?: UnreadableField[] };
}

/** A log entry; an entry that is not an object at all is kept as an empty, unreadable entry. */
const logEntrySchema = lenient(logEntryWire).transform((wire): ReadLogEntry => {
  const reader = new FieldReader();
  if (wire instanceof Unreadable) {
    reader.read('entry', wire, null);
    return { role: null, message: null, timestamp: null, marks: reader.marks() };
  }
  return {
    role: reader.read('role', wire.role, null),
    message: reader.read('message', wire.message, null),
    timestamp: reader.read('timestamp', wire.timestamp, null),
    marks: reader.marks(),
  };
});

const interactionWire = z.object({
  sid: z.string().min(1),
  from_number: lenient(optString),
  to_number: lenient(optString),
  direction: lenient(optString),
  type: lenient(optString),
  status: lenient(optString),
  agent_sid: lenient(optString),
  started_at: lenient(optEpochMs),
  ended_at: lenient(optEpochMs),
  duration: lenient(optNumber),
  variables: lenient(variablesSchema),
  recording_url: lenient(optString),
  log: lenient(z.array(logEntrySchema).nullish()),
});

/** An interaction after parsing: the domain type minus the playable source, plus the raw URL. */
export type ParsedInteraction = Omit<Interaction, 'recording'> & {
  /** Address of the recording as the server gave it (not validated here), or null. */
  recordingUrl: string | null;
};

/** The wire names of the interaction's plain text fields, and their domain names. */
const TEXT_FIELDS = [
  ['from_number', 'fromNumber'],
  ['to_number', 'toNumber'],
  ['direction', 'direction'],
  ['type', 'type'],
  ['status', 'status'],
  ['agent_sid', 'agentSid'],
  ['recording_url', 'recordingUrl'],
] as const;

/** The text fields of `wire` under their domain names (unreadable ones null, noted in `reader`). */
function textFields(wire: z.output<typeof interactionWire>, reader: FieldReader) {
  const entries = TEXT_FIELDS.map(([from, to]) => [to, reader.read(from, wire[from], null)] as const);
  return Object.fromEntries(entries) as Record<(typeof TEXT_FIELDS)[number][1], string | null>;
}

/** Spec 4 endpoint 1 response: `{ status, interaction }`, normalized with the rules of timestamps.ts. */
export const interactionEnvelope = z
  .object({ interaction: interactionWire })
  .transform(({ interaction: w }): ParsedInteraction => {
    const reader = new FieldReader();
    const text = textFields(w, reader);
    const startedAtMs = reader.read('started_at', w.started_at, null);
    const endedAtMs = reader.read('ended_at', w.ended_at, null);
    const duration = reader.read('duration', w.duration, null);
    const variables = reader.read('variables', w.variables, {});
    const rawLog = reader.read('log', w.log, null) ?? [];
    const durationSeconds = finiteOrNull(resolveDurationSeconds(startedAtMs, endedAtMs, duration));
    const offsets = resolveLogOffsets(
      rawLog.map((e) => e.timestamp),
      startedAtMs,
      durationSeconds,
    );
    const log: LogEntry[] = rawLog.map((e, index) => ({
      index,
      role: e.role ?? 'unknown',
      message: e.message ?? '',
      offsetSeconds: finiteOrNull(offsets[index] ?? null),
      ...e.marks,
    }));
    return {
      sid: w.sid,
      ...text,
      startedAtMs: finiteOrNull(startedAtMs),
      endedAtMs: finiteOrNull(endedAtMs),
      durationSeconds,
      variables,
      log: sortLog(log),
      ...reader.marks(),
    };
  });

/**
 * A number the domain can hold, or null. Differences of epoch values near the limit of a double
 * overflow to Infinity (e.g. a start of -1e308 and an end of 1e308); such a time is "not known".
 */
function finiteOrNull(value: number | null): number | null {
  return value !== null && Number.isFinite(value) ? value : null;
}

/**
 * Orders entries by offset, stably; an entry without an offset keeps its place after the entry
 * before it (so the player can binary-search the offsets).
 */
function sortLog(log: LogEntry[]): LogEntry[] {
  let carried = 0;
  const keyed = log.map((entry) => {
    if (entry.offsetSeconds !== null) carried = entry.offsetSeconds;
    return { entry, key: carried };
  });
  return keyed.sort((a, b) => a.key - b.key || a.entry.index - b.entry.index).map((k) => k.entry);
}

/** `snake_case` as `camelCase`, as a type: `sip_trunk` -> `sipTrunk`. */
type CamelCase<S extends string> = S extends `${infer Head}_${infer Tail}`
  ? `${Head}${Capitalize<CamelCase<Tail>>}`
  : S;

/** An object with its keys in camelCase. */
type Camelized<T> = { [K in keyof T as K extends string ? CamelCase<K> : K]: T[K] };

/**
 * The wire object with its keys renamed from the spec's snake_case to the domain's camelCase,
 * values unchanged. Only for parsed wire objects (their keys are the schema's, nothing else).
 */
function camelized<T extends object>(wire: T): Camelized<T> {
  const renamed = Object.entries(wire).map(([key, value]) => [
    key.replace(/_([a-z])/g, (_match, letter: string) => letter.toUpperCase()),
    value as unknown,
  ]);
  return Object.fromEntries(renamed) as Camelized<T>;
}

/** When a phone, SIP trunk or webhook was created and last updated (strings as the server sent them). */
const timestampFields = { created_at: optString, updated_at: optString };

const phoneWire = z
  .object({
    sid: optString,
    name: optString,
    number: z.string().min(1),
    sip_trunk: z
      .object({ sid: optString, name: optString, system: optBool })
      .nullish()
      .transform((t) => t ?? null),
    inbound_agent_id: optString,
    outbound_agent_id: optString,
    ...timestampFields,
  })
  .transform((wire): Phone => camelized(wire));

/** Spec 4 endpoint 2. */
export const phonesEnvelope = z.object({ phones: z.array(phoneWire) }).transform((e) => e.phones);
/** Spec 4 endpoints 3 and 4. */
export const phoneEnvelope = z.object({ phone: phoneWire }).transform((e) => e.phone);

const sipTrunkWire = z
  .object({
    sid: z.string().min(1),
    name: optString,
    termination_uri: optString,
    ...timestampFields,
    sip_username: optString,
    sip_password: optString,
  })
  .transform((wire): SipTrunk => camelized(wire));

/** Spec 4 endpoint 6. */
export const sipTrunksEnvelope = z.object({ sip_trunks: z.array(sipTrunkWire) }).transform((e) => e.sip_trunks);
/** Spec 4 endpoints 5 and 7. */
export const sipTrunkEnvelope = z.object({ sip_trunk: sipTrunkWire }).transform((e) => e.sip_trunk);

const webhookWire = z
  .object({
    // Spec 2 "Gaps": the webhook sid format is not shown; any non-empty string (or number) is kept.
    sid: z.union([z.string().min(1), z.number().transform(String)]),
    url: optString,
    call_started_event: optBool,
    call_ended_event: optBool,
    ...timestampFields,
    api_key: z
      .object({ sid: optString, name: optString })
      .nullish()
      .transform((v) => v ?? null),
    phone_number: z
      .object({ sid: optString, number: optString, name: optString })
      .nullish()
      .transform((v) => v ?? null),
  })
  .transform((wire): Webhook => camelized(wire));

/** Spec 4 endpoint 8. */
export const webhooksEnvelope = z.object({ webhooks: z.array(webhookWire) }).transform((e) => e.webhooks);
/** Spec 4 endpoint 9. */
export const webhookEnvelope = z.object({ webhook: webhookWire }).transform((e) => e.webhook);
/** Spec 4 endpoint 10: `status` only. */
export const statusOnlyEnvelope = z.object({}).transform(() => undefined);

/** The envelope every response shares (spec 2 "Response envelope"); `status` is an open string. */
export const envelopeSchema = z.object({ status: z.string() });
