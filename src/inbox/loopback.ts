/**
 * The Host check that the approvals inbox and the MCP gateway share when they listen on this machine only: a
 * web page must not reach them under a name it controls (DNS rebinding), so a request must name a loopback
 * address — `localhost`, any `127.x.y.z`, or `[::1]`, in any letter case — with the port actually bound.
 */

/** Whether a host name or address is this machine only (`localhost`, `127.0.0.0/8`, `::1`). */
export function isLoopback(host: string): boolean {
  const name = host.toLowerCase();
  return (
    name === "localhost" ||
    name === "::1" ||
    name === "[::1]" ||
    /^127\.(25[0-5]|2[0-4]\d|1?\d?\d)\.(25[0-5]|2[0-4]\d|1?\d?\d)\.(25[0-5]|2[0-4]\d|1?\d?\d)$/.test(name)
  );
}

/**
 * Whether a request's `Host` header names a loopback address and `port`. Refuses a missing header, another
 * port, any name that is not loopback, and anything with a user part, path or trailing dot.
 */
export function isLoopbackHostHeader(header: string | undefined, port: number): boolean {
  if (header === undefined) return false;
  const match = /^(\[[0-9a-fA-F:]+\]|[A-Za-z0-9.-]+):(\d{1,5})$/.exec(header);
  if (match === null) return false;
  const [, name, given] = match as unknown as [string, string, string];
  return Number(given) === port && String(Number(given)) === given && isLoopback(name);
}
