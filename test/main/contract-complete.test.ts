/**
 * The contract's method list is complete by construction: API_METHODS comes from a table that
 * must have exactly one entry per method of VoiceReviewApi (`satisfies MethodTable<...>`), and the
 * handler table, the preload and main's IPC registration all iterate it. The type-level checks
 * at the top are checked by `tsc -p tsconfig.node.json` (npm run check), not at run time: if a
 * table that misses a declared method, or lists an undeclared one, ever type-checked, tsc would
 * fail on the unused `@ts-expect-error`; if the method list's type drifted from the contract's,
 * `expectTypeOf` would not compile. The test below checks at run time what main registers.
 */
import { describe, expect, expectTypeOf, it } from 'vitest';
import { createMainStack, registerIpc } from '../../electron/main/main-stack';
import { createMemoryStore } from '../../electron/main/keys/keychain';
import {
  API_METHODS,
  channelOf,
  type ApiMethod,
  type MethodTable,
  type VoiceReviewApi,
} from '../../electron/shared/contract';
import { createIpcMainStandIn } from '../fixtures/preload-bridge';

/** The contract with one more method, as a change that forgot the table would declare it. */
type ApiWithNewMethod = VoiceReviewApi & { archiveCall(sid: string): Promise<void> };

const table = Object.fromEntries(API_METHODS.map((method) => [method, null])) as MethodTable<VoiceReviewApi>;

// @ts-expect-error a method declared in the contract but missing from the table does not type-check
const _missing = { ...table } satisfies MethodTable<ApiWithNewMethod>;
// @ts-expect-error a method listed in the table but not declared in the contract does not type-check
const _extra = { ...table, archiveCall: null } satisfies MethodTable<VoiceReviewApi>;
expectTypeOf<(typeof API_METHODS)[number]>().toEqualTypeOf<ApiMethod>();
expectTypeOf<keyof MethodTable<VoiceReviewApi>>().toEqualTypeOf<keyof VoiceReviewApi>();

describe('the contract method list', () => {
  it('is what the handler table serves and what main registers, one channel each', () => {
    const stack = createMainStack({
      userDataDir: '/nonexistent-voice-review-user-data',
      secrets: createMemoryStore(),
      resourcesDir: '/nonexistent-resources',
      recordingOrigin: 'vr-recording://local',
      log: { info: () => undefined, warn: () => undefined, error: () => undefined },
    });
    const ipcMain = createIpcMainStandIn();
    registerIpc(ipcMain, stack);
    expect(Object.keys(stack.handlers).sort()).toEqual([...API_METHODS].sort());
    expect([...ipcMain.handlers.keys()].sort()).toEqual(API_METHODS.map(channelOf).sort());
    expect(new Set(API_METHODS).size).toBe(API_METHODS.length);
  });
});
