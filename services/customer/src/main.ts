import { runService } from "@billing/runtime";
import { customerService } from "./wiring";

void runService(customerService);
