import type { Connection } from "mongoose";
import { systemClock } from "@billing/clock";
import { connectMongo } from "@billing/mongo";
import { registerModels } from "../../services/customer/src/persistence/models";
import { OrganizationRepository } from "../../services/customer/src/persistence/organization-repository";
import { createOrganization } from "../../services/customer/src/use-cases/organizations/create-organization";

/** An organization made for a test, and its API key. */
export interface OrganizationKey {
  organization_id: string;
  api_key: string;
}

/**
 * Makes organizations in a platform's customer database from the test process, through the
 * customer service's own use case (what `npm run org:create` runs). A process per organization,
 * as the CLI is, cost about half a CPU-second each, 125 CPU-seconds over `npm test`. The
 * platform is up, so its indexes (the API key hash's unique index) are already built.
 */
export class OrganizationMaker {
  private opened?: Promise<{ connection: Connection; organizations: OrganizationRepository }>;

  constructor(
    private readonly mongoUrl: string,
    private readonly dbName: string,
  ) {}

  /** A new organization; with `frozenTime`, a sandbox whose time stands still there until its test clock advances. */
  async create(name: string, frozenTime?: string): Promise<OrganizationKey> {
    const { organizations } = await this.open();
    const sandbox = frozenTime === undefined ? undefined : { frozenTime: new Date(frozenTime) };
    const made = await createOrganization({ organizations, clock: systemClock }, { name, sandbox });
    return { organization_id: made.organization.id, api_key: made.apiKey };
  }

  async close(): Promise<void> {
    const opened = this.opened;
    this.opened = undefined;
    if (opened) await (await opened).connection.close();
  }

  private open() {
    this.opened ??= connectMongo({ url: this.mongoUrl, dbName: this.dbName }).then((connection) => ({
      connection,
      organizations: new OrganizationRepository(registerModels(connection)),
    }));
    return this.opened;
  }
}
