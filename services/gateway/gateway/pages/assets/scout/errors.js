// The one error both scout repositories throw: the HTTP status, the service's error word
// (run_not_found, post_status_conflict, …) and its message.

export class RepositoryError extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}
