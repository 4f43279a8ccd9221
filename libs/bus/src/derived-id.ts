// pure (node:crypto only), in @billing/codes so that a service's domain may derive ids without the bus
export { derivedUuid } from "@billing/codes";
