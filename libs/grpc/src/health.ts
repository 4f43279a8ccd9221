import { credentials, loadPackageDefinition, type ServiceClientConstructor } from "@grpc/grpc-js";
import { loadSync } from "@grpc/proto-loader";
import { protoPath } from "grpc-health-check";
import { PROTO_LOADER_OPTIONS } from "./proto";

let HealthClient: ServiceClientConstructor | undefined;
type HealthCheck = { Check?: Function; close(): void };

function healthClientCtor(): ServiceClientConstructor {
  if (!HealthClient) {
    const pkg = loadPackageDefinition(loadSync(protoPath, PROTO_LOADER_OPTIONS)) as any;
    HealthClient = pkg.grpc.health.v1.Health as ServiceClientConstructor;
  }
  return HealthClient;
}

/** Asks a server's standard health service whether it is SERVING. */
export function checkHealth(address: string, timeoutMs = 1000): Promise<boolean> {
  const client = new (healthClientCtor())(address, credentials.createInsecure()) as unknown as HealthCheck;
  return new Promise<boolean>((resolve) => {
    client.Check!({ service: "" }, { deadline: new Date(Date.now() + timeoutMs) }, (err: unknown, res: { status?: string }) => {
      client.close();
      resolve(!err && res?.status === "SERVING");
    });
  });
}
