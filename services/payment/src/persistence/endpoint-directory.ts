import type { WebhookEndpoint } from "../domain/webhook-endpoint";
import type { WebhookRepository } from "./webhook-repository";

/**
 * The endpoints of an organization for the fan-out, and an endpoint by id for the sender, read
 * at most every `ttlMs` (a change made through this process is seen at once; one made through
 * another replica within `ttlMs`).
 */
export class EndpointDirectory {
  private readonly byOrganization = new Map<string, { at: number; endpoints: Promise<WebhookEndpoint[]> }>();
  private readonly byId = new Map<string, { at: number; endpoint: Promise<WebhookEndpoint | null> }>();

  constructor(private readonly repository: WebhookRepository, private readonly ttlMs = 1000) {}

  of(organizationId: string): Promise<WebhookEndpoint[]> {
    const cached = this.byOrganization.get(organizationId);
    if (cached && Date.now() - cached.at < this.ttlMs) return cached.endpoints;
    const endpoints = this.repository.endpointsOf(organizationId);
    this.byOrganization.set(organizationId, { at: Date.now(), endpoints });
    endpoints.catch(() => this.byOrganization.delete(organizationId));
    return endpoints;
  }

  endpoint(id: string): Promise<WebhookEndpoint | null> {
    const cached = this.byId.get(id);
    if (cached && Date.now() - cached.at < this.ttlMs) return cached.endpoint;
    const endpoint = this.repository.endpointById(id);
    this.byId.set(id, { at: Date.now(), endpoint });
    endpoint.catch(() => this.byId.delete(id));
    if (this.byId.size > 10_000) this.byId.clear();
    return endpoint;
  }

  /** Forgets an organization's endpoints after a change through this process. */
  changed(organizationId: string, endpointId: string): void {
    this.byOrganization.delete(organizationId);
    this.byId.delete(endpointId);
  }
}
