// Equivalent policies for peer engines, so that one allowed call can be measured side by side.
//
// The toolgate policy: `allow: [read_file]` plus N deny rules on `path`: rule k (even) denies the exact path
// `secrets/k.txt` (`equals`), rule k (odd) denies everything under `secrets/k/` (`glob: secrets/k/**`). The
// measured call reads `src/index.ts`, so no deny rule matches and the decision is allow.
//
//   casbin: request (sub, act, path); policy lines `p, agent, read_file, *, allow`,
//     `p, agent, read_file, secrets/k.txt, deny` and `p, agent, read_file, secrets/k/*, deny`; effect "allow
//     unless some deny"; matcher `r.sub == p.sub && r.act == p.act && (p.path == "*" || keyMatch(r.path,
//     p.path))` (keyMatch is equality for a pattern without `*`, and `*` spans `/`, as `**` does).
//   Cedar: `permit(principal, action == Action::"read_file", resource);` plus, for each k,
//     `forbid(…) when { context.path == "secrets/k.txt" };` or `forbid(…) when { context.path like
//     "secrets/k/*" };` (`*` in `like` spans `/`). Cedar's forbid-overrides-permit is toolgate's strictest-wins
//     for allow/deny.
// The three agree on the measured call and on paths below `secrets/k/`; toolgate's `secrets/k/**` also
// matches the directory `secrets/k` itself, which the other two do not — no measured call depends on it.
import { newEnforcer, newModelFromString, StringAdapter } from "casbin";

/** toolgate YAML for the measured tool with `rules` deny rules. */
export function toolgatePolicyYaml(rules) {
  const lines = ["version: 1", "allow: [read_file]"];
  if (rules > 0) lines.push("rules:");
  for (let k = 0; k < rules; k++) {
    lines.push(
      `  - id: deny-secret-${k}`,
      "    tools: [read_file]",
      "    decision: deny",
      k % 2 === 0
        ? `    when: { path: { equals: "secrets/${k}.txt" } }`
        : `    when: { path: { glob: "secrets/${k}/**" } }`,
      `    reason: secret ${k} is never read`,
    );
  }
  return `${lines.join("\n")}\n`;
}

/** A casbin enforcer for the same policy. */
export async function casbinEnforcer(rules) {
  const model = newModelFromString(`
[request_definition]
r = sub, act, path

[policy_definition]
p = sub, act, path, eft

[policy_effect]
e = some(where (p.eft == allow)) && !some(where (p.eft == deny))

[matchers]
m = r.sub == p.sub && r.act == p.act && (p.path == "*" || keyMatch(r.path, p.path))
`);
  const lines = ["p, agent, read_file, *, allow"];
  for (let k = 0; k < rules; k++) {
    lines.push(
      k % 2 === 0
        ? `p, agent, read_file, secrets/${k}.txt, deny`
        : `p, agent, read_file, secrets/${k}/*, deny`,
    );
  }
  const enforcer = await newEnforcer(model, new StringAdapter(lines.join("\n")));
  return (path) => enforcer.enforceSync("agent", "read_file", path);
}

/** A Cedar authorizer (cedar-wasm, policy set parsed once) for the same policy. */
export async function cedarAuthorizer(rules) {
  const cedar = await import("@cedar-policy/cedar-wasm/nodejs");
  const policies = ['permit(principal, action == Action::"read_file", resource);'];
  for (let k = 0; k < rules; k++) {
    policies.push(
      k % 2 === 0
        ? `forbid(principal, action == Action::"read_file", resource) when { context.path == "secrets/${k}.txt" };`
        : `forbid(principal, action == Action::"read_file", resource) when { context.path like "secrets/${k}/*" };`,
    );
  }
  const id = `bench-${rules}`;
  const parsed = cedar.preparsePolicySet(id, { staticPolicies: policies.join("\n") });
  if (parsed.type !== "success")
    throw new Error(`cedar could not parse the policy: ${JSON.stringify(parsed)}`);
  return (path) => {
    const answer = cedar.statefulIsAuthorized({
      principal: { type: "User", id: "agent" },
      action: { type: "Action", id: "read_file" },
      resource: { type: "Workspace", id: "main" },
      context: { path },
      preparsedPolicySetId: id,
      entities: [],
    });
    if (answer.type !== "success") throw new Error(`cedar failed: ${JSON.stringify(answer)}`);
    return answer.response.decision === "allow";
  };
}

