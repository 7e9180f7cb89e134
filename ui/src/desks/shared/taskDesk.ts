// What the queue and the moderation desk are both given by the shell: the
// connection, the lists they share (kept work, history), the filters, and the
// actions on them. Each desk adds its own list.
import type { ConnectionStatus, FilterOptions } from "../../lib/api";
import type { KeptDraft } from "../../lib/scoring";
import type { ScoredTask } from "../../lib/history";
import type { Filters } from "../../lib/taskLists";
import type { Tab } from "./DeskTabs.svelte";

export interface TaskDeskProps {
  status: ConnectionStatus | null;
  now: Date;
  /** Whether the account may use the delivery desk (its tab is shown). */
  delivery: boolean;
  kept: KeptDraft[];
  options: FilterOptions | null;
  filters: Filters;
  blind: boolean;
  taking: boolean;
  lastOutcome: string | null;
  onshowtab: (tab: Tab) => void;
  onresume: (draft: KeptDraft) => void;
  history: ScoredTask[];
  onreopen: (entry: ScoredTask) => void;
  onfilter: () => void;
  /** Clears the filters the scorer set (not grade by question's question). */
  onclear: () => void;
  onpickquestion: () => void;
}
