/**
 * The record's tables are queried in core only: reads through GenerationReads (core/src/reads/), changes
 * through GenerationLifecycle. Anywhere this rule runs, a Kysely query that starts from or joins one of
 * the tables named in its options, `sql.table` naming one, or a `sql` template reading or writing one is
 * refused. A table named through a variable is found by its type (a string literal type) when the lint
 * has the program's types.
 */
const QUERY_METHODS = new Set([
  'selectFrom',
  'insertInto',
  'replaceInto',
  'updateTable',
  'deleteFrom',
  'mergeInto',
  'innerJoin',
  'leftJoin',
  'rightJoin',
  'fullJoin',
  'crossJoin',
  'innerJoinLateral',
  'leftJoinLateral',
  'crossJoinLateral',
  'using',
]);

/** `generations`, `generations as g`, `public.generations`: the table's own name. */
function tableOf(reference) {
  const [name = ''] = reference.trim().split(/\s+as\s+/i);
  return name.split('.').at(-1).replace(/"/g, '');
}

function literalTexts(node, checker, services) {
  if (node.type === 'Literal' && typeof node.value === 'string') return [node.value];
  if (node.type === 'TemplateLiteral' && node.expressions.length === 0) return [node.quasis[0].value.cooked];
  if (node.type === 'ArrayExpression') {
    return node.elements.flatMap((element) => (element === null ? [] : literalTexts(element, checker, services)));
  }
  if (checker === undefined) return [];
  const type = checker.getTypeAtLocation(services.esTreeNodeToTSNodeMap.get(node));
  return (type.isUnion() ? type.types : [type]).flatMap((part) => (part.isStringLiteral() ? [part.value] : []));
}

export default {
  meta: {
    type: 'problem',
    docs: { description: "Keep queries of the record's tables in core" },
    schema: [
      {
        type: 'object',
        properties: { tables: { type: 'array', items: { type: 'string' }, minItems: 1 } },
        required: ['tables'],
        additionalProperties: false,
      },
    ],
    messages: {
      query:
        "'{{table}}' is a table of the record, queried in core only: read it through GenerationReads (core/src/reads/), change it through the lifecycle.",
    },
  },
  create(context) {
    const tables = new Set(context.options[0].tables);
    const services = context.sourceCode.parserServices;
    const checker = services?.program ? services.program.getTypeChecker() : undefined;
    // `from generations`, `join accounts a`, `update token_ledger`, `into "generations"`, `using accounts`.
    const mention = new RegExp(
      `\\b(?:from|join|update|into|using)\\s+(?:\\w+\\.)?"?(${[...tables].join('|')})\\b`,
      'i',
    );

    const reportTables = (node, texts) => {
      const table = texts.map(tableOf).find((name) => tables.has(name));
      if (table !== undefined) context.report({ node, messageId: 'query', data: { table } });
    };
    return {
      CallExpression(node) {
        const callee = node.callee;
        if (callee.type !== 'MemberExpression' || callee.property.type !== 'Identifier') return;
        const argument = node.arguments[0];
        if (argument === undefined || argument.type === 'SpreadElement') return;
        const isSqlTable =
          callee.property.name === 'table' && callee.object.type === 'Identifier' && callee.object.name === 'sql';
        if (!isSqlTable && !QUERY_METHODS.has(callee.property.name)) return;
        reportTables(node, literalTexts(argument, checker, services));
      },
      TaggedTemplateExpression(node) {
        if (node.tag.type !== 'Identifier' || node.tag.name !== 'sql') return;
        const found = mention.exec(node.quasi.quasis.map((quasi) => quasi.value.cooked).join(' '));
        if (found !== null) context.report({ node, messageId: 'query', data: { table: found[1].toLowerCase() } });
      },
    };
  },
};
