//! Every input in `fuzz/regressions/<target>/` (crashes cargo-fuzz once found, and
//! seeds worth keeping) run through its target on stable: none may panic.

use std::path::Path;

#[test]
fn every_kept_fuzz_input_runs_clean() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz/regressions");
    let mut ran = 0;
    for (name, target) in scoredesk_fuzz_harness::TARGETS {
        let dir = root.join(name);
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries {
            let path = entry.unwrap().path();
            let data = std::fs::read(&path).unwrap();
            let outcome = std::panic::catch_unwind(|| target(&data));
            assert!(outcome.is_ok(), "{name}: {} fails again", path.display());
            ran += 1;
        }
    }
    assert!(ran > 0, "no kept input under {}", root.display());
}
