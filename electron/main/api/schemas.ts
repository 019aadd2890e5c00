/**
 * Response schemas for spec 2 and 4, written to tolerate what the spec leaves open:
 * unknown fields are ignored, enums (direction, type, status, role) are open strings, and any
 * optional field may be null or absent (spec 2 "Gaps"). Only what the app cannot work without
 * is required: an interaction's `sid`, a phone's `number`, a SIP trunk's and a webhook's `sid`.
 * A present field of the wrong type fails the parse; the client turns that into an
 * `invalid_response` error.
 */
import { z } from 'zod';
import type { Interaction, LogEntry, Phone, SipTrunk, Webhook } from '../../shared/domain';
import { epochToMs, resolveDurationSeconds, resolveLogOffsets } from './timestamps';

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

const logEntrySchema = z.object({
  role: optString,
  message: optString,
  timestamp: optNumber,
});

const interactionWire = z.object({
  sid: z.string().min(1),
  from_number: optString,
  to_number: optString,
  direction: optString,
  type: optString,
  status: optString,
  agent_sid: optString,
  started_at: optNumber,
  ended_at: optNumber,
  duration: optNumber,
  variables: variablesSchema,
  recording_url: optString,
  log: z.array(logEntrySchema).nullish(),
});

/** An interaction after parsing: the domain type minus the playable source, plus the raw URL. */
export type ParsedInteraction = Omit<Interaction, 'recording'> & {
  /** Address of the recording as the server gave it (not validated here), or null. */
  recordingUrl: string | null;
};

/** Spec 4 endpoint 1 response: `{ status, interaction }`, normalized with the rules of timestamps.ts. */
export const interactionEnvelope = z
  .object({ interaction: interactionWire })
  .transform(({ interaction: w }): ParsedInteraction => {
    const startedAtMs = w.started_at === null ? null : epochToMs(w.started_at);
    const endedAtMs = w.ended_at === null ? null : epochToMs(w.ended_at);
    const durationSeconds = finiteOrNull(resolveDurationSeconds(startedAtMs, endedAtMs, w.duration));
    const rawLog = w.log ?? [];
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
    }));
    return {
      sid: w.sid,
      fromNumber: w.from_number,
      toNumber: w.to_number,
      direction: w.direction,
      type: w.type,
      status: w.status,
      agentSid: w.agent_sid,
      startedAtMs,
      endedAtMs,
      durationSeconds,
      variables: w.variables,
      log: sortLog(log),
      recordingUrl: w.recording_url,
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
