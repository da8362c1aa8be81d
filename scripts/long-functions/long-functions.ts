// Lists the functions longer than a limit (default 80 lines) in the given folders, longest first, and exits 1
// when there is one. Test files (*.test.ts) are skipped: their `describe` callbacks are suites, not functions.
// Usage: node scripts/long-functions/long-functions.ts [--max 80] [folder...]
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';

const args = process.argv.slice(2);
const maxAt = args.indexOf('--max');
const max = maxAt === -1 ? 80 : Number(args.splice(maxAt, 2)[1]);
const folders = args.length > 0 ? args : ['server/src', 'conformance-tests/lib'];

function sourceFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts'))
    .map((entry) => join(entry.parentPath, entry.name));
}

function nameOf(node: ts.FunctionLikeDeclaration): string {
  if (node.name) return node.name.getText();
  const parent = node.parent;
  if ((ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent)) && parent.name) {
    return parent.name.getText();
  }
  return '(anonymous)';
}

const long: { where: string; name: string; lines: number }[] = [];
for (const file of folders.flatMap(sourceFiles)) {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const fn = node as ts.FunctionLikeDeclaration;
      const first = source.getLineAndCharacterOfPosition(fn.getStart(source)).line;
      const last = source.getLineAndCharacterOfPosition(fn.getEnd()).line;
      const lines = last - first + 1;
      if (lines > max) long.push({ where: `${relative('.', file)}:${first + 1}`, name: nameOf(fn), lines });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
}

long.sort((a, b) => b.lines - a.lines);
for (const { where, name, lines } of long) console.log(`${String(lines).padStart(4)}  ${name}  ${where}`);
console.log(`${long.length} function(s) over ${max} lines in ${folders.join(', ')}`);
process.exitCode = long.length > 0 ? 1 : 0;
