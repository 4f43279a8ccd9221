import { Router } from "express";
import type { CatalogRpc } from "@billing/contracts";
import type { RpcClient } from "@billing/grpc";
import { presentInvoiceCustomSection } from "@billing/views";
import { codeResourceRoutes } from "../../http/code-resource-routes";
import { topLevelKey } from "../../http/fields";
import { toInvoiceCustomSectionInputMessage } from "./to-message";
import { invoiceCustomSectionCreateSchema, invoiceCustomSectionUpdateSchema } from "./validators";

/** /api/v1/invoice_custom_sections: validation and shape only; the catalog service decides. */
export function invoiceCustomSectionsRouter(sections: RpcClient<CatalogRpc["invoiceCustomSections"]>): Router {
  return codeResourceRoutes(Router(), sections, {
    root: "invoice_custom_section",
    plural: "invoice_custom_sections",
    rpc: {
      create: "CreateInvoiceCustomSection",
      list: "ListInvoiceCustomSections",
      get: "GetInvoiceCustomSection",
      update: "UpdateInvoiceCustomSection",
      delete: "DeleteInvoiceCustomSection",
    },
    schemas: {
      create: invoiceCustomSectionCreateSchema,
      update: invoiceCustomSectionUpdateSchema,
      errorKey: topLevelKey,
    },
    toMessage: toInvoiceCustomSectionInputMessage,
    present: presentInvoiceCustomSection,
  });
}
