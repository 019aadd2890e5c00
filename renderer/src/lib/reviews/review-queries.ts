/**
 * Every read and write of review records, rubrics, masking rules, exports and evidence packs (the
 * review methods of the contract), as svelte-query keys and options and as plain calls for the
 * panel's as-you-type saves. Kept beside the review components; everything lives under
 * `['workspace', id, …]` so switching workspace drops it with the rest.
 */
import type { QueryClient } from '@tanstack/svelte-query';
import type { EvidencePackInput, ReviewExportFormat, ReviewInput } from '$shared/contract';
import type { RedactionSettings } from '$shared/redaction';
import type { ReviewQueryInput, ReviewRecord, RubricCriterion } from '$shared/reviews';
import { api } from '../api';

/** Query keys of the review data. */
export const reviewKeys = {
  all: (workspaceId: string) => ['workspace', workspaceId, 'reviews'] as const,
  record: (workspaceId: string, sid: string) => ['workspace', workspaceId, 'reviews', 'record', sid] as const,
  list: (workspaceId: string, query: ReviewQueryInput) => ['workspace', workspaceId, 'reviews', 'list', query] as const,
  rubric: (workspaceId: string) => ['workspace', workspaceId, 'reviews', 'rubric'] as const,
  state: ['review-store-state'] as const,
  redaction: ['redaction-settings'] as const,
};

/** The review record of interaction `sid` (null when it has none). */
export function reviewQuery(workspaceId: string, sid: string) {
  return {
    queryKey: reviewKeys.record(workspaceId, sid),
    queryFn: () => api().getReview({ workspaceId, sid }),
    staleTime: Infinity,
  };
}

/** One page of the Reviews screen. */
export function reviewListQuery(query: ReviewQueryInput) {
  return {
    queryKey: reviewKeys.list(query.workspaceId, query),
    queryFn: () => api().listReviews(query),
    staleTime: 0,
    refetchOnMount: 'always' as const,
  };
}

/** Verdict, tags and note count of each of `sids` that has a review (lists of calls), keyed by lower-case SID. */
export function reviewSummariesQuery(workspaceId: string, sids: readonly string[]) {
  return {
    queryKey: [...reviewKeys.all(workspaceId), 'summaries', sids] as const,
    queryFn: () => api().reviewSummaries({ workspaceId, sids: [...sids] }),
    enabled: sids.length > 0,
  };
}

/** The workspace's current rubric. */
export function rubricQuery(workspaceId: string) {
  return { queryKey: reviewKeys.rubric(workspaceId), queryFn: () => api().getRubric({ workspaceId }) };
}

/** How the review database opened (a notice for a moved-aside or read-only file). */
export function reviewStoreStateQuery() {
  return { queryKey: reviewKeys.state, queryFn: () => api().getReviewStoreState(), staleTime: Infinity };
}

/** The masking rules of Settings. */
export function redactionSettingsQuery() {
  return { queryKey: reviewKeys.redaction, queryFn: () => api().getRedactionSettings(), staleTime: Infinity };
}

/** Saves the masking rules. */
export function setRedactionSettingsMutation() {
  return { mutationFn: (settings: RedactionSettings) => api().setRedactionSettings(settings) };
}

/** Saves a rubric's criteria as a new version. */
export function saveRubricMutation(workspaceId: string) {
  return { mutationFn: (criteria: RubricCriterion[]) => api().saveRubric({ workspaceId, criteria }) };
}

/** Exports what the Reviews screen lists through main's save dialog; resolves with the file's name or null. */
export function exportReviewsMutation() {
  return {
    mutationFn: (v: { query: ReviewQueryInput; format: ReviewExportFormat; redact: boolean }) =>
      api().exportReviews(v.query, v.format, v.redact),
  };
}

/** Makes an evidence pack through main's save dialog; resolves with the folder's name or null. */
export function makeEvidencePackMutation() {
  return { mutationFn: (request: EvidencePackInput) => api().makeEvidencePack(request) };
}

/** The stage of the evidence pack of `sid` being made, every 250 ms while `enabled`. */
export function evidencePackProgressQuery(workspaceId: string, sid: string, enabled: boolean) {
  return {
    queryKey: ['workspace', workspaceId, 'evidence-pack-progress', sid] as const,
    queryFn: () => api().getEvidencePackProgress(sid),
    enabled,
    refetchInterval: 250,
    retry: false,
    gcTime: 0,
  };
}

/**
 * The record writes of the review panel, each resolving with the record as saved. They are plain
 * calls, not mutations: the panel saves as the reviewer types and orders its own writes
 * (saved-text.svelte.ts); {@link storeRecord} puts each answer in the cache.
 */
export const reviewWrites = {
  addNote: (input: ReviewInput<'addNote'>) => api().addReviewNote(input),
  updateNote: (input: ReviewInput<'updateNote'>) => api().updateReviewNote(input),
  deleteNote: (input: ReviewInput<'deleteNote'>) => api().deleteReviewNote(input),
  restoreNote: (input: ReviewInput<'restoreNote'>) => api().restoreReviewNote(input),
  setVerdict: (input: ReviewInput<'setVerdict'>) => api().setReviewVerdict(input),
  setScore: (input: ReviewInput<'setScore'>) => api().setReviewScore(input),
  setTags: (input: ReviewInput<'setTags'>) => api().setReviewTags(input),
  setTicket: (input: ReviewInput<'setTicket'>) => api().setReviewTicket(input),
  setCallStarted: (input: ReviewInput<'setCallStarted'>) => api().setReviewCallStarted(input),
  deleteRecord: (input: ReviewInput<'deleteRecord'>) => api().deleteReview(input),
  restoreRecord: (input: ReviewInput<'restoreRecord'>) => api().restoreReview(input),
};

/** Puts a record as main saved it into the cache, and marks the Reviews lists and call summaries stale. */
export function storeRecord(client: QueryClient, record: ReviewRecord): void {
  client.setQueryData(reviewKeys.record(record.workspaceId, record.sid), record);
  void client.invalidateQueries({ queryKey: [...reviewKeys.all(record.workspaceId), 'list'] });
  void client.invalidateQueries({ queryKey: [...reviewKeys.all(record.workspaceId), 'summaries'] });
}
