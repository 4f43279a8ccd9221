import { Metadata, type ServiceError, type StatusObject } from "@grpc/grpc-js";
import { AppError } from "./app-error";
import { ERROR_KINDS, isErrorKind, kindOfGrpcStatus } from "./kinds";

const KIND_KEY = "app-error-kind";
const CODE_KEY = "app-error-code";
const DETAILS_KEY = "app-error-details";

/** The gRPC status a server sends for an error; our AppError travels whole in trailing metadata. */
export function toGrpcStatus(err: unknown): Partial<StatusObject> {
  const appError = err instanceof AppError ? err : AppError.internal();
  const metadata = new Metadata();
  metadata.set(KIND_KEY, appError.kind);
  if (appError.code) metadata.set(CODE_KEY, appError.code);
  if (appError.details) metadata.set(DETAILS_KEY, JSON.stringify(appError.details));
  const details = appError.kind === "internal" ? "internal error" : appError.message;
  return { code: ERROR_KINDS[appError.kind].grpc, details, metadata };
}

/** Rebuilds the AppError a server raised, or classifies a transport error by its gRPC status. */
export function fromGrpcError(err: ServiceError): AppError {
  const metadata = err.metadata;
  const kind = metadata?.get(KIND_KEY)[0];
  if (isErrorKind(kind)) {
    const code = metadata.get(CODE_KEY)[0];
    const details = metadata.get(DETAILS_KEY)[0];
    return new AppError(
      kind,
      typeof code === "string" ? code : undefined,
      typeof details === "string" ? JSON.parse(details) : undefined,
      err.details,
    );
  }
  const transport = new AppError(kindOfGrpcStatus(err.code), undefined, undefined, err.details);
  transport.grpcStatus = err.code;
  return transport;
}
