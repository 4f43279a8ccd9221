import { runService } from "@billing/runtime";
import { walletService } from "./wiring";

void runService(walletService);