// Pattern policies (the realistic rows): `allow: [read_file]` plus one deny rule per pattern on `path`, each
// `{ kind: "glob" | "regex", pattern, like: [...] }`. casbin tests a glob with `globMatch` (minimatch) and a
// regex with `regexMatch` (RegExp); Cedar has no globs or regexes, so each rule is the `like` patterns given
// (`*` spans `/`), as close as `like` comes. All three allow the measured call and deny the paths the rules
// name.

/** N deny rules whose globs and regexes have no literal prefix or suffix: half globs, half regexes. */
export function syntheticPatternRules(n) {
  const rules = [];
  for (let k = 0; k < n; k++) {
    rules.push(
      k % 2 === 0
        ? { kind: "glob", pattern: `**/cache${k}*/**`, like: [`cache${k}*/*`, `*/cache${k}*/*`] }
        : { kind: "regex", pattern: `(^|/)tmp${k}[._-][^/]*$`, like: [`tmp${k}.*`, `*/tmp${k}.*`] },
    );
  }
  return rules;
}

/** toolgate YAML: `allow: [read_file]` and one deny rule per pattern. */
export function patternPolicyYaml(rules) {
  const lines = ["version: 1", "allow: [read_file]", "rules:"];
  rules.forEach((rule, k) => {
    lines.push(
      `  - id: deny-pattern-${k}`,
      "    tools: [read_file]",
      "    decision: deny",
      `    when: { path: { ${rule.kind}: ${JSON.stringify(rule.pattern)} } }`,
      `    reason: pattern ${k} is never read`,
    );
  });
  return `${lines.join("\n")}\n`;
}

/** casbin for a pattern policy: `globMatch` for globs, `regexMatch` for regexes, allow unless some deny. */
export async function casbinPatternEnforcer(rules) {
  const model = newModelFromString(`
[request_definition]
r = sub, act, path

[policy_definition]
p = sub, act, kind, path, eft

[policy_effect]
e = some(where (p.eft == allow)) && !some(where (p.eft == deny))

[matchers]
m = r.sub == p.sub && r.act == p.act && (p.kind == "any" || (p.kind == "glob" && globMatch(r.path, p.path)) || (p.kind == "re" && regexMatch(r.path, p.path)))
`);
  const lines = ["p, agent, read_file, any, *, allow"];
  for (const rule of rules) {
    if (rule.pattern.includes(",")) throw new Error(`casbin lines cannot hold a comma: ${rule.pattern}`);
    lines.push(`p, agent, read_file, ${rule.kind === "glob" ? "glob" : "re"}, ${rule.pattern}, deny`);
  }
  const enforcer = await newEnforcer(model, new StringAdapter(lines.join("\n")));
  return (path) => enforcer.enforceSync("agent", "read_file", path);
}

/** Cedar for a pattern policy: one `permit`, one `forbid … when { like … || … }` per rule. */
export async function cedarPatternAuthorizer(rules, id) {
  const cedar = await import("@cedar-policy/cedar-wasm/nodejs");
  const policies = ['permit(principal, action == Action::"read_file", resource);'];
  for (const rule of rules) {
    const test = rule.like.map((like) => `context.path like ${JSON.stringify(like)}`).join(" || ");
    policies.push(`forbid(principal, action == Action::"read_file", resource) when { ${test} };`);
  }
  const parsed = cedar.preparsePolicySet(id, { staticPolicies: policies.join("\n") });
  if (parsed.type !== "success")
    throw new Error(`cedar could not parse the policy: ${JSON.stringify(parsed)}`);
  return (path) => {
    const answer = cedar.statefulIsAuthorized({
      principal: { type: "User", id: "agent" },
      action: { type: "Action", id: "read_file" },
      resource: { type: "Workspace", id: "main" },
      context: { path },
      preparsedPolicySetId: id,
      entities: [],
    });
    if (answer.type !== "success") throw new Error(`cedar failed: ${JSON.stringify(answer)}`);
    return answer.response.decision === "allow";
  };
}
