import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { configMarkdown, generatedSection, withGeneratedSection } from '@review-desk/server/config';
import { API_CONFIG } from '../apps/api/src/env.ts';
import { BFF_CONFIG } from '../apps/bff/src/env.ts';

// `npm run docs:config`: writes the README's configuration tables from the services' tables
// (apps/api/src/env.ts, apps/bff/src/env.ts), between the <!-- config:… --> markers. Each
// service's env test fails while the README says something else.

const readme = path.join(path.dirname(fileURLToPath(import.meta.url)), '../README.md');
const sections = { api: API_CONFIG, bff: BFF_CONFIG };

let text = readFileSync(readme, 'utf8');
const changed: string[] = [];
for (const [section, table] of Object.entries(sections)) {
  const content = configMarkdown(table);
  if (generatedSection(text, section) === content) continue;
  text = withGeneratedSection(text, section, content);
  changed.push(section);
}
if (changed.length > 0) writeFileSync(readme, text);
process.stdout.write(
  changed.length > 0
    ? `README.md: configuration of ${changed.join(' and ')} rewritten\n`
    : 'README.md is current\n',
);
