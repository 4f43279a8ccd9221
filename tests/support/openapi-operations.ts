import { readFileSync } from "node:fs";
import { join } from "node:path";
import { repoRoot } from "@billing/testkit";

/**
 * Operations of Lago's OpenAPI document (svc_-renamed, reference data only):
 * which operation answers a request, and which component schema describes its response.
 */
type Ref = { $ref?: string };
type Response = Ref & { content?: Record<string, { schema?: Ref }> };
type Operation = { operationId: string; responses: Record<string, Response> };
type Document = {
  paths: Record<string, Record<string, Operation>>;
  components: { responses: Record<string, Response> };
};

const document: Document = JSON.parse(
  readFileSync(join(repoRoot(), "..", "shared", "reference", "lago-openapi-svc.json"), "utf8"),
);

const templates = Object.keys(document.paths)
  .map((template) => ({ template, pattern: new RegExp(`^${template.replace(/\{[^}]+\}/g, "[^/]+")}$`) }))
  // a literal segment (/billable_metrics/evaluate_expression) wins over a parameter (/billable_metrics/{code})
  .sort((a, b) => (a.template.match(/\{/g)?.length ?? 0) - (b.template.match(/\{/g)?.length ?? 0));

const refName = (ref: string | undefined, kind: string) => {
  const prefix = `#/components/${kind}/`;
  return ref?.startsWith(prefix) ? ref.slice(prefix.length) : undefined;
};

export interface DocumentedResponse {
  operationId: string;
  /** The component schema of the body for that status; undefined when the operation does not document the status. */
  schema?: string;
}

/** The operation for `METHOD /path` (path relative to /api/v1) and its response schema for a status; throws for an undocumented route. */
export function documentedResponse(method: string, path: string, status: number): DocumentedResponse {
  const match = templates.find(
    ({ pattern, template }) => pattern.test(path) && document.paths[template]?.[method.toLowerCase()],
  );
  if (!match) throw new Error(`${method} ${path} is not an operation of Lago's OpenAPI document`);
  const operation = document.paths[match.template]![method.toLowerCase()]!;
  let response = operation.responses[String(status)];
  const shared = refName(response?.$ref, "responses");
  if (shared) response = document.components.responses[shared];
  return {
    operationId: operation.operationId,
    schema: refName(response?.content?.["application/json"]?.schema?.$ref, "schemas"),
  };
}
