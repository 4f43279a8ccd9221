import type { Clock } from "@billing/clock";
import type { WebhookObjects } from "../../peers/webhook-objects";
import type { EndpointDirectory } from "../../persistence/endpoint-directory";
import type { WebhookRepository } from "../../persistence/webhook-repository";
import type { WebhookDispatcher } from "../../schedule/webhook-dispatcher";
import type { SigningKeysSource } from "./signing-keys";

/** What the webhook use cases work with. */
export interface WebhookDeps {
  webhooks: WebhookRepository;
  directory: EndpointDirectory;
  objects: WebhookObjects;
  dispatcher: WebhookDispatcher;
  keys: SigningKeysSource;
  /** the organization's clock (endpoint timestamps as the API shows them) */
  clock: Clock;
  /** private and loopback webhook URLs allowed (tests, local development) */
  allowPrivate: boolean;
}
