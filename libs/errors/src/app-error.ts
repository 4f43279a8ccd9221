import { ERROR_KINDS, type ErrorKind } from "./kinds";

/** Field name → error codes, or batch index → such a map (Lago's `error_details`). */
export type ErrorDetails = Record<string, string[] | Record<string, string[]>>;

/**
 * The one error type of the platform. `code` is Lago's machine code
 * (`customer_not_found`, `validation_errors`); `details` is `error_details`.
 */
export class AppError extends Error {
  /**
   * The gRPC status of a peer's call that failed without an AppError of ours (a transport failure:
   * the peer unreachable, the deadline passed, the call cancelled; or a foreign server): set by
   * `fromGrpcError`, absent on an error a service raised itself.
   */
  grpcStatus?: number;

  constructor(
    readonly kind: ErrorKind,
    readonly code?: string,
    readonly details?: ErrorDetails,
    message?: string,
  ) {
    super(message ?? code ?? kind);
    this.name = "AppError";
  }

  get httpStatus(): number {
    return ERROR_KINDS[this.kind].http;
  }

  static notFound(resource: string): AppError {
    return new AppError("not_found", `${resource}_not_found`);
  }

  static validation(details: ErrorDetails): AppError {
    return new AppError("unprocessable", "validation_errors", details);
  }

  static badRequest(message: string): AppError {
    return new AppError("bad_request", undefined, undefined, message);
  }

  static unauthenticated(): AppError {
    return new AppError("unauthenticated");
  }

  static internal(message = "internal error"): AppError {
    return new AppError("internal", undefined, undefined, message);
  }
}

export function isAppError(err: unknown): err is AppError {
  return err instanceof AppError;
}
