//! What the reference tests share: a script of theirs run with the Python of a
//! private environment that scripts/test makes (NumPy, SciPy, scikit-learn,
//! pingouin, pinned), on an input written as JSON, its answer read back as JSON;
//! the closeness every figure is held to; and the seeded numbers the simulated
//! sessions are drawn from.

use std::process::Command;

use serde_json::Value;

/// Runs `tests/<script>` with the Python named by `environment` on `input`.
pub fn run(environment: &str, installs: &str, script: &str, input: &Value) -> Value {
    let python = std::env::var(environment).unwrap_or_else(|_| {
        panic!("{environment}: run the tests with scripts/test, which installs {installs}")
    });
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("input.json");
    std::fs::write(&path, input.to_string()).unwrap();
    let script = format!("{}/tests/{script}", env!("CARGO_MANIFEST_DIR"));
    let output = Command::new(python)
        .arg(script)
        .arg(&path)
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    serde_json::from_slice(&output.stdout).unwrap()
}

/// Ours and the reference's agree to 1e-9.
#[track_caller]
pub fn close(ours: f64, theirs: &Value, what: &str) {
    let theirs = theirs.as_f64().unwrap();
    assert!(
        (ours - theirs).abs() < 1e-9,
        "{what}: ours {ours}, the reference's {theirs}"
    );
}

/// Numbers in [0, 1) from `seed`, the same every run (a linear congruential
/// generator's top 53 bits): the simulated sessions the references are given.
pub fn uniform(seed: u64) -> impl FnMut() -> f64 {
    let mut state = seed;
    move || {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((state >> 11) as f64) / ((1u64 << 53) as f64)
    }
}
