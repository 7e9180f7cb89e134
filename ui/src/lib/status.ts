// How the connection and the queue are put into words on the first screen.
import type { ConnectionStatus } from "./api";

export type Tone = "ok" | "waiting" | "problem";

export interface StatusView {
  tone: Tone;
  headline: string;
  detail: string;
}

export function describeConnection(status: ConnectionStatus): StatusView {
  const where = status.mode === "embedded" ? "the built-in server" : status.serverUrl ?? "the server";
  switch (status.state) {
    case "starting":
      return { tone: "waiting", headline: "Starting…", detail: `Preparing the built-in server and its demo data.` };
    case "connected": {
      const area = status.areaName ?? `customer area ${status.customerId}`;
      return { tone: "ok", headline: "Connected", detail: `${sentenceStart(where)} · ${area} · signed in as ${status.username}` };
    }
    case "unauthorized":
      return { tone: "problem", headline: "Sign-in refused", detail: status.message ?? `${sentenceStart(where)} did not accept the account.` };
    case "unreachable":
      return { tone: "problem", headline: "Server unreachable", detail: status.message ?? `Cannot reach ${where}. Retrying.` };
    case "failed":
      return { tone: "problem", headline: "Something went wrong", detail: status.message ?? "The server answered with an error." };
  }
}

/** Capitalises "the ..." at the start of a sentence; leaves URLs as they are. */
function sentenceStart(text: string): string {
  return text.startsWith("the ") ? `T${text.slice(1)}` : text;
}

/** "1,234 open tasks", with a singular form and a placeholder while unknown. */
export function describeOpenTasks(count: number | null): string {
  if (count === null) return "—";
  return count.toLocaleString("en-GB");
}

export function openTasksLabel(count: number | null): string {
  return count === 1 ? "task to score" : "tasks to score";
}

/**
 * The open tasks no scorer can take now, in words: "68 waiting for a rubric · 1
 * being scored". Empty when there are none.
 */
export function describeAside(aside: { waitingForRubric: number; beingScored: number } | null): string {
  if (!aside) return "";
  const parts: string[] = [];
  if (aside.waitingForRubric > 0) parts.push(`${describeOpenTasks(aside.waitingForRubric)} waiting for a rubric`);
  if (aside.beingScored > 0) parts.push(`${describeOpenTasks(aside.beingScored)} being scored`);
  return parts.join(" · ");
}

/** "Last refreshed 09:30:12" in the user's local time. */
export function describeRefresh(checkedAt: string, now: Date = new Date()): string {
  const at = new Date(checkedAt);
  if (Number.isNaN(at.getTime())) return "Not refreshed yet";
  const seconds = Math.max(0, Math.round((now.getTime() - at.getTime()) / 1000));
  const clock = at.toLocaleTimeString("en-GB", { hour: "2-digit", minute: "2-digit", second: "2-digit" });
  return seconds < 2 ? `Refreshed just now (${clock})` : `Last refreshed ${clock}, ${seconds} s ago`;
}

/** Poll quickly while starting or failing, calmly once connected. */
export function pollDelayMs(status: ConnectionStatus | null): number {
  if (status === null || status.state === "starting") return 500;
  return status.state === "connected" ? 10_000 : 3_000;
}

/** Checks the remote-server form; returns the problem in words, or null. */
export function validateRemote(url: string, customerId: string, username: string, password: string): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return "The server URL is not a valid URL (for example https://scoring.example.org).";
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") return "The server URL must start with http:// or https://.";
  if (!/^[1-9][0-9]{0,9}$/.test(customerId.trim())) return "The customer area is a positive number.";
  if (username.trim() === "") return "Enter the account's user name.";
  if (password === "") return "Enter the account's password.";
  return null;
}

/**
 * A warning when signing in to `url` would send the password unencrypted (plain
 * http:// to anything but this computer), or null. The Rust side refuses such a
 * server unless the scorer confirmed this warning.
 */
export function cleartextWarning(url: string): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url.trim());
  } catch {
    return null;
  }
  if (parsed.protocol !== "http:") return null;
  const host = parsed.hostname.replace(/^\[|\]$/g, "").toLowerCase();
  const loopback = host === "localhost" || host === "::1" || /^127\.\d+\.\d+\.\d+$/.test(host);
  if (loopback) return null;
  return `${parsed.hostname} uses plain http: your password would cross the network unencrypted, readable by anyone on the way. Ask for an https:// address if you can.`;
}

/** Where the remembered server's password is, in words. */
export function describePasswordStore(store: ConnectionStatus["passwordStore"]): string {
  switch (store) {
    case "keyring":
      return "This server is remembered; its password is in the system keyring.";
    case "privateFile":
      return "This server is remembered; with no system keyring here, its password is in a file only you can read.";
    default:
      return "This server is not remembered.";
  }
}

/** A scoring task's Status in the spec's words: 0 open, 1 being scored, 2 saved, 3 scored. */
export function taskStatusLabel(status: number): string {
  return ["To score", "Being scored", "Saved", "Scored"][status] ?? `Status ${status}`;
}
