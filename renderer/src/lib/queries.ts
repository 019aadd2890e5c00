/**
 * Query keys, query options and mutation options: every read and write of the renderer goes
 * through svelte-query with these, so loading and error states come from it and there are no
 * hand-rolled caches. All workspace data lives under `['workspace', id, …]` so switching
 * workspace can drop it at once. Components add their own `onSuccess` to the mutation options;
 * nothing else calls `api()`.
 */
import type { QueryClient } from '@tanstack/svelte-query';
import type { ConnectInput, Preferences, QueuedCall, WorkspaceInfo } from '$shared/contract';
import type { Phone, PhoneUpdate, SipTrunk, SipTrunkCreate, Webhook } from '$shared/domain';
import type { TranscriptFormat } from '$shared/transcript-export';
import { api } from './api';
import { decodeRecordingInPage } from './interaction/waveform/decode/recording-decode';
import { RecordingSession } from './interaction/recording-session.svelte';
import { appEvents } from './links/app-events';

/** Query keys. */
export const keys = {
  session: ['session'] as const,
  workspace: (id: string) => ['workspace', id] as const,
  interaction: (workspaceId: string, sid: string) => ['workspace', workspaceId, 'interaction', sid] as const,
  phones: (workspaceId: string) => ['workspace', workspaceId, 'phones'] as const,
  phone: (workspaceId: string, number: string) => ['workspace', workspaceId, 'phone', number] as const,
  sipTrunks: (workspaceId: string) => ['workspace', workspaceId, 'sip-trunks'] as const,
  sipTrunk: (workspaceId: string, sid: string) => ['workspace', workspaceId, 'sip-trunk', sid] as const,
  webhooks: (workspaceId: string) => ['workspace', workspaceId, 'webhooks'] as const,
  webhook: (workspaceId: string, sid: string) => ['workspace', workspaceId, 'webhook', sid] as const,
  recentCalls: (workspaceId: string) => ['workspace', workspaceId, 'recent-calls'] as const,
  queue: (workspaceId: string) => ['workspace', workspaceId, 'queue'] as const,
};

/**
 * Options of a query for one item by id (a SID or a number), disabled while `id` is null.
 * @param queryKey the item's key in {@link keys}
 * @param fetch reads the item; rejects with an ApiError
 */
function itemQuery<T>(queryKey: readonly unknown[], id: string | null, fetch: (id: string) => Promise<T>) {
  return { queryKey, queryFn: () => fetch(id ?? ''), enabled: id !== null };
}

/** The session query (current workspace and demo SIDs). */
export function sessionQuery() {
  return { queryKey: keys.session, queryFn: () => api().getSession(), staleTime: Infinity };
}

/** One interaction (spec 4 endpoint 1); disabled until a SID is chosen. */
export function interactionQuery(workspaceId: string, sid: string | null) {
  return itemQuery(keys.interaction(workspaceId, sid ?? ''), sid, (id) => api().getInteraction(id));
}

/**
 * The recording session of interaction `sid` (recording-session.svelte.ts), opened in main once
 * `after` resolved: "Show call" makes one per call shown, and the view disposes of it when it
 * shows another. The Calls view passes the update that sends the interaction's query, so the
 * view's lookup of the interaction is main's one GET, which the session's peaks then share.
 */
export function openRecordingSession(sid: string, after: Promise<void> = Promise.resolve()): RecordingSession {
  return new RecordingSession(sid, {
    open: async (id) => {
      await after;
      return api().openRecordingSession(id);
    },
    close: (sessionId) => api().closeRecordingSession(sessionId),
    subscribe: (callback) => appEvents().onRecordingSession(callback),
    storePeaks: (id, peaks) => api().storePeaks(id, peaks),
    decodeInPage: decodeRecordingInPage,
  });
}

/** Phone list (spec 4 endpoint 2). */
export function phonesQuery(workspaceId: string) {
  return { queryKey: keys.phones(workspaceId), queryFn: () => api().listPhones() };
}

/** One phone by E.164 number (spec 4 endpoint 3). */
export function phoneQuery(workspaceId: string, number: string | null) {
  return itemQuery(keys.phone(workspaceId, number ?? ''), number, (n) => api().getPhone(n));
}

