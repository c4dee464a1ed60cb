/**
 * `pnpm typecheck` and `pnpm lint` in one process: the three TypeScript programs are built once, their
 * diagnostics printed as tsc prints them, then handed to ESLint's type-aware rules
 * (typescript-eslint's `parserOptions.programs`), which would otherwise build the same programs again.
 * Building them is most of either command's time. Exits non-zero on any type error or lint error.
 */
import { resolve } from 'node:path';
import { ESLint } from 'eslint';
import ts from 'typescript';

const ROOT = resolve(import.meta.dirname, '..');
/** The programs `pnpm typecheck` checks and eslint.config.js lints with (its parserOptions.project). */
const TSCONFIGS = ['tsconfig.node.json', 'tsconfig.dom.json', 'client/tsconfig.json'];

const formatHost: ts.FormatDiagnosticsHost = {
  getCanonicalFileName: (fileName) => fileName,
  getCurrentDirectory: () => ROOT,
  getNewLine: () => ts.sys.newLine,
};

function buildProgram(tsconfig: string): ts.Program {
  const parsed = ts.getParsedCommandLineOfConfigFile(
    resolve(ROOT, tsconfig),
    { noEmit: true },
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
        throw new Error(ts.formatDiagnostic(diagnostic, formatHost));
      },
    },
  );
  if (parsed === undefined) throw new Error(`Could not read ${tsconfig}`);
  return ts.createProgram({
    rootNames: parsed.fileNames,
    options: parsed.options,
    projectReferences: parsed.projectReferences,
    configFileParsingDiagnostics: ts.getConfigFileParsingDiagnostics(parsed),
  });
}

let failed = false;
const programs: ts.Program[] = [];
for (const tsconfig of TSCONFIGS) {
  const program = buildProgram(tsconfig);
  const diagnostics = ts.getPreEmitDiagnostics(program);
  if (diagnostics.length > 0) {
    failed = true;
    process.stdout.write(ts.formatDiagnosticsWithColorAndContext(diagnostics, formatHost));
  }
  console.log(`typecheck ${tsconfig}: ${diagnostics.length === 0 ? 'no errors' : `${diagnostics.length} errors`}`);
  programs.push(program);
}

const eslint = new ESLint({
  cwd: ROOT,
  overrideConfig: { files: ['**/*.ts', '**/*.tsx'], languageOptions: { parserOptions: { programs } } },
});
const results = await eslint.lintFiles(['.']);
const report = await (await eslint.loadFormatter('stylish')).format(results);
if (report.length > 0) process.stdout.write(report);
const lintErrors = results.reduce((sum, result) => sum + result.errorCount, 0);
console.log(`lint: ${results.length} files, ${lintErrors === 0 ? 'no errors' : `${lintErrors} errors`}`);
if (lintErrors > 0) failed = true;

process.exitCode = failed ? 1 : 0;
