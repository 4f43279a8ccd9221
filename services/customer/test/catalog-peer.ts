import { Rpc } from "@billing/contracts";
import { bind, startGrpcServer, type GrpcServerHandle } from "@billing/grpc";
import { silentLogger } from "@billing/logger";
import { freePort } from "@billing/testkit";
import { invoiceCustomSectionHandlers } from "../../catalog/src/grpc/invoice-custom-section-handlers";
import { taxHandlers } from "../../catalog/src/grpc/tax-handlers";
import { startHarness, type Harness } from "../../catalog/test/harness";

/** A real catalog gRPC server (taxes and invoice custom sections) in this process, on its own database. */
export interface CatalogPeer {
  address: string;
  catalog: Harness;
  stop(): Promise<void>;
}

export async function startCatalogPeer(label: string): Promise<CatalogPeer> {
  const catalog = await startHarness(label);
  const server: GrpcServerHandle = await startGrpcServer({
    host: "127.0.0.1",
    port: await freePort(),
    logger: silentLogger,
    bindings: [
      bind(Rpc.catalog.taxes, taxHandlers(catalog.deps)),
      bind(Rpc.catalog.invoiceCustomSections, invoiceCustomSectionHandlers(catalog.deps)),
    ],
  });
  return {
    address: `127.0.0.1:${server.port}`,
    catalog,
    async stop() {
      await server.shutdown();
      await catalog.close();
    },
  };
}
