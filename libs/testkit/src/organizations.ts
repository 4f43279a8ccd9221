import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { repoRoot } from "./infrastructure";

/** Creates an organization through the customer service's own CLI (`npm run org:create`). */
export function createOrganization(options: {
  name: string;
  mongoUrl: string;
  dbName: string;
  apiKey?: string;
  frozenTime?: string;
}): {
  organization_id: string;
  api_key: string;
} {
  const args = [
    join(repoRoot(), "services/customer/dist/cli/create-organization.js"),
    "--name",
    options.name,
    "--json",
  ];
  if (options.apiKey) args.push("--api-key", options.apiKey);
  // a sandbox organization, its test clock frozen at that instant
  if (options.frozenTime) args.push("--sandbox", "--frozen-time", options.frozenTime);
  const out = execFileSync(process.execPath, args, {
    env: { ...process.env, MONGO_URL: options.mongoUrl, MONGO_DB: options.dbName },
    encoding: "utf8",
  });
  return JSON.parse(out.trim().split("\n").pop()!);
}
