// Every key of the app, by where it acts, as the `?` sheet lists them
// (desks/shared/ShortcutSheet.svelte). A desk's keys are handled in its own
// component; a key added there is added here, and the window test that opens the
// sheet checks the keys of each desk are listed.

/** A key (or keys) and what it does. */
export type Shortcut = [keys: string, what: string];

export const SHORTCUTS: [where: string, keys: Shortcut[]][] = [
  [
    "Queue",
    [
      ["N or Enter", "Take the next task"],
      ["Enter on a row", "Take that row's task"],
      ["R", "Refresh the list"],
      ["Q / M / I / S / D / C / L", "The scoring queue / the moderation list / the flags to the lead marker / second marking / delivery / content / people (coordinators and administrators)"],
      ["W", "Lead markers and administrators: each marker's figures"],
      ["U", "Resume the latest unfinished work kept on this computer"],
      ["Ctrl+Z", "Reopen the latest task you scored, to correct it"],
      ["F / X", "Next filter / clear the filters"],
      ["G", "Grade by question: choose the question the queue keeps to"],
      ["B", "Blind scoring on or off"],
      ["Esc", "Leave the focused control"],
    ],
  ],
  ["Moderation", [["↑ ↓ or J K", "Choose a saved score"], ["Enter", "Open it for review (it is not claimed)"], ["Esc", "Close it unchanged"]]],
  ["Flags", [["↑ ↓ or J K", "Choose an open flag"], ["Enter", "Read its script (it is not claimed)"], ["R / T", "Lead markers: release it to the queue / take it over and mark it, with a note (Ctrl+Enter sends)"], ["Esc", "Leave the note, then cancel the answer"], ["[ ]", "Choose a marker his check scripts paused"], ["U", "Lead markers: release (unpause) him, with a note (Ctrl+Enter sends)"], ["N", "Lead markers: make a script you scored a check script, with its reasons (Ctrl+Enter sends)"]]],
  ["Markers", [["↑ ↓ or J K", "Choose the question"], ["[ ]", "Highlight a marker in the table and both plots"], ["R", "Read the figures again"]]],
  ["Second marking", [["↑ ↓ or J K", "Choose a round"], ["Enter", "Take the round, or go on with your marking"], ["N", "Take the first one"], ["R", "Read the list again"], ["Ctrl+Backspace", "Lead markers: free a round another marker took and left (twice: it asks first)"]]],
  [
    "Marking a second time",
    [
      ["0 – 9, ↑ ↓ or J K, C, M", "As in scoring: score and move through the dimensions, their comments, the marking's comments"],
      ["Ctrl+Enter", "Submit: compared with the other marking, which you never see"],
      ["Ctrl+S", "Keep it on the server now (it is kept a moment after every change anyway)"],
      ["Esc", "Go on later: the round stays yours"],
      ["Ctrl+Backspace", "Give the round back (asks first if you scored anything)"],
    ],
  ],
  [
    "Delivery",
    [
      ["↑ ↓", "Choose the assessment"],
      ["J K", "Choose its snapshot"],
      ["S", "Name a new snapshot (Enter takes it)"],
      ["P / A", "Open the snapshot's paper / answer key in a window"],
      ["F2 / Delete", "Rename the snapshot / delete it while nothing uses it (Enter confirms)"],
      ["Ctrl+P", "In that window: print, or save a PDF"],
      ["B", "A new print batch: choose the group, Tab to its name, Enter makes it"],
      ["[ ]", "Highlight a print batch"],
      ["Enter", "Open the highlighted print batch"],
      ["E", "The assessment's results instead of its snapshots (again: back)"],
      ["R", "Reload"],
    ],
  ],
  [
    "Print batch",
    [
      ["T", "Create attempts for everyone without one"],
      ["J K", "Choose a participant"],
      ["Enter", "Score the participant's next open task"],
      ["O / F / U", "Upload answer files: choose files / a folder / type a path"],
      ["P", "Print the answer sheets"],
      ["S", "Read scanned sheets back (type a file or folder, Enter)"],
      ["R", "Read the list again"],
      ["F2 / Delete", "Rename the batch / delete it while nothing uses it (Enter confirms)"],
      ["Esc", "Back to the print batches"],
    ],
  ],
  [
    "Scanned sheets' review",
    [
      ["A, B, C…", "Mark that choice (again: unmark it)"],
      ["Backspace or 0", "No choice"],
      ["Enter", "Confirm and go on; at the end: upload"],
      ["↑ ↓", "The previous or next question in doubt"],
      ["Esc", "Leave the review"],
    ],
  ],
  [
    "Results (administrators)",
    [
      ["J K", "Choose a result"],
      ["H / G / X", "Pause (hold) / resume / terminate it"],
      ["T", "Extra time"],
      ["S", "Open the result's marked script (answers with their marks, scores and comments) to print or save as PDF"],
      ["Delete", "Purge the result (Enter confirms)"],
      ["Shift+Delete", "Purge every result of its participant (then P: the participant too)"],
      ["A", "Apply the area's retention policy now (Enter confirms)"],
      ["Esc", "Cancel; or back to the snapshots"],
    ],
  ],
  ["Content", [["O", "Choose a QTI package to import"], ["U", "Type its path (Enter previews it)"], ["Enter", "Import what the preview shows"], ["Esc", "Leave the preview"], ["[ ] / J K", "Choose an assessment / one of its essays"], ["E", "Edit the essay's rubric (Ctrl+S saves; Esc leaves a field, then closes, asking first if you changed it)"], ["F2 / Delete", "Rename the assessment / delete it while nothing uses it (Enter confirms)"]]],
  ["People", [["O", "Choose a roster to import (a OneRoster zip or a CSV)"], ["U", "Type its path (Enter previews it)"], ["Enter", "Import what the preview shows; otherwise open the highlighted participant"], ["Esc", "Leave the preview / close the participant"], ["/", "Find a participant by name, username or e-mail (the arrows and Enter work in the field)"], ["J K", "The next / previous participant found"], ["A / E", "Add a participant / change the one open (Enter in a field or Ctrl+S saves)"], ["[ ] / P", "Choose a group / print its class list"]]],
  [
    "Scoring",
    [
      ["0 – 9", "Score the selected dimension, then go to the next"],
      ["↑ ↓ or J K", "Select the previous or next dimension"],
      ["C", "Comment on the selected dimension (Esc to leave the comment)"],
      ["M", "Overall comments"],
      ["Ctrl+K", "Comment bank of the comment field (or the selected dimension): 1–9 inserts, A adds, E edits"],
      ["Ctrl+S", "Save: Status 2, awaiting moderation"],
      ["Ctrl+Enter", "Submit: Status 3, the result is updated"],
      ["Ctrl+Backspace", "Release: back to the queue (asks first if you typed anything; not in a text field)"],
      ["Ctrl+F", "Flag the script to the lead marker: 1–4 the reason, N the note, Ctrl+Enter sends"],
      ["P", "The same participant's other answers in this assessment, to read (↑ ↓ choose, Esc back)"],
      ["A", "Answers alike (typed answers that say the same): read them, then Ctrl+Enter submits and applies these marks to them all"],
    ],
  ],
  [
    "Annotating (E in the scoring view and when marking a second time)",
    [
      ["E", "Annotate the answer, or stop"],
      ["T / X / N / H / P", "Tick / cross / note / highlighter / pen (pen on scans only)"],
      ["Arrows", "Move the cursor on a scan (Shift+arrows still move the scan)"],
      ["← → and Shift", "On typed text: move by words, and select"],
      ["Enter", "Place the tool at the cursor or on the words (a pen or highlighter stroke: Enter starts, arrows draw, Enter ends; a note: type it, Enter)"],
      ["[ ] / Delete", "Choose a mark / remove it (the last one if none is chosen)"],
      ["Esc", "Cancel the stroke or note, then stop annotating"],
    ],
  ],
  ["Scanned answers", [["+ −", "Zoom in, out (the top stays in sight)"], ["F", "Fit the width; again: the whole page"], ["O / Shift+O", "Rotate clockwise / anticlockwise"], ["Shift + arrows", "Move by most of a screenful"]]],
  ["Anywhere", [["?", "This sheet"], ["Esc", "Close it"], ["Ctrl+plus / minus / 0", "Text size (remembered)"]]],
];
