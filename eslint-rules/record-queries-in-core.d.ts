import type { Rule } from 'eslint';

declare const recordQueriesInCore: Rule.RuleModule;
export default recordQueriesInCore;
