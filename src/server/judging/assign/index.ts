/**
 * The registry of assignment algorithms. Each one is a pure `Assigner`: a snapshot in, proposed
 * rows out; the service shows the proposal, checks it with `checkProposal` and only then writes.
 */
import { minCostFlow } from "./min-cost-flow";

export const assigners = [minCostFlow] as const;

export type AssignerName = (typeof assigners)[number]["name"];

/** The assigner of that name, or undefined. */
export function findAssigner(name: string): (typeof assigners)[number] | undefined {
  return assigners.find((a) => a.name === name);
}

/** Every registered assigner, as the options form lists them. */
export const assignerList = (): { name: string; description: string }[] =>
  assigners.map((a) => ({ name: a.name, description: a.description }));

export { checkProposal, type ProposalProblem } from "./check";
export { minCostFlow, MIN_COST_FLOW_DEFAULTS, type MinCostFlowParams } from "./min-cost-flow";
export * from "./types";
