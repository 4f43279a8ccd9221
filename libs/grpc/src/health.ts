import { credentials, loadPackageDefinition, type GrpcObject, type ServiceClientConstructor } from "@grpc/grpc-js";
import { loadSync } from "@grpc/proto-loader";
import { protoPath } from "grpc-health-check";
import { PROTO_LOADER_OPTIONS } from "./proto";

let HealthClient: ServiceClientConstructor | undefined;
type HealthCheck = {
  Check?: (
    request: { service: string },
    options: { deadline: Date },
    callback: (err: unknown, res: { status?: string }) => void,
  ) => void;
  close(): void;
};

function healthClientCtor(): ServiceClientConstructor {
  if (!HealthClient) {
    const pkg = loadPackageDefinition(loadSync(protoPath, PROTO_LOADER_OPTIONS));
    // grpc.health.v1 are packages of the standard health proto, Health its service
    const v1 = ((pkg.grpc as GrpcObject).health as GrpcObject).v1 as GrpcObject;
    HealthClient = v1.Health as ServiceClientConstructor;
  }
  return HealthClient;
}

/** Asks a server's standard health service whether it is SERVING. */
export function checkHealth(address: string, timeoutMs = 1000): Promise<boolean> {
  const client = new (healthClientCtor())(address, credentials.createInsecure()) as unknown as HealthCheck;
  return new Promise<boolean>((resolve) => {
    client.Check!(
      { service: "" },
      { deadline: new Date(Date.now() + timeoutMs) },
      (err: unknown, res: { status?: string }) => {
        client.close();
        resolve(!err && res?.status === "SERVING");
      },
    );
  });
}
