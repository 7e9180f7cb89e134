//! What an administrator may change on a Result (spec, "Result.Status" and the
//! Results feed): its Status along the permitted transitions, and its ExtraTime.

/// The permitted changes of `Status`: from, to, and what the change means.
pub const TRANSITIONS: &[(i16, i16, &str)] = &[
    (1, 6, "pause"),
    (6, 1, "resume"),
    (1, 7, "terminate"),
    (6, 7, "terminate"),
];

/// Whether `Status` may go from `from` to `to`. Sending the status a result has is
/// no change (a client sends back the whole entity it read); anything else outside
/// [`TRANSITIONS`] is refused with the permitted ones named.
pub fn check_transition(from: i16, to: i16) -> Result<(), String> {
    if from == to || TRANSITIONS.iter().any(|(f, t, _)| (*f, *t) == (from, to)) {
        return Ok(());
    }
    let allowed: Vec<String> = TRANSITIONS
        .iter()
        .map(|(f, t, meaning)| format!("{f} to {t} ({meaning})"))
        .collect();
    Err(format!(
        "Result.Status cannot change from {from} to {to}; the permitted changes are {}",
        allowed.join(", ")
    ))
}

/// `ExtraTime` is a number of seconds: 0 or more.
pub fn check_extra_time(seconds: i32) -> Result<(), String> {
    if seconds < 0 {
        return Err(format!(
            "Result.ExtraTime is {seconds}: it is a number of seconds, 0 or more"
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pause_resume_and_terminate_are_permitted_and_nothing_else() {
        for (from, to, _) in TRANSITIONS {
            assert!(check_transition(*from, *to).is_ok());
        }
        for (from, to) in [(7, 1), (7, 6), (6, 3), (3, 6), (1, 3), (0, 1), (1, 2)] {
            let refused = check_transition(from, to).unwrap_err();
            assert!(refused.contains("1 to 6 (pause)"), "{refused}");
            assert!(
                refused.contains(&format!("from {from} to {to}")),
                "{refused}"
            );
        }
        assert!(
            check_transition(3, 3).is_ok(),
            "the same status is no change"
        );
    }

    #[test]
    fn extra_time_is_zero_or_more_seconds() {
        assert!(check_extra_time(0).is_ok());
        assert!(check_extra_time(600).is_ok());
        assert!(check_extra_time(-1).unwrap_err().contains("-1"));
    }
}
