/**
 * A request to show one phone or webhook in its own screen, from elsewhere in the workspace (the
 * routing panel of a call). The producer calls {@link requestOpenPhone} or
 * {@link requestOpenWebhook}; the workspace view brings the section to the front
 * ({@link pendingOpenSection}) and the section's view opens the item ({@link takeOpenRequest}),
 * once. A request is for one workspace: another workspace's views ignore it.
 */

/** The sections a request can open. */
export type AccountSection = 'phones' | 'webhooks';

interface OpenAccountRequest {
  workspaceId: string;
  section: AccountSection;
  /** The phone's E.164 number, or the webhook's SID. */
  key: string;
  /** Set once the section's view opened the item. */
  taken: boolean;
}

const state = $state<{ current: OpenAccountRequest | null }>({ current: null });

/** Asks for phone `number` (E.164) of workspace `workspaceId` to be shown in the Phones screen. */
export function requestOpenPhone(workspaceId: string, number: string): void {
  state.current = { workspaceId, section: 'phones', key: number, taken: false };
}

/** Asks for webhook `sid` of workspace `workspaceId` to be shown in the Webhooks screen. */
export function requestOpenWebhook(workspaceId: string, sid: string): void {
  state.current = { workspaceId, section: 'webhooks', key: sid, taken: false };
}

/** The section a request not yet carried out asks for in workspace `workspaceId`, or null (reactive). */
export function pendingOpenSection(workspaceId: string): AccountSection | null {
  const request = state.current;
  return request && !request.taken && request.workspaceId === workspaceId ? request.section : null;
}

/**
 * The item to open in `section` of workspace `workspaceId` (a number or a SID), marking the
 * request carried out; null when there is none (reactive: call it inside an effect).
 */
export function takeOpenRequest(section: AccountSection, workspaceId: string): string | null {
  const request = state.current;
  if (!request || request.taken || request.section !== section || request.workspaceId !== workspaceId) return null;
  request.taken = true;
  return request.key;
}
