import { z } from "zod";

/** The wallet service's own settings (the shared ones are parsed beside them by @billing/runtime). None yet. */
export const walletConfigSchema = z.object({});

export type WalletConfig = z.infer<typeof walletConfigSchema>;
