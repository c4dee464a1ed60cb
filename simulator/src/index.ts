export { createSimulator } from './simulator';
export type { FaultKind, FaultRule, Simulator, SimulatorOptions, SimulatorStats } from './types';
