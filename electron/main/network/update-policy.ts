/**
 * Whether IT allows Voice Review to update itself from its feed. Updates are off when any of
 * these says so (a user cannot turn them back on over a machine-wide policy):
 * 1. the environment variable {@link UPDATE_POLICY_ENV} (`1`, `true`, `yes`, `on`);
 * 2. `policy.json` in the machine-wide configuration folder ({@link policyFilePath}) with
 *    `{ "disableUpdates": true }`;
 * 3. on Windows, the value `DisableUpdates` (REG_DWORD 1, or REG_SZ "1"/"true") under
 *    `HKLM\Software\Policies\Voice Review`, read with `reg.exe query` (64-bit view, a timeout).
 * A source that is absent does not count. A policy file that exists but cannot be read or
 * understood turns updates off (IT wrote it meaning something); a registry that cannot be
 * queried at all is reported as a warning and does not count.
 *
 * Pure apart from the injected file reader and registry query.
 */
import { z } from 'zod';

/** The environment variable that turns updates off. */
export const UPDATE_POLICY_ENV = 'VOICE_REVIEW_DISABLE_UPDATES';

/** The Windows registry key and value read. */
export const POLICY_REGISTRY_KEY = 'HKLM\\Software\\Policies\\Voice Review';
export const POLICY_REGISTRY_VALUE = 'DisableUpdates';

/** Which source decided. */
export type UpdatePolicySource = 'environment' | 'policy-file' | 'registry' | 'none';

/** The policy in force. */
export interface UpdatePolicy {
  updatesAllowed: boolean;
  source: UpdatePolicySource;
  /** A sentence for Settings and Diagnostics: what decided, and where. */
  detail: string;
  /** Sources that could not be read (shown in Diagnostics); absent sources are not listed. */
  warnings: string[];
}

/** A registry value as `reg query` prints it. */
export interface RegistryValue {
  type: string;
  /** The data as printed: `0x1` for a DWORD, the text for REG_SZ. */
  data: string;
}

/** What {@link readUpdatePolicy} reads. */
export interface UpdatePolicyInputs {
  env: Readonly<Record<string, string | undefined>>;
  platform: NodeJS.Platform;
  /** Reads a file as UTF-8; rejects with `code: 'ENOENT'` when it is missing. */
  readFile: (path: string) => Promise<string>;
  /** Windows only: the policy value, or null when absent. Rejects when the registry cannot be queried. */
  readRegistry?: () => Promise<RegistryValue | null>;
}

/**
 * The machine-wide policy file: `/etc/voice-review/policy.json` (Linux and others),
 * `/Library/Application Support/Voice Review/policy.json` (macOS),
 * `%ProgramData%\Voice Review\policy.json` (Windows; `C:\ProgramData` when the variable is unset).
 */
export function policyFilePath(platform: NodeJS.Platform, env: Readonly<Record<string, string | undefined>>): string {
  if (platform === 'win32')
    return `${env.ProgramData ?? env.PROGRAMDATA ?? 'C:\\ProgramData'}\\Voice Review\\policy.json`;
  if (platform === 'darwin') return '/Library/Application Support/Voice Review/policy.json';
  return '/etc/voice-review/policy.json';
}

const TRUE_WORDS = /^(1|true|yes|on)$/i;

/** policy.json: other keys are ignored (later policies may add them). */
const policyFileSchema = z.looseObject({ disableUpdates: z.boolean().optional() });

/** Reads the policy from every source. Never rejects. */
export async function readUpdatePolicy(inputs: UpdatePolicyInputs): Promise<UpdatePolicy> {
  const warnings: string[] = [];
  const envValue = inputs.env[UPDATE_POLICY_ENV]?.trim() ?? '';
  if (TRUE_WORDS.test(envValue)) {
    return off('environment', `Updates are turned off by ${UPDATE_POLICY_ENV}=${envValue}.`, warnings);
  }
  const file = await readPolicyFile(inputs, policyFilePath(inputs.platform, inputs.env));
  if (file) return off('policy-file', file, warnings);
  if (inputs.platform === 'win32' && inputs.readRegistry) {
    try {
      const value = await inputs.readRegistry();
      if (value && registryDisables(value)) {
        return off('registry', `Updates are turned off by ${POLICY_REGISTRY_KEY}\\${POLICY_REGISTRY_VALUE}.`, warnings);
      }
    } catch (err) {
      warnings.push(`The policy in ${POLICY_REGISTRY_KEY} could not be read (${messageOf(err)}).`);
    }
  }
  return { updatesAllowed: true, source: 'none', detail: 'No policy turns updates off.', warnings };
}