/** SIP trunk list (spec 4 endpoint 6). */
export function sipTrunksQuery(workspaceId: string) {
  return { queryKey: keys.sipTrunks(workspaceId), queryFn: () => api().listSipTrunks() };
}

/** One SIP trunk (spec 4 endpoint 7). */
export function sipTrunkQuery(workspaceId: string, sid: string | null) {
  return itemQuery(keys.sipTrunk(workspaceId, sid ?? ''), sid, (id) => api().getSipTrunk(id));
}

/** Webhook list (spec 4 endpoint 8). */
export function webhooksQuery(workspaceId: string) {
  return { queryKey: keys.webhooks(workspaceId), queryFn: () => api().listWebhooks() };
}

/** One webhook (spec 4 endpoint 9). */
export function webhookQuery(workspaceId: string, sid: string | null) {
  return itemQuery(keys.webhook(workspaceId, sid ?? ''), sid, (id) => api().getWebhook(id));
}

/** After a phone update: the server's version replaces the cached detail and list entry. */
export function storeUpdatedPhone(client: QueryClient, workspaceId: string, phone: Phone): void {
  client.setQueryData(keys.phone(workspaceId, phone.number), phone);
  client.setQueryData<Phone[]>(keys.phones(workspaceId), (list) =>
    list?.map((p) => (p.number === phone.number ? phone : p)),
  );
  void client.invalidateQueries({ queryKey: keys.phones(workspaceId) });
}

/** After a trunk is created: it appears in the list from the server's response. */
export function storeCreatedSipTrunk(client: QueryClient, workspaceId: string, trunk: SipTrunk): void {
  client.setQueryData(keys.sipTrunk(workspaceId, trunk.sid), trunk);
  client.setQueryData<SipTrunk[]>(keys.sipTrunks(workspaceId), (list) =>
    list ? [...list.filter((t) => t.sid !== trunk.sid), trunk] : [trunk],
  );
  void client.invalidateQueries({ queryKey: keys.sipTrunks(workspaceId) });
}

/**
 * Removes a webhook from the cached list at once (before the server answers) and returns a
 * function that puts the list back as it was, for when the delete fails.
 */
export function removeWebhookOptimistically(client: QueryClient, workspaceId: string, sid: string): () => void {
  const previous = client.getQueryData<Webhook[]>(keys.webhooks(workspaceId));
  client.setQueryData<Webhook[]>(keys.webhooks(workspaceId), (list) => list?.filter((w) => w.sid !== sid));
  return () => client.setQueryData(keys.webhooks(workspaceId), previous);
}

/** Makes workspace `id` the active one (contract `switchWorkspace`); resolves with the new session. */
export function switchWorkspaceMutation() {
  return { mutationFn: (id: string) => api().switchWorkspace(id) };
}

/** Opens (and, the first time, adds) the built-in demo workspace (contract `openDemo`). */
export function openDemoMutation() {
  return { mutationFn: () => api().openDemo() };
}

/** Adds a workspace after main tested its key, and makes it the active one (contract `connect`). */
export function connectMutation() {
  return { mutationFn: (input: ConnectInput) => api().connect(input) };
}

/** Renames workspace `workspaceId` (contract `renameWorkspace`). */
export function renameWorkspaceMutation(workspaceId: string) {
  return { mutationFn: (name: string) => api().renameWorkspace(workspaceId, name) };
}

/** Replaces workspace `workspaceId`'s key after main tested it (contract `changeWorkspaceKey`). */
export function changeWorkspaceKeyMutation(workspaceId: string) {
  return { mutationFn: (apiKey: string) => api().changeWorkspaceKey(workspaceId, apiKey) };
}

/**
 * Replaces workspace `workspaceId`'s key, then opens that workspace unless main already made it
 * the active one (the start-up problem screen). Resolves with the session to show.
 */
export function changeWorkspaceKeyAndOpenMutation(workspaceId: string) {
  return {
    mutationFn: async (apiKey: string) => {
      const info = await api().changeWorkspaceKey(workspaceId, apiKey);
      return info.workspace?.id === workspaceId ? info : api().switchWorkspace(workspaceId);
    },
  };
}

/** Tests workspace `workspaceId`'s connection with a cheap read (contract `testWorkspace`). */
export function testWorkspaceMutation(workspaceId: string) {
  return { mutationFn: () => api().testWorkspace(workspaceId) };
}

