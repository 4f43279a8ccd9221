import { runService } from "@billing/runtime";
import { usageService } from "./wiring";

void runService(usageService);
