import type { WebhookEndpoint } from "../domain/webhook-endpoint";
import { PromiseCache } from "./promise-cache";
import type { WebhookRepository } from "./webhook-repository";

/**
 * The endpoints of an organization for the fan-out, and an endpoint by id for the sender, read
 * at most every `ttlMs` (a change made through this process is seen at once; one made through
 * another replica within `ttlMs`).
 */
export class EndpointDirectory {
  private readonly byOrganization: PromiseCache<string, WebhookEndpoint[]>;
  private readonly byId: PromiseCache<string, WebhookEndpoint | null>;

  constructor(
    private readonly repository: WebhookRepository,
    ttlMs = 1000,
  ) {
    this.byOrganization = new PromiseCache({ ttlMs });
    this.byId = new PromiseCache({ ttlMs, maxEntries: 10_000 });
  }

  of(organizationId: string): Promise<WebhookEndpoint[]> {
    return this.byOrganization.get(organizationId, () => this.repository.endpointsOf(organizationId));
  }

  endpoint(id: string): Promise<WebhookEndpoint | null> {
    return this.byId.get(id, () => this.repository.endpointById(id));
  }

  /** Forgets an organization's endpoints after a change through this process. */
  changed(organizationId: string, endpointId: string): void {
    this.byOrganization.delete(organizationId);
    this.byId.delete(endpointId);
  }
}
