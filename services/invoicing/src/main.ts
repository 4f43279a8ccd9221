import { runService } from "@billing/runtime";
import { invoicingService } from "./wiring";

void runService(invoicingService);
