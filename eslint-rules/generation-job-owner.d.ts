import type { Rule } from 'eslint';

declare const generationJobOwner: Rule.RuleModule;
export default generationJobOwner;
