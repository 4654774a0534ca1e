/**
 * Store URLs, read in one place: `memory`, `otel`, `sqlite:PATH[?synchronous=full|normal]`,
 * `jsonl:PATH[?keyFile=FILE|?keyEnv=NAME]` and `postgres://…`/`postgresql://…`. Opening a store, making a
 * URL's paths absolute and reading a log's path for `audit verify` all go through `parseStoreUrl`.
 */
import { isAbsolute, resolve } from "node:path";
import { ToolgateError } from "../runtime/errors.js";

/** What a store URL names, with its options. */
export type StoreUrl =
  | { readonly kind: "memory" }
  | { readonly kind: "otel" }
  | { readonly kind: "sqlite"; readonly path: string; readonly synchronous?: "full" | "normal" }
  | {
      readonly kind: "jsonl";
      readonly path: string;
      readonly key: { readonly keyFile?: string; readonly keyEnv?: string };
    }
  | { readonly kind: "postgres"; readonly url: string };

/** Which store the URL is for: each accepts its own forms. */
export type StoreRole = "approval store" | "audit sink";

const FORMS: Record<StoreRole, string> = {
  "approval store":
    "memory, sqlite:PATH (such as sqlite:./.toolgate/state.db) or postgres://user@host:port/db",
  "audit sink": "memory, otel, jsonl:PATH, sqlite:PATH or postgres://user@host:port/db",
};

/** The kinds each role accepts. */
const KINDS: Record<StoreRole, readonly StoreUrl["kind"][]> = {
  "approval store": ["memory", "sqlite", "postgres"],
  "audit sink": ["memory", "otel", "jsonl", "sqlite", "postgres"],
};

// Never echo a password back in a message.
const redact = (url: string): string => url.replace(/^([a-z][a-z0-9+.-]*:\/\/[^:/@]*):[^@/]*@/i, "$1:***@");

function invalid(role: StoreRole, url: string, why: string): ToolgateError {
  return new ToolgateError(
    "invalid-store-url",
    `${why} "${redact(url)}" for the ${role}; use ${FORMS[role]}`,
  );
}

function pathAfter(prefix: string, url: string, role: StoreRole): string {
  const file = url.slice(prefix.length);
  if (file.trim() === "") throw invalid(role, url, "missing path in");
  return file;
}

/**
 * `sqlite:PATH` or `sqlite:PATH?synchronous=normal|full`. `full` (the default) makes every take durable before
 * it returns, even across a power cut; `normal` is several times faster and durable across process crashes,
 * but a power cut can undo the last commits — and so let an approval run twice.
 */
function parseSqlite(url: string, role: StoreRole): StoreUrl {
  const rest = pathAfter("sqlite:", url, role);
  const query = /\?synchronous=(full|normal)$/.exec(rest);
  if (query === null) {
    if (/\?[a-z_]+=/.test(rest)) throw invalid(role, url, "unknown option in");
    return { kind: "sqlite", path: rest };
  }
  return { kind: "sqlite", path: rest.slice(0, query.index), synchronous: query[1] as "full" | "normal" };
}

/**
 * `jsonl:PATH`, `jsonl:PATH?keyFile=FILE` or `jsonl:PATH?keyEnv=NAME`: a keyed log takes its HMAC key from
 * the file or the environment variable.
 */
function parseJsonl(url: string, role: StoreRole): StoreUrl {
  const rest = pathAfter("jsonl:", url, role);
  const query = /\?(keyFile|keyEnv)=([^?]*)$/.exec(rest);
  if (query === null) {
    if (/\?[A-Za-z_]+=/.test(rest)) throw invalid(role, url, "unknown option (keyFile or keyEnv) in");
    return { kind: "jsonl", path: rest, key: {} };
  }
  const value = query[2] as string;
  if (value === "") throw invalid(role, url, `empty ${query[1]} in`);
  if (query[1] === "keyEnv" && !/^[A-Za-z_][A-Za-z0-9_]*$/.test(value))
    throw invalid(role, url, "keyEnv is not an environment variable name in");
  const path = rest.slice(0, query.index);
  if (path.trim() === "") throw invalid(role, url, "missing path in");
  return { kind: "jsonl", path, key: query[1] === "keyFile" ? { keyFile: value } : { keyEnv: value } };
}

/**
 * Reads a store URL for a role.
 * @throws ToolgateError `invalid-store-url` for a form the role does not accept, a missing path, or an
 *   unknown or malformed option; the message lists the accepted forms and never shows a password.
 */
export function parseStoreUrl(url: string, role: StoreRole): StoreUrl {
  let parsed: StoreUrl | undefined;
  if (url === "memory") parsed = { kind: "memory" };
  else if (url === "otel") parsed = { kind: "otel" };
  else if (url.startsWith("sqlite:")) parsed = parseSqlite(url, role);
  else if (url.startsWith("jsonl:")) parsed = parseJsonl(url, role);
  else if (/^postgres(ql)?:\/\//i.test(url)) parsed = { kind: "postgres", url };
  if (parsed === undefined || !KINDS[role].includes(parsed.kind)) {
    throw invalid(role, url, role === "approval store" ? "unknown store URL" : "unknown audit sink URL");
  }
  return parsed;
}

/** The URL text of a parsed store URL (the inverse of `parseStoreUrl`). */
export function formatStoreUrl(parsed: StoreUrl): string {
  switch (parsed.kind) {
    case "memory":
    case "otel":
      return parsed.kind;
    case "postgres":
      return parsed.url;
    case "sqlite":
      return `sqlite:${parsed.path}${parsed.synchronous === undefined ? "" : `?synchronous=${parsed.synchronous}`}`;
    case "jsonl": {
      const { keyFile, keyEnv } = parsed.key;
      const option =
        keyFile !== undefined ? `?keyFile=${keyFile}` : keyEnv !== undefined ? `?keyEnv=${keyEnv}` : "";
      return `jsonl:${parsed.path}${option}`;
    }
  }
}

/**
 * Makes the relative paths of a `sqlite:` or `jsonl:` URL (the file, and a `jsonl:` log's `keyFile`) absolute
 * against `base`, keeping its options; other URLs, and URLs `parseStoreUrl` refuses (opening them reports
 * why), come back unchanged.
 */
export function resolveStoreUrl(url: string, base: string): string {
  let parsed: StoreUrl;
  try {
    parsed = parseStoreUrl(url, "audit sink");
  } catch {
    return url;
  }
  const absolute = (p: string): string => (isAbsolute(p) ? p : resolve(base, p));
  if (parsed.kind === "sqlite") {
    if (parsed.path === ":memory:") return url;
    return formatStoreUrl({ ...parsed, path: absolute(parsed.path) });
  }
  if (parsed.kind === "jsonl") {
    const { keyFile } = parsed.key;
    return formatStoreUrl({
      ...parsed,
      path: absolute(parsed.path),
      key: keyFile === undefined ? parsed.key : { keyFile: absolute(keyFile) },
    });
  }
  return url;
}
