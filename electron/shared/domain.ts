/**
 * Domain types as the app uses them, after the API client has parsed and normalized a response
 * (spec 2). Every field the spec leaves open (null or absent, unknown enum values) is typed as such:
 * open enums are plain strings, optional fields are `| null`.
 */

/**
 * A field the server sent with a type the app cannot read (e.g. `direction: 42`). The rest of
 * the record is still shown; the field shows "Unreadable" in its place, with the raw type.
 */
export interface UnreadableField {
  /**
   * The field's wire name: `direction`, `started_at`, `variables`… on an interaction; `role`,
   * `message`, `timestamp`, or `entry` (the whole entry is not an object) on a log entry.
   */
  field: string;
  /** JSON type of what was sent: `number`, `string`, `boolean`, `object` or `array`. */
  rawType: string;
}

/** One transcript line of an interaction (spec 2, "Log entry fields"). */
export interface LogEntry {
  /** Position in the log as the server sent it (stable key for lists). */
  index: number;
  /** Open set: `agent` is one value; `user`, `system`, `tool` and others may appear. */
  role: string;
  message: string;
  /**
   * Seconds from the start of the interaction (and of its recording) at which the entry was
   * spoken, or null when the server gave no usable timestamp. See `timestamps.ts` for the rule.
   */
  offsetSeconds: number | null;
  /** Fields of this entry sent with an unreadable type (absent when all were readable). */
  unreadable?: UnreadableField[];
}

/** Where the renderer can play an interaction's recording, or why it cannot. */
export type RecordingSource =
  | {
      available: true;
      /** URL served by main's recording protocol (never the raw upstream URL, never the key). */
      src: string;
    }
  | { available: false; reason: string };

/** An interaction (call) as shown in the review screen (spec 2 "Interaction", spec 4 endpoint 1). */
export interface Interaction {
  sid: string;
  fromNumber: string | null;
  toNumber: string | null;
  /** Open set: `inbound` is one value. */
  direction: string | null;
  /** Open set: `phone_call` is one value. */
  type: string | null;
  /** Open set: `in_progress` is one value. */
  status: string | null;
  agentSid: string | null;
  /** Start, in milliseconds since the Unix epoch (normalized from seconds or ms). */
  startedAtMs: number | null;
  /** End, in milliseconds since the Unix epoch, or null while in progress. */
  endedAtMs: number | null;
  /** Length in seconds: derived from start and end when they disagree with `duration`. */
  durationSeconds: number | null;
  /** Variable names to values, all strings (non-string values are stringified). */
  variables: Record<string, string>;
  /** Transcript, sorted by offset (entries without an offset keep their server order). */
  log: LogEntry[];
  recording: RecordingSource;
  /**
   * Optional fields sent with an unreadable type (absent when all were readable); each such
   * field holds its empty value (null, `{}` or `[]`) and the view shows it as unreadable.
   */
  unreadable?: UnreadableField[];
}

/** The SIP trunk summary embedded in a phone (spec 2, "Fields of sip_trunk inside a phone"). */
export interface PhoneSipTrunk {
  sid: string | null;
  name: string | null;
  system: boolean;
}

/** A phone number of the account (spec 2 "Phone"). */
export interface Phone {
  sid: string | null;
  name: string | null;
  /** E.164, e.g. `+14155550123`. */
  number: string;
  sipTrunk: PhoneSipTrunk | null;
  /** ISO 8601 strings as sent by the server. */
  createdAt: string | null;
  updatedAt: string | null;
  inboundAgentId: string | null;
  outboundAgentId: string | null;
}

/** Fields of a phone that can be changed (spec 4 endpoint 4); absent fields are not sent. */
export interface PhoneUpdate {
  name?: string;
  inboundAgentId?: string;
  outboundAgentId?: string;
}

/** An externally managed SIP trunk (spec 2 "SIP trunk"). */
export interface SipTrunk {
  sid: string;
  name: string | null;
  terminationUri: string | null;
  createdAt: string | null;
  updatedAt: string | null;
  sipUsername: string | null;
  /** Returned by the service (spec 2); shown masked, never logged. */
  sipPassword: string | null;
}

/** Input of spec 4 endpoint 5. Username and password are both given or both omitted. */
export interface SipTrunkCreate {
  name: string;
  terminationUri: string;
  sipUsername?: string;
  sipPassword?: string;
}

/** A webhook registration (spec 2 "Webhook"). */
export interface Webhook {
  sid: string;
  url: string | null;
  callStartedEvent: boolean;
  callEndedEvent: boolean;
  createdAt: string | null;
  updatedAt: string | null;
  apiKey: { sid: string | null; name: string | null } | null;
  phoneNumber: { sid: string | null; number: string | null; name: string | null } | null;
}
