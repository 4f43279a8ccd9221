import type { Clock } from "@billing/clock";
import type { WebhookObjects } from "../../peers/webhook-objects";
import type { DeliveryInserter } from "../../persistence/delivery-inserter";
import type { EndpointDirectory } from "../../persistence/endpoint-directory";
import type { WebhookRepository } from "../../persistence/webhook-repository";
import type { WebhookDispatcher } from "../../schedule/webhook-dispatcher";
import type { SigningKeysSource } from "../../persistence/signing-keys";

/** What the webhook use cases work with. */
export interface WebhookDeps {
  webhooks: WebhookRepository;
  directory: EndpointDirectory;
  /** stores the fan-outs' deliveries, many events per write */
  inserter: DeliveryInserter;
  objects: WebhookObjects;
  dispatcher: WebhookDispatcher;
  keys: SigningKeysSource;
  /** the organization's clock (endpoint timestamps as the API shows them) */
  clock: Clock;
  /** private and loopback webhook URLs allowed (tests, local development) */
  allowPrivate: boolean;
}
