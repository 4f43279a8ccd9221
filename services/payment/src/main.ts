import { runService } from "@billing/runtime";
import { paymentService } from "./wiring";

void runService(paymentService);
