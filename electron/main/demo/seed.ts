/**
 * The demo service's data: the seed (`resources/demo/seed.json`) in the spec's wire format
 * (spec 2), loaded into memory, and the two writes that change it (spec 4, endpoints 4 and 5).
 * Where the spec says "not shown", the choice is marked "(spec: not shown)".
 */
import { randomUUID } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { isSid } from '$shared/sid';
import { invalid, requireObject, type FieldError } from './http';

/** Wire-format interaction (spec 2 "Interaction"); `recording_url` in the seed is relative to the base URL. */
export interface WireInteraction {
  sid: string;
  recording_url?: string | null;
  [field: string]: unknown;
}

/** Wire-format phone (spec 2 "Phone"). */
export interface WirePhone {
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
export interface WireSipTrunk {
  sid: string;
  name: string;
  termination_uri: string;
  created_at: string;
  updated_at: string;
  sip_username?: string;
  sip_password?: string;
}

/** Wire-format webhook (spec 2 "Webhook"). */
export interface WireWebhook {
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
export interface DemoSeed {
  interactions: WireInteraction[];
  interaction_labels: Record<string, string>;
  phones: WirePhone[];
  sip_trunks: WireSipTrunk[];
  webhooks: WireWebhook[];
}

/**
 * Reads the seed.
 * @throws Error naming the file when it is missing or has no interactions/phones/sip_trunks/webhooks array
 */
export function loadSeed(resourcesDir: string): DemoSeed {
  const file = path.join(resourcesDir, 'demo', 'seed.json');
  let seed: Omit<DemoSeed, 'interaction_labels'> & { interaction_labels?: Record<string, string> };
  try {
    seed = JSON.parse(fs.readFileSync(file, 'utf8')) as typeof seed;
  } catch (error) {
    throw new Error(
      `Cannot read the demo seed ${file}: ${(error as Error).message}. Run \`npm run audio\` to create it.`,
      { cause: error },
    );
  }
  for (const key of ['interactions', 'phones', 'sip_trunks', 'webhooks'] as const) {
    if (!Array.isArray(seed[key])) throw new Error(`Demo seed ${file} has no "${key}" array.`);
  }
  return { ...seed, interaction_labels: seed.interaction_labels ?? {} };
}

function nowIso(): string {
  return new Date().toISOString();
}

/**
 * Applies a phone update (spec 4, endpoint 4), renaming the phone in the webhooks that show it.
 * Choices (spec: not shown): every field optional, at least one known field, omitted fields unchanged.
 * @throws HttpError 400 listing every invalid field
 */
export function updatePhone(phone: WirePhone, bodyValue: unknown, webhooks: WireWebhook[]): WirePhone {
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

/**
 * Adds a SIP trunk (spec 4, endpoint 5). Choices (spec: not shown): name and termination_uri required; credentials both or neither.
 * @throws HttpError 400 listing every invalid field
 */
export function createSipTrunk(bodyValue: unknown, sipTrunks: WireSipTrunk[]): WireSipTrunk {
  const body = requireObject(bodyValue);
  const errors: FieldError[] = [];
  for (const field of ['name', 'termination_uri'] as const) {
    if (typeof body[field] !== 'string' || body[field].trim() === '') {
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
