/**
 * A request to show one phone or webhook in its own screen, from elsewhere in the workspace (the
 * routing panel of a call). The producer calls {@link requestOpenPhone} or
 * {@link requestOpenWebhook}; the workspace view brings the section to the front and the
 * section's view opens the item (both read {@link accountRequests}). A request is for one
 * workspace: another workspace's views leave it alone.
 */
import { RequestChannel, type Request } from '../request-channel.svelte';

/** The sections a request can open. */
export type AccountSection = 'phones' | 'webhooks';

/** What a request to open an account item carries. */
export interface OpenAccountItem {
  workspaceId: string;
  section: AccountSection;
  /** The phone's E.164 number, or the webhook's SID. */
  key: string;
}

/** The page's requests to open a phone or a webhook. */
export const accountRequests = new RequestChannel<OpenAccountItem>();

/** Asks for phone `number` (E.164) of workspace `workspaceId` to be shown in the Phones screen. */
export function requestOpenPhone(workspaceId: string, number: string): void {
  accountRequests.send({ workspaceId, section: 'phones', key: number });
}

/** Asks for webhook `sid` of workspace `workspaceId` to be shown in the Webhooks screen. */
export function requestOpenWebhook(workspaceId: string, sid: string): void {
  accountRequests.send({ workspaceId, section: 'webhooks', key: sid });
}

/** True when `request` is for `section` (or any section when null) of workspace `workspaceId`. */
export function isFor(
  request: Request<OpenAccountItem>,
  workspaceId: string,
  section: AccountSection | null = null,
): boolean {
  return request.workspaceId === workspaceId && (section === null || request.section === section);
}
