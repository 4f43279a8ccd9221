import { startGrpcServer, loadService, type GrpcServerHandle } from "@billing/grpc";
import { silentLogger } from "@billing/logger";
import { freePort } from "@billing/testkit";
import { invoiceCustomSectionHandlers } from "../../catalog/src/grpc/invoice-custom-section-handlers";
import { taxHandlers } from "../../catalog/src/grpc/tax-handlers";
import { startHarness, type Harness } from "../../catalog/test/harness";

const PROTO = "billing/catalog/v1";

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
      { service: loadService(`${PROTO}/taxes.proto`, "billing.catalog.v1.TaxService"), handlers: taxHandlers(catalog.deps) },
      {
        service: loadService(`${PROTO}/invoice_custom_sections.proto`, "billing.catalog.v1.InvoiceCustomSectionService"),
        handlers: invoiceCustomSectionHandlers(catalog.deps),
      },
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
