// first: tracing (when configured) must hook http, gRPC and MongoDB before anything loads them
import "@billing/telemetry/register";
import { runService } from "@billing/runtime";
import { paymentService } from "./wiring";

void runService(paymentService);
