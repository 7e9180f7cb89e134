// The Tauri commands the Rust side offers. The UI never sees a password after it
// has handed one to `connectRemote`: the Rust side keeps credentials.
import { invoke } from "@tauri-apps/api/core";

export type ConnectionState = "starting" | "connected" | "unauthorized" | "unreachable" | "failed";

export interface ConnectionStatus {
  state: ConnectionState;
  mode: "embedded" | "remote";
  serverUrl: string | null;
  customerId: number | null;
  areaName: string | null;
  username: string | null;
  openTasks: number | null;
  message: string | null;
  /** When the server was last asked, ISO 8601. */
  checkedAt: string;
}

export interface RemoteServer {
  url: string;
  customerId: number;
  username: string;
  password: string;
}

/** The error every command returns: a kind to branch on and words for people. */
export interface CommandError {
  kind: string;
  message: string;
}

export const connectionStatus = () => invoke<ConnectionStatus>("connection_status");
export const connectRemote = (server: RemoteServer) => invoke<ConnectionStatus>("connect_remote", { server });
export const useEmbedded = () => invoke<ConnectionStatus>("use_embedded");

export function errorMessage(error: unknown): string {
  if (typeof error === "object" && error !== null && "message" in error) {
    return String((error as CommandError).message);
  }
  return String(error);
}
