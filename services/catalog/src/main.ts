import { runService } from "@billing/runtime";
import { catalogService } from "./wiring";

void runService(catalogService);
