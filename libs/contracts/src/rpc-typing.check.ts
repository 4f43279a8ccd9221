/**
 * Compile-time proof that the seams are typed: each `@ts-expect-error` below must stay an error,
 * so this file stops the build the day a misspelt RPC or field compiles again. Never run.
 */
import type { Handlers, RpcClient } from "@billing/grpc";
import type { CatalogRpc } from "./services";

export function misspeltRpcsDoNotCompile(taxes: RpcClient<CatalogRpc["taxes"]>): void {
  void taxes.call("GetTax", { organization_id: "org", code: "vat" });
  // @ts-expect-error a misspelt RPC name
  void taxes.call("GetTaxe", { organization_id: "org", code: "vat" });
  // @ts-expect-error a misspelt request field
  void taxes.call("GetTax", { organisation_id: "org", code: "vat" });
}

export function handlersMustServeEveryRpc(handlers: Handlers<CatalogRpc["taxes"]>): void {
  void handlers.GetTax;
  // @ts-expect-error a handler that is not an RPC of the service
  void handlers.GetTaxe;
}