/** Forgets a saved workspace and deletes its key (contract `removeWorkspace`); takes the workspace. */
export function removeWorkspaceMutation() {
  return { mutationFn: (workspace: WorkspaceInfo) => api().removeWorkspace(workspace.id) };
}

/** Stores keys with Electron safeStorage from now on (contract `useSafeStorage`). */
export function useSafeStorageMutation() {
  return { mutationFn: (confirmWeak: boolean) => api().useSafeStorage(confirmWeak) };
}

/** Saves the preferences (contract `setPreferences`). */
export function setPreferencesMutation() {
  return { mutationFn: (preferences: Preferences) => api().setPreferences(preferences) };
}

/** Sends the changed fields of phone `number` (spec 4 endpoint 4); resolves with the server's version. */
export function updatePhoneMutation(number: string) {
  return { mutationFn: (update: PhoneUpdate) => api().updatePhone(number, update) };
}

/** Creates an externally managed SIP trunk (spec 4 endpoint 5). */
export function createSipTrunkMutation() {
  return { mutationFn: (input: SipTrunkCreate) => api().createSipTrunk(input) };
}

/** Deletes a webhook (spec 4 endpoint 10); takes the webhook, resolves with whether it was already gone. */
export function deleteWebhookMutation() {
  return { mutationFn: (hook: Webhook) => api().deleteWebhook(hook.sid) };
}

/**
 * The calls last opened in the workspace (contract `listRecentCalls`), most recent first. Main
 * files a call each time it is looked up, so the list is asked for afresh whenever it is shown.
 */
export function recentCallsQuery(workspaceId: string) {
  return {
    queryKey: keys.recentCalls(workspaceId),
    queryFn: () => api().listRecentCalls(),
    staleTime: 0,
    refetchOnMount: 'always' as const,
  };
}

/** The workspace's review queue (contract `getQueue`), in the order added; main keeps it across restarts. */
export function queueQuery(workspaceId: string) {
  return { queryKey: keys.queue(workspaceId), queryFn: () => api().getQueue() };
}

/** A change to the review queue, as the mutation's variables. */
export type QueueChange =
  | { kind: 'add'; sids: string[] }
  | { kind: 'reviewed'; sid: string; reviewed: boolean }
  | { kind: 'remove'; sid: string }
  | { kind: 'clear' };

/**
 * Changes the workspace's review queue (contract `addToQueue`, `setQueueReviewed`,
 * `removeFromQueue`, `clearQueue`); main answers with the queue as it is afterwards, which
 * replaces the cached one.
 */
export function queueMutation(client: QueryClient, workspaceId: string) {
  return {
    mutationFn: (change: QueueChange) => {
      switch (change.kind) {
        case 'add':
          return api().addToQueue(change.sids);
        case 'reviewed':
          return api().setQueueReviewed(change.sid, change.reviewed);
        case 'remove':
          return api().removeFromQueue(change.sid);
        case 'clear':
          return api().clearQueue();
      }
    },
    onSuccess: (queue: QueuedCall[]) => client.setQueryData(keys.queue(workspaceId), queue),
  };
}

/** Forgets the active workspace's recent calls (contract `clearRecentCalls`). */
export function clearRecentCallsMutation() {
  return { mutationFn: () => api().clearRecentCalls() };
}

/**
 * Exports interaction `sid`'s transcript in a format through main's save dialog (contract
 * `exportTranscript`); resolves with the saved file's name, or null when the dialog was cancelled.
 */
export function exportTranscriptMutation(sid: string) {
  return { mutationFn: (format: TranscriptFormat) => api().exportTranscript(sid, format) };
}

/**
 * Saves interaction `sid`'s recording through main's save dialog (contract `downloadRecording`);
 * resolves with the saved file's name, or null when the dialog or the download was cancelled. Its
 * progress arrives on the call's recording session (`RecordingSession.download`).
 */
export function downloadRecordingMutation(sid: string) {
  return { mutationFn: () => api().downloadRecording(sid) };
}

/** Cancels the running download of `sid`'s recording (contract `cancelDownload`). */
export function cancelDownload(sid: string): Promise<void> {
  return api().cancelDownload(sid);
}
