/**
 * Only the job owner (core/src/queue/job-owner.ts) adds, moves or takes out a generation's job, or deletes
 * a result's file: everywhere else those follow a decision of the record through it, by one set of rules.
 * Reads (getJob, getState, counts) stay free. Types, not names, decide: `set.add` or `map.delete` are no
 * business of this rule, a BullMQ Queue's or Job's `add` or `remove` and an ArtifactStore's `remove` are.
 */
const CHANGES_BY_TYPE = {
  Queue: new Set(['add', 'addBulk', 'remove', 'drain', 'obliterate', 'clean', 'removeDeprecatedPriorityKey']),
  Job: new Set(['changePriority', 'remove', 'promote', 'retry']),
  ArtifactStore: new Set(['remove']),
};

/** The type's own name, or that of an interface or class it comes from (a Queue<T>, a Pick<ArtifactStore>). */
function namesOf(type) {
  const names = new Set();
  const visit = (candidate) => {
    const symbol = candidate.aliasSymbol ?? candidate.getSymbol();
    if (symbol !== undefined) names.add(symbol.getName());
    for (const argument of candidate.aliasTypeArguments ?? []) visit(argument);
    for (const base of candidate.getBaseTypes?.() ?? []) visit(base);
    for (const part of candidate.types ?? []) visit(part);
  };
  visit(type);
  return names;
}

export default {
  meta: {
    type: 'problem',
    docs: { description: "Keep changes to generations' jobs and result files in the job owner" },
    schema: [],
    messages: {
      owned:
        "{{type}}.{{method}} changes a generation's job or files: call the job owner (core/src/queue/job-owner.ts) instead.",
    },
  },
  create(context) {
    const services = context.sourceCode.parserServices;
    if (services?.program === undefined || services.program === null) return {};
    const checker = services.program.getTypeChecker();
    return {
      'CallExpression > MemberExpression.callee'(node) {
        if (node.property.type !== 'Identifier') return;
        const method = node.property.name;
        const owners = Object.entries(CHANGES_BY_TYPE).filter(([, methods]) => methods.has(method));
        if (owners.length === 0) return;
        const names = namesOf(checker.getTypeAtLocation(services.esTreeNodeToTSNodeMap.get(node.object)));
        const owned = owners.find(([type]) => names.has(type));
        if (owned !== undefined) context.report({ node, messageId: 'owned', data: { type: owned[0], method } });
      },
    };
  },
};
