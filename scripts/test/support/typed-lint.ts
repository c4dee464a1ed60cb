import { resolve } from 'node:path';
import { Linter, type Rule } from 'eslint';
import tseslint from 'typescript-eslint';
import ts from 'typescript';

// Never written: the compiler host and the linter are handed its text.
const FILE = resolve('never-written/module.ts');

/**
 * The messages one of our typed lint rules gives on `code`, linted with a program of its own, so the rule
 * reads the types the code declares as it would in the workspace.
 */
export function typedLintMessages(
  code: string,
  name: string,
  rule: Rule.RuleModule,
  options: unknown[] = [],
): string[] {
  const host = ts.createCompilerHost({ strict: true, noEmit: true });
  const readFile = host.readFile.bind(host);
  const fileExists = host.fileExists.bind(host);
  host.readFile = (file) => (file === FILE ? code : readFile(file));
  host.fileExists = (file) => file === FILE || fileExists(file);
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (file, version) =>
    file === FILE ? ts.createSourceFile(file, code, version, true) : getSourceFile(file, version);
  const program = ts.createProgram([FILE], { strict: true, noEmit: true, lib: ['lib.es2022.d.ts'] }, host);
  const messages = new Linter({ configType: 'flat' }).verify(
    code,
    [
      {
        files: ['**/*.ts'],
        languageOptions: { parser: tseslint.parser, parserOptions: { programs: [program] } },
        plugins: { mediagen: { rules: { [name]: rule } } },
        rules: { [`mediagen/${name}`]: ['error', ...options] as Linter.RuleEntry },
      },
    ],
    FILE,
  );
  return messages.map((message) => message.message);
}