function off(source: UpdatePolicySource, detail: string, warnings: string[]): UpdatePolicy {
  return { updatesAllowed: false, source, detail, warnings };
}

/** Why the policy file turns updates off, or null when it is absent or allows them. */
async function readPolicyFile(inputs: UpdatePolicyInputs, path: string): Promise<string | null> {
  let text: string;
  try {
    text = await inputs.readFile(path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    return `Updates are turned off: the policy file ${path} exists but could not be read (${messageOf(err)}).`;
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return `Updates are turned off: the policy file ${path} is not valid JSON. Ask IT to fix it.`;
  }
  const parsed = policyFileSchema.safeParse(json);
  if (!parsed.success) {
    return `Updates are turned off: the policy file ${path} is not understood ("disableUpdates" must be true or false). Ask IT to fix it.`;
  }
  return parsed.data.disableUpdates === true ? `Updates are turned off by the policy file ${path}.` : null;
}

function registryDisables(value: RegistryValue): boolean {
  if (value.type === 'REG_DWORD' || value.type === 'REG_QWORD') return Number(value.data) !== 0;
  if (value.type === 'REG_SZ') return TRUE_WORDS.test(value.data.trim());
  // Another type is a policy IT meant but wrote wrongly: off, as for an unreadable policy file.
  return true;
}

function messageOf(err: unknown): string {
  const code = (err as NodeJS.ErrnoException | null)?.code;
  if (typeof code === 'string') return code;
  return err instanceof Error ? (err.message.split('\n')[0]?.slice(0, 120) ?? 'error') : 'error';
}

/** The `execFile` of node:child_process, promisified (the seam tests replace). */
export type ExecFile = (
  file: string,
  args: readonly string[],
  options: { timeout: number; windowsHide: boolean; encoding: 'utf8' },
) => Promise<{ stdout: string; stderr: string }>;

/**
 * Reads the policy value with `%SystemRoot%\System32\reg.exe query "<key>" /v DisableUpdates
 * /reg:64` (the full path, so no other `reg` on PATH is run; the 64-bit view, whatever this
 * process's bitness). Exit status 1 ("unable to find") is absent.
 * @param timeoutMs longest wait for reg.exe; default 5000
 * @throws the exec error when reg.exe cannot run or times out
 */
export async function queryRegistryPolicy(
  execFile: ExecFile,
  env: Readonly<Record<string, string | undefined>>,
  timeoutMs = 5000,
): Promise<RegistryValue | null> {
  const reg = `${env.SystemRoot ?? env.SYSTEMROOT ?? 'C:\\Windows'}\\System32\\reg.exe`;
  try {
    const { stdout } = await execFile(reg, ['query', POLICY_REGISTRY_KEY, '/v', POLICY_REGISTRY_VALUE, '/reg:64'], {
      timeout: timeoutMs,
      windowsHide: true,
      encoding: 'utf8',
    });
    return parseRegQuery(stdout, POLICY_REGISTRY_VALUE);
  } catch (err) {
    if ((err as { code?: unknown }).code === 1) return null;
    throw err;
  }
}

/** The value `name` in `reg query` output (`    DisableUpdates    REG_DWORD    0x1`), or null. */
export function parseRegQuery(stdout: string, name: string): RegistryValue | null {
  for (const line of stdout.split(/\r?\n/)) {
    const match =
      /^\s+(\S.*?)\s{2,}(REG_[A-Z_]+)\s{2,}(.*)$/.exec(line) ?? /^\s+(\S.*?)\s{2,}(REG_[A-Z_]+)\s*$/.exec(line);
    if (match?.[1]?.toLowerCase() === name.toLowerCase() && match[2]) {
      return { type: match[2], data: (match[3] ?? '').trim() };
    }
  }
  return null;
}
