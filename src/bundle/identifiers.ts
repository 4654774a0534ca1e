/** TypeScript names derived from tool names (used by the collision check and by codegen). */

/** `read_file` → `ReadFile`; `http-fetch2` → `HttpFetch2`. Tool names are ASCII by the name rule. */
export function pascalCase(name: string): string {
  return name
    .split(/[^A-Za-z0-9]+/)
    .filter((part) => part !== "")
    .map((part) => part[0]?.toUpperCase() + part.slice(1))
    .join("");
}

/** The name of a tool's generated argument interface. */
export function argsTypeName(toolName: string): string {
  return `${pascalCase(toolName)}Args`;
}
