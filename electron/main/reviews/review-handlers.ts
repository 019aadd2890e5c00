/**
 * The review methods of the IPC contract: their argument schemas (shared/reviews.ts
 * `reviewInputSchemas`, one object per call) and what each does on the {@link ReviewService}
 * and the evidence pack maker. handlers.ts puts them in the one handler table.
 */
import { z } from 'zod';
import { evidencePackRequestSchema } from '$shared/evidence-pack-request';
import { redactionSettingsSchema } from '$shared/redaction';
import { interactionSidSchema, reviewInputSchemas as input, reviewQuerySchema } from '$shared/reviews';
import type { EvidencePackService } from '../exports/evidence-pack-service';
import type { ReviewService } from './review-service';

/** Argument schemas of the review methods, one tuple per method. */
export const reviewArgSchemas = {
  getReviewStoreState: z.tuple([]),
  getReview: z.tuple([input.get]),
  addReviewNote: z.tuple([input.addNote]),
  updateReviewNote: z.tuple([input.updateNote]),
  deleteReviewNote: z.tuple([input.deleteNote]),
  restoreReviewNote: z.tuple([input.restoreNote]),
  setReviewVerdict: z.tuple([input.setVerdict]),
  setReviewScore: z.tuple([input.setScore]),
  setReviewTags: z.tuple([input.setTags]),
  setReviewTicket: z.tuple([input.setTicket]),
  setReviewCallStarted: z.tuple([input.setCallStarted]),
  deleteReview: z.tuple([input.deleteRecord]),
  restoreReview: z.tuple([input.restoreRecord]),
  listReviews: z.tuple([input.list]),
  reviewSummaries: z.tuple([input.summaries]),
  getRubric: z.tuple([input.rubric]),
  saveRubric: z.tuple([input.saveRubric]),
  exportReviews: z.tuple([reviewQuerySchema, z.enum(['csv', 'json'], { message: 'Choose CSV or JSON.' }), z.boolean()]),
  getRedactionSettings: z.tuple([]),
  setRedactionSettings: z.tuple([redactionSettingsSchema.strict()]),
  makeEvidencePack: z.tuple([evidencePackRequestSchema]),
  getEvidencePackProgress: z.tuple([interactionSidSchema]),
} as const;

type ReviewArgs = typeof reviewArgSchemas;
/** What each review method does once its arguments passed their schema. */
export type ReviewImplementations = {
  [K in keyof ReviewArgs]: (...args: z.output<ReviewArgs[K]>) => Promise<unknown>;
};

/** The review methods over `reviews` and `packs`. */
export function reviewImplementations(reviews: ReviewService, packs: EvidencePackService): ReviewImplementations {
  /** A synchronous store call as a promise (its throw becomes the rejection). */
  const sync =
    <A extends unknown[], T>(fn: (...args: A) => T) =>
    (...args: A): Promise<T> =>
      Promise.resolve().then(() => fn(...args));
  return {
    getReviewStoreState: sync(() => reviews.state()),
    getReview: sync((key) => reviews.get(key)),
    addReviewNote: sync(({ place, text, ...key }) => reviews.addNote(key, place, text)),
    updateReviewNote: sync(({ workspaceId, noteId, text, place }) =>
      reviews.updateNote(workspaceId, noteId, {
        ...(text === undefined ? {} : { text }),
        ...(place === undefined ? {} : { place }),
      }),
    ),
    deleteReviewNote: sync(({ workspaceId, noteId }) => reviews.deleteNote(workspaceId, noteId)),
    restoreReviewNote: sync(({ workspaceId, noteId }) => reviews.restoreNote(workspaceId, noteId)),
    setReviewVerdict: sync(({ verdict, ...key }) => reviews.setVerdict(key, verdict)),
    setReviewScore: sync(({ criterionId, score, ...key }) => reviews.setScore(key, criterionId, score)),
    setReviewTags: sync(({ tags, ...key }) => reviews.setTags(key, tags)),
    setReviewTicket: sync(({ ticket, ...key }) => reviews.setTicket(key, ticket)),
    setReviewCallStarted: sync(({ callStartedAtMs, ...key }) => reviews.setCallStarted(key, callStartedAtMs)),
    deleteReview: sync((key) => reviews.deleteRecord(key)),
    restoreReview: sync((key) => reviews.restoreRecord(key)),
    listReviews: sync((query) => reviews.list(query)),
    reviewSummaries: sync(({ workspaceId, sids }) => reviews.summaries(workspaceId, sids)),
    getRubric: sync(({ workspaceId }) => reviews.rubric(workspaceId)),
    saveRubric: sync(({ workspaceId, criteria }) => reviews.saveRubric(workspaceId, criteria)),
    exportReviews: (query, format, redact) => reviews.exportRecords(query, format, redact),
    getRedactionSettings: () => reviews.redactionSettings(),
    setRedactionSettings: (settings) => reviews.setRedactionSettings(settings),
    makeEvidencePack: (request) => {
      reviews.storeFor(request.workspaceId);
      return packs.make(request);
    },
    getEvidencePackProgress: sync((sid) => packs.progress(sid)),
  };
}
