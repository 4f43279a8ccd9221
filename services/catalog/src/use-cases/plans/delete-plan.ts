export { deletePlan } from "./update-plan";
