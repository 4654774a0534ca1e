/** YAML text for the files `toolgate init` writes, in the form toolgate's own safe parser reads back. */

import type { JsonObject } from "../adapters/json-data.js";
import { isMap, isPair, isScalar, isSeq, yamlLibrary } from "../config/yaml-library.js";

/** A tool as a tool spec file holds it (`input_schema`, as DESIGN section 3 spells it). */
export interface ToolEntry {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: JsonObject;
}

/** The data of a tool spec file. */
export function toolsFileData(tools: readonly ToolEntry[]): JsonObject {
  return {
    tools: tools.map((tool) => ({
      name: tool.name,
      description: tool.description,
      input_schema: tool.inputSchema,
    })),
  };
}

/**
 * Data as YAML. Never anchors or aliases (toolgate's parser refuses them), so a schema object used twice is
 * written out twice; long lines are not folded, so descriptions keep their exact text.
 */
export function yamlText(data: unknown): string {
  return yamlLibrary().stringify(data, { aliasDuplicateObjects: false, lineWidth: 0, version: "1.2" });
}

/**
 * Like `yamlText`, but the values of `keys` are written on one line in flow style when they are short
 * (`call: { tool: read_file, arguments: { path: README.md } }`), as people write policy tests.
 */
export function yamlTextFlowing(data: unknown, keys: readonly string[], maxLength = 100): string {
  const doc = new (yamlLibrary().Document)(data, { aliasDuplicateObjects: false, version: "1.2" });
  yamlLibrary().visit(doc, {
    Pair(_, pair) {
      if (isPair(pair) && isScalar(pair.key) && keys.includes(String(pair.key.value)) && isMap(pair.value)) {
        if (JSON.stringify(pair.value.toJSON()).length <= maxLength) pair.value.flow = true;
      }
    },
  });
  return doc.toString({ lineWidth: 0 });
}

/**
 * Like `yamlText`, with a comment after items of the top-level list `key`: `comment(index)` gives the text of
 * item `index`, or `undefined` for none. Comment texts must be the caller's own words (they are not escaped).
 */
export function yamlTextCommented(
  data: unknown,
  key: string,
  comment: (index: number) => string | undefined,
): string {
  const doc = new (yamlLibrary().Document)(data, { aliasDuplicateObjects: false, version: "1.2" });
  const list = doc.get(key, true);
  if (isSeq(list)) {
    list.items.forEach((item, index) => {
      const text = comment(index);
      if (text !== undefined && isScalar(item)) item.comment = ` ${text}`;
    });
  }
  return doc.toString({ lineWidth: 0 });
}

/**
 * Comment lines (`# …`) for the top of a file, one per entry. Line breaks and other control characters in an
 * entry (a server name, say) become spaces, so that no text can end the comment and start YAML.
 */
export function comments(lines: readonly string[]): string {
  return lines
    .map((line) => [...line].map((c) => (isControl(c) ? " " : c)).join(""))
    .map((line) => (line === "" ? "#\n" : `# ${line}\n`))
    .join("");
}

function isControl(c: string): boolean {
  const code = c.codePointAt(0) ?? 0;
  return code < 0x20 || (code >= 0x7f && code <= 0x9f) || code === 0x2028 || code === 0x2029;
}
