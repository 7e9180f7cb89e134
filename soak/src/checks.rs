//! A check of the soak's verdict: what it says, whether it passed, and its
//! figures with the first problems found.

pub struct Check {
    pub name: String,
    pub passed: bool,
    pub detail: String,
}

/// A check named `name` that passed when there were no `problems`.
pub fn check(name: &str, problems: &[String], counted: String) -> Check {
    let mut detail = counted;
    if !problems.is_empty() {
        detail.push_str(&format!(
            "; {} problems, first: {}",
            problems.len(),
            problems
                .iter()
                .take(5)
                .cloned()
                .collect::<Vec<_>>()
                .join(" | ")
        ));
    }
    Check {
        name: name.to_owned(),
        passed: problems.is_empty(),
        detail,
    }
}
