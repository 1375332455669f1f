/** What ReplayLogImporter asks its worker thread (replay-log-worker.ts): one log to import. */
export interface ReplayImportRequest {
  readonly id: number;
  /** The log as sent, UTF-8. */
  readonly log: Uint8Array;
}

/** The answer to the request with the same id: the response body, ready to send, or the reason the log was refused. */
export type ReplayImportReply =
  | { readonly id: number; readonly ok: true; readonly json: Uint8Array }
  | { readonly id: number; readonly ok: false; readonly error: string };
