import { AppError, type ErrorDetails } from "./app-error";
import { ERROR_KINDS } from "./kinds";

export interface HttpErrorBody {
  status: number;
  error: string;
  code?: string;
  error_details?: ErrorDetails;
}

/** Lago's error body for an AppError. Unknown errors become a bare 500 with no internal text. */
export function toHttpError(err: unknown): { status: number; body: HttpErrorBody } {
  if (!(err instanceof AppError)) {
    return { status: 500, body: { status: 500, error: ERROR_KINDS.internal.text } };
  }
  const { http, text } = ERROR_KINDS[err.kind];
  switch (err.kind) {
    case "bad_request":
      return {
        status: http,
        body: { status: http, error: err.message === err.kind ? text : `BadRequest: ${err.message}` },
      };
    case "unauthenticated":
    case "internal":
    case "unavailable":
    case "timeout":
      return { status: http, body: { status: http, error: text } };
    case "unprocessable":
    case "already_exists":
    case "failed_precondition":
      return {
        status: http,
        body: { status: http, error: text, code: err.code ?? "validation_errors", error_details: err.details ?? {} },
      };
    default:
      return { status: http, body: { status: http, error: text, code: err.code ?? err.kind } };
  }
}
